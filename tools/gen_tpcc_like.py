#!/usr/bin/env python3
"""Writes a TPC-C-like block trace in MSR Cambridge CSV (`--format msr`): an OLTP database's
I/O as a storage trace sees it, made up, not recorded. The shipped traces/tpcc_like.msr.csv is
this script's output with its defaults; `make bench` replays it 40 times (--repeat 40), as
MQSim's own TPC-C trace is looped.

The mix (the same seed always gives the same bytes):
- the database file holds 8 KiB pages on a partition that starts at sector 63, the DOS
  layout of the servers such traces were recorded on: no data request is 4 KiB aligned, so an
  8 KiB request covers three flash pages of 4 KiB and a write is a read-modify-write at both
  ends;
- 2/3 of the requests read data pages, a quarter write them; the sizes are 8 KiB (most), 4 KiB
  (half a database page) and 16 to 64 KiB (index range scans, page flushes);
- which page: skewed (a few hot warehouses), the rank of a request's page drawn as
  `pages x u^4` (u uniform: a tenth of the pages take more than half the requests) and ranks
  scattered over the file by a fixed permutation;
- the rest are the transaction log's appends, sequential, 512 bytes to 8 KiB, behind the
  database file;
- arrivals are a steady Poisson stream (--iops)."""
import argparse
import sys

import numpy as np

SECTOR = 512
DB_PAGE = 8192
PARTITION_START = 63 * SECTOR
# FILETIME (100 ns ticks since 1601) of 2008-01-01, the era of the MSR Cambridge traces.
EPOCH_TICKS = 128_435_616_000_000_000
HOST = "tpcc"


def records(seed, count, iops, db_bytes):
    """The trace's rows as numpy arrays: time in 100 ns ticks from the first, is_write,
    offset and size in bytes."""
    rng = np.random.default_rng(seed)
    pages = db_bytes // DB_PAGE
    kind = rng.choice(3, size=count, p=[2 / 3, 0.25, 1 - 2 / 3 - 0.25])  # read, write, log
    size = rng.choice([4096, 8192, 16384, 32768, 65536], size=count,
                      p=[0.12, 0.76, 0.08, 0.025, 0.015])
    rank = (pages * rng.random(count) ** 4).astype(np.int64)
    page = rng.permutation(pages)[rank]
    # A request that would run past the file's end starts earlier instead.
    page = np.minimum(page, pages - size // DB_PAGE)
    offset = PARTITION_START + page * DB_PAGE
    log = kind == 2
    log_size = rng.integers(1, 17, size=count) * SECTOR
    size = np.where(log, log_size, size)
    log_start = PARTITION_START + pages * DB_PAGE
    log_offset = log_start + np.cumsum(np.where(log, log_size, 0)) - log_size
    offset = np.where(log, log_offset, offset)
    gap = rng.exponential(1e7 / iops, size=count)
    ticks = np.concatenate(([0], np.cumsum(gap[1:]))).astype(np.int64)
    return ticks, kind != 0, offset, size


def write(out, seed, count, iops, db_mib, repeat):
    ticks, is_write, offset, size = records(seed, count, iops, db_mib << 20)
    # A repetition starts one mean gap after the previous one's last request.
    period = int(ticks[-1]) + round(1e7 / iops)
    op = np.where(is_write, "Write", "Read")
    rows = [f",{HOST},0,{o},{a},{s},0\n" for o, a, s in zip(op, offset.tolist(), size.tolist())]
    for r in range(repeat):
        base = EPOCH_TICKS + r * period
        out.writelines(f"{base + t}{row}" for t, row in zip(ticks.tolist(), rows))


def integer_from(least):
    """An argparse type: an integer of at least `least`."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"expected an integer of at least {least}, "
                                             f"got {text!r}")
        return value
    return parse


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="the trace file to write ('-': standard output)")
    ap.add_argument("--seed", type=integer_from(0), default=29, help="random seed (default 29)")
    ap.add_argument("--count", type=integer_from(1), default=6999,
                    help="requests (default 6,999, the length of MQSim's TPC-C trace)")
    ap.add_argument("--iops", type=integer_from(1), default=1000,
                    help="mean arrival rate, requests per second (default 1,000)")
    ap.add_argument("--db-mib", type=integer_from(1), default=4096,
                    help="size of the database file in MiB (default 4,096)")
    ap.add_argument("--repeat", type=integer_from(1), default=1,
                    help="write the requests this many times, one after another in time")
    args = ap.parse_args()
    if args.out == "-":
        write(sys.stdout, args.seed, args.count, args.iops, args.db_mib, args.repeat)
        return
    try:
        with open(args.out, "w") as f:
            write(f, args.seed, args.count, args.iops, args.db_mib, args.repeat)
    except OSError as e:
        sys.exit(f"gen_tpcc_like: {args.out}: {e.strerror}")


if __name__ == "__main__":
    main()
