#!/usr/bin/env python3
"""Waveform cost benchmark: simulates 250,000 random 4 KiB writes at QD 32 on
configs/nvme_tlc_1tb.json without waveforms, with --vcd and with --fst, and prints what each
waveform costs in CPU time (of the whole process and its children: --fst runs vcd2fst) and
in file size. Part of `make bench`."""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

COUNT = 250_000
WORKLOAD = f"rw=randwrite,bs=4k,qd=32,count={COUNT},seed=1"
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs",
                      "nvme_tlc_1tb.json")


def cpu_seconds(cmd):
    """CPU seconds (user + system) of `cmd` and everything it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("ssdtlm", help="path to the ssdtlm binary")
    ap.add_argument("--runs", type=int, default=5, help="rounds of runs, the median is printed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        base = [args.ssdtlm, "--config", CONFIG, "--workload", WORKLOAD, "--quiet",
                "--out", out]
        kinds = {"none": [], "vcd": ["--vcd"], "fst": ["--fst"]}
        times = {k: [] for k in kinds}
        size = {}
        # Interleaved, so a change in the machine's load touches every kind alike.
        for _ in range(args.runs):
            for kind, extra in kinds.items():
                times[kind].append(cpu_seconds(base + extra))
                if kind != "none":
                    size[kind] = os.path.getsize(os.path.join(out, f"current.{kind}"))
        cpu = {k: statistics.median(v) for k, v in times.items()}
        for kind in ("vcd", "fst"):
            # Each round's own ratio: a change in the machine's load between rounds moves both
            # of its runs, and falls out of their ratio.
            ratio = statistics.median(w / n for w, n in zip(times[kind], times["none"]))
            print(f"bench: --{kind} costs {(ratio - 1) * 100:+.0f} % CPU (median of {args.runs} "
                  f"paired runs; medians {cpu[kind]:.2f} CPU s vs {cpu['none']:.2f} CPU s), "
                  f"{size[kind] / COUNT:.0f} MB per million requests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
