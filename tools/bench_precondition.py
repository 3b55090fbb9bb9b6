#!/usr/bin/env python3
"""Preconditioning benchmark: `ssdtlm --precondition` (every logical page, then once the
capacity at random) on the 1 TB config with a tiny read workload after it, the aged drive
saved (--save-state), then the same run from the saved state (--load-state). Prints, with
the load average: preconditioning's wall and CPU time (report.json) and the process's peak
memory; saving's CPU time (the process's, less preconditioning's: the workload and building
the model are a fraction of a second of it) and the file's size; loading's CPU time
(report.json) and its process's CPU time and peak memory, for the first load after saving and
for a second one. Part of `make bench`."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CONFIG = "configs/nvme_tlc_1tb.json"
WORKLOAD = "rw=randread,bs=16k,qd=1,count=1000,seed=1"


def run(cmd):
    """Runs cmd; returns its CPU seconds (user + system) and peak memory in MB."""
    proc = subprocess.Popen(cmd)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise subprocess.CalledProcessError(os.waitstatus_to_exitcode(status), cmd)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # kilobytes on Linux


def precondition_figures(out):
    with open(os.path.join(out, "report.json")) as f:
        pre = json.load(f)["precondition"]
    return pre["wall_s"], pre["cpu_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("ssdtlm", help="path to the ssdtlm binary")
    ap.add_argument("--config", default=CONFIG, help=f"drive config (default {CONFIG})")
    ap.add_argument("--mode", default="bulk", choices=("bulk", "simulate"),
                    help="--precondition-mode (default bulk)")
    args = ap.parse_args()
    name = "the 1 TB config" if args.config == CONFIG else args.config
    common = [args.ssdtlm, "--config", args.config, "--workload", WORKLOAD, "--quiet",
              "--no-series"]
    with tempfile.TemporaryDirectory() as tmp:
        state = os.path.join(tmp, "aged.state")
        saved, loaded = os.path.join(tmp, "saved"), os.path.join(tmp, "loaded")
        cpu, peak = run(common + ["--precondition", "--precondition-mode", args.mode,
                                  "--save-state", state, "--out", saved])
        wall, pre_cpu = precondition_figures(saved)
        print(f"bench: preconditioning {name}: {wall:.1f} s wall, {pre_cpu:.1f} CPU s, "
              f"{peak:.0f} MB peak (load average {os.getloadavg()[0]:.2f})")
        print(f"bench: saving it: {cpu - pre_cpu:.1f} CPU s, "
              f"{os.path.getsize(state) / 1e6:.0f} MB file "
              f"(load average {os.getloadavg()[0]:.2f})")
        # Twice: the first load after saving asks for as much fresh memory as the run that
        # saved just gave back, which on a virtual machine that hands freed memory to its host
        # costs seconds of the kernel's page zeroing; the second shows the load itself.
        for which in ("first", "again"):
            cpu, peak = run(common + ["--load-state", state, "--out", loaded])
            _, load_cpu = precondition_figures(loaded)
            print(f"bench: loading it ({which}): {load_cpu:.2f} CPU s ({cpu:.1f} CPU s and "
                  f"{peak:.0f} MB peak for the process) (load average "
                  f"{os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
