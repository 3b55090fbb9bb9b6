"""ssdtlm-sweep end to end: a 2x2 sweep on a LocalCluster of 2 workers (table, plots, HTML
checked in headless Chromium, readable figures), reruns after an interruption run only the
missing points, Ctrl-C and kill -9, a failing point is reported while the others finish.
Run with: python3 -m pytest tools/test_sweep.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import hashlib
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from ssdtlm_tools import cli, plot, sweep, table
from ssdtlm_tools import spec as specmod
from sweep_testlib import (
    BINARY,
    SMALL,
    TOOLS,
    assert_readable,
    open_in_chromium,
    run_cli,
    write_spec,
)


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """The 2x2 sweep, run once through the command line on a LocalCluster of 2 workers."""
    assert os.access(BINARY, os.X_OK), f"{BINARY}: no simulator (build it, or set SSDTLM_BINARY)"
    d = tmp_path_factory.mktemp("sweep")
    spec = write_spec(d / "spec.json", repetitions=2, seeds=[3, 4])
    r = run_cli(spec, "--out", str(d / "out"), "--workers", "2")
    assert r.returncode == 0, r.stderr
    return d / "out", r.stderr


def test_table_has_every_run_and_report_field(swept):
    out, log = swept
    assert "8 runs, 8 distinct points, 0 already done, 8 to run" in log
    csv = pd.read_csv(out / "results.csv")
    parquet = pd.read_parquet(out / "results.parquet")
    assert len(csv) == len(parquet) == 8  # 2 x 2 configs x 2 repetitions
    # The long table: each run's numeric figures, one a row, as the wide table has them.
    tidy = pd.read_parquet(out / "results_long.parquet")
    assert list(tidy.columns[-2:]) == ["field", "value"]
    assert set(tidy["sweep.key"]) == set(csv["sweep.key"])
    for field in ("iops", "latency_us.write.p99", "energy_total_j"):
        got = tidy[tidy["field"] == field].set_index("sweep.key")["value"]
        assert got.to_dict() == pytest.approx(parquet.set_index("sweep.key")[field].to_dict())
    assert "drive.ftl" not in set(tidy["field"])  # a text stays in the wide table
    assert csv["sweep.ok"].all()
    assert sorted(set(zip(csv["param.ftl.type"], csv["param.flash.t_prog_us"]))) == [
        ("dftl", 500), ("dftl", 900), ("page", 500), ("page", 900)]
    assert (csv["drive.ftl"] == csv["param.ftl.type"]).all()
    assert sorted(csv["sweep.seed"].unique()) == [3, 4]
    for _, row in csv.iterrows():
        point = out / "points" / row["sweep.key"]
        report = json.loads((point / "report.json").read_text())
        flat = table.flatten(report)
        assert set(flat) <= set(csv.columns)
        assert row["requests.count"] == report["requests"]["count"] == 2000
        assert row["flows.host.requests"] == 2000  # one flow: the workload string
        # No host translation layer: the end-to-end write amplification is the drive's.
        assert "waf_end_to_end" not in report and row["waf_end_to_end"] == row["waf"]
        # The config written beside the result is the one the run's provenance digests.
        digest = hashlib.sha256((point / "config.json").read_bytes()).hexdigest()
        assert row["provenance.config_sha256"] == digest
        assert row["provenance.config"] == "config.json" and row["sweep.wall_s"] > 0
        assert f"seed={row['sweep.seed']}" in report["workload"]
    # 900 us programs are slower than 500 us ones for both FTLs.
    mean = csv.groupby(["param.ftl.type", "param.flash.t_prog_us"])["latency_us.write.mean"].mean()
    for ftl in ("page", "dftl"):
        assert mean[(ftl, 900)] > mean[(ftl, 500)]


def test_plots_and_html(swept):
    out, _ = swept
    for fid in plot.FIGURES:
        assert (out / "plots" / f"{fid}.png").stat().st_size > 1000, fid
    page = (out / "report.html").read_text()
    for fid in plot.FIGURES:
        assert f"id='fig-{fid}'" in page
    assert "data:image/png;base64," in page and "t2x2" in page
    assert "src='http" not in page and 'src="http' not in page  # self-contained


def test_plot_picks_figures_and_writes_svg_and_pdf(swept, capsys):
    out, _ = swept
    assert cli.plot_main([str(out), "--figures", "pareto,latency_cdf", "--format", "svg"]) == 0
    printed = capsys.readouterr().out.split()
    assert sorted(os.path.basename(p) for p in printed) == ["latency_cdf.svg", "pareto.svg"]
    assert (out / "plots" / "pareto.svg").read_text().lstrip().startswith("<?xml")
    assert cli.plot_main([str(out), "--figures", "current", "--format", "pdf"]) == 0
    assert (out / "plots" / "current.pdf").read_bytes().startswith(b"%PDF")
    assert not (out / "plots" / "normalised.svg").exists()
    assert cli.plot_main([str(out), "--figures", "paretto"]) == 2
    assert 'paretto: no such figure' in capsys.readouterr().err
    assert cli.plot_main([str(out), "--html", "--format", "svg"]) == 2


def test_chromium_detects_console_errors(tmp_path):
    """The check below would see a broken page: a script error reaches the console log."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>")
    _, console = open_in_chromium(bad, tmp_path)
    assert any("undefinedFunction" in line for line in console), console


def test_html_renders_in_headless_chromium(swept, tmp_path):
    out, _ = swept
    dom, console = open_in_chromium(out / "report.html", tmp_path)
    assert not console, console
    n = len(plot.FIGURES)
    assert f'data-figures="{n}"' in dom and f'data-figures-loaded="{n}"' in dom, dom[:2000]
    assert "<table id=\"results\">" in dom and dom.count("<tr>") > 8


