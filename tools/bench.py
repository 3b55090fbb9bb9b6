#!/usr/bin/env python3
"""Simulator speed benchmark, part of `make bench`: random 4 KiB writes at QD 32 on the NVMe drive
with energy on and no VCD, at 250k, 1M and 4M requests, first as the founding study's drives
work (no write buffer, multi-plane, cache program or SLC cache; channel-first pages) and at 1M
as shipped, and 1M zone appends on the shipped drive as one zoned namespace, and 1M random
writes to it through the host's zone translation layer, and 1M random writes of two tenants
through two placement handles (flexible data placement) against the same without; then the
TPC-C-like trace (traces/tpcc_like.msr.csv) replayed 40 times over (279,960 requests, unaligned
8 KiB most of them) on the shipped X25-M class drive preconditioned, per request and per flash
operation beside the plain 250k line; then 200k random 4 KiB requests, 70 % reads, on the
shipped NVMe drive preconditioned (filled, then overwritten once at random; the run's own CPU
time, which the simulator reports apart from preconditioning's), and that run again with aging
NAND on (its cost per flash read). Prints requests per CPU second and per wall second, CPU
microseconds per request (flat with run length is the goal), peak memory per 4 KiB page written,
and what preconditioning the 1 TB drive took.

CPU seconds come from the kernel's accounting of the child process, so they hold on a
shared machine better than wall seconds; every figure is the median of --runs runs."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

CONFIG = "configs/nvme_tlc_1tb.json"
PAGE = 4096
# The replay's drive: the one `make run` simulates.
REPLAY_CONFIG = "configs/default.json"
# MQSim's TPC-C trace is replayed 40 times over in the comparison with it (279,960 requests);
# ssdtlm has no loop option, so the generator writes the trace 40 times, one after another.
REPLAY_REPEAT = 40
GENERATOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen_tpcc_like.py")


def flash_ops(report):
    """The flash operations a run did: page reads, programs and erases."""
    ops = report["flash_ops"]
    return ops["read"] + ops["spare_read"] + ops["program"] + ops["erase"]


def plain_config(path):
    """The shipped NVMe drive without the back end's write-path features, scheduled and mapped
    as the founding study's drives are (oldest ready first, commands to a block in order, no
    suspend, foreground GC, a mapping entry per page): the same work the plain line has
    always measured."""
    with open(CONFIG) as f:
        d = json.load(f)
    d["dram"]["write_buffer_mb"] = 0
    d["flash"]["multiplane"] = False
    d["flash"]["cache_program"] = False
    d["ftl"]["allocation"] = "channel_first"
    d["ftl"]["slc_cache_blocks_per_plane"] = 0
    d["ftl"]["slc_dynamic"] = []  # no dynamic SLC cache either: its folds are write-path work
    d["controller"].update(scheduler_policy="oldest_ready", host_first=False,
                           suspend_for_reads=False, block_order="in_order")
    d["ftl"].update(gc_mode="foreground", mapping_unit_bytes=0)
    with open(path, "w") as f:
        json.dump(d, f, indent=2)


def run(ssdtlm, args, capture=False):
    """One run of ssdtlm; returns (CPU s, peak RSS bytes, its standard output if `capture`)
    from the kernel's wait4 of it."""
    proc = subprocess.Popen([ssdtlm, *args], text=True,
                            stdout=subprocess.PIPE if capture else subprocess.DEVNULL)
    text = proc.stdout.read() if capture else None
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    if proc.returncode != 0:
        sys.exit(f"bench: {ssdtlm} {' '.join(args)} failed (exit {proc.returncode})")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, text  # maxrss in KiB


def measure(ssdtlm, config, count, runs, tmp, label, workload="rw=randwrite"):
    """Median CPU s, wall s and peak memory of `runs` runs of `workload` (4 KiB at QD 32);
    prints them; returns CPU s per request and flash operations per request."""
    out = os.path.join(tmp, "out")
    args = ["--config", config, "--workload", f"{workload},bs=4k,qd=32,count={count},seed=1",
            "--quiet", "--no-series", "--out", out]
    cpus, walls, peaks = [], [], []
    for _ in range(runs):
        start = time.monotonic()
        cpu, peak, _ = run(ssdtlm, args)
        walls.append(time.monotonic() - start)
        cpus.append(cpu)
        peaks.append(peak)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    written = report["requests"]["write_bytes"] / PAGE
    cpu, wall, peak = statistics.median(cpus), statistics.median(walls), statistics.median(peaks)
    print(f"bench: {label}: {count:,} requests: {count / cpu:,.0f} per CPU second "
          f"({cpu:.2f} CPU s, {cpu / count * 1e6:.2f} us each), {count / wall:,.0f} per wall "
          f"second; peak memory {peak / 2**20:.1f} MiB, {peak / written:.1f} bytes per 4 KiB "
          f"page written", flush=True)
    return cpu / count, flash_ops(report) / count


