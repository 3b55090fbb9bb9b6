"""ssdtlm-sweep SPEC (cli.py): runs every point of a sweep spec on Dask, then writes the tidy table,
the plots and the HTML report (docs/sweeps.md).

Each point is keyed by a content hash of the binary, the effective config, the input and the
run's options, and lives in OUT/points/<key>/ once finished, moved there whole (rename of
its staging directory): a rerun skips finished points, and a sweep killed with kill -9
loses only the points that were running.
"""
import fcntl
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid

from dask.distributed import as_completed

from . import report_html, table
from . import spec as specmod
from .cluster import client_for, quiet_after_ctrl_c, stop_quietly

DONE = "point.json"  # written last into a point's staging directory
# In a running point's staging directory: the simulator's last progress line, rewritten whole
# as it changes; the sweep's client reads it (Progress.running), so it works on any cluster
# whose workers share --out with the client.
PROGRESS = "progress.txt"
# ssdtlm's progress line (tb/host/Host.cpp, show_progress): "  N/M requests (P %), simulated
# T s", or "  N requests, simulated T s" when the total is not known in advance.
PROGRESS_RE = re.compile(r"^\s*\d+(/\d+ requests \(\d+ %\)| requests), simulated ")


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def default_binary():
    """$SSDTLM_BINARY, else build/ssdtlm of this source tree."""
    env = os.environ.get("SSDTLM_BINARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "build", "ssdtlm"))


def effective_config(binary, point):
    """The config ssdtlm would run (--dump-config with the point's overrides), or raises
    SpecError with ssdtlm's message naming the key."""
    cmd = [binary, "--config", point["config"]]
    for o in point["overrides"]:
        cmd += ["--set", o]
    r = subprocess.run(cmd + ["--dump-config"], capture_output=True, text=True,
                       check=False)
    if r.returncode != 0:
        raise specmod.SpecError(f"point {point['label']}: {r.stderr.strip()}")
    return r.stdout


def input_digest(point, cache):
    if point["input_kind"] == "workload":
        return hashlib.sha256(point["input"].encode()).hexdigest()
    if point["input"] not in cache:
        cache[point["input"]] = sha256_file(point["input"])
    return cache[point["input"]]


def add_key(p, binary_sha, digests):
    """Sets the point's input_sha256, config_sha256 and key (its content: the binary, the
    effective config, the input and the options) from its effective_config."""
    p["input_sha256"] = input_digest(p, digests)
    p["config_sha256"] = hashlib.sha256(p["effective_config"].encode()).hexdigest()
    # The input's path is not part of the key, its content is; a workload's spec is
    # both. Options (args) change what a run measures, so they are.
    key = json.dumps([binary_sha, p["config_sha256"], p["input_kind"], p["input_sha256"],
                      p["args"]])
    p["key"] = hashlib.sha256(key.encode()).hexdigest()[:20]


def prepare(spec, binary):
    """The points with their effective config and content key; raises SpecError."""
    binary_sha = sha256_file(binary)
    configs, digests = {}, {}
    pts = specmod.points(spec)
    for p in pts:
        ident = (p["config"], tuple(p["overrides"]))
        if ident not in configs:
            configs[ident] = effective_config(binary, p)
        p["effective_config"] = configs[ident]
        add_key(p, binary_sha, digests)
        p["run_args"], precondition = split_precondition(p["args"])
        # Points that age the same drive the same way share one state task (the simulator's
        # cache key, make_state, may join those of other configs into one file).
        p["state"] = None if precondition is None else hashlib.sha256(json.dumps(
            [binary_sha, p["config_sha256"], precondition]).encode()).hexdigest()[:20]
        p["precondition_args"] = precondition
    return pts, binary_sha


# ssdtlm's options that say how the drive is aged before the measured run.
PRECONDITION_VALUES = ("--precondition-random", "--precondition-mode", "--precondition-fill")


def split_precondition(args):
    """(the args without the preconditioning options, those options) where args ask for
    --precondition; (args, None) otherwise."""
    rest, pre, i = [], [], 0
    while i < len(args):
        a = args[i]
        if a == "--precondition":
            pre.append(a)
        elif a in PRECONDITION_VALUES and i + 1 < len(args):
            pre += [a, args[i + 1]]
            i += 1
        elif a.split("=", 1)[0] in PRECONDITION_VALUES:
            pre.append(a)
        else:
            rest.append(a)
        i += 1
    if "--precondition" not in pre:
        return args, None
    return rest, pre


# The sweep's state cache is never trimmed by the simulator (SSDTLM_STATE_CACHE_MAX_GB, in GB;
# 1e9 is the most it takes): a drive its points still need must not be evicted mid-sweep.
STATES_MAX_GB = "1e9"


def make_state(point, binary, states_dir):
    """Ages the point's drive once (on a Dask worker) into STATES_DIR, used as the simulator's
    state cache (`--precondition --state-cache`, a one-request run whose outputs are dropped):
    the simulator names the file by what shapes the aged drive (docs/state.md#the-cache), so
    points whose configs differ elsewhere (timings, currents, the controller's cores) share one
    file, and a drive saved by an earlier sweep into the same directory is loaded, not aged
    again. Returns {"path", "ok", "log"}, path the file (report.json's
    provenance.aged_drive.file). Never raises: a point whose state failed preconditions in its
    own run instead."""
    stage = os.path.join(states_dir, f".{point['state']}.{uuid.uuid4().hex[:8]}.tmp")
    os.makedirs(stage)
    with open(os.path.join(stage, "config.json"), "w") as f:
        f.write(point["effective_config"])
    cmd = [binary, "--config", "config.json"] + point["precondition_args"] + [
        "--state-cache", states_dir, "--workload", "rw=read,bs=4k,count=1",
        "--out", "out", "--no-series", "--quiet", "--reproducible"]
    env = dict(os.environ, SSDTLM_STATE_CACHE_MAX_GB=STATES_MAX_GB)
    with open(os.path.join(stage, "log.txt"), "w") as log:
        log.write(" ".join(cmd) + "\n")
        log.flush()
        rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=stage, env=env,
                            stdin=subprocess.DEVNULL, check=False).returncode
    aged = {}
    if rc == 0:
        with open(os.path.join(stage, "out", "report.json")) as f:
            aged = json.load(f).get("provenance", {}).get("aged_drive", {})
    # "stored" or "cache": the drive is in a file; "preconditioned": storing it failed (a full
    # disk: the run's warning is in the log).
    if aged.get("from") not in ("stored", "cache") or not aged.get("file"):
        return {"path": None, "ok": False, "log": os.path.join(stage, "log.txt")}
    shutil.rmtree(stage, ignore_errors=True)
    return {"path": aged["file"], "ok": True, "log": None}


