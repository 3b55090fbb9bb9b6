#!/usr/bin/env python3
"""The README's figures: runs the commands README.md shows (`make run`'s, the aged 1 TB drive's
and its `--timeline` run, `explain`, the sweeps) and writes every figure the README quotes from
them between its markers, <!--fig:NAME-->...<!--/fig-->; the prose around them is written by
hand, the numbers come from here.

    python3 tools/readme_figures.py                   # every run, rewrites README.md's figures
    python3 tools/readme_figures.py --check           # every run; exit 1 on a changed figure
    python3 tools/readme_figures.py --check --quick   # the runs of seconds only (the test's form)
    python3 tools/readme_figures.py --pictures        # also retakes docs/img/gtkwave.png

Each command runs as the README (or, for `make run`, the Makefile) shows it, in a scratch folder
that links configs/, traces/, sweeps/ and workloads/, with a state cache of its own, so the
drive is aged as on a fresh machine; the script checks that the README still shows each command.
The simulator is deterministic, so every figure is exact but the times (CPU seconds of aging,
loading a drive and the sweeps): those are rounded, rewritten, and left out of --check, which
only notes them. A figure whose sentence would no longer hold (the write buffer not full when
garbage collection starts, the splits no longer writing alike) fails the run with a message:
rewrite the sentence. The full form costs about ten CPU minutes and 4.2 GB of disk for a while
(the aged 1 TB drive); --quick about three CPU seconds."""
from __future__ import annotations

import dataclasses
import difflib
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import pandas as pd

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import gtkwave_view  # noqa: E402 (tools/ is not a package: imported from its path)
import validate  # noqa: E402
from ssdtlm_tools import describe  # noqa: E402

README = ROOT / "README.md"
MAKEFILE = ROOT / "Makefile"
PICTURE = ROOT / "docs" / "img" / "gtkwave.png"
SPAN = re.compile(r"<!--fig:([a-z0-9_]+)-->(.*?)<!--/fig-->", re.S)
LINKED = ("configs", "traces", "sweeps", "workloads")
HOME_CACHE = "~/.cache/ssdtlm"  # what the summary names on a machine with the default cache


class Stale(Exception):
    """The run no longer bears out the sentence around a figure: rewrite the sentence."""


@dataclasses.dataclass(frozen=True)
class Run:
    """A command as `shown_in` shows it (None: a run of the script's own, for a count the
    README quotes); `keep`: the files of its output folder the figures read; `quick` runs take
    seconds and make the test's form."""
    id: str
    command: str
    shown_in: str | None
    keep: tuple = ()
    quick: bool = False


SWEEP_FILES = ("findings.json", "results.csv", "sweep.json")
RUNS = [
    Run("make-run", "build/ssdtlm --config configs/default.json --trace "
        "traces/umass_financial1.head10k.spc --format spc --precondition --out out/default --vcd",
        "Makefile", ("report.json",), quick=True),
    Run("explain", "build/ssdtlm explain flash.t_prog_us --config configs/x25m.json",
        "README.md", quick=True),
    # The currents of the 8-channel drive's current.vcd: a few writes are enough.
    Run("nvme-vcd", "build/ssdtlm --config configs/nvme_tlc_1tb.json --workload "
        "rw=write,bs=4k,qd=1,count=10 --vcd --no-series --quiet --out out/nvme-vcd", None,
        ("current.vcd",), quick=True),
    # Ages the 1 TB drive into the (empty) state cache; the next run loads it from there.
    Run("mixed", "build/ssdtlm --config configs/nvme_tlc_1tb.json --precondition --workload "
        "rw=randrw,mix=0.7,bs=16k,qd=32,count=100000,seed=7 --out out/mixed", "README.md",
        ("report.json",)),
    Run("timeline", "build/ssdtlm --config configs/nvme_tlc_1tb.json --precondition --workload "
        "rw=randrw,mix=0.7,bs=16k,qd=32,count=100000,seed=7 --timeline 10000 --out out/mixed",
        "README.md", ("report.json", "timeline.csv")),
    Run("channel-way", "ssdtlm-sweep sweeps/channel_way.yaml", "README.md", SWEEP_FILES),
    Run("channel-way-reads", "ssdtlm-sweep sweeps/channel_way_reads.yaml", None, SWEEP_FILES),
    Run("controller-cores", "ssdtlm-sweep sweeps/controller_cores.yaml --workers 1", None,
        SWEEP_FILES),
]
RUN_BY_ID = {r.id: r for r in RUNS}


