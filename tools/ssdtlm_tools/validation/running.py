"""Running the simulator: one run, and all of them a few at a time, the aged drives shared
through the simulator's state cache."""
import json
import os
import pathlib
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from .common import IDLE_FILE

ROOT = pathlib.Path(__file__).resolve().parents[3]


def run_one(binary, run, work):
    """Runs `run` into work/<id>; returns its results: report, CPU s (the kernel's wait4 of
    the process), and the energy series and request log where the run keeps them."""
    out = work / run.id
    args = [binary, "--config", str(ROOT / run.config), "--quiet", "--out", str(out)]
    if run.workload == "idle":
        spec = work / "idle.json"
        args += ["--workload-file", str(spec)]
    else:
        args += ["--workload", run.workload]
    args += list(run.options)
    if not run.series:
        args.append("--no-series")
    if run.request_log:
        args += ["--request-log", "csv"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code  # reaped here, not by Popen
    if code != 0:
        raise RuntimeError(f"{run.id}: {' '.join(args)} exited {code}:\n{err.strip()}")
    result = {"report": json.loads((out / "report.json").read_text()),
              "cpu_s": usage.ru_utime + usage.ru_stime}
    if run.series:
        result["series"] = pd.read_csv(out / "energy.csv")
    if run.request_log:
        result["log"] = pd.read_csv(out / "requests.csv")
    return result


def aged_drive(run):
    """What shapes the aged drive `run` starts from (its config, the geometry, FTL and DRAM
    keys it sets, its preconditioning), or None when it starts fresh: runs alike start from
    one aged drive, which the simulator's state cache keeps (docs/state.md#the-cache)."""
    opts = list(run.options)
    if "--precondition" not in opts:
        return None
    key = [run.config]
    for flag, value in zip(opts, opts[1:] + [None]):
        name = value.split("=", 1)[0] if flag == "--set" else ""
        # Aging NAND's keys set how the drive reads, not what preconditioning leaves on it.
        if name.startswith(("flash.", "ftl.", "dram.")) and not name.startswith(
                "flash.reliability."):
            key.append(value)
        elif flag.startswith("--precondition"):
            key += [flag] if flag == "--precondition" else [flag, value]
    return tuple(key)


def run_all(binary, runs, work, jobs):
    """Every run, `jobs` at a time. The first run of each aged drive goes first, and the others
    on that drive wait for it: they load the drive it aged from the state cache instead of
    aging it again side by side (the aged NVMe mixes aged it twice, 8 CPU s)."""
    (work / "idle.json").write_text(json.dumps(IDLE_FILE))
    res, lock = {}, threading.Lock()
    first = {}
    for r in runs:
        if aged_drive(r) is not None:
            first.setdefault(aged_drive(r), r.id)
    aged = {rid: threading.Event() for rid in first.values()}

    def task(run):
        key = aged_drive(run)
        if key is not None and first[key] != run.id:
            aged[first[key]].wait()
        try:
            r = run_one(binary, run, work)
        finally:
            if run.id in aged:
                aged[run.id].set()
        with lock:
            res[run.id] = r
            print(f"validate: {run.id}: {r['cpu_s']:.2f} CPU s", file=sys.stderr, flush=True)
    # The first runs of the aged drives lead the queue, so none waits on a run not started.
    order = [r for r in runs if r.id in aged] + [r for r in runs if r.id not in aged]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for f in [pool.submit(task, r) for r in order]:
            f.result()
    return res

