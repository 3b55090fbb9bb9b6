"""The command lines: ssdtlm-sweep (sweep_main), ssdtlm-plot (plot_main; `ssdtlm-plot
timeline RUN_DIR` is timeline.main) and ssdtlm-soak (soak_main), parsing their options and
calling sweep, table, plot, report_html, timeline and soak, which never import this module.

Also runnable without the console scripts: python3 -m ssdtlm_tools.cli {sweep,plot,soak} ARGS...
"""
import argparse
import difflib
import os
import re
import sys

from . import plot, report_html, soak, sweep, table, timeline
from . import spec as specmod


def sweep_main(argv=None):
    ap = argparse.ArgumentParser(
        prog="ssdtlm-sweep",
        description="Run a design-space sweep of ssdtlm (docs/sweeps.md): every point once, "
                    "keyed by content, on Dask; then the tidy table, plots and HTML report.")
    ap.add_argument("spec", help="sweep spec, YAML or JSON")
    ap.add_argument("--out", help="output directory (default: out/sweeps/<spec name>)")
    ap.add_argument("--binary", default=sweep.default_binary(),
                    help="the ssdtlm binary (default: $SSDTLM_BINARY or build/ssdtlm)")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: a "
                    "LocalCluster on this machine)")
    ap.add_argument("--workers", type=int, help="LocalCluster workers (default: one per core)")
    ap.add_argument("--no-report", action="store_true", help="run the points only")
    a = ap.parse_args(argv)
    try:
        spec = specmod.load(a.spec)
        out = a.out or os.path.join("out", "sweeps", spec["name"])
        _, failed = sweep.run_sweep(a.spec, out, a.binary, a.scheduler, a.workers,
                                    not a.no_report)
    except specmod.SpecError as e:
        print(f"ssdtlm-sweep: error: {a.spec}: {e}", file=sys.stderr)
        return 2
    except sweep.Interrupted as e:
        print(f"ssdtlm-sweep: {e}", file=sys.stderr)
        return 130
    for s in failed:
        print(f"ssdtlm-sweep: failed: {s['label']} / {s['workload']} (exit {s['returncode']}), "
              f"log: {s['log']}", file=sys.stderr)
    if not a.no_report:
        print(f"ssdtlm-sweep: report: {os.path.join(out, 'report.html')}", file=sys.stderr)
    return 1 if failed else 0


def plot_main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["timeline"]:  # a run's timeline.csv, not a sweep
        return timeline.main(argv[1:])
    ap = argparse.ArgumentParser(prog="ssdtlm-plot",
                                 description="Draw a sweep's figures (SWEEP_DIR/plots/*.png) "
                                             "from its results table and energy series. "
                                             "ssdtlm-plot timeline RUN_DIR draws a run's "
                                             "timeline.csv instead (see its --help).")
    ap.add_argument("sweep_dir", help="output directory of ssdtlm-sweep")
    ap.add_argument("--html", action="store_true", help="also rewrite SWEEP_DIR/report.html")
    ap.add_argument("--figures", metavar="ID[,ID...]",
                    help=f"only these figures ({', '.join(plot.FIGURES)}); default all")
    ap.add_argument("--format", choices=plot.FORMATS, default="png",
                    help="file format of the figures (default png; the HTML page embeds PNG)")
    a = ap.parse_args(argv)
    figures = None
    if a.figures is not None:
        figures = [f for f in a.figures.split(",") if f]
        for f in figures:
            if f not in plot.FIGURES:
                close = difflib.get_close_matches(f, plot.FIGURES, n=1)
                hint = f'; did you mean "{close[0]}"?' if close else ""
                print(f"ssdtlm-plot: error: --figures: {f}: no such figure "
                      f"({', '.join(plot.FIGURES)}){hint}", file=sys.stderr)
                return 2
    if a.html and (figures is not None or a.format != "png"):
        print("ssdtlm-plot: error: --html draws every figure as PNG: leave out --figures and "
              "--format", file=sys.stderr)
        return 2
    if not os.path.exists(os.path.join(a.sweep_dir, "sweep.json")):
        print(f"ssdtlm-plot: error: {a.sweep_dir}: no sweep.json (run ssdtlm-sweep first)",
              file=sys.stderr)
        return 2
    df = table.build(a.sweep_dir)
    if a.html:
        report_html.write(a.sweep_dir, df)
    else:
        for path in plot.make_figures(df, a.sweep_dir, plot.sweep_plot_options(a.sweep_dir),
                                      figures, a.format).values():
            print(path)
    return 0