# ---- running -------------------------------------------------------------------------------

def argv_of(run, binary):
    """The command's words, the simulator and the sweep tool named by what this checkout has."""
    words = shlex.split(run.command)
    if words[0] == "build/ssdtlm":
        return [binary] + words[1:]
    assert words[0] == "ssdtlm-sweep", run.command
    return [sys.executable, "-m", "ssdtlm_tools.cli", "sweep"] + words[1:]


def out_dir(run):
    """Where the run writes: its --out, or the sweep's default out/sweeps/<spec name>."""
    words = shlex.split(run.command)
    if "--out" in words:
        return words[words.index("--out") + 1]
    if words[0] == "ssdtlm-sweep":
        return f"out/sweeps/{pathlib.Path(words[1]).stem}"
    return None


def run_one(run, binary, scratch, results):
    """Runs `run` in `scratch`; copies what the figures need to results/<id>/ with its
    stdout and meta.json: the CPU seconds of the process and of its children (the sweep's
    workers and their simulators, from the kernel's wait4), the wall seconds, and the size of
    the state file it stored."""
    cache = scratch / "cache"
    env = dict(os.environ, SSDTLM_STATE_CACHE=str(cache), SSDTLM_BINARY=binary,
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "tools"),
                                                        os.environ.get("PYTHONPATH")])))
    before = set(cache.glob("*.state"))
    res = results / run.id
    res.mkdir(parents=True)
    start = time.monotonic()
    with open(res / "stdout.txt", "w") as out, open(res / "stderr.txt", "w") as err:
        proc = subprocess.Popen(argv_of(run, binary), cwd=scratch, env=env, stdout=out,
                                stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{run.id}: {run.command} exited {proc.returncode}:\n"
                           + (res / "stderr.txt").read_text().strip())
    stdout = res / "stdout.txt"
    stdout.write_text(stdout.read_text().replace(str(cache), HOME_CACHE))
    for name in run.keep:
        shutil.copy(scratch / out_dir(run) / name, res / name)
    meta = {"cpu_s": usage.ru_utime + usage.ru_stime, "wall_s": wall,
            "state_bytes": sum(p.stat().st_size for p in set(cache.glob("*.state")) - before)}
    (res / "meta.json").write_text(json.dumps(meta))
    print(f"readme_figures: {run.id}: {meta['cpu_s']:.1f} CPU s, {wall:.1f} s", file=sys.stderr,
          flush=True)


def run_all(runs, binary, scratch):
    """Runs `runs` in order in `scratch`; returns the folder of their results."""
    results = scratch / "results"
    shutil.rmtree(results, ignore_errors=True)
    results.mkdir(parents=True)
    for name in LINKED:
        if not (scratch / name).exists():
            (scratch / name).symlink_to(ROOT / name)
    try:
        for run in runs:
            run_one(run, binary, scratch, results)
    finally:
        # The aged 1 TB drive is 4.2 GB: not kept past the runs.
        shutil.rmtree(scratch / "cache", ignore_errors=True)
    return results


# ---- the figures ---------------------------------------------------------------------------

class Results:
    """What the runs left in results/<run id>/."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)

    def path(self, run, name):
        return self.folder / run / name

    def stdout(self, run):
        return self.path(run, "stdout.txt").read_text()

    def json(self, run, name):
        return json.loads(self.path(run, name).read_text())

    def report(self, run):
        return self.json(run, "report.json")

    def meta(self, run):
        return self.json(run, "meta.json")

    def csv(self, run, name):
        return pd.read_csv(self.path(run, name))


@dataclasses.dataclass(frozen=True)
class Figure:
    """A figure the README quotes: `text(res)` gives it from the runs' results. `exact`
    figures are checked; the others (times) are rewritten, and --check only notes them.
    `normalise` maps both texts before they are compared (the summary's wall-clock line and
    state file name)."""
    id: str
    runs: tuple
    text: Callable
    exact: bool = True
    normalise: Callable | None = None


def number(value):
    return f"{value:,.0f}"


def sig2(value):
    """Two significant figures, with thousands separators: 169,340 -> '170,000'."""
    return number(float(f"{value:.2g}"))


def pct(fraction):
    return f"{100 * fraction:.0f} %"


def about(seconds):
    """A time rounded coarsely, so a busier machine seldom changes it: 'about 15 s',
    'about a minute', 'about 6 minutes'."""
    if seconds < 10:
        return f"about {seconds:.0f} s"
    if seconds < 50:
        return f"about {5 * round(seconds / 5):.0f} s"
    minutes = round(seconds / 60)
    return "about a minute" if minutes <= 1 else f"about {minutes} minutes"


def block(text):
    """A code block: the marker's own line, the fenced output, the closing marker's line."""
    return "\n```\n" + text.rstrip("\n") + "\n```\n"


def machine_free(text):
    """The summary without what another machine or build prints otherwise: the wall-clock
    line, and the state file's name (its key hashes the simulator's executable)."""
    text = re.sub(r"^( +wall +).*$", r"\1(wall-clock: not compared)", text, flags=re.M)
    return re.sub(r"/[0-9a-f]{32}\.state$", "/(key: not compared).state", text, flags=re.M)


# make run's summary and report.json

def summary(res):
    return block(res.stdout("make-run"))


def explain(res):
    return block("$ " + RUN_BY_ID["explain"].command + "\n" + res.stdout("explain"))


def stages(res):
    """The latency breakdown's stages on a one-core drive."""
    return str(len(res.report("make-run")["latency_breakdown_us"]["read"]["mean"]))