def test_rerun_runs_only_missing_points(swept, tmp_path):
    out, _ = swept
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    keys = sorted(p.name for p in (copy / "points").iterdir() if p.name != "failed")
    shutil.rmtree(copy / "points" / keys[0])                      # a point never finished
    (copy / "points" / f".{keys[1]}.dead.tmp").mkdir()            # a kill -9 mid-point
    before = {k: (copy / "points" / k / "report.json").stat().st_mtime_ns for k in keys[1:]}
    # On an existing cluster this time (--scheduler ADDRESS).
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        results, failed = sweep.run_sweep(str(out / "spec.json"), str(copy), BINARY,
                                          scheduler=cluster.scheduler_address, report=False)
    assert list(results) == [keys[0]] and not failed
    assert not (copy / "points" / f".{keys[1]}.dead.tmp").exists()
    for k, mtime in before.items():
        assert (copy / "points" / k / "report.json").stat().st_mtime_ns == mtime


def start_six_points(tmp_path, count, workers, stderr):
    """A sweep of 6 points of `count` random writes each started in its own process group
    (to be signalled whole): (spec, out, the process)."""
    spec = write_spec(tmp_path / "spec.json", workloads=[
        {"name": "w", "workload": f"rw=randwrite,bs=4k,qd=32,count={count}"}],
        axes={"product": {"flash.t_prog_us": [300, 400, 500, 600, 700, 800]}})
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    proc = subprocess.Popen([sys.executable, "-m", "ssdtlm_tools.cli", "sweep", spec,
                             "--out", str(out), "--binary", BINARY, "--workers", str(workers),
                             "--no-report"],
                            stdout=subprocess.DEVNULL, stderr=stderr, text=True, env=env,
                            start_new_session=True)
    return spec, out, proc


def test_kill_9_resumes_with_nothing_lost(tmp_path):
    """A sweep killed with SIGKILL (its workers and simulations with it) keeps every point it
    finished; the rerun runs the others and nothing more."""
    spec, out, proc = start_six_points(tmp_path, 20000, workers=1, stderr=subprocess.DEVNULL)
    points = out / "points"

    def finished():
        return [p for p in points.glob("*/point.json") if p.parent.name != "failed"]

    deadline = time.time() + 120
    while not finished() and time.time() < deadline:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)
    done = len(finished())
    assert 1 <= done < 6, "the sweep finished before it could be killed: make points slower"
    r = run_cli(spec, "--out", str(out), "--workers", "1", "--no-report")
    assert r.returncode == 0, r.stderr
    assert f"6 distinct points, {done} already done, {6 - done} to run" in r.stderr
    assert len(finished()) == 6
    assert not list(points.glob(".*.tmp"))


def test_ctrl_c_stops_quietly_and_resumes(tmp_path):
    """Ctrl-C (SIGINT to the sweep's process group, as a terminal sends it) stops the sweep,
    its workers and their simulations with one line saying what was kept: no traceback, exit
    130; the rerun runs the other points."""
    spec, out, proc = start_six_points(tmp_path, 400000, workers=2, stderr=subprocess.PIPE)
    points = out / "points"
    deadline = time.time() + 120
    while not list(points.glob("*/point.json")) and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    done = len([p for p in points.glob("*/point.json") if p.parent.name != "failed"])
    assert 1 <= done < 6, "the sweep finished before it could be stopped: make points slower"
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "WARNING" not in err, err
    assert err.splitlines()[-1] == (
        f"ssdtlm-sweep: interrupted: {done} of 6 distinct points done, kept in {points}; "
        f"the same command runs the other {6 - done}")
    # No process of the sweep runs on (a simulation started as Ctrl-C came, say): its group
    # empties, once init has reaped the worker processes left as zombies.
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail(subprocess.run(["ps", "-o", "pid,stat,etime,args", "-g", str(proc.pid)],
                                   capture_output=True, text=True, check=False).stdout)
    r = run_cli(spec, "--out", str(out), "--workers", "2", "--no-report")
    assert r.returncode == 0, r.stderr
    assert f"6 distinct points, {done} already done, {6 - done} to run" in r.stderr


def test_failing_point_is_reported_and_the_rest_finish(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("time_ns,op,offset,length\n0,write,0,4096\nthis is not a record\n")
    spec = write_spec(tmp_path / "spec.json", axes={"product": {"ftl.type": ["page", "dftl"]}},
                      workloads=[{"name": "good", "workload": SMALL},
                                 {"name": "bad", "trace": str(bad), "args": ["--format", "csv"]}])
    r = run_cli(spec, "--out", str(tmp_path / "out"), "--workers", "2")
    assert r.returncode == 1, r.stderr
    assert r.stderr.count("ssdtlm-sweep: failed: ") == 2
    csv = pd.read_csv(tmp_path / "out" / "results.csv")
    assert list(csv.groupby("sweep.workload")["sweep.ok"].all().sort_index()) == [False, True]
    manifest = json.loads((tmp_path / "out" / "sweep.json").read_text())
    for f in manifest["failed"]:
        assert "bad.csv" in pathlib.Path(f["log"]).read_text()
    assert "Failed points" in (tmp_path / "out" / "report.html").read_text()


def test_second_sweep_into_a_busy_directory_is_refused(tmp_path):
    spec = write_spec(tmp_path / "spec.json")
    (tmp_path / "out").mkdir()
    held = sweep.lock_out_dir(str(tmp_path / "out"))
    try:
        with pytest.raises(specmod.SpecError, match="another ssdtlm-sweep is running"):
            sweep.run_sweep(spec, str(tmp_path / "out"), BINARY, workers=1, report=False)
    finally:
        held.close()


def test_figures_are_readable_at_the_shipped_size(swept):
    assert_readable(swept[0], table.build(str(swept[0])))
