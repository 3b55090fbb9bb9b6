#!/usr/bin/env python3
"""Reader speed benchmark: generates a trace of every format and times `ssdtlm trace-stats`
on it (CPU time of the child), printing nanoseconds per line. Part of `make bench`."""
import argparse
import os
import resource
import subprocess
import sys
import tempfile

LINES = 500_000


def lines(fmt, n):
    """The i-th record of each format, addresses scattered, 2/3 reads."""
    for i in range(n):
        rw = i % 3 != 0
        lba = i * 7919 % 1_000_000
        if fmt == "spc":
            yield f"{i % 24},{lba},4096,{'r' if rw else 'w'},{i // 1000}.{i % 1000 * 1000:06d}\n"
        elif fmt == "csv":
            yield f"{i * 1000},{'read' if rw else 'write'},{lba * 512},4096\n"
        elif fmt == "disksim":
            yield f"{i * 1000} 0 {lba * 8} 8 {1 if rw else 0}\n"
        elif fmt == "msr":
            op = "Read" if rw else "Write"
            yield f"{128166386783630075 + i * 100},hm,0,{op},{lba * 512},4096,1234\n"
        elif fmt == "fiu":
            yield (f"{89966522969723 + i * 1000} 4253 nfsd {lba * 8} 8 {'R' if rw else 'W'} 6 0 "
                   "88b93b628d84082186026d9da044f173\n")
        elif fmt == "blkparse":
            yield (f"  8,0    1 {i:8d} {i // 1000:5d}.{i % 1000 * 1000000:09d}  4253  Q  "
                   f"{'R' if rw else 'WS'} {lba * 8} + 8 [nfsd]\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("ssdtlm", help="path to the ssdtlm binary")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("spc", "csv", "disksim", "msr", "fiu", "blkparse"):
            path = os.path.join(tmp, f"trace.{fmt}")
            with open(path, "w") as f:
                if fmt == "csv":
                    f.write("time_ns,op,offset,length\n")
                f.writelines(lines(fmt, LINES))
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([args.ssdtlm, "trace-stats", "--format", fmt, "--json", path],
                           check=True, stdout=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            print(f"bench: {fmt:9s} reader + trace-stats: {cpu / LINES * 1e9:.0f} ns per line "
                  f"({LINES} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