def nvme_currents(res):
    """The 8-channel drive's currents in current.vcd (its traces in the view), which do not fit
    the window: gtkwave_view.py closes the channel groups."""
    vcd = gtkwave_view.read_vcd(str(res.path("nvme-vcd", "current.vcd")))
    layout = gtkwave_view.lay_out(vcd.signals, "current.vcd")
    if gtkwave_view.rows_open(layout) <= gtkwave_view.SCREEN_ROWS:
        raise Stale("the NVMe drive's view fits the window now: its channel groups start open")
    return str(sum(s.endswith("_ma") for s in vcd.signals))


# the aged 1 TB drive: aging it, loading it, and its timeline

def state_gb(res):
    return f"{res.meta('mixed')['state_bytes'] / 1e9:.1f} GB"


def aging_cpu(res):
    return about(res.report("mixed")["precondition"]["cpu_s"])


def loading_cpu(res):
    return f"{res.report('timeline')['precondition']['cpu_s']:.1f} CPU s"


def timeline(res):
    """The --timeline run's story: garbage collection from the first row that copies to the
    last; the dies carrying out its copies after that, while they stay 90 % busy or more; the
    SLC cache's folds after the host's last request."""
    d = res.csv("timeline", "timeline.csv")
    r = res.report("timeline")
    d["iops"] = d["read_iops"] + d["write_iops"]
    copying = d.index[d["gc_pages_copied"] > 0]
    first, last = copying[0], copying[-1]
    before = d.loc[:first - 1]
    during = d.loc[first + 1:last - 1]  # whole rows of copying
    after = d.loc[last + 1:]
    busy_end = after.index[after["dies_busy"] < 0.9][0]
    carry = d.loc[last + 1:busy_end - 1]  # the dies still at the copies
    served = d.index[d["reads"] + d["writes"] > 0][-1]
    folding = d.index[d["slc_pages_folded"] > 0]
    if d.loc[first, "write_buffer_pages"] < 0.95 * r["write_buffer"]["capacity_pages"]:
        raise Stale("the write buffer is not full when garbage collection starts copying")
    if during["iops"].max() >= before["iops"].mean():
        raise Stale("IOPS no longer fall while garbage collection copies")
    if len(folding) == 0 or folding[0] <= served:
        raise Stale("the SLC cache folds before the host's last request")
    return {
        "gc_start": f"{d.loc[first, 't_start_s']:.2f} s",
        "iops_before": sig2(before["iops"].mean()),
        "iops_during": f"{sig2(during['iops'].min())}-{sig2(during['iops'].max())}",
        "p99_during": f"{during['read_p99_us'].median() / 1000:.1f} ms",
        "gc_copies": number(r["gc"]["pages_copied"]),
        "gc_victims": number(r["gc"]["victims"]),
        "gc_last": f"{d.loc[last, 't_start_s']:.2f} s",
        "dies_until": f"{d.loc[busy_end, 't_start_s']:.2f} s",
        "dies_busy": pct(carry["dies_busy"].mean()),
        "controller_busy": pct(carry["controller_busy"].mean()),
        "gc_waited": f"{10 * round(carry['gc_waited'].mean() / 10):,.0f}",
        "folds_from": f"{d.loc[folding[0], 't_start_s']:.2f} s",
    }


# the sweeps

def sweep_counts(res):
    d = res.csv("channel-way", "results.csv")
    return f"{len(d)} runs, {d['sweep.key'].nunique()} distinct points"