def zoned(ssdtlm, runs, tmp, shipped):
    """The shipped drive with its flash one zoned namespace of 64 zones (each over every die
    and plane: 768 MiB in a 1 GiB zone): 1M zone appends of 4 KiB at QD 32 to the first four
    zones, two written side by side, so the log wraps once (resets erase the first zones' blocks
    again). Then the namespace through the host's zone translation layer (4 zones open for host
    chunks, 6 spare): 1M random 4 KiB writes over 4 GiB, each a chunk at a zone's write pointer;
    the log does not wrap, so that line is the layer's mapping and the host's ordering, not its
    GC. Per request against the shipped line's random writes (`shipped`: its CPU s per
    request): the zone path has no mapping look-up or GC, so appends should cost less."""
    with open(CONFIG) as f:
        d = json.load(f)
    config = os.path.join(tmp, "zoned.json")
    namespace = {"name": "z", "kind": "zoned", "zones": {"count": 64}}
    translation = {"enabled": True, "open_zones": 4, "spare_zones": 6}
    for name, workload, ns in (
            ("appends", "rw=zoneappend,namespace=z,zones=2,size=4g", namespace),
            ("translated writes", "rw=randwrite,namespace=z,size=4g",
             dict(namespace, host_translation=translation))):
        d["namespaces"] = [ns]
        with open(config, "w") as f:
            json.dump(d, f, indent=2)
        cpu, _ = measure(ssdtlm, config, 1_000_000, runs, tmp, f"zoned 1000k {name}", workload)
        print(f"bench: zoned {name}: {cpu * 1e6:.2f} CPU us per request, {cpu / shipped:.2f}x "
              f"the shipped line's random writes ({shipped * 1e6:.2f} us)", flush=True)


def simulated_run(ssdtlm, args, runs, out):
    """Median over `runs` runs of the simulated run's own CPU s (--bench: without starting up,
    preconditioning and writing outputs), and the last run's report."""
    cpus = []
    for _ in range(runs):
        _, _, text = run(ssdtlm, [*args, "--quiet", "--no-series", "--bench", "--out", out],
                         capture=True)
        cpus.append(float(re.search(r"bench: the simulated run ([\d.]+) CPU s", text).group(1)))
    with open(os.path.join(out, "report.json")) as f:
        return statistics.median(cpus), json.load(f)


def replay(ssdtlm, runs, tmp, plain):
    """The TPC-C-like trace (traces/tpcc_like.msr.csv, REPLAY_REPEAT times over) on the
    shipped drive, preconditioned: a database's reads and read-modify-writes find data on
    flash (on a fresh drive nine reads in ten would be answered without it), and its writes
    meet the aged drive's garbage collection. Beside it, as many aligned random 4 KiB writes
    at QD 32 on that drive, preconditioned too. Prints CPU per request and per flash
    operation, against the plain line's (`plain`: its CPU s and flash operations per
    request) and the aligned writes'."""
    trace = os.path.join(tmp, "tpcc_like.csv")
    subprocess.run([sys.executable, GENERATOR, trace, "--repeat", str(REPLAY_REPEAT)],
                   check=True)
    out = os.path.join(tmp, "replay")
    cpu, report = simulated_run(ssdtlm, ["--config", REPLAY_CONFIG, "--trace", trace, "--format",
                                         "msr", "--precondition"], runs, out)
    count = report["requests"]["count"]
    aligned_cpu, aligned = simulated_run(
        ssdtlm, ["--config", REPLAY_CONFIG, "--precondition", "--workload",
                 f"rw=randwrite,bs=4k,qd=32,count={count},seed=1"], runs, out)
    us, ops = cpu / count * 1e6, flash_ops(report) / count
    aligned_us, aligned_ops = aligned_cpu / count * 1e6, flash_ops(aligned) / count
    plain_us, plain_ops = plain[0] * 1e6, plain[1]
    print(f"bench: TPC-C-like replay x{REPLAY_REPEAT}, default drive preconditioned: "
          f"{count:,} requests: {count / cpu:,.0f} per CPU second ({cpu:.2f} CPU s, {us:.2f} us "
          f"each): {us / plain_us:.2f}x the plain 250k line's, {us / aligned_us:.2f}x aligned "
          f"4 KiB random writes' on that drive preconditioned ({aligned_us:.2f} us) "
          f"(load average {os.getloadavg()[0]:.2f})", flush=True)
    print(f"bench: TPC-C-like replay: {ops:.2f} flash operations per request (plain "
          f"{plain_ops:.2f}, aligned writes {aligned_ops:.2f}): {us / ops:.2f} CPU us per flash "
          f"operation ({plain_us / plain_ops:.2f}, {aligned_us / aligned_ops:.2f}); per request "
          f"{report['firmware']['page_reads'] / count:.2f} pages read, "
          f"{report['firmware']['page_writes'] / count:.2f} written, "
          f"{report['firmware']['rmw_reads'] / count:.2f} read-modify-write reads, "
          f"{report['gc']['pages_copied'] / count:.2f} GC copies", flush=True)