def run_point(point, binary, points_dir, state=None):
    """Runs one point (on a Dask worker) unless it is already done; returns its status dict.
    Never raises for a failing simulation: the failure is kept with its log. `state`
    (make_state's result): the aged drive it starts from instead of preconditioning."""
    final = os.path.join(points_dir, point["key"])
    done = os.path.join(final, DONE)
    if os.path.exists(done):
        with open(done) as f:
            return dict(json.load(f), skipped=True)
    stage = os.path.join(points_dir, f".{point['key']}.{uuid.uuid4().hex[:8]}.tmp")
    os.makedirs(stage)
    with open(os.path.join(stage, "config.json"), "w") as f:
        f.write(point["effective_config"])
    flag = {"workload": "--workload", "trace": "--trace", "workload_file": "--workload-file"}
    # Run in the point's directory with the config named relatively, so the report's
    # provenance.config ("config.json") still names it once the directory is renamed.
    args = point["args"]
    if state is not None and state["ok"]:
        args = point["run_args"] + ["--load-state", state["path"]]
    cmd = [binary, "--config", "config.json", flag[point["input_kind"]], point["input"],
           "--out", stage, "--reproducible", "--progress"] + args
    start = time.time()
    with open(os.path.join(stage, "log.txt"), "w") as log:
        log.write(" ".join(cmd) + "\n")
        log.flush()
        rc = run_with_progress(cmd, stage, log, os.path.join(stage, PROGRESS))
    status = {k: point[k] for k in ("key", "label", "params", "workload", "input_kind", "input",
                                    "repetition", "seed", "overrides", "args", "config",
                                    "config_sha256", "input_sha256")}
    status.update(returncode=rc, ok=rc == 0, wall_s=round(time.time() - start, 3),
                  command=cmd)
    with open(os.path.join(stage, DONE), "w") as f:
        json.dump(status, f, indent=1)
    if rc != 0:
        # A failure is kept for the report but not as done: the next run retries it.
        failed = os.path.join(points_dir, "failed", point["key"])
        shutil.rmtree(failed, ignore_errors=True)
        os.makedirs(os.path.dirname(failed), exist_ok=True)
        os.rename(stage, failed)
        return dict(status, log=os.path.join(failed, "log.txt"), skipped=False)
    shutil.rmtree(os.path.join(points_dir, "failed", point["key"]), ignore_errors=True)
    try:
        os.rename(stage, final)
    except OSError:  # another run of the same point got there first: same content
        shutil.rmtree(stage, ignore_errors=True)
    return dict(status, skipped=False)


