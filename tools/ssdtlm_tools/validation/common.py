"""What a run and a published figure are, the tolerances, and the metrics that take a simulated
figure from the runs' results."""
from __future__ import annotations

import dataclasses
import json
import pathlib
from collections.abc import Callable

import yaml

FILLED = ("--precondition", "--precondition-random", "0")
AGED = ("--precondition",)  # filled, then the logical capacity overwritten once at random
IDLE_FILE = {"description": "two 4 KiB reads 10 s apart: the drive idles in between",
             "jobs": [{"name": "idle", "rw": "randread", "bs": "4k", "count": 2,
                       "rate_iops": 0.1}]}
IDLE_WINDOW_S = (5.0, 9.9)  # idle power is the average over this span of the idle run


@dataclasses.dataclass(frozen=True)
class Run:
    """One simulation: a shipped config, a workload, options. `series` keeps energy.csv,
    `request_log` writes requests.csv; `full_only` runs are left out of the reduced form."""
    id: str
    config: str
    workload: str  # a --workload spec, or "idle" for IDLE_FILE
    options: tuple = ()
    series: bool = False
    request_log: bool = False
    full_only: bool = False



def aging_set(sweep):
    """The --set options of aging NAND (flash.reliability.*) that a sweep spec's `set` gives,
    so a figure holds the model to the sweep's own assumptions, written once."""
    spec = yaml.safe_load((pathlib.Path(__file__).resolve().parents[3] / sweep).read_text())
    opts = ()
    for key, value in spec["set"].items():
        if key.startswith("flash.reliability."):
            opts += ("--set", f"{key}={json.dumps(value)}")
    return opts


@dataclasses.dataclass(frozen=True)
class Figure:
    """A published figure. `metric(res)` gives the simulated value from the runs' results;
    `tol` bounds simulated / published; `why(res, cfg)`, for a figure known to disagree, says
    why on the page (text; it may use the runs' results and the configs)."""
    id: str
    drive: str
    label: str
    published: float
    unit: str
    sources: tuple
    runs: tuple
    metric: Callable
    tol: tuple
    why: Callable | None = None
    published_text: str | None = None
    tol_text: str | None = None



# ---- metrics -------------------------------------------------------------------------------

def report(res, run):
    return res[run]["report"]


def iops(run):
    return lambda res: report(res, run)["iops"]


def mbps(run):
    return lambda res: report(res, run)["bandwidth_mbps"]


def mean_us(run, op):
    return lambda res: report(res, run)["latency_us"][op]["mean"]


def busy_power_w(res, run):
    """Average drive power while the host's requests run: energy.csv's rows up to the last
    completion (the drive may go on folding or destaging after it)."""
    d = res[run]["series"]
    d = d[d.t_end_s <= report(res, run)["sim_time_s"] + 1e-12]
    return d.energy_j.sum() / d.t_end_s.iloc[-1]


def span_power_w(res, run, start, end):
    """Average drive power over [start, end) s of the run: each energy.csv row at its own
    average power, weighted by its overlap (idle rows hold one power throughout)."""
    d = res[run]["series"]
    over = (d.t_end_s.clip(upper=end) - d.t_start_s.clip(lower=start)).clip(lower=0)
    return float((over * d.avg_power_w).sum() / over.sum())


def idle_w(run):
    return lambda res: span_power_w(res, run, *IDLE_WINDOW_S)


def knee(res, run):
    """The SLC cache as a sequential writer sees it: (GB written when the write rate falls,
    MB/s after it). The rate before is over 10-40 % of the requests, after over the last 25 %;
    the knee is the first completion where the rate over 256 requests falls below halfway."""
    if "knee" in res[run]:
        return res[run]["knee"]
    d = res[run]["log"].sort_values("completion_us")
    t = d.completion_us.to_numpy() * 1e-6
    cum = d["size"].cumsum().to_numpy()
    n = len(t)

    def rate(a, b):
        return (cum[b] - cum[a]) / (t[b] - t[a])
    before, after = rate(n // 10, 4 * n // 10), rate(3 * n // 4, n - 1)
    w = 256
    window = (cum[w:] - cum[:-w]) / (t[w:] - t[:-w])
    falls = [i for i in range(len(window)) if window[i] < (before + after) / 2]
    if not falls or after > 0.9 * before:
        raise SystemExit(f"validate: {run}: the write rate never falls: no SLC cache edge in "
                         f"{cum[-1] / 1e9:.1f} GB")
    res[run]["knee"] = (cum[falls[0]] / 1e9, after / 1e6)
    return res[run]["knee"]


def peak_ma(run):
    return lambda res: report(res, run)["peak_current_ma"]


def cfg_get(cfg, path):
    value = cfg
    for key in path.split("."):
        value = value[key]
    return value



# The controller's step costs and the cycles that add to each (docs/config.md#controller).
STEP_CYCLES = {"t_cmd_issue_us": "flash_command", "t_fw_per_cmd_us": "host_command",
               "t_fw_per_page_us": "ftl_step"}


def step_us(c, key):
    """A controller step's time: its microsecond cost plus its cycles at controller.clock_mhz."""
    ctrl = c["controller"]
    clock = ctrl.get("clock_mhz", 0)
    cycles = ctrl.get("cycles", {}).get(STEP_CYCLES[key], 0)
    return ctrl[key] + (cycles / clock if clock > 0 else 0)


def why_qd1_write(res, c, run, published):
    """Why a drive's 4 KiB QD1 writes are faster in the model than its published figure: the
    host's I/O stack is not modelled. `c`: the drive's config; `published`: what its figure
    is, a write."""
    h = c["host"]
    lat = report(res, run)["latency_us"]["write"]["mean"]
    link = h["link_mb_per_s"]
    costs_us = (h["t_sq_fetch_ns"] + h["t_cq_post_ns"] + h["t_interrupt_ns"]) / 1e3
    return ("A write completes once its 4 KiB are in the DRAM write buffer: "
            f"{lat:.2f} us in the model (4 KiB over the {link} MB/s link is "
            f"{4096 / link:.2f} us, the firmware {step_us(c, 't_fw_per_cmd_us')} us a "
            f"command, the NVMe command costs {costs_us:.1f} us: the submission-queue entry "
            "fetch, the completion entry and the interrupt). The model stops at the host's "
            "interrupt: the host's I/O stack (system call, block layer, driver submission) is "
            f"not modelled, and it is in every measured QD1 write. {published}")



# ---- tolerances ----------------------------------------------------------------------------

THROUGHPUT = (0.8, 1.25)
POWER = (2 / 3, 1.5)
CALIBRATED = (0.9, 1.1)

TOLERANCE_TEXT = {
    THROUGHPUT: "x/÷ 1.25",
    POWER: "x/÷ 1.5",
    CALIBRATED: "± 10 %",
}