# Aging NAND on the mixed aged run (docs/reliability.md): rates where a read's errors are near
# what the hard decode corrects (about 33 a 1 KiB codeword against 40), so many reads retry and
# a few fail past the table. A bench setting, not a part's characterisation.
AGING = ["flash.reliability.enabled=true", "flash.reliability.rber_base=0.004",
         "flash.reliability.i_ecc_ma=30",
         'flash.reliability.retry_steps=[{"t_read_us":60,"t_decode_us":2,"correctable_bits":48},'
         '{"t_read_us":120,"t_decode_us":8,"correctable_bits":60}]']


def aging(ssdtlm, runs, aged, out, base_cpu, base):
    """The mixed aged run (`aged`: its arguments) again with aging NAND on: its CPU per flash
    read beyond the run without it (`base_cpu`, `base`: its CPU s and report), what every page
    read's error draw, ECC decode and retries cost the simulator."""
    cpu, report = simulated_run(ssdtlm, [*aged, *(a for kv in AGING for a in ("--set", kv))],
                                runs, out)
    reads = report["flash_ops"]["read"]
    rel = report["reliability"]
    print(f"bench: shipped, preconditioned, 70 % reads, aging NAND: {cpu:.2f} CPU s "
          f"({cpu - base_cpu:+.2f} beside the run without it), "
          f"{(cpu - base_cpu) / reads * 1e6:+.3f} us per flash read ({reads:,} reads, "
          f"{base['flash_ops']['read']:,} without); retry steps per read "
          f"{rel['retry_steps_mean']:.3f}, {rel['uncorrectable_reads']:,} uncorrectable; reads "
          f"p99 {report['latency_us']['read']['p99']:.0f} us", flush=True)