def finding(res, run, workload, row="iops"):
    f = res.json(run, "findings.json")
    w = next(w for w in f["workloads"] if w["workload"] == workload)
    return next(r for r in w["rows"] if r["id"] == row)


def write_alike(res):
    """4 KiB random writes on the channel/way splits: the same IOPS on each, the dies busy."""
    row = finding(res, "channel-way", "randwrite-4k")
    b = row["best"]["bottleneck"]
    if not row["tie"]:
        raise Stale("the four splits no longer write 4 KiB alike")
    if describe.resource_kind(b["name"]) != "die" or b["busy"] < 0.9:
        raise Stale("4 KiB writes are no longer bound by the dies")
    return f"{row['best']['text']} IOPS each, the dies {pct(b['dies_busy_mean'])} busy"


def split_iops(res):
    """Random-read IOPS of each split, mean over the repetitions, in sweep order."""
    d = res.csv("channel-way-reads", "results.csv")
    d = d[d["sweep.workload"] == "randread-4k"]
    return d.groupby("sweep.label", sort=False)["iops"].mean()


def reads_by_split(res):
    iops = split_iops(res)
    if not iops.is_monotonic_increasing:
        raise Stale("random-read IOPS no longer grow with the channels")
    return ", ".join(f"{number(v)} on {label.split('case_')[-1]}" for label, v in iops.items())


def waited(b):
    """'a channel bus (ch0) 55 % busy; its reads spent 52 % of their latency waiting for the
    core, blocked on flash' from a finding's bottleneck."""
    kind = describe.resource_kind(b["name"])
    name = {"controller": "the controller", "channel bus": f"a channel bus ({b['name']})",
            "die": f"a die ({b['name']})", "host link": f"the host link ({b['name']})"}.get(
                kind, b["name"])
    w = b["waited"]
    return (f"{name}, {pct(b['busy'])} busy, and its reads spent {pct(w['share'])} of their "
            f"latency ({w['stage']}) waiting for {w['for']}")


def reads_worst(res):
    row = finding(res, "channel-way-reads", "randread-4k")
    if row["worst"]["label"] != "config=case_2x8":
        raise Stale("2x8 is no longer the slowest split under random reads")
    return waited(row["worst"]["bottleneck"])


def reads_best(res):
    row = finding(res, "channel-way-reads", "randread-4k")
    if row["best"]["label"] != "config=case_16x1":
        raise Stale("16x1 is no longer the fastest split under random reads")
    return waited(row["best"]["bottleneck"])


WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
         8: "eight"}


def cheapest_points(res, kind):
    """(cores, clock in MHz) of the cheapest point of each controller_cores workload whose
    name starts with one of `kind`: the fewest cores at the lowest clock within 5 % of the
    best (findings.json's `cheapest`)."""
    f = res.json("controller-cores", "findings.json")
    sets = {r["label"]: dict(o.split("=", 1) for o in r["overrides"])
            for r in res.json("controller-cores", "sweep.json")["runs"]}
    out = []
    for w in f["workloads"]:
        if w["workload"].startswith(kind):
            s = sets[w["cheapest"]["cheapest"]["label"]]  # the point's --set values
            out.append((max(1, len(json.loads(s["controller.cores"]))),
                        json.loads(s["controller.clock_mhz"])))
    return out


def cores_text(cores, unit):
    lo, hi = min(cores), max(cores)
    text = WORDS[lo] if lo == hi else f"{WORDS[lo]} to {WORDS[hi]}"
    return f"{text} {unit if hi == 1 else unit + 's'}" if unit else text


def cores_answer(res):
    """The controller_cores answer: the cheapest points for reads and for the write bursts."""
    reads = cheapest_points(res, ("seqread", "randread"))
    writes = cheapest_points(res, ("randwrite",))
    clocks = sorted({mhz for _, mhz in reads})
    clock = (f"{clocks[0]} MHz" if len(clocks) == 1 else f"{clocks[0]} to {clocks[-1]} MHz")
    return (f"{cores_text([c for c, _ in reads], 'core')} at {clock} for reads, "
            f"{cores_text([c for c, _ in writes], '')} for write bursts")


def sweep_cpu(run):
    return lambda res: about(res.meta(run)["cpu_s"])


