"""The combination soak (ssdtlm-soak, make soak; docs/developing.md#combination-soak): every
choice and boolean of the config and two or three levels of every numeric key, combined so that
every pair of values of every two options is run, on a small drive, under a closed-loop workload
that overwrites it twice (GC, merges) and an open-loop one with idle gaps (power states,
background work), the scoreboard on. A failure is shrunk to the fewest overrides and requests
and printed as a command to paste.

The options come from the simulator (`ssdtlm config-keys --json`): every bool, choice, integer
and number key outside a list (lists hold names, parts, rails and curves, not options). Which
combinations are valid is asked of the simulator too: `--dump-config`'s validation with the
overrides (one `--check-overrides` process answers them all), then the model built on one write
(a few rules are checked only when it is built: a power cap with no room for a die operation;
each such refusal is kept as a validation gap, issue 43 item 3), with
one rule of the soak's own: a drive at most MAX_GROWTH times the base drive's raw capacity.
The options and those questions: soak_options.py; this module generates the covering set from
them, runs it and shrinks what fails.
"""
import json
import math
import os
import re
import resource
import shlex
import shutil
import sys
import time

from dask.distributed import as_completed

from . import pairwise, sweep
from .cluster import client_for, quiet_after_ctrl_c
from .minimise import ddmin, smallest_failing
from .soak_options import (
    BUILD_CHECK,
    CANNOT_AGE,
    Oracle,
    key_table,
    kind_of,
    logical_bytes,
    options,
    overrides_of,
    related,
)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_CONFIG = os.path.join(ROOT, "configs", "small_gc.json")
OPEN_LOOP = os.path.join(ROOT, "workloads", "soak-idle-gaps.json")
PLACEMENT = os.path.join(ROOT, "workloads", "soak-placement.json")
OVERWRITE = 2.0  # the closed loop writes this many times the logical capacity
READ_SHARE = 0.3  # of the closed loop's requests
ZONED_REQUESTS = 3000  # of the zone append run: its log wraps many times on a small drive
SEED = 43


def shell_arg(override):
    """An override as typed on a command line: a string bare unless it would parse as JSON."""
    key, value = override.split("=", 1)
    v = json.loads(value)
    if isinstance(v, str):
        try:
            json.loads(v)
        except ValueError:
            value = v
    return shlex.quote(f"{key}={value}")


class Workload:
    """One of the two workloads of a combination, cut to `requests` when shrinking."""

    def __init__(self, name, kind, source, args, requests=None):
        self.name, self.kind, self.source, self.args = name, kind, source, args
        self.requests = requests

    @staticmethod
    def of(cfg, seed):
        """The closed loop over twice the drive's capacity (from fresh: the FTL's own path
        through fill and GC) and the open loop with idle gaps (from an aged drive, so idle
        time has GC to do; fresh under the lifetime manager, which refuses --precondition).
        With namespaces, the closed loop writes as much into the last conventional one (GC runs
        though the drive has capacity no namespace covers), the open loop addresses the first.
        With a zoned namespace, a third run appends to its zones, two side by side, with reads,
        wrapping its log with resets many times and reporting its zones (the host checks each
        answer against its own); or, where the host's zone translation layer
        serves it, writes and reads it as blocks, the layer's GC copying and resetting zones.
        With flexible data placement (two handles or more) and a conventional first namespace,
        a run on an aged drive writes through two handles at once."""
        spaces = cfg.get("namespaces") or []
        conventional = [n for n in spaces if n.get("kind", "conventional") == "conventional"]
        zoned = [n for n in spaces if n.get("kind") == "zoned"]
        last = (conventional or [None])[-1]
        writes = OVERWRITE * logical_bytes(cfg) / 4096
        count = math.ceil(writes / (1 - READ_SHARE))
        closed = (f"rw=randrw,mix={READ_SHARE},bs=4k,qd=16,count={count},seed={seed}" +
                  (f",namespace={last['name']}" if last else ""))
        aged = [] if cfg["lifetime"]["mode"] != "off" else ["--precondition"]
        runs = [Workload("closed", "workload", closed, ["--no-series"]),
                Workload("open", "workload_file", OPEN_LOOP, ["--no-series"] + aged)]
        if zoned:
            translated = zoned[0].get("host_translation", {}).get("enabled", False)
            rw, bs = ("randrw", "4k") if translated else ("zoneappend", "16k")
            zoned_job = (f"rw={rw},mix={READ_SHARE},bs={bs},qd=16,count={ZONED_REQUESTS},"
                         f"seed={seed},namespace={zoned[0]['name']}" +
                         ("" if translated else ",zones=2,zone_report_every=64"))
            runs.append(Workload("zoned", "workload", zoned_job, ["--no-series"]))
        fdp = cfg["ftl"].get("fdp", {})
        first = (spaces or [{}])[0].get("kind", "conventional")
        if fdp.get("enabled") and fdp.get("handles", 1) >= 2 and first == "conventional":
            runs.append(Workload("placement", "workload_file", PLACEMENT,
                                 ["--no-series", "--precondition"]))
        return runs

    def count(self):
        if self.kind == "workload":
            return int(re.search(r"count=(\d+)", self.source).group(1))
        with open(self.source) as f:
            return sum(j["count"] for j in json.load(f)["jobs"])

    def cut(self, requests, args=None):
        return Workload(self.name, self.kind, self.source, self.args if args is None else args,
                        requests)

    def input_and_args(self):
        if self.requests is None:
            return self.source, self.args
        if self.kind == "workload":
            return re.sub(r"count=\d+", f"count={self.requests}", self.source), self.args
        return self.source, self.args + ["--max-requests", str(self.requests)]


