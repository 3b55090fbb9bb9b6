"""ssdtlm-sweep end to end: a 2x2 sweep on a LocalCluster of 2 workers (table, plots, HTML
checked in headless Chromium), reruns after an interruption run only the missing points,
spec errors name the key, a failing point is reported while the others finish.
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

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
BINARY = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))
CONFIG = str(ROOT / "configs" / "case_4x4.json")
SMALL = "rw=randwrite,bs=4k,qd=32,count=2000"


def write_spec(path, **overrides):
    spec = {
        "name": "t2x2",
        "config": CONFIG,
        "axes": {"product": {"ftl.type": ["page", "dftl"], "flash.t_prog_us": [500, 900]}},
        "workloads": [{"name": "randwrite", "workload": SMALL}],
    }
    spec.update(overrides)
    path.write_text(json.dumps(spec))
    return str(path)


def run_cli(*args, **kw):
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    return subprocess.run([sys.executable, "-m", "ssdtlm_tools.cli", "sweep", *args,
                           "--binary", BINARY],
                          capture_output=True, text=True, env=env, check=False, **kw)


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
        # The config written beside the result is the one the run's provenance digests.
        digest = hashlib.sha256((point / "config.json").read_bytes()).hexdigest()
        assert row["provenance.config_sha256"] == digest
        assert row["provenance.config"] == "config.json" and row["sweep.wall_s"] > 0
        assert f"seed={row['sweep.seed']}" in report["workload"]
    # 900 us programs are slower than 500 us ones for both FTLs.
    mean = csv.groupby(["param.ftl.type", "param.flash.t_prog_us"])["latency_us.write.mean"].mean()
    for ftl in ("page", "dftl"):
        assert mean[(ftl, 900)] > mean[(ftl, 500)]


def test_flows_become_columns_by_name(tmp_path):
    """A workload file's jobs are flows: each gets its own columns, keyed by the job's name,
    so a sweep can plot one tenant's p99.9 against its neighbour's load."""
    jobs = {"jobs": [{"name": "reader", "rw": "randread", "bs": "4k", "qd": 1, "count": 50},
                     {"name": "writer", "rw": "randwrite", "bs": "4k", "qd": 64, "count": 500}]}
    (tmp_path / "w.json").write_text(json.dumps(jobs))
    subprocess.run([BINARY, "--config", CONFIG, "--workload-file", str(tmp_path / "w.json"),
                    "--quiet", "--no-series", "--out", str(tmp_path / "out")], check=True)
    flat = table.flatten(json.loads((tmp_path / "out" / "report.json").read_text()))
    assert flat["flows.reader.latency_us.read.count"] == 50
    assert flat["flows.writer.latency_us.write.count"] == 500
    assert flat["flows.reader.latency_us.read.p999"] > 0
    assert flat["flows.writer.queue"] == 0


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


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("no chromium (scripts/install-deps.sh installs Debian's)")


def open_in_chromium(path, tmp_path):
    """The page's DOM after load and the browser's console lines, from headless Chromium."""
    r = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
         "--v=0", f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000",
         "--dump-dom", pathlib.Path(path).as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    console = [line for line in r.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    return r.stdout, console


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
    assert 'data-figures="6"' in dom and 'data-figures-loaded="6"' in dom, dom[:2000]
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


def test_kill_9_resumes_with_nothing_lost(tmp_path):
    """A sweep killed with SIGKILL (its workers and simulations with it) keeps every point it
    finished; the rerun runs the others and nothing more."""
    spec = write_spec(tmp_path / "spec.json", workloads=[
        {"name": "w", "workload": "rw=randwrite,bs=4k,qd=32,count=20000"}],
        axes={"product": {"flash.t_prog_us": [300, 400, 500, 600, 700, 800]}})
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    proc = subprocess.Popen([sys.executable, "-m", "ssdtlm_tools.cli", "sweep", spec,
                             "--out", str(out),
                             "--binary", BINARY, "--workers", "1", "--no-report"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                            start_new_session=True)
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


@pytest.mark.parametrize("change, key", [
    ({"name": "a b"}, "name:"),
    ({"confg": CONFIG}, ('confg: unknown key (known: args, axes, config, description, name, '
                         'plot, repetitions, seeds, set, workloads); did you mean "config"?')),
    ({"config": "nowhere.json"}, "config: no such file"),
    ({"axes": {"product": {"flash.t_prog_us": 500}}}, "axes.product.flash.t_prog_us: expected a"),
    ({"axes": {"grid": {}}}, "axes.grid: unknown axis kind"),
    ({"axes": {"zip": {"flash.page_bytes": [2048, 4096], "flash.t_prog_us": [200]}}},
     "axes.zip: lists of different lengths"),
    ({"axes": {"product": {"Flash..x": [1]}}}, "axes.product.Flash..x: not a dotted config key"),
    ({"workloads": [{"name": "w", "workload": SMALL, "trace": "x"}]}, "workloads[0]: give exactly"),
    ({"workloads": [{"name": "w", "wrkload": SMALL}]},
     ('workloads[0].wrkload: unknown key (known: name, workload, trace, workload_file, args); '
      'did you mean "workload"?')),
    ({"zzzz": 1}, ("zzzz: unknown key (known: args, axes, config, description, name, plot, "
                   "repetitions, seeds, set, workloads)")),
    ({"repetitions": 2, "seeds": [1]}, "seeds: expected 2"),
])
def test_spec_errors_name_the_key(tmp_path, change, key):
    path = write_spec(tmp_path / "spec.json", **change)
    with pytest.raises(specmod.SpecError, match=None) as e:
        specmod.load(path)
    assert key in str(e.value)


def test_bad_config_key_is_named_before_anything_runs(tmp_path):
    spec = write_spec(tmp_path / "spec.json", axes={"product": {"flash.t_prgo_us": [500]}})
    r = run_cli(spec, "--out", str(tmp_path / "out"))
    assert r.returncode == 2
    assert 'flash.t_prgo_us: unknown key; did you mean "t_prog_us"?' in r.stderr
    assert not (tmp_path / "out" / "points").exists()


def test_zip_and_config_axes_expand(tmp_path):
    path = write_spec(tmp_path / "spec.yaml", config=None, axes={
        "product": {"config": [CONFIG, str(ROOT / "configs" / "case_2x8.json")]},
        "zip": {"flash.page_bytes": [2048, 4096], "flash.t_prog_us": [200, 900]}})
    pts = specmod.points(specmod.load(path))
    assert len(pts) == 4
    assert pts[0]["overrides"] == ["flash.page_bytes=2048", "flash.t_prog_us=200"]
    assert pts[0]["params"]["config"] == "case_4x4.json"
    assert pts[3]["label"] == "config=case_2x8, page_bytes=4096, t_prog_us=900"


def test_progress_durations():
    assert [sweep.duration(x) for x in (4.4, 65, 7620)] == ["4 s", "1 min 05 s", "2 h 07 min"]


def test_second_sweep_into_a_busy_directory_is_refused(tmp_path):
    spec = write_spec(tmp_path / "spec.json")
    (tmp_path / "out").mkdir()
    held = sweep.lock_out_dir(str(tmp_path / "out"))
    try:
        with pytest.raises(specmod.SpecError, match="another ssdtlm-sweep is running"):
            sweep.run_sweep(spec, str(tmp_path / "out"), BINARY, workers=1, report=False)
    finally:
        held.close()