def run_with_progress(cmd, cwd, log, progress_path):
    """Runs `cmd` (ssdtlm with --progress) in `cwd` with its stdout (the summary) into the open
    file `log`, reading its stderr: each progress line (a carriage return starts each update)
    is written to `progress_path` (replaced whole), every other line (warnings, errors) to the
    log. Returns the exit status."""
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            cwd=cwd)
    pending = b""

    def lines(data, final=False):
        nonlocal pending
        # A message printed while a progress line is drawn follows it on the same line.
        parts = re.split(rb"[\r\n]|(?=ssdtlm: (?:error|warning): )", pending + data)
        pending = b"" if final else parts.pop()
        for part in parts:
            text = part.decode(errors="replace")
            if not text.strip():
                continue
            if PROGRESS_RE.match(text):
                tmp = f"{progress_path}.tmp"
                with open(tmp, "w") as f:
                    f.write(text.strip() + "\n")
                os.replace(tmp, progress_path)
            else:
                log.write(text + "\n")
                log.flush()

    while data := proc.stderr.read1(1 << 16):
        lines(data)
    lines(b"", final=True)
    return proc.wait()


def running_progress(points_dir, points):
    """{key: progress line} of the points running now (their staging directories' PROGRESS),
    for the keys in `points`."""
    out = {}
    for path in sorted(glob.glob(os.path.join(points_dir, ".*.tmp", PROGRESS))):
        key = os.path.basename(os.path.dirname(path))[1:].split(".")[0]
        if key not in points:
            continue
        try:
            with open(path) as f:
                out[key] = f.read().strip()
        except OSError:  # the point just finished: its directory was renamed
            continue
    return out