def placement(ssdtlm, runs, tmp):
    """Flexible data placement's cost: the shipped drive without its SLC cache (FDP refuses one),
    two tenants of 500k random 4 KiB writes each at QD 32 (one over the first 8 GiB, one over the
    whole drive), once through two of 8 persistently isolated handles and once without FDP; the
    CPU per request of each, and their ratio (the handles' streams, tags and queues)."""
    with open(CONFIG) as f:
        d = json.load(f)
    d["ftl"]["slc_cache_blocks_per_plane"] = 0
    d["ftl"]["slc_dynamic"] = []
    cpus = {}
    for name, fdp in (("without FDP", False), ("FDP, 2 of 8 handles", True)):
        d["ftl"]["fdp"] = {"enabled": fdp, "handles": 8, "isolation": "persistently_isolated"}
        config = os.path.join(tmp, "fdp.json")
        with open(config, "w") as f:
            json.dump(d, f, indent=2)
        jobs = [{"name": "hot", "rw": "randwrite", "bs": "4k", "qd": 32, "count": 500_000,
                 "size": "8g"},
                {"name": "cold", "rw": "randwrite", "bs": "4k", "qd": 32, "count": 500_000}]
        if fdp:
            jobs[0]["placement"], jobs[1]["placement"] = 1, 0
        workload = os.path.join(tmp, "tenants.json")
        with open(workload, "w") as f:
            json.dump({"seed": 1, "jobs": jobs}, f)
        args = ["--config", config, "--workload-file", workload, "--quiet", "--no-series",
                "--out", os.path.join(tmp, "out")]
        samples = [run(ssdtlm, args) for _ in range(runs)]
        cpus[name] = statistics.median(s[0] for s in samples)
        peak = statistics.median(s[1] for s in samples)
        print(f"bench: placement 1000k, {name}: {cpus[name]:.2f} CPU s "
              f"({cpus[name]:.2f} us each); peak memory {peak / 2**20:.1f} MiB",
              flush=True)
    print(f"bench: placement: FDP costs {cpus['FDP, 2 of 8 handles'] / cpus['without FDP']:.3f}x "
          f"the CPU of the same writes without it", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("ssdtlm", help="path to the ssdtlm binary")
    ap.add_argument("--runs", type=int, default=5, help="runs per figure (the median is shown)")
    args = ap.parse_args()
    print(f"bench: load average {os.getloadavg()[0]:.2f} (figures are medians of {args.runs} runs)")
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain.json")
        plain_config(plain)
        per_request = {}
        for count in (250_000, 1_000_000, 4_000_000):
            per_request[count] = measure(args.ssdtlm, plain, count, args.runs, tmp,
                                         f"plain {count // 1000}k")
        growth = per_request[4_000_000][0] / per_request[250_000][0] - 1
        print(f"bench: CPU per request at 4M is {growth * 100:+.0f} % of that at 250k")
        shipped = measure(args.ssdtlm, CONFIG, 1_000_000, args.runs, tmp, "shipped 1000k")
        zoned(args.ssdtlm, args.runs, tmp, shipped[0])
        placement(args.ssdtlm, args.runs, tmp)
        replay(args.ssdtlm, args.runs, tmp, per_request[250_000])
        # The mixed run on an aged drive: the simulator reports its run's CPU time apart from
        # preconditioning's. 200k: GC on the full drive writes several flash pages per host
        # page (docs/architecture.md).
        out = os.path.join(tmp, "pre")
        count = 200_000
        aged = ["--config", CONFIG, "--precondition", "--workload",
                f"rw=randrw,mix=0.7,bs=4k,qd=32,count={count},seed=1"]
        args_pre = [*aged, "--quiet", "--no-series", "--bench", "--out", out]
        aged_start = time.monotonic()
        _, peak, text = run(args.ssdtlm, args_pre, capture=True)
        wall = time.monotonic() - aged_start
        pre_cpu = float(re.search(r"bench: preconditioning ([\d.]+) CPU s", text).group(1))
        run_cpu = float(re.search(r"bench: the simulated run ([\d.]+) CPU s", text).group(1))
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        pre_wall = report["precondition"]["wall_s"]
        run_wall = wall - pre_wall
        print(f"bench: shipped, preconditioned, 70 % reads: {count:,} requests: "
              f"{count / run_cpu:,.0f} per CPU second ({run_cpu:.2f} CPU s, "
              f"{run_cpu / count * 1e6:.2f} us each), {count / run_wall:,.0f} per wall second "
              f"(after {pre_cpu:.1f} CPU s of preconditioning); peak memory "
              f"{peak / 2**20:.1f} MiB", flush=True)
        # What the aged drive's garbage collection did to the host (docs/ftl.md#gc-modes).
        gc, lat = report["gc"], report["latency_us"]
        wait = gc["host_wait"]["read"]
        print(f"bench: shipped, preconditioned, 70 % reads: GC {gc['mode']}, {gc['victims']:,} "
              f"victims, {gc['pages_copied']:,} pages copied, hard watermark met "
              f"{gc['hard_watermark_hits']:,} times; reads p99 {lat['read']['p99']:.0f} us, "
              f"p99.9 {lat['read']['p999']:.0f} us, max {lat['read']['max']:.0f} us; "
              f"{wait['waited']:,} of {wait['requests']:,} reads waited for GC, "
              f"{wait['mean_waited_us']:.0f} us on average, at most {wait['max_us']:.0f} us; "
              f"WAF {report['waf']:.2f}", flush=True)
        aging(args.ssdtlm, args.runs, aged, out + "-aging", run_cpu, report)


if __name__ == "__main__":
    main()
