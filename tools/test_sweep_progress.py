"""A sweep's progress (the console, each point's file and log) and its aged drives
(each preconditioned once, fill levels each aged, points on one aged drive on every worker).
Run with: python3 -m pytest tools/test_sweep_progress.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import io
import json
import os
import shutil
import subprocess
import sys

from ssdtlm_tools import sweep
from sweep_testlib import BINARY, CONFIG, ROOT, write_spec


def test_progress_durations():
    assert [sweep.duration(x) for x in (4.4, 65, 7620)] == ["4 s", "1 min 05 s", "2 h 07 min"]


def test_progress_prints_running_points():
    """Off a terminal: a running point's line once, then at most every every_s seconds."""
    stream = io.StringIO()
    p = sweep.Progress(3, stream=stream, every_s=3600)
    p.running({"a / w": "100/1000 requests (10 %), simulated 0.1 s"})
    p.running({"a / w": "200/1000 requests (20 %), simulated 0.2 s"})  # too soon
    p.update(True)
    lines = stream.getvalue().splitlines()
    assert lines == ["ssdtlm-sweep: running a / w: 100/1000 requests (10 %), simulated 0.1 s",
                     lines[1]]
    assert lines[1].startswith("ssdtlm-sweep: 1/3 points, 0 failed")


def test_progress_on_a_terminal_redraws_one_line_with_every_running_point():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    p = sweep.Progress(2, stream=stream)
    p.running({"a / w": "100/1000 requests (10 %), simulated 0.1 s"})
    assert stream.getvalue().startswith("\r[") and "a / w: 100/1000 requests (10 %)" in \
        stream.getvalue()
    p.running({"a / w": "200/1000 requests (20 %), simulated 0.2 s",
               "b / w": "300 requests, simulated 0.3 s"})
    last = stream.getvalue().split("\r")[-1]
    assert "0/2 points" in last and "| a / w: 20 %; b / w: 300 requests" in last
    assert "\n" not in stream.getvalue()  # redrawn in place
    p.update(True)
    p.update(True)
    assert stream.getvalue().endswith("\n") and "2/2 points" in stream.getvalue()


def test_point_progress_goes_to_its_file_and_warnings_to_its_log(tmp_path):
    """With --progress ssdtlm draws its progress line on a pipe too: the line goes to
    progress.txt and the warnings to log.txt."""
    log_path = tmp_path / "log.txt"
    with open(log_path, "w") as log:
        rc = sweep.run_with_progress(
            [BINARY, "--config", CONFIG, "--workload", "rw=randread,bs=4k,count=1000",
             "--no-series", "--progress", "--out", str(tmp_path / "out")], str(tmp_path), log,
            str(tmp_path / "progress.txt"))
    assert rc == 0
    assert (tmp_path / "progress.txt").read_text().startswith("1000/1000 requests (100 %)")
    log = log_path.read_text()
    assert "ssdtlm: warning: 1000 of 1000 page reads" in log
    assert not [line for line in log.splitlines() if sweep.PROGRESS_RE.match(line)]
    assert "requests   1000 (read 1000" in log and "\r" not in log  # the summary, on stdout


def test_an_error_after_a_progress_line_goes_to_the_log(tmp_path):
    """An error printed while the progress line is drawn (no line break between them) is the
    log's, not lost in progress.txt."""
    log_path = tmp_path / "log.txt"
    with open(log_path, "w") as log:
        rc = sweep.run_with_progress(
            ["sh", "-c", "printf '\\r5/9 requests (55 %%), simulated 1 s' >&2; "
             "printf 'ssdtlm: error: /ssdtlm/controller: stuck\\n' >&2; exit 1"],
            str(tmp_path), log, str(tmp_path / "progress.txt"))
    assert rc == 1
    assert (tmp_path / "progress.txt").read_text() == "5/9 requests (55 %), simulated 1 s\n"
    assert log_path.read_text() == "ssdtlm: error: /ssdtlm/controller: stuck\n"


def test_running_progress_reads_the_staging_directories(tmp_path):
    """The client's side: the progress of the points running now, by key; a finished point's
    file and other sweeps' keys are not read."""
    (tmp_path / ".aaaa.1234.tmp").mkdir()
    (tmp_path / ".aaaa.1234.tmp" / sweep.PROGRESS).write_text("5/10 requests (50 %), x\n")
    (tmp_path / ".bbbb.5678.tmp").mkdir()  # started, no progress line yet
    (tmp_path / ".cccc.9abc.tmp").mkdir()
    (tmp_path / ".cccc.9abc.tmp" / sweep.PROGRESS).write_text("1/10 requests (10 %), x\n")
    (tmp_path / "dddd").mkdir()
    (tmp_path / "dddd" / sweep.PROGRESS).write_text("10/10 requests (100 %), x\n")
    got = sweep.running_progress(str(tmp_path), {"aaaa": "a", "bbbb": "b", "dddd": "d"})
    assert got == {"aaaa": "5/10 requests (50 %), x"}


def test_sweep_console_shows_a_running_points_progress(tmp_path, capsys):
    """End to end: a point of a few seconds (a progress line every 16384 requests, at most
    twice a second) shows its progress on the console before it ends."""
    spec = write_spec(tmp_path / "spec.json", axes={"product": {"flash.t_prog_us": [500]}},
                      workloads=[{"name": "long",
                                  "workload": "rw=randwrite,bs=4k,qd=32,count=1000000"}])
    sweep.run_sweep(spec, str(tmp_path / "out"), BINARY, workers=1, report=False,
                    progress_every_s=0, poll_s=0.1)
    err = capsys.readouterr().err
    assert "ssdtlm-sweep: running t_prog_us=500 / long: " in err, err
    assert "/1000000 requests (" in err