def soak_main(argv=None):
    ap = argparse.ArgumentParser(
        prog="ssdtlm-soak",
        description="The combination soak (docs/developing.md#combination-soak): every pair of "
                    "values of every two config options (from ssdtlm config-keys; the simulator "
                    "says which combinations are valid) on a small drive, a closed-loop and an "
                    "open-loop workload each, the scoreboard on; a failure is shrunk to a command "
                    "to paste. Exit 1 if a run failed.")
    ap.add_argument("--binary", default=sweep.default_binary(),
                    help="the ssdtlm binary (default: $SSDTLM_BINARY or build/ssdtlm)")
    ap.add_argument("--config", default=soak.DEFAULT_CONFIG,
                    help="the base drive (default: configs/small_gc.json)")
    ap.add_argument("--oracle-binary", metavar="BINARY",
                    help="the ssdtlm binary that answers which combinations are valid (its "
                         "--check-overrides and build checks; default: --binary): a build without "
                         "the sanitizers answers as the sanitized one does, several times faster")
    ap.add_argument("--out", default=os.path.join("out", "soak"),
                    help="output directory (default: out/soak): soak.json, the runs, the "
                         "validation answers kept for a rerun with the same binary")
    ap.add_argument("--seed", type=int, default=soak.SEED, help="the generator's and the "
                    f"workloads' seed (default {soak.SEED})")
    ap.add_argument("--combinations", type=int, metavar="N",
                    help="only the first N combinations of the covering set (those covering most "
                         "pairs)")
    ap.add_argument("--only", metavar="REGEX",
                    help="only the options whose key matches (e.g. '^(ftl|flash)\\.')")
    ap.add_argument("--workers", type=int, help="LocalCluster workers (default: one per core)")
    ap.add_argument("--serial", action="store_true",
                    help="run here, one after another, not on Dask (a small subset)")
    ap.add_argument("--no-shrink", action="store_true", help="report failures as found")
    ap.add_argument("--fresh", action="store_true",
                    help="forget the runs and validation answers an earlier soak kept in OUT "
                         "(its points/, oracle.json and soak.json): run everything again")
    a = ap.parse_args(argv)
    for flag, path in (("--binary", a.binary), ("--oracle-binary", a.oracle_binary)):
        if path is not None and not os.access(path, os.X_OK):
            print(f"ssdtlm-soak: error: {flag}: {path} is not an executable (build it first)",
                  file=sys.stderr)
            return 2
    if a.combinations is not None and a.combinations < 1:
        print("ssdtlm-soak: error: --combinations: expected at least 1", file=sys.stderr)
        return 2
    if a.only is not None:
        try:
            re.compile(a.only)
        except re.error as e:
            print(f"ssdtlm-soak: error: --only: {e}", file=sys.stderr)
            return 2
    if a.fresh:
        soak.forget(a.out)
    s = soak.Soak(a.binary, a.config, a.out, a.seed, a.only, oracle_binary=a.oracle_binary)
    try:
        summary = s.run(a.combinations, a.workers, a.serial, not a.no_shrink)
    except KeyboardInterrupt:
        print(f"ssdtlm-soak: interrupted: the runs done are kept in {a.out}; the same command "
              f"runs the rest", file=sys.stderr)
        return 130
    for line in soak.describe(summary):
        print(f"ssdtlm-soak: {line}", file=sys.stderr)
    return 1 if summary["failures"] else 0


COMMANDS = {"sweep": sweep_main, "plot": plot_main, "soak": soak_main}


def main(argv=None):
    """python3 -m ssdtlm_tools.cli {sweep,plot} ARGS...: the console scripts' commands."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python3 -m ssdtlm_tools.cli {{{','.join(COMMANDS)}}} ...",
              file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