def make_point(label, overrides, effective, workload, binary_sha, digests):
    source, args = workload.input_and_args()
    p = {"label": label, "params": {}, "config": "", "overrides": overrides,
         "workload": workload.name, "input_kind": workload.kind, "input": source, "args": args,
         "repetition": 0, "seed": 0, "effective_config": effective}
    sweep.add_key(p, binary_sha, digests)
    return p


def failure_signature(status):
    """What a failed run says, without its numbers: runs failing alike match."""
    rc = status["returncode"]
    with open(status["log"], errors="replace") as f:
        lines = f.read().splitlines()
    sanitizer = [ln for ln in lines if re.search(r"ERROR: \w+Sanitizer|runtime error:", ln)]
    errors = [ln for ln in lines if ln.startswith("ssdtlm: error: ")]
    if not sanitizer and not errors:
        return f"killed by signal {-rc}" if rc < 0 else f"exit {rc}, no message"
    text = re.sub(r"^.*?(ERROR: \w+Sanitizer: [\w-]+|runtime error: )", r"\1",
                  (sanitizer or errors)[0])
    text = re.sub(r"^ssdtlm: error: ", "", text)
    return re.sub(r"0x[0-9a-f]+|\d+(\.\d+)?(e[-+]?\d+)?", "N", text)