def test_points_on_one_drive_precondition_once(tmp_path):
    """Four points that age the same drive alike, on two configs that differ in a key that
    does not shape the aged drive (a timing): it is preconditioned once (one state file, in
    the simulator's state cache), each point starts from it (--load-state), and a point's
    report is the one its run preconditioning in the process gives, but for where the aged
    drive came from."""
    small = str(ROOT / "configs" / "small_gc.json")
    spec = write_spec(tmp_path / "spec.json", config=small,
                      axes={"product": {"flash.t_read_us": [25, 50]}},
                      workloads=[{"name": "reads", "workload": "rw=randread,bs=4k,count=300"},
                                 {"name": "mix", "workload": "rw=randrw,bs=4k,count=300"}],
                      args=["--precondition", "--precondition-random", "0.5"])
    out = tmp_path / "out"
    results, failed = sweep.run_sweep(spec, str(out), BINARY, workers=1, report=False)
    assert not failed and len(results) == 4
    states = list((out / "states").glob("*.state"))
    assert len(states) == 1
    for key, status in results.items():
        assert "--precondition" not in status["command"]
        assert status["command"][status["command"].index("--load-state") + 1] == str(states[0])
        point = out / "points" / key
        direct = tmp_path / "direct" / key
        direct.mkdir(parents=True)
        shutil.copy(point / "config.json", direct / "config.json")
        flag = {"workload": "--workload"}[status["input_kind"]]
        subprocess.run([BINARY, "--config", "config.json", flag, status["input"], "--out", "run",
                        "--reproducible", "--quiet", "--no-state-cache"] + status["args"],
                       cwd=direct, check=True)
        want = json.loads((direct / "run" / "report.json").read_text())
        got = json.loads((point / "report.json").read_text())
        assert got["provenance"].pop("aged_drive") == {"from": "file", "file": str(states[0])}
        assert want["provenance"].pop("aged_drive")["from"] == "preconditioned"
        assert got == want
    # The two configs ran with their own timing on the one aged drive.
    reads = {s["overrides"][0]: s["key"] for s in results.values() if s["workload"] == "reads"}
    assert len(reads) == 2 and len(set(reads.values())) == 2
    # A second sweep into the same directory finds the drive there and ages nothing.
    before = states[0].stat().st_ino
    shutil.rmtree(out / "points")
    results, failed = sweep.run_sweep(spec, str(out), BINARY, workers=1, report=False)
    assert not failed and len(results) == 4
    assert [p.stat().st_ino for p in (out / "states").glob("*.state")] == [before]


def test_fill_levels_age_a_drive_each(tmp_path):
    """Workloads at two fill levels (--precondition-fill in their args) age two drives, each
    in the aging step: the points' runs start from them and carry no preconditioning option
    (the simulator refuses --precondition-fill without --precondition)."""
    small = str(ROOT / "configs" / "small_gc.json")
    spec = write_spec(tmp_path / "spec.json", config=small,
                      axes={"product": {"flash.t_read_us": [25]}},
                      workloads=[{"name": f"fill{f}", "workload": "rw=randread,bs=4k,count=300",
                                  "args": ["--precondition-fill", f"0.{f}"]} for f in (3, 6)],
                      args=["--precondition", "--precondition-random", "0"])
    out = tmp_path / "out"
    results, failed = sweep.run_sweep(spec, str(out), BINARY, workers=1, report=False)
    assert not failed and len(results) == 2
    assert len(list((out / "states").glob("*.state"))) == 2
    for status in results.values():
        assert not any(a.startswith("--precondition") for a in status["command"])
    flash = {s["workload"]: json.loads((out / "points" / k / "report.json").read_text())
             ["flash_ops"]["read"] for k, s in results.items()}
    assert flash["fill3"] < flash["fill6"], "the fuller drive has more of its reads mapped"


# Stands in for ssdtlm: a point's run (--progress) first waits, up to a minute, for the
# other point's run to start too, and notes it if that never happens; everything is then the
# simulator's.
BARRIER_BINARY = """#!{python}
import os, sys, time
if "--progress" in sys.argv:
    open(os.path.join({barrier!r}, str(os.getpid())), "w").close()
    deadline = time.time() + 60
    while len(os.listdir({barrier!r})) < 2 and time.time() < deadline:
        time.sleep(0.05)
    if len(os.listdir({barrier!r})) < 2:
        open({barrier!r} + ".alone", "w").close()
os.execv({binary!r}, [{binary!r}] + sys.argv[1:])
"""


def test_points_on_one_aged_drive_run_on_every_worker(tmp_path):
    """Two points that start from one saved state, on 2 workers with Dask's work stealing
    off: both run at once (each one's run waits for the other's to start), so the scheduler
    placed them on both workers, not both where the state was made."""
    import dask

    barrier = tmp_path / "barrier"
    barrier.mkdir()
    fake = tmp_path / "ssdtlm"
    fake.write_text(BARRIER_BINARY.format(python=sys.executable, barrier=str(barrier),
                                          binary=BINARY))
    fake.chmod(0o755)
    spec = write_spec(tmp_path / "spec.json", config=str(ROOT / "configs" / "small_gc.json"),
                      axes={}, workloads=[{"name": "reads",
                                           "workload": "rw=randread,bs=4k,count=300"}],
                      args=["--precondition", "--precondition-random", "0.5"], repetitions=2)
    with dask.config.set({"distributed.scheduler.work-stealing": False}):
        results, failed = sweep.run_sweep(spec, str(tmp_path / "out"), str(fake), workers=2,
                                          report=False)
    assert not failed and len(results) == 2
    assert len(os.listdir(barrier)) == 2
    assert not (tmp_path / "barrier.alone").exists(), "the two points ran one after the other"
