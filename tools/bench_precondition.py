#!/usr/bin/env python3
"""Preconditioning benchmark: `ssdtlm --precondition` (every logical page, then once the
capacity at random) on the 1 TB config with a tiny read workload after it. Prints the
preconditioning wall time (report.json), the CPU time and peak memory of the whole process
(the workload after it is a few milliseconds of them), and the load average. Part of
`make bench`."""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile

CONFIG = "configs/nvme_tlc_1tb.json"
WORKLOAD = "rw=randread,bs=16k,qd=1,count=1000,seed=1"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("ssdtlm", help="path to the ssdtlm binary")
    ap.add_argument("--config", default=CONFIG, help=f"drive config (default {CONFIG})")
    ap.add_argument("--mode", default="bulk", choices=("bulk", "simulate"),
                    help="--precondition-mode (default bulk)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([args.ssdtlm, "--config", args.config, "--workload", WORKLOAD,
                        "--precondition", "--precondition-mode", args.mode, "--quiet",
                        "--no-series", "--out", out], check=True)
        with open(os.path.join(out, "report.json")) as f:
            wall = json.load(f)["precondition"]["wall_s"]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    load = os.getloadavg()[0]
    name = "the 1 TB config" if args.config == CONFIG else args.config
    print(f"bench: preconditioning {name}: {wall:.1f} s wall, {cpu:.1f} CPU s, "
          f"{peak_mb:.0f} MB peak (load average {load:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