FIGURES = [
    Figure("stages", ("make-run",), stages),
    Figure("explain", ("explain",), explain),
    Figure("state_gb", ("mixed",), state_gb),
    Figure("aging_cpu", ("mixed",), aging_cpu, exact=False),
    Figure("loading_cpu", ("timeline",), loading_cpu, exact=False),
    Figure("summary", ("make-run",), summary, normalise=machine_free),
    Figure("read_p999", ("make-run",),
           lambda res: f"{res.report('make-run')['latency_us']['read']['p999'] / 1000:.0f} ms"),
    Figure("peak_spike", ("make-run",),
           lambda res: f"{res.report('make-run')['time_at_peak_s'] * 1e9:.0f} ns"),
    Figure("nvme_currents", ("nvme-vcd",), nvme_currents),
    *[Figure(key, ("timeline",), lambda res, key=key: timeline(res)[key])
      for key in ("gc_start", "iops_before", "iops_during", "p99_during", "gc_copies",
                  "gc_victims", "gc_last", "dies_until", "dies_busy", "controller_busy",
                  "gc_waited", "folds_from")],
    Figure("sweep_counts", ("channel-way",), sweep_counts),
    Figure("sweep_cpu", ("channel-way",), sweep_cpu("channel-way"), exact=False),
    Figure("write_alike", ("channel-way",), write_alike),
    Figure("reads_cpu", ("channel-way-reads",), sweep_cpu("channel-way-reads"), exact=False),
    Figure("reads_by_split", ("channel-way-reads",), reads_by_split),
    Figure("reads_worst", ("channel-way-reads",), reads_worst),
    Figure("reads_best", ("channel-way-reads",), reads_best),
    Figure("cores_answer", ("controller-cores",), cores_answer),
    Figure("cores_cpu", ("controller-cores",), sweep_cpu("controller-cores"), exact=False),
]
FIGURE_BY_ID = {f.id: f for f in FIGURES}


# ---- the README ----------------------------------------------------------------------------

def spans(text):
    """{figure id: its text in the README}; a figure marked twice, or a marker the script does
    not know, is an error, as is an inline marker at the start of a line, indented or not
    (Markdown would take it for a block of HTML and end the paragraph or list item there)."""
    out, errors = {}, []
    for m in SPAN.finditer(text):
        fid, value = m.group(1), m.group(2)
        if fid in out:
            errors.append(f"{fid}: marked twice")
        if fid not in FIGURE_BY_ID:
            errors.append(f"{fid}: no such figure in tools/readme_figures.py")
        line_start = not text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip()
        if line_start and not value.startswith("\n"):
            errors.append(f"{fid}: an inline figure at the start of a line")
        out[fid] = value
    errors += [f"{f.id}: not marked in the README" for f in FIGURES if f.id not in out]
    return out, errors


def comparable(fig, text):
    """What of a figure's text is compared: a block's lines as they are, but for what its
    `normalise` leaves out; an inline figure's words, however the prose wraps them."""
    if fig is not None and fig.normalise:
        return fig.normalise(text)
    return text if text.startswith("\n") else " ".join(text.split())


def rewrite(text, values):
    """The README with each marked figure in `values` replaced, but where the two differ only
    in what `comparable` leaves out (the summary's wall-clock line and state file name, the
    wrapping of a figure's words): no churn."""
    def new(m):
        fid, old = m.group(1), m.group(2)
        value = values.get(fid, old)
        fig = FIGURE_BY_ID.get(fid)
        if comparable(fig, value) == comparable(fig, old):
            value = old
        return f"<!--fig:{fid}-->{value}<!--/fig-->"
    return SPAN.sub(new, text)


def flat(text):
    """A command as a shell reads it: continuation lines joined, runs of blanks as one."""
    return " ".join(re.sub(r"\\\n", " ", text).split())


def commands_not_shown(runs, readme_text):
    """The runs whose command the README (or the Makefile) no longer shows."""
    shown = {"README.md": flat(readme_text),
             "Makefile": flat(MAKEFILE.read_text().replace("$(BUILD)", "build")
                              .replace("$(OUT)", "out/default"))}
    return [f"{r.id}: {r.shown_in} no longer shows the command `{r.command}`: run what it shows "
            "(RUNS in tools/readme_figures.py)"
            for r in runs if r.shown_in and r.command not in shown[r.shown_in]]


def evaluate(figures, res):
    """{figure id: its text from the runs} and the figures whose sentence no longer holds."""
    values, stale = {}, []
    for fig in figures:
        try:
            values[fig.id] = fig.text(res)
        except Stale as e:
            stale.append(f"{fig.id}: {e}: rewrite its sentence in the README (and the figure "
                         "in tools/readme_figures.py)")
    return values, stale