def report_of(status, points_dir):
    """The run's report.json (a failure keeps its directory under points/failed/), or None."""
    d = os.path.dirname(status["log"]) if "log" in status else os.path.join(points_dir,
                                                                            status["key"])
    path = os.path.join(d, "report.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def command(binary, config, overrides, workload):
    """The command line that reproduces a run, paths relative to the source tree."""
    source, args = workload.input_and_args()
    flag = "--workload" if workload.kind == "workload" else "--workload-file"

    def rel(path):
        path = os.path.abspath(path)
        return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path

    words = [rel(binary), "--config", rel(config)]
    for o in overrides:
        words += ["--set", shell_arg(o)]
    words += [flag, shlex.quote(source if workload.kind == "workload" else rel(source))]
    words += [shlex.quote(a) for a in args if a != "--no-series"]
    return " ".join(words + ["--out", "out/soak-repro", "-q"])


class Soak:
    """One soak: the options, the covering set, its runs and what failed."""

    def __init__(self, binary, config, out_dir, seed=SEED, only=None, log=None,
                 oracle_binary=None):
        """`oracle_binary` answers which combinations are valid (default `binary`)."""
        self.binary, self.config, self.out_dir, self.seed = binary, config, out_dir, seed
        self.only, self.oracle_binary = only, oracle_binary or binary
        self.log = log or (lambda text: print(f"ssdtlm-soak: {text}", file=sys.stderr, flush=True))
        os.makedirs(out_dir, exist_ok=True)
        self.oracle = Oracle(self.oracle_binary, config, os.path.join(out_dir, "oracle.json"))
        self.binary_sha = sweep.sha256_file(binary)
        self.digests = {}
        self.points_dir = os.path.abspath(os.path.join(out_dir, "points"))
        os.makedirs(self.points_dir, exist_ok=True)

    def generate(self, limit=None):
        keys = key_table(self.binary)
        self.opts = options(keys, self.oracle, self.only)
        names = [k for k, _ in self.opts]
        self.gen = pairwise.Generator([len(v) for _, v in self.opts],
                                      lambda row: self.oracle(overrides_of(self.opts, row)),
                                      seed=self.seed, names=names,
                                      related=lambda reason: related(names, reason))
        started = time.time()

        def progress(gen):
            if len(gen.rows) % 10 == 0:
                self.log(f"{len(gen.rows)} combinations, {len(gen.uncovered)} pairs left, "
                         f"{len(gen.forbidden)} constraints learned "
                         f"({time.time() - started:.0f} s)")

        self.gen.run(progress, limit)
        self.oracle.save()
        return self.gen.rows

    def points(self):
        pts = []
        for n, row in enumerate(self.gen.rows):
            overrides = overrides_of(self.opts, row)
            effective = self.oracle.dump(overrides)
            for w in Workload.of(json.loads(effective), self.seed):
                p = make_point(f"combination {n}", overrides, effective, w, self.binary_sha,
                               self.digests)
                p["row"], p["wl"] = n, w
                pts.append(p)
        return pts

    def run_points(self, pts, workers=None, serial=False):
        """Each point's status (the sweep's run_point): on Dask, or here one after another."""
        binary = os.path.abspath(self.binary)
        statuses = {}
        if serial:
            for p in pts:
                statuses[p["key"]] = sweep.run_point(p, binary, self.points_dir)
            return statuses
        client, cluster = client_for(None, workers)
        try:
            futures = [client.submit(sweep.run_point, {k: v for k, v in p.items() if k != "wl"},
                                     binary, self.points_dir, key=f"soak-{p['key']}", pure=False)
                       for p in pts]
            done = 0
            for fut in as_completed(futures):
                s = fut.result()
                statuses[s["key"]] = s
                done += 1
                if done % max(1, len(pts) // 10) == 0:
                    self.log(f"{done}/{len(pts)} runs")
        except KeyboardInterrupt:
            quiet_after_ctrl_c()
            raise
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        return statuses

    def fails_alike(self, overrides, workload, sig):
        if self.oracle(overrides) is not None:
            return False
        p = make_point("shrinking", overrides, self.oracle.dump(overrides), workload,
                       self.binary_sha, self.digests)
        s = sweep.run_point(p, os.path.abspath(self.binary), self.points_dir)
        return not s["ok"] and failure_signature(s) == sig

    def shrink(self, overrides, workload, sig):
        """The fewest overrides, then the fewest requests, then without --precondition if it
        still fails alike: (overrides, workload)."""
        overrides = ddmin(overrides, lambda o: self.fails_alike(o, workload, sig))
        n = smallest_failing(workload.count(),
                             lambda m: self.fails_alike(overrides, workload.cut(m), sig))
        workload = workload.cut(n)
        if "--precondition" in workload.args:
            lean = workload.cut(n, [a for a in workload.args if a != "--precondition"])
            if self.fails_alike(overrides, lean, sig):
                workload = lean
        return overrides, workload

    def run(self, limit=None, workers=None, serial=False, shrink=True):
        """Generates the covering set (its first `limit` combinations), runs them, shrinks
        each kind of failure; writes OUT/soak.json and returns it."""
        started = time.time()
        self.generate(limit)
        pts = self.points()
        self.log(f"{len(self.gen.rows)} combinations x 2 workloads = {len(pts)} runs"
                 + ("" if serial else " on Dask"))
        statuses = self.run_points(pts, workers, serial)
        pages, failures = 0, {}
        for p in pts:
            s = statuses[p["key"]]
            rep = report_of(s, self.points_dir)
            if rep is not None:
                pages += rep["scoreboard"]["pages_checked"]
            if not s["ok"]:
                failures.setdefault(failure_signature(s), []).append(p)
        found = []
        for sig, failed in sorted(failures.items()):
            first = min(failed, key=lambda p: len(p["overrides"]))
            overrides, workload = first["overrides"], first["wl"]
            if shrink:
                self.log(f"shrinking: {sig}")
                overrides, workload = self.shrink(overrides, workload, sig)
            found.append({"signature": sig, "runs": len(failed),
                          "combinations": sorted({p["row"] for p in failed}),
                          "overrides": overrides,
                          "command": command(self.binary, self.config, overrides, workload)})
        self.oracle.save()
        self.oracle.close()
        gen = self.gen
        summary = {
            "binary": os.path.abspath(self.binary), "config": os.path.abspath(self.config),
            "oracle_binary": os.path.abspath(self.oracle_binary),
            "seed": self.seed, "limit": limit, "only": self.only,
            "options": len(self.opts), "values": sum(len(v) for _, v in self.opts),
            "option_types": {t: sum(1 for k, v in self.opts if kind_of(v) == t)
                             for t in ("bool", "choice", "numeric")},
            "pairs": gen.total_pairs, "pairs_covered": gen.total_pairs - len(gen.uncovered)
            - len(gen.infeasible), "pairs_infeasible": len(gen.infeasible),
            "constraints": [sorted(f"{self.opts[o][0]}={json.dumps(self.opts[o][1][v])}"
                                   for o, v in t) for t in gen.forbidden],
            "validation_checks": self.oracle.calls,
            "combinations": len(gen.rows), "runs": len(pts), "pages_checked": pages,
            "failures": found,
            "validation_gaps": [
                {"rule": sig, "overrides": o, "command": command(
                    self.binary, self.config, o, Workload(
                        "build", "workload", BUILD_CHECK,
                        ["--precondition"] if CANNOT_AGE.match("ssdtlm: error: " + sig) else []))}
                for sig, o in sorted(self.oracle.gaps.items())],
            "rows": [overrides_of(self.opts, r) for r in gen.rows],
            "wall_s": round(time.time() - started, 1),
            "cpu_s": round(cpu_seconds(), 1), "load_average": list(os.getloadavg()),
        }
        sweep.write_atomic(os.path.join(self.out_dir, "soak.json"), json.dumps(summary, indent=1))
        return summary


def forget(out_dir):
    """Deletes what a soak keeps in out_dir (nothing else there)."""
    shutil.rmtree(os.path.join(out_dir, "points"), ignore_errors=True)
    for name in ("oracle.json", "soak.json"):
        if os.path.exists(os.path.join(out_dir, name)):
            os.remove(os.path.join(out_dir, name))


def cpu_seconds():
    """User + system CPU of this process and its finished children (the workers, the runs)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def describe(summary):
    """The soak's closing lines."""
    s = summary
    types = s["option_types"]
    lines = [
        f"{s['options']} options ({types['bool']} booleans, {types['choice']} choices, "
        f"{types['numeric']} numeric keys), {s['values']} values; {s['pairs']:,} pairs of values: "
        f"{s['pairs_covered']:,} covered, {s['pairs_infeasible']:,} infeasible "
        f"({len(s['constraints'])} constraints learned from {s['validation_checks']:,} "
        "validation checks)" + (f", the rest beyond the first {s['limit']} combinations"
                                if s["limit"] is not None else ""),
        f"{s['combinations']} combinations x 2 workloads = {s['runs']} runs, "
        f"{s['pages_checked']:,} scoreboard page checks; {s['wall_s']} s, {s['cpu_s']} CPU s "
        f"(load average {s['load_average'][0]:.2f})",
    ]
    for g in s["validation_gaps"]:
        lines.append(f"validation gap (--dump-config takes it, the model refuses it when built; "
                     f"not run): {g['rule']}")
        lines.append(f"  {g['command']}")
    if not s["failures"]:
        lines.append("no failure")
    for f in s["failures"]:
        lines.append(f"FAILED ({f['runs']} runs, combinations {f['combinations']}): "
                     f"{f['signature']}")
        lines.append(f"  {f['command']}")
    return lines