def lock_out_dir(out_dir):
    """An exclusive lock on DIR/.sweep.lock, so a second sweep into DIR cannot take the first
    one's staging directories for a killed sweep's. The kernel drops it when the process dies,
    kill -9 included. Returns the open file that holds it."""
    f = open(os.path.join(out_dir, ".sweep.lock"), "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        raise specmod.SpecError(f"--out: another ssdtlm-sweep is running in {out_dir}") from None
    return f


def clean_stale(points_dir):
    """Staging directories of runs killed mid-point (kill -9): never finished, removed."""
    for name in os.listdir(points_dir):
        if name.startswith(".") and name.endswith(".tmp"):
            shutil.rmtree(os.path.join(points_dir, name), ignore_errors=True)


def duration(seconds):
    """12 s, 3 min 05 s, 2 h 07 min."""
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def _short_progress(line):
    """'65536/1000000 requests (6 %), simulated 2.1 s' -> '6 %'; without a total, the
    requests done."""
    m = re.search(r"\((\d+ %)\)", line) or re.match(r"\s*(\d+ requests)", line)
    return m.group(1) if m else line


class Progress:
    """points done / total and an ETA, and the progress of each running point (the simulator's
    own progress line); redrawn in place on a terminal. Otherwise a line per tenth of the
    sweep, and a running point's progress at most every `every_s` seconds (logs stay short)."""

    def __init__(self, total, stream=None, every_s=30.0):
        self.total, self.done, self.failed = total, 0, 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.start = time.time()
        self.last_tenth = -1
        self.every_s, self.last_running = every_s, {}
        self.running_text = ""

    def _status(self):
        elapsed = time.time() - self.start
        eta = elapsed / self.done * (self.total - self.done) if self.done else None
        return (f"{self.done}/{self.total} points, {self.failed} failed, "
                f"{duration(elapsed)} elapsed, ETA {duration(eta) if eta is not None else '?'}")

    def _redraw(self):
        width = 30
        fill = int(width * self.done / self.total)
        line = f"[{'#' * fill}{'.' * (width - fill)}] {self._status()}"
        if self.running_text and self.done < self.total:
            line += f" | {self.running_text}"
        cols = shutil.get_terminal_size((120, 20)).columns
        self.stream.write(f"\r{line[:cols - 1]:<{cols - 1}}")
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()

    def update(self, ok):
        self.done += 1
        self.failed += 0 if ok else 1
        if self.tty:
            self._redraw()
        elif self.done * 10 // self.total > self.last_tenth:
            self.last_tenth = self.done * 10 // self.total
            self.stream.write(f"ssdtlm-sweep: {self._status()}\n")
            self.stream.flush()

    def running(self, lines):
        """`lines`: {point name: its progress line} of the points running now."""
        if self.tty:
            if len(lines) > 1:  # one line for all: each point's share done only
                lines = {n: _short_progress(t) for n, t in lines.items()}
            self.running_text = "; ".join(f"{n}: {t}" for n, t in lines.items())
            self._redraw()
            return
        now = time.time()
        for name, text in lines.items():
            last = self.last_running.get(name)
            if last is None or (text != last[1] and now - last[0] >= self.every_s):
                self.last_running[name] = (now, text)
                self.stream.write(f"ssdtlm-sweep: running {name}: {text}\n")
                self.stream.flush()


class Interrupted(Exception):
    """Ctrl-C stopped the sweep: what it kept, and how to go on."""


def run_sweep(spec_path, out_dir, binary, scheduler=None, workers=None, report=True,
              progress_every_s=30.0, poll_s=0.5):
    """Runs the sweep; returns (statuses, failed statuses). Raises SpecError before running
    anything when the spec (or a point's config) is wrong. While points run, their progress
    is polled every `poll_s` seconds (and printed, off a terminal, every `progress_every_s`)."""
    spec = specmod.load(spec_path)
    binary = os.path.abspath(binary)
    if not os.access(binary, os.X_OK):
        raise specmod.SpecError(f"--binary: {binary} is not an executable (build it first)")
    pts, binary_sha = prepare(spec, binary)
    points_dir = os.path.join(out_dir, "points")
    os.makedirs(points_dir, exist_ok=True)
    lock = lock_out_dir(out_dir)  # held until the end (or the process's death)
    clean_stale(points_dir)
    unique = {p["key"]: p for p in pts}
    missing = [p for p in unique.values()
            if not os.path.exists(os.path.join(points_dir, p["key"], DONE))]
    print(f"ssdtlm-sweep: {spec['name']}: {len(pts)} runs, {len(unique)} distinct points, "
          f"{len(unique) - len(missing)} already done, {len(missing)} to run", file=sys.stderr)
    results = {}
    if missing:
        client, cluster = client_for(scheduler, workers)
        stopped = False
        previous = signal.signal(signal.SIGINT, stop_quietly)
        try:
            progress = Progress(len(missing), every_s=progress_every_s)
            states_dir = os.path.abspath(os.path.join(out_dir, "states"))
            os.makedirs(states_dir, exist_ok=True)
            points_dir_abs = os.path.abspath(points_dir)

            def submit_point(p, state=None):
                return client.submit(run_point, p, binary, points_dir_abs, state,
                                     key=f"point-{p['key']}", pure=False)

            # Each distinct aged drive once. Its points are submitted once it is saved, given its
            # result as a value: as a Dask dependency it would pin them all to the worker that
            # saved it (Dask runs a task where its inputs are), one after another there but for
            # work stealing, while the other workers idle.
            aged = {}  # state task key -> the points that start from it
            for p in missing:
                if p["state"] is not None:
                    aged.setdefault(f"state-{p['state']}", []).append(p)
            futures = [submit_point(p) for p in missing if p["state"] is None]
            futures += [client.submit(make_state, group[0], binary, states_dir, key=key,
                                      pure=False) for key, group in aged.items()]
            names = {p["key"]: f"{p['label']} / {p['workload']}" for p in missing}
            pending = as_completed(futures)
            while not pending.is_empty():
                for fut in pending.next_batch(block=False):
                    if fut.key in aged:
                        state = fut.result()
                        for p in aged.pop(fut.key):
                            pending.add(submit_point(p, state))
                        continue
                    status = fut.result()
                    results[status["key"]] = status
                    names.pop(status["key"], None)
                    progress.update(status["ok"])
                if pending.is_empty():
                    break
                running = running_progress(points_dir, names)
                progress.running({names[k]: t for k, t in running.items()})
                time.sleep(poll_s)
        except KeyboardInterrupt:
            quiet_after_ctrl_c()
            stopped = True
        finally:
            if not stopped:
                signal.signal(signal.SIGINT, previous)
            client.close()
            if cluster is not None:
                cluster.close()
        if stopped:  # counted once nothing runs: a point may have finished meanwhile
            done = sum(os.path.exists(os.path.join(points_dir, k, DONE)) for k in unique)
            raise Interrupted(f"interrupted: {done} of {len(unique)} distinct points done, kept "
                              f"in {points_dir}; the same command runs the other "
                              f"{len(unique) - done}")
    failed = [s for s in results.values() if not s["ok"]]
    manifest = {
        "spec": spec_path, "name": spec["name"], "binary": binary, "binary_sha256": binary_sha,
        "plot": spec["plot"], "findings": spec["findings"], "axes": specmod.axes(spec),
        "runs": [{"key": p["key"], "label": p["label"], "params": p["params"],
                  "levels": p["levels"], "workload": p["workload"],
                  "repetition": p["repetition"], "seed": p["seed"],
                  "overrides": p["overrides"], "config": p["config"]} for p in pts],
        "failed": [{"key": s["key"], "label": s["label"], "workload": s["workload"],
                    "returncode": s["returncode"], "log": s["log"]} for s in failed],
    }
    write_atomic(os.path.join(out_dir, "sweep.json"), json.dumps(manifest, indent=1))
    write_atomic(os.path.join(out_dir, "spec" + os.path.splitext(spec_path)[1]), spec["text"])
    if report:
        df = table.build(out_dir)
        table.write(df, out_dir)
        report_html.write(out_dir, df)
    lock.close()
    return results, failed


def write_atomic(path, text):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