def differences(figures, readme, values):
    """(failures, notes): a line for each exact figure whose README text differs from the
    run's, and one for each time that does."""
    failures, notes = [], []
    for fig in figures:
        if fig.id not in values or fig.id not in readme:
            continue
        old, new = comparable(fig, readme[fig.id]), comparable(fig, values[fig.id])
        if old == new:
            if fig.normalise and readme[fig.id] != values[fig.id]:
                notes.append(f"{fig.id}: differs only where another machine or build would")
            continue
        if "\n" in old or "\n" in new:
            diff = difflib.unified_diff(old.splitlines(), new.splitlines(),
                                        "README.md", "the run", lineterm="", n=0)
            said = f"{fig.id}: the README and the run differ:\n" + "\n".join(
                line for line in diff if not line.startswith("@@"))
        else:
            said = f"{fig.id}: the README says '{old}', the run gives '{new}'"
        (failures if fig.exact else notes).append(
            said + ("" if fig.exact else " (a time: not checked)"))
    return failures, notes


def retake_picture(binary):
    """docs/img/gtkwave.png from a real GTKWave window (tools/gtkwave_screenshot.sh)."""
    subprocess.run([str(ROOT / "tools" / "gtkwave_screenshot.sh"), "build", str(PICTURE)],
                   check=True, env=dict(os.environ, SSDTLM_BINARY=binary))


def main(argv=None):
    ap = validate.parser(__doc__)
    ap.add_argument("--check", action="store_true",
                    help="change nothing; exit 1 naming each figure the README quotes that the "
                         "runs no longer give")
    ap.add_argument("--quick", action="store_true",
                    help="only the runs of seconds (make run's, explain, the NVMe VCD); the "
                         "other figures are left as they are")
    ap.add_argument("--readme", default=str(README),
                    help="the README to check or rewrite (default README.md)")
    ap.add_argument("--pictures", action="store_true",
                    help="also retake docs/img/gtkwave.png (tools/gtkwave_screenshot.sh)")
    ap.add_argument("--keep", help="run in this folder and keep what the runs wrote")
    ap.add_argument("--results", help="take the figures from the results/ folder of an earlier "
                                      "--keep instead of running")
    args = ap.parse_args(argv)
    if not args.results or args.pictures:
        validate.need_binary(ap, args.binary)
    if args.check and args.pictures:
        ap.error("--pictures rewrites docs/img/gtkwave.png: not with --check")
    runs = [r for r in RUNS if r.quick or not args.quick]
    figures = [f for f in FIGURES if all(RUN_BY_ID[r] in runs for r in f.runs)]
    readme_path = pathlib.Path(args.readme)
    text = readme_path.read_text()
    readme, errors = spans(text)
    errors += commands_not_shown(runs, text)
    if errors:
        for line in errors:
            print(f"readme_figures: {line}", file=sys.stderr)
        return 1
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="readme-figures-") as tmp:
        if args.results:
            res = Results(args.results)
        else:
            scratch = pathlib.Path(args.keep or tmp)
            scratch.mkdir(parents=True, exist_ok=True)
            try:
                res = Results(run_all(runs, str(pathlib.Path(args.binary).resolve()), scratch))
            except RuntimeError as e:
                sys.exit(f"readme_figures: {e}")
        values, stale = evaluate(figures, res)
    failures, notes = differences(figures, readme, values)
    left = [f.id for f in FIGURES if f not in figures]
    for line in notes:
        print(f"readme_figures: note: {line}", file=sys.stderr)
    if left:
        print(f"readme_figures: not run (--quick): {', '.join(left)}", file=sys.stderr)
    if args.check:
        for line in stale + failures:
            print(f"readme_figures: {line}", file=sys.stderr)
        print(f"readme_figures: {len(figures)} figures of {len(FIGURES)} from "
              f"{len(runs)} runs in {time.monotonic() - start:.1f} s: "
              f"{len(failures)} changed, {len(stale)} no longer borne out", file=sys.stderr)
        if failures:
            print("readme_figures: regenerate them: python3 tools/readme_figures.py "
                  "(docs/developing.md#the-readmes-figures)", file=sys.stderr)
        return 1 if failures or stale else 0
    text = readme_path.read_text()  # as it is now: edited while the runs ran, perhaps
    new = rewrite(text, values)
    if new != text:
        readme_path.write_text(new)
    for line in failures:
        print(f"readme_figures: rewrote {line}", file=sys.stderr)
    if args.pictures:
        retake_picture(str(pathlib.Path(args.binary).resolve()))
    for line in stale:
        print(f"readme_figures: {line}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
