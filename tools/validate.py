#!/usr/bin/env python3
"""The validation page: runs the shipped NVMe TLC 1 TB drive (Samsung 970 EVO Plus 1 TB class)
and the X25-M class drive (Intel X25-M G1 80 GB) through `ssdtlm` on the workloads their
published figures were measured with, and writes docs/validation.md: every published figure
beside the simulated one, the ratio, the tolerance, the source, and why where they disagree.

    python3 tools/validate.py                      # all runs, writes docs/validation.md
    python3 tools/validate.py --reduced --out P    # without the longest runs (the test's form)

This script and its parts in tools/ssdtlm_tools/validation/ (a module per drive holds its runs,
figures, sources and explanations) are the page's only source: edit them there and
regenerate. It exits 1 when a simulated figure is outside its tolerance and the page has no
explanation for it, or when a figure with an explanation has come back within its tolerance
(the explanation no longer holds); the page is written either way, with the status shown."""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

from ssdtlm_tools.validation.catalogue import DRIVES, FIGURES, RUN_BY_ID, RUN_NOTES, RUNS, SOURCES
from ssdtlm_tools.validation.common import Figure
from ssdtlm_tools.validation.page import (
    EXPLAINED,
    NOT_RUN,
    STALE,
    UNEXPLAINED,
    WITHIN,
    evaluate,
    failures,
    judge,
    page_values,
    render,
)
from ssdtlm_tools.validation.running import ROOT, run_all

PAGE = ROOT / "docs" / "validation.md"
# What tools/test_validate.py and tools/readme_figures.py use from here.
__all__ = ["DRIVES", "EXPLAINED", "FIGURES", "Figure", "NOT_RUN", "PAGE", "RUNS", "RUN_BY_ID",
           "RUN_NOTES", "SOURCES", "STALE", "UNEXPLAINED", "WITHIN", "evaluate", "failures",
           "judge", "main", "need_binary", "page_values", "parser"]


def version(binary):
    return subprocess.run([binary, "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()


def parser(doc):
    """The command line of a script that runs the simulator: its help from `doc`, and
    --binary (also tools/readme_figures.py's)."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.environ.get("SSDTLM_BINARY",
                                                       str(ROOT / "build" / "ssdtlm")),
                    help="the simulator (default $SSDTLM_BINARY, else build/ssdtlm)")
    return ap


def need_binary(ap, binary):
    if not os.access(binary, os.X_OK):
        ap.error(f"--binary: {binary}: no simulator there (build it: cmake --build build "
                 "--target ssdtlm, or set SSDTLM_BINARY)")


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument("--out", help=f"the page to write (default {PAGE.relative_to(ROOT)}; "
                                  "required with --reduced)")
    ap.add_argument("--reduced", action="store_true",
                    help="leave out the longest run (the aged X25-M)")
    ap.add_argument("--jobs", type=int, default=2, help="runs at once (default 2)")
    ap.add_argument("--keep", help="keep the runs' outputs in this directory")
    args = ap.parse_args(argv)
    if args.reduced and not args.out:
        ap.error("--reduced needs --out: the reduced page must not replace "
                 f"{PAGE.relative_to(ROOT)}")
    if args.jobs < 1:
        ap.error(f"--jobs: expected at least 1, got {args.jobs}")
    need_binary(ap, args.binary)
    runs = [r for r in RUNS if not (args.reduced and r.full_only)]
    cfg = {c: json.loads((ROOT / c).read_text()) for c in {r.config for r in RUNS}}
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(args.keep) if args.keep else pathlib.Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        try:
            res = run_all(args.binary, runs, work, args.jobs)
        except RuntimeError as e:
            sys.exit(f"validate: {e}")
    verdicts = evaluate(FIGURES, res)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    meta = {"version": version(args.binary), "runs": len(runs),
            "cpu_s": sum(r["cpu_s"] for r in res.values()),
            "form": "reduced" if args.reduced else "full", "load": load}
    out = pathlib.Path(args.out) if args.out else PAGE
    out.write_text(render(FIGURES, res, verdicts, meta, cfg))
    print(f"validate: wrote {out}: {meta['runs']} runs, {meta['cpu_s']:.1f} CPU s, load "
          f"average {load}", file=sys.stderr)
    bad = failures(FIGURES, verdicts)
    for line in bad:
        print(f"validate: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
