"""ssdtlm-sweep end to end: a 2x2 sweep on a LocalCluster of 2 workers (table, plots, HTML
checked in headless Chromium), reruns after an interruption run only the missing points,
spec errors name the key, a failing point is reported while the others finish; a sweep with
warnings and a write-only workload: the findings block, n/a panels and cells, readable
figures; the progress of running points.
Run with: python3 -m pytest tools/test_sweep.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import hashlib
import html
import io
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from ssdtlm_tools import cheapest, cli, describe, findings, plot, report_html, sweep, table
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


@pytest.mark.parametrize("change, key", [
    ({"name": "a b"}, "name:"),
    ({"confg": CONFIG}, ('confg: unknown key (known: args, axes, config, description, '
                         'findings, name, plot, repetitions, seeds, set, workloads); did you '
                         'mean "config"?')),
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
    ({"zzzz": 1}, ("zzzz: unknown key (known: args, axes, config, description, findings, name, "
                   "plot, repetitions, seeds, set, workloads)")),
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


# Two controller layouts of small_gc.json, as labelled values of an axis over a list.
TWO_CORES = [{"name": "host", "ftl": False}, {"name": "ftl0", "host": False,
                                             "background": False}]
LAYOUTS = [{"label": "1 core", "value": []}, {"label": "2 cores", "value": TWO_CORES}]


@pytest.mark.parametrize("values, key", [
    ([{"label": "a"}], "axes.product.controller.cores[0]: a labelled value needs value"),
    ([[], {"value": []}], "axes.product.controller.cores[1]: a labelled value needs label"),
    ([{"lable": "a", "value": []}],
     'axes.product.controller.cores[0].lable: unknown key of a labelled value (known: label, '
     'value; an object to --set goes in `value`); did you mean "label"?'),
    ([{"name": "host"}], "axes.product.controller.cores[0].name: unknown key of a labelled"),
    ([{"label": " ", "value": []}], "axes.product.controller.cores[0].label: expected a non-empty"),
    ([{"label": 5, "value": []}], "axes.product.controller.cores[0].label: expected a non-empty"),
    ([{"label": "one", "value": []}, {"label": "one", "value": TWO_CORES}],
     "axes.product.controller.cores[1]: duplicate label 'one' (also "
     "axes.product.controller.cores[0], another value)"),
])
def test_labelled_axis_value_errors_name_the_value(tmp_path, values, key):
    path = write_spec(tmp_path / "spec.json", axes={"product": {"controller.cores": values}})
    with pytest.raises(specmod.SpecError) as e:
        specmod.load(path)
    assert key in str(e.value)


@pytest.mark.parametrize("values, key", [
    # A label may not take a plain value's place either: the points would share a name.
    ([500, {"label": "500", "value": 900}], "axes.zip.flash.t_prog_us[1]: duplicate label '500'"),
    ([{"label": "fast", "value": 500}, {"label": "slow"}],
     "axes.zip.flash.t_prog_us[1]: a labelled value needs value"),
])
def test_labelled_zip_value_errors_name_the_value(tmp_path, values, key):
    path = write_spec(tmp_path / "spec.json", axes={"zip": {
        "flash.t_prog_us": values, "flash.t_read_us": [25, 50]}})
    with pytest.raises(specmod.SpecError) as e:
        specmod.load(path)
    assert key in str(e.value)


@pytest.mark.parametrize("zips, key", [
    ([{"flash.t_prog_us": [500, 900]}, {"flash.t_read_us": [25], "ftl.type": ["page", "dftl"]}],
     "axes.zip[1]: lists of different lengths [1, 2]"),
    ([{"flash.t_prog_us": [500, 900]}, []], "axes.zip[1]: expected a mapping"),
    ([{"flash.t_prog_us": [500, 900]}, {"flash.t_prog_us": [200]}],
     "axes.zip.flash.t_prog_us: an axis twice (in product and zip, or in two zip groups)"),
    ([{"flash.t_prog_us": [{"label": "fast", "value": 500}, {"label": "fast", "value": 900}]}],
     "axes.zip[0].flash.t_prog_us[1]: duplicate label 'fast'"),
])
def test_zip_group_errors_name_the_group(tmp_path, zips, key):
    path = write_spec(tmp_path / "spec.json", axes={"zip": zips})
    with pytest.raises(specmod.SpecError) as e:
        specmod.load(path)
    assert key in str(e.value)


def test_zip_groups_combine_as_a_product(tmp_path):
    """Two zip groups (a layout with its placement, a clock with its current): every row of
    one with every row of the other, after the product axes; a labelled value may repeat in a
    zip list, and ranks once among the axis's values."""
    layouts = [LAYOUTS[0], LAYOUTS[1], LAYOUTS[1]]
    path = write_spec(tmp_path / "spec.json", axes={
        "product": {"ftl.type": ["page"]},
        "zip": [{"controller.cores": layouts,
                 "controller.ftl_placement": ["shared", "shared", "stripes"]},
                {"controller.clock_mhz": [250, 500], "controller.i_active_ma": [15, 30]}]})
    spec = specmod.load(path)
    pts = specmod.points(spec)
    assert [p["label"] for p in pts] == [
        f"type=page, {c}, ftl_placement={pl}, clock_mhz={mhz}, i_active_ma={ma}"
        for c, pl in (("1 core", "shared"), ("2 cores", "shared"), ("2 cores", "stripes"))
        for mhz, ma in ((250, 15), (500, 30))]
    assert pts[5]["overrides"][-3:] == ['controller.ftl_placement="stripes"',
                                        "controller.clock_mhz=500", "controller.i_active_ma=30"]
    assert pts[5]["levels"] == {"ftl.type": 0, "controller.cores": 2,
                                "controller.ftl_placement": 2, "controller.clock_mhz": 1,
                                "controller.i_active_ma": 1}
    axes = {a["key"]: a for a in specmod.axes(spec)}
    assert axes["controller.cores"]["order"] == [0, 1, 1]  # "2 cores" twice: one cost
    assert axes["controller.ftl_placement"]["order"] == [0, 0, 2]
    assert axes["controller.clock_mhz"]["order"] == [250, 500]  # numbers rank by value
    assert axes["controller.cores"]["shown"] == ["1 core", "2 cores", "2 cores"]
    assert axes["controller.clock_mhz"]["shown"] == ["clock_mhz=250", "clock_mhz=500"]


def test_labelled_axis_values_expand(tmp_path):
    """The label names the point (label, params), the value goes to --set as JSON; plain values
    beside it are as before; a labelled config value is a file like a plain one."""
    path = write_spec(tmp_path / "spec.yaml", config=None, axes={
        "product": {"config": [{"label": "4x4", "value": CONFIG}],
                    "controller.cores": LAYOUTS},
        "zip": {"flash.t_prog_us": [500, {"label": "slow programs", "value": 900}]}})
    pts = specmod.points(specmod.load(path))
    assert [p["label"] for p in pts] == [
        "4x4, 1 core, t_prog_us=500", "4x4, 1 core, slow programs",
        "4x4, 2 cores, t_prog_us=500", "4x4, 2 cores, slow programs"]
    assert pts[0]["config"] == CONFIG
    assert pts[3]["params"] == {"config": "4x4", "controller.cores": "2 cores",
                                "flash.t_prog_us": "slow programs"}
    assert pts[2]["params"]["flash.t_prog_us"] == 500  # a plain value stays a number
    assert pts[3]["overrides"] == [
        "controller.cores=" + json.dumps(TWO_CORES, separators=(",", ":")),
        "flash.t_prog_us=900"]
    assert pts[0]["overrides"] == ["controller.cores=[]", "flash.t_prog_us=500"]


def test_sweep_over_labelled_values_end_to_end(tmp_path):
    """A sweep over controller layouts (lists of mappings) by label: checked before anything
    runs (a bad layout is named by its label), run, tabled, found and drawn by label; a label
    changed afterwards renames the points without running them again (the key is the
    content)."""
    small = str(ROOT / "configs" / "small_gc.json")
    bad = [{"label": "no ftl core", "value": [{"name": "host", "ftl": False}]}]
    spec = write_spec(tmp_path / "bad.json", config=small,
                      axes={"product": {"controller.cores": bad}})
    r = run_cli(spec, "--out", str(tmp_path / "bad"))
    assert r.returncode == 2 and "point no ftl core: " in r.stderr, r.stderr
    assert not (tmp_path / "bad" / "points").exists()

    spec = write_spec(tmp_path / "spec.json", config=small,
                      axes={"product": {"controller.cores": LAYOUTS}},
                      findings={"cost": ["controller.cores"]})
    out = tmp_path / "out"
    r = run_cli(spec, "--out", str(out), "--workers", "1")
    assert r.returncode == 0, r.stderr
    csv = pd.read_csv(out / "results.csv")
    assert list(csv["sweep.label"]) == list(csv["param.controller.cores"]) == ["1 core",
                                                                               "2 cores"]
    # Each ran its own layout: one core is the shipped `controller`, two are named.
    assert csv["drive.cores"].isna()[0] and json.loads(csv["drive.cores"][1]) == ["host", "ftl0"]
    assert csv["utilisation.controller.busy"].notna()[0] and csv["utilisation.ftl0.busy"][1] > 0
    text = (out / "findings.txt").read_text()
    assert "best 2 cores" in text or "best 1 core" in text or "everywhere" in text
    page = (out / "report.html").read_text()
    assert "<td class='t'>2 cores</td>" in page
    # The cheapest layout within 5 % of the best IOPS, in the text and the page, by label.
    assert "  cheapest within 5 % of the best IOPS (fewest controller.cores; 2 of 2 points " \
           "reach it): 1 core: " in text
    assert "<table class='cheapest'>" in page and "<table class='grid'>" in page
    dom, console = open_in_chromium(out / "report.html", tmp_path)
    assert not console, console
    assert dom.count('<tr class="cheapest">') == 1 and "<th>2 cores</th>" in dom
    # Renamed: the same two points, kept.
    relabelled = [dict(v, label=v["label"].replace("core", "CPU")) for v in LAYOUTS]
    write_spec(tmp_path / "spec.json", config=small,
               axes={"product": {"controller.cores": relabelled}})
    r = run_cli(spec, "--out", str(out), "--workers", "1")
    assert r.returncode == 0, r.stderr
    assert "2 distinct points, 2 already done, 0 to run" in r.stderr
    assert list(pd.read_csv(out / "results.csv")["sweep.label"]) == ["1 CPU", "2 CPUs"]


def test_zip_and_config_axes_expand(tmp_path):
    path = write_spec(tmp_path / "spec.yaml", config=None, axes={
        "product": {"config": [CONFIG, str(ROOT / "configs" / "case_2x8.json")]},
        "zip": {"flash.page_bytes": [2048, 4096], "flash.t_prog_us": [200, 900]}})
    pts = specmod.points(specmod.load(path))
    assert len(pts) == 4
    assert pts[0]["overrides"] == ["flash.page_bytes=2048", "flash.t_prog_us=200"]
    assert pts[0]["params"]["config"] == "case_4x4.json"
    assert pts[3]["label"] == "config=case_2x8, page_bytes=4096, t_prog_us=900"


def test_shipped_specs_load_and_expand():
    """Every spec in sweeps/ is valid (its configs and traces exist, its axes expand); the
    controller-cores sweep is the grid docs/sweeps.md describes."""
    for path in sorted((ROOT / "sweeps").glob("*.yaml")):
        assert specmod.points(specmod.load(str(path))), path
    spec = specmod.load(str(ROOT / "sweeps" / "controller_cores.yaml"))
    pts = specmod.points(spec)
    labels = list(dict.fromkeys(p["label"] for p in pts))
    assert len(pts) == 432 and len(labels) == 24
    assert labels[0] == "1 core, FTL shared, 250 MHz, 70 mA a core"
    assert spec["plot"]["baseline"] in labels
    assert spec["findings"] == {"cost": ["controller.cores", "controller.clock_mhz"],
                                "within": 0.05}
    # Every clock comes with its current (140 mA a core at the nominal 500 MHz).
    for p in pts:
        o = dict(x.split("=", 1) for x in p["overrides"])
        assert float(o["controller.i_active_ma"]) == 140 * float(o["controller.clock_mhz"]) / 500


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


# A write buffer on or off (the 70/30 question of issue 27) under a write-only workload and a
# 70/30 mix on a fresh drive: the mix reads never-written pages, so its runs warn.
MIXED_WORKLOADS = [{"name": "randwrite", "workload": "rw=randwrite,bs=4k,qd=32,count=2000"},
                   {"name": "mix70", "workload": "rw=randrw,mix=0.7,bs=4k,qd=32,count=2000"}]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    d = tmp_path_factory.mktemp("mixed")
    # The drive scaled to 8 GiB (as sweeps/channel_way_reads.yaml), so its mapping table and
    # a 64 MB buffer fit its DRAM.
    spec = write_spec(d / "spec.json", name="buffer",
                      set={"flash.blocks_per_plane": 512, "ftl.size_dram_from_table": False},
                      axes={"product": {"dram.write_buffer_mb": [0, 64]}},
                      workloads=MIXED_WORKLOADS)
    r = run_cli(spec, "--out", str(d / "out"), "--workers", "1")
    assert r.returncode == 0, r.stderr
    out = d / "out"
    return out, table.build(str(out)), json.loads((out / "sweep.json").read_text())


def report_warnings(out, df):
    """{warning text: {(label, workload)}} read from every run's report.json."""
    got = {}
    for _, row in df.iterrows():
        report = json.loads((out / "points" / row["sweep.key"] / "report.json").read_text())
        for w in report["warnings"]:
            got.setdefault(w, set()).add((row["sweep.label"], row["sweep.workload"]))
    return got


def test_findings_name_best_worst_ratio_and_bottleneck(mixed):
    out, df, manifest = mixed
    f = findings.compute(df, manifest)
    by = {w["workload"]: w for w in f["workloads"]}
    assert list(by) == ["randwrite", "mix70"]
    # A write-only workload has no read figures: listed as n/a, not as rows of zeros.
    ids = [r["id"] for r in by["randwrite"]["rows"]]
    assert not [i for i in ids if i.startswith("read.")]
    assert "read latency (no reads)" in by["randwrite"]["na"]
    assert {"iops", "mbps", "write.mean", "write.p99", "write.p999", "energy",
            "peak_current"} <= set(ids)
    # Under the mix, the buffer absorbs writes: the best IOPS is the buffered drive's, and the
    # ratio is the two points' IOPS (report.json `iops`) divided.
    iops = df[df["sweep.workload"] == "mix70"].groupby("sweep.label")["iops"].mean()
    row = next(r for r in by["mix70"]["rows"] if r["id"] == "iops")
    assert row["best"]["label"] == "write_buffer_mb=64" == iops.idxmax()
    assert row["worst"]["label"] == "write_buffer_mb=0"
    assert row["ratio"] == pytest.approx(iops.max() / iops.min())
    assert not row["tie"] and row["ratio"] > 1.2
    for side in ("best", "worst"):
        b = row[side]["bottleneck"]
        sel = (df["sweep.label"] == row[side]["label"]) & (df["sweep.workload"] == "mix70")
        assert b["name"] == df.loc[sel, "utilisation.host_phase.bottleneck.name"].iloc[0]
        assert b["field"] == "utilisation.host_phase.bottleneck"
        # Where its reads waited most: the largest stage of their breakdown, as the table has it.
        stages = {c.rsplit(".", 1)[1]: df.loc[sel, c].astype(float).mean() for c in df.columns
                  if c.startswith("latency_breakdown_us.read.mean.")}
        w = b["waited"]
        assert w["op"] == "read" and w["stage"] == max(stages, key=stages.get)
        assert w["us"] == pytest.approx(stages[w["stage"]])
        assert w["share"] == pytest.approx(stages[w["stage"]] / sum(stages.values()))
        assert f"reads spent most in {w['stage']}" in describe.describe_bottleneck(b)
    # A write-only point: where its writes waited.
    row = next(r for r in by["randwrite"]["rows"] if r["id"] == "iops")
    assert row["best"]["bottleneck"]["waited"]["op"] == "write"
    # Every row names a report.json field of the table.
    for w in f["workloads"]:
        for r in w["rows"]:
            assert r["field"] in df.columns
    assert by["mix70"]["rows"][0]["warnings"]  # the mix's points warn: flagged in the rows


def test_every_breakdown_stage_says_what_it_waited_for():
    """The findings name what each stage of docs/report.md's latency breakdown waited for."""
    text = (ROOT / "docs" / "report.md").read_text()
    table = text.split("The stages, in path order:", 1)[1].split("\n\n", 2)[1]
    stages = re.findall(r"^\| `([a-z_]+)` \| us \|", table, flags=re.M)
    assert len(stages) == 19
    assert set(stages) == set(describe.STAGE_WAITS_FOR)


def test_findings_list_every_warning_with_its_points(mixed):
    out, df, manifest = mixed
    f = findings.compute(df, manifest)
    want = report_warnings(out, df)
    assert want, "the 70/30 mix on a fresh drive should warn about never-written reads"
    assert any("never-written" in w for w in want)
    got = {x["text"]: {(p["label"], p["workload"]) for p in x["points"]} for x in f["warnings"]}
    assert got == want
    flagged = {(p["label"], p["workload"]) for p in f["flagged"]}
    assert flagged == set().union(*want.values())
    text = findings.to_text(f)
    for w in want:
        assert w in text


def test_findings_are_deterministic(mixed):
    out, df, manifest = mixed
    again = table.build(str(out))
    pd.testing.assert_frame_equal(df, again)
    assert json.dumps(findings.compute(df, manifest)) == json.dumps(
        findings.compute(again, manifest))
    assert (out / "findings.txt").read_text() == findings.to_text(findings.compute(df, manifest))


def test_findings_ties_and_single_points(mixed):
    """Points within 1 % are reported as no difference, not as a best and a worst."""
    _, df, manifest = mixed
    one = df[df["sweep.workload"] == "randwrite"].copy()
    one["energy_total_j"] = 2.0
    f = findings.compute(one, manifest)
    energy = next(r for r in f["workloads"][0]["rows"] if r["id"] == "energy")
    assert energy["tie"] and energy["ratio"] == 1.0
    single = findings.compute(one[one["sweep.label"] == "write_buffer_mb=0"], manifest)
    assert all(r["points"] == 1 and r["tie"] for r in single["workloads"][0]["rows"])


# A synthetic sweep for the cheapest point: cores x clock (listed fastest first, so the order
# must come from the values) x a placement axis that costs nothing; {(cores, clock,
# placement): (IOPS of rep 0, of rep 1)}. The best is 4 cores at 400 MHz, stripes (1000);
# 1 core at 400 MHz reaches 96 % (within 5 %), 2 cores at 200 MHz 99 %: fewer cores win.
CHEAP_IOPS = {(0, 0, 0): (950, 970), (0, 1, 0): (500, 500), (0, 0, 1): (900, 900),
              (0, 1, 1): (400, 400), (1, 0, 0): (990, 990), (1, 1, 0): (990, 990),
              (1, 0, 1): (990, 990), (1, 1, 1): (980, 1000), (2, 0, 0): (995, 995),
              (2, 1, 0): (990, 990), (2, 0, 1): (1000, 1000), (2, 1, 1): (990, 990)}
CHEAP_AXES = [{"key": "controller.cores", "shown": ["1 core", "2 cores", "4 cores"],
               "order": [0, 1, 2]},
              {"key": "controller.clock_mhz", "shown": ["clock_mhz=400", "clock_mhz=200"],
               "order": [400, 200]},
              {"key": "controller.ftl_placement", "shown": ["shared", "stripes"],
               "order": [0, 1]}]


def cheap_table(iops=CHEAP_IOPS, workload="w"):
    """(table, sweep.json) of the synthetic sweep: controller energy 0.1 J a core plus 0.1 J
    per 100 MHz, over a span of 1000 / IOPS s; one failed run that must not count."""
    rows, runs = [], []
    for (c, k, p), reps in iops.items():
        label = ", ".join(a["shown"][i] for a, i in zip(CHEAP_AXES, (c, k, p)))
        levels = {a["key"]: i for a, i in zip(CHEAP_AXES, (c, k, p))}
        for rep, v in enumerate(reps):
            key = f"{c}{k}{p}{rep}"
            runs.append({"key": key, "label": label, "levels": levels, "workload": workload,
                         "repetition": rep})
            cores, mhz = (1, 2, 4)[c], (400, 200)[k]
            rows.append({"sweep.key": key, "sweep.label": label, "sweep.workload": workload,
                         "sweep.repetition": rep, "sweep.ok": True, "iops": float(v),
                         "bandwidth_mbps": v * 4096 / 1e6, "requests.count": 1000,
                         "requests.read_bytes": 4096000, "requests.write_bytes": 0,
                         "energy_by_group_j.controller": 0.1 * cores + mhz / 1000,
                         "energy_span_s": 1000 / v, "energy_total_j": 1.0 + 0.1 * cores,
                         "peak_power_w": 2.0 * cores,
                         "utilisation.host_phase.bottleneck.name": "ch0.w0d0",
                         "utilisation.host_phase.bottleneck.busy": v / 1000,
                         "utilisation.host_phase.dies_busy_mean": 0.9})
    rows.append(dict(rows[-1], **{"sweep.key": "failed", "sweep.repetition": 2,
                                  "sweep.ok": False, "iops": 99999.0}))
    manifest = {"findings": {"cost": ["controller.cores", "controller.clock_mhz"],
                             "within": 0.05},
                "axes": CHEAP_AXES, "runs": runs}
    return pd.DataFrame(rows), manifest


def test_findings_cheapest_point_reaching_the_best():
    df, manifest = cheap_table()
    c = findings.compute(df, manifest)["workloads"][0]["cheapest"]
    assert c["best"]["label"] == "4 cores, clock_mhz=400, stripes"
    assert c["best"]["iops"] == 1000.0
    # 1 core at 400 MHz, shared: the mean of its repetitions (960) is 96 % of the best; fewer
    # cores beat a lower clock (2 cores at 200 MHz reach 99 %), and the lower clock of one core
    # (500) does not reach.
    ch = c["cheapest"]
    assert ch["label"] == "1 core, clock_mhz=400, shared"
    assert ch["iops"] == 960.0 and ch["of_best"] == pytest.approx(0.96)
    assert c["reaching"] == 9 and c["points"] == 12
    # Its power: 0.1 J + 0.4 J of controller energy, over its span (mean over repetitions).
    assert ch["energy_by_group_j.controller"] == pytest.approx(0.5)
    want_w = (0.5 / (1000 / 950) + 0.5 / (1000 / 970)) / 2
    assert ch["controller_w"] == pytest.approx(want_w)
    assert ch["peak_power_w"] == 2.0 and c["best"]["peak_power_w"] == 8.0
    assert c["best"]["bottleneck"]["name"] == "ch0.w0d0"
    # The grid: rows by cores, columns by clock in value order (200 before 400), each the
    # best over the placements, as a share of the best.
    g = c["grid"]
    assert g["rows"] == ["1 core", "2 cores", "4 cores"]
    assert g["cols"] == ["clock_mhz=200", "clock_mhz=400"]
    assert [[cell["of_best"] for cell in row] for row in g["cells"]] == [
        pytest.approx([0.5, 0.96]), pytest.approx([0.99, 0.99]), pytest.approx([0.99, 1.0])]
    assert [[cell["reaches"] for cell in row] for row in g["cells"]] == [
        [False, True], [True, True], [True, True]]
    assert g["cells"][0][1]["label"] == "1 core, clock_mhz=400, shared"
    text = findings.to_text(findings.compute(df, manifest))
    assert ("  cheapest within 5 % of the best IOPS (fewest controller.cores, then "
            "controller.clock_mhz; 9 of 12 points reach it): 1 core, clock_mhz=400, shared: "
            "960 IOPS (3.932 MB/s, 96 % of the best); controller 0.5 J") in text
    assert "  best: 4 cores, clock_mhz=400, stripes: 1000 IOPS (4.096 MB/s); " in text
    assert "    1 core: clock_mhz=200 50 %, clock_mhz=400 96 % *" in text


def test_findings_cheapest_ties_tolerance_and_other_sweeps():
    df, manifest = cheap_table()
    # Within 1 %: one core never reaches; of the 2-core points at 200 MHz (both 990) the first
    # in sweep order; a point of equal cost with more IOPS would win (checked next).
    manifest["findings"]["within"] = 0.01
    c = cheapest.cheapest(df, manifest)
    assert c["cheapest"]["label"] == "2 cores, clock_mhz=200, shared"
    iops = {**CHEAP_IOPS, (1, 1, 1): (995, 995)}
    df2, manifest2 = cheap_table(iops)
    manifest2["findings"]["within"] = 0.01
    assert cheapest.cheapest(df2, manifest2)["cheapest"]["label"] == \
        "2 cores, clock_mhz=200, stripes"
    # The best point is the cheapest when nothing else reaches it.
    manifest["findings"]["within"] = 0.0
    c = cheapest.cheapest(df, manifest)
    assert c["cheapest"]["label"] == c["best"]["label"] == "4 cores, clock_mhz=400, stripes"
    assert "it is the best point too" in "\n".join(cheapest.cheapest_text(c))
    # A sweep whose spec names no cost axes (every other shipped sweep) has no cheapest point,
    # and its findings text is what it was.
    plain = {k: v for k, v in manifest.items() if k != "findings"}
    f = findings.compute(df, plain)
    assert f["workloads"][0]["cheapest"] is None
    assert "cheapest" not in findings.to_text(f)
    assert findings.compute(df)["workloads"][0]["cheapest"] is None
    # A cost combination no point has is n/a in the grid, and the columns keep their cost
    # order when the first row lacks one (1 core ran at 400 MHz only).
    df3, manifest3 = cheap_table({k: v for k, v in CHEAP_IOPS.items() if k[:2] != (0, 1)})
    g = cheapest.cheapest(df3, manifest3)["grid"]
    assert g["cols"] == ["clock_mhz=200", "clock_mhz=400"] and g["cells"][0][0] is None
    assert "    1 core: clock_mhz=400 96 % *" in findings.to_text(findings.compute(df3,
                                                                                manifest3))
    page = report_html._cheapest(cheapest.cheapest(df3, manifest3))
    assert "<th>cores \\ clock_mhz</th>" in page and "<td class='na'>n/a</td>" in page
    assert page.count("class='reach pick'") == 1 and page.count("<tr class='best'>") == 1
    # A workload with no finished run has none either.
    dead = df.assign(**{"sweep.ok": False})
    assert findings.compute(dead, manifest)["workloads"][0]["cheapest"] is None


def test_findings_cheapest_point_meeting_a_bound():
    # findings.meets: the cheapest point whose field is within its bound, not one near the best
    # throughput. A hold-up margin by cores and clock (the placement costs nothing): one core
    # never holds, two hold at 400 MHz only, four always, most at 400 MHz.
    df, manifest = cheap_table()
    margin = {"1 core": (-0.002, -0.004), "2 cores": (0.001, -0.001), "4 cores": (0.003, 0.002)}
    df["power_loss.time_margin_s"] = [
        margin[lab.split(", ")[0]][0 if "400" in lab else 1] for lab in df["sweep.label"]]
    df["power_loss.acknowledged_units_lost"] = [
        0.0 if m >= 0 else 100.0 for m in df["power_loss.time_margin_s"]]
    manifest["findings"] = {"cost": ["controller.cores", "controller.clock_mhz"],
                            "meets": {"field": "power_loss.time_margin_s", "at_least": 0.0}}
    c = cheapest.cheapest(df, manifest)
    assert c["cheapest"]["label"] == "2 cores, clock_mhz=400, shared"  # first of equals
    assert c["cheapest"]["value"] == pytest.approx(0.001)
    assert c["best"]["label"] == "4 cores, clock_mhz=400, shared"
    assert c["reaching"] == 6 and c["points"] == 12
    g = c["grid"]
    assert [[cell["value"] for cell in row] for row in g["cells"]] == [
        pytest.approx([-0.004, -0.002]), pytest.approx([-0.001, 0.001]),
        pytest.approx([0.002, 0.003])]
    assert [[cell["reaches"] for cell in row] for row in g["cells"]] == [
        [False, False], [False, True], [True, True]]
    text = "\n".join(cheapest.cheapest_text(c))
    assert ("cheapest meeting power_loss.time_margin_s at least 0 (fewest controller.cores, "
            "then controller.clock_mhz; 6 of 12 points reach it): 2 cores, clock_mhz=400, "
            "shared: power_loss.time_margin_s 0.001; 990 IOPS (4.055 MB/s)") in text
    assert ("best power_loss.time_margin_s at each cost, over the other axes (* "
            "power_loss.time_margin_s at least 0):") in text
    assert "  2 cores: clock_mhz=200 -0.001, clock_mhz=400 0.001 *" in text
    page = report_html._cheapest(c)
    assert "<b>Cheapest meeting power_loss.time_margin_s at least 0</b>" in page
    assert page.count("class='reach pick'") == 1 and ">0.001<" in page
    # At most: the fewest units lost, none; the best is the first point that loses none.
    manifest["findings"]["meets"] = {"field": "power_loss.acknowledged_units_lost",
                                     "at_most": 0.0}
    c = cheapest.cheapest(df, manifest)
    assert c["cheapest"]["label"] == c["best"]["label"] == "2 cores, clock_mhz=400, shared"
    # Nothing meets it: no cheapest point; the text and the page say so, with the best.
    manifest["findings"]["meets"] = {"field": "power_loss.time_margin_s", "at_least": 1.0}
    c = cheapest.cheapest(df, manifest)
    assert c["cheapest"] is None and c["reaching"] == 0
    text = "\n".join(cheapest.cheapest_text(c))
    assert "0 of 12 points reach it): none" in text
    assert "best: 4 cores, clock_mhz=400, shared: power_loss.time_margin_s 0.003" in text
    assert "none does</p>" in report_html._cheapest(c)
    # A field no run reports: no findings of the kind.
    manifest["findings"]["meets"] = {"field": "power_loss.nothing", "at_most": 0.0}
    assert cheapest.cheapest(df, manifest) is None


def test_findings_tail_stage_along_the_axes():
    # findings.tail: the stage's share of the slowest reads' latency by cores (rows) and clock
    # (columns); of the two placements at a cell, the larger share shows.
    df, manifest = cheap_table()
    retry = {("1 core", "200"): (10, 5), ("1 core", "400"): (60, 50),
             ("2 cores", "200"): (70, 20), ("2 cores", "400"): (30, 30),
             ("4 cores", "200"): (55, 80), ("4 cores", "400"): (90, 0)}
    pre = "latency_breakdown_us.read.slowest.mean."
    cells = [retry[(lab.split(", ")[0], "400" if "400" in lab else "200")]
             [0 if lab.endswith("shared") else 1] for lab in df["sweep.label"]]
    df[pre + "read_retry"] = [float(x) for x in cells]
    df[pre + "flash"] = [100.0 - x for x in cells]
    df[pre + "ecc_decode"] = 0.0
    manifest["findings"] = {"tail": {"stage": "read_retry", "op": "read",
                                     "along": ["controller.cores", "controller.clock_mhz"]}}
    w = findings.compute(df, manifest)["workloads"][0]
    assert w["cheapest"] is None
    t = w["tail"]
    g = t["grid"]
    assert g["rows"] == ["1 core", "2 cores", "4 cores"]
    assert g["cols"] == ["clock_mhz=200", "clock_mhz=400"]
    assert [[c["share"] for c in row] for row in g["cells"]] == [
        pytest.approx([0.10, 0.60]), pytest.approx([0.70, 0.30]), pytest.approx([0.80, 0.90])]
    assert [[c["leads"] for c in row] for row in g["cells"]] == [
        [False, True], [True, False], [True, True]]
    assert g["cells"][2][0]["label"] == "4 cores, clock_mhz=200, stripes"
    # From where it leads to the last column: not where it leads and then stops.
    assert t["onset"] == ["clock_mhz=400", None, "clock_mhz=200"]
    assert t["largest"]["label"] == "4 cores, clock_mhz=400, shared"
    text = findings.to_text(findings.compute(df, manifest))
    assert ("  read_retry in the slowest 1 % of reads (its share of their latency; * where it "
            "is their largest stage), by controller.cores, controller.clock_mhz:") in text
    assert "    1 core: the largest at clock_mhz=400: clock_mhz=200 10 %, clock_mhz=400 60 % *" \
        in text
    assert "    2 cores: never the largest: clock_mhz=200 70 % *, clock_mhz=400 30 %" in text
    assert "    4 cores: the largest from clock_mhz=200 on: " in text
    page = report_html._tail(t)
    assert "<th>cores \\ clock_mhz</th>" in page and page.count("class='reach'") == 4
    assert "never the largest" in page
    # A stage the table lacks, or no tail option: none.
    manifest["findings"]["tail"]["stage"] = "ecc_decodes"
    assert findings.compute(df, manifest)["workloads"][0]["tail"] is None
    assert findings.compute(df)["workloads"][0]["tail"] is None


@pytest.mark.parametrize("value, key", [
    ({"cost": ["controller.core"]},
     "findings.cost[0]: 'controller.core' is not an axis (axes: flash.t_prog_us, "
     "controller.cores); did you mean \"controller.cores\"?"),
    ({"cost": []}, "findings.cost: expected a non-empty list"),
    ({"cost": ["controller.cores", "controller.cores"]}, "findings.cost[1]: 'controller.cores' "
                                                         "given twice"),
    ({"cost": ["controller.cores"], "within": 1}, "findings.within: expected a fraction"),
    ({"cost": ["controller.cores"], "within": "5 %"}, "findings.within: expected a fraction"),
    ({"cost": ["controller.cores"], "withn": 0.1},
     'findings.withn: unknown key (known: cost, within, meets, tail); did you mean "within"?'),
    ([1], "findings: expected a mapping"),
    ({"cost": ["controller.cores"], "within": 0.1, "meets": {"field": "iops", "at_least": 1}},
     "findings.within: not with findings.meets"),
    ({"cost": ["controller.cores"], "meets": {"field": "iops"}},
     "findings.meets: expected exactly one of at_most and at_least"),
    ({"cost": ["controller.cores"], "meets": {"field": "iops", "at_most": 1, "at_least": 0}},
     "findings.meets: expected exactly one of at_most and at_least"),
    ({"cost": ["controller.cores"], "meets": {"field": "a b", "at_most": 1}},
     "findings.meets.field: expected a report.json field"),
    ({"cost": ["controller.cores"], "meets": {"field": "iops", "at_most": "none"}},
     "findings.meets.at_most: expected a number"),
    ({"cost": ["controller.cores"], "meets": {"field": "iops", "at_mots": 1}},
     'findings.meets.at_mots: unknown key (known: field, at_most, at_least); did you mean '
     '"at_most"?'),
    ({"cost": ["controller.cores"], "meets": [1]}, "findings.meets: expected a mapping"),
    ({"tail": {"stage": "read_retries", "along": ["controller.cores"]}},
     'findings.tail.stage: expected a stage of the latency breakdown (host_queue, '),
    ({"tail": {"stage": "read_retry", "along": ["controller.cores"], "op": "trim"}},
     "findings.tail.op: expected read or write"),
    ({"tail": {"stage": "read_retry"}}, "findings.tail.along: expected a non-empty list"),
    ({"tail": {"stage": "read_retry", "along": ["cores"]}},
     "findings.tail.along[0]: 'cores' is not an axis"),
    ({"tail": {"stage": "read_retry", "along": ["controller.cores"], "by": 1}},
     "findings.tail.by: unknown key (known: stage, along, op)"),
    ({"tail": "read_retry"}, "findings.tail: expected a mapping"),
    ({"tail": {"stage": "read_retry", "along": ["controller.cores"]}, "within": 0.1},
     "findings.cost: expected a non-empty list"),
])
def test_findings_spec_errors_name_the_key(tmp_path, value, key):
    path = write_spec(tmp_path / "spec.json", findings=value, axes={"product": {
        "flash.t_prog_us": [500, 900], "controller.cores": LAYOUTS}})
    with pytest.raises(specmod.SpecError) as e:
        specmod.load(path)
    assert key in str(e.value)


def test_report_html_findings_warnings_and_na_in_chromium(mixed, tmp_path):
    out, df, _ = mixed
    page = (out / "report.html").read_text()
    dom, console = open_in_chromium(out / "report.html", tmp_path)
    assert not console, console
    n = len(plot.FIGURES)
    assert f'data-figures="{n}"' in dom and f'data-figures-loaded="{n}"' in dom
    for fid in plot.FIGURES:
        assert f'id="fig-{fid}"' in dom
    # The findings block comes first, with a row per headline figure.
    assert dom.index('id="findings"') < dom.index('id="provenance"') < dom.index('id="fig-')
    rows = sum(len(w["rows"]) for w in findings.compute(df)["workloads"])
    assert f'data-findings-rows="{rows}"' in dom and rows > 10
    # Every warning of every run is listed.
    want = report_warnings(out, df)
    assert f'data-warnings-listed="{len(want)}"' in dom
    for w in want:
        assert html.escape(w, quote=False) in dom
    assert page.count("never-written") >= 1
    # Cells that do not apply read n/a, never 0 or nan: the write-only workload's read latency.
    results = page[page.index("<table id='results'>"):]
    results = results[:results.index("</table>")]
    assert ">nan<" not in results.lower()
    head = [h.split(">", 1)[1] for h in results.split("</th>")[:-1]]
    col = head.index("read p99 us")
    for tr in results.split("<tr>")[2:]:
        cells = tr.split("</td>")
        if ">randwrite<" in cells[1]:
            assert "n/a" in cells[col], tr


def figures_of(out, df):
    return list(plot.draw_figures(df, str(out), plot.sweep_plot_options(str(out))))


def test_figures_are_readable_at_the_shipped_size(mixed, swept):
    """No two tick labels (or texts of a panel) overlap, no text below 8 pt, in any figure of
    either sweep, drawn as the report draws them."""
    import matplotlib.pyplot as plt
    for out, df in ((mixed[0], mixed[1]), (swept[0], table.build(str(swept[0])))):
        drawn = figures_of(out, df)
        assert [fid for fid, _ in drawn] == list(plot.FIGURES)
        for fid, fig in drawn:
            assert plot.overlapping_texts(fig) == [], fid
            assert plot.small_texts(fig) == [], fid
            plt.close(fig)


def test_figures_stay_readable_with_many_workloads_and_long_labels(mixed):
    """Seven workloads (as sweeps/ftl_workload.yaml) and six points with long labels (as
    program_latency.yaml): panels wrap at plot.MAX_COLS a row, so a figure stays about as wide
    as the page, and still no label overlaps another."""
    import matplotlib.pyplot as plt
    out, df, _ = mixed
    labels, workloads = list(dict.fromkeys(df["sweep.label"])), list(dict.fromkeys(
        df["sweep.workload"]))
    rows = []
    for wi in range(7):
        for li in range(6):
            label, workload = labels[li % 2], workloads[wi % 2]
            r = df[(df["sweep.label"] == label) & (df["sweep.workload"] == workload)].iloc[0]
            rows.append(r.copy())
            rows[-1]["sweep.label"] = f"config=case_16x1, t_prog_us={500 + 100 * li}, type=fast"
            rows[-1]["sweep.workload"] = f"{workload}-{wi}"
    big = pd.DataFrame(rows).reset_index(drop=True)
    for fid, fig in figures_of(out, big):
        width = fig.get_size_inches()[0] * plot.DPI
        assert width <= 1500, (fid, width)
        assert plot.overlapping_texts(fig) == [], fid
        plt.close(fig)


def test_error_bars_of_equal_repetitions_are_not_negative():
    """Three repetitions of one value (a sequential read, whose seed changes nothing) whose
    float mean rounds above them: the bars span nothing, and the figure draws."""
    import matplotlib.pyplot as plt
    df = pd.DataFrame({"sweep.workload": ["w"] * 3, "sweep.label": ["a"] * 3})
    agg = plot._by_config(df, pd.Series([0.1, 0.1, 0.1]))
    assert pd.Series([0.1, 0.1, 0.1]).mean() > 0.1  # what the clip is for
    assert agg.loc[("w", "a"), "mean"] == agg.loc[("w", "a"), "max"] == 0.1
    fig, ax = plt.subplots()
    m = agg["mean"].to_numpy()
    ax.barh([0], m, xerr=[m - agg["min"].to_numpy(), agg["max"].to_numpy() - m])
    plt.close(fig)


def test_point_colours_stay_distinct_past_twenty():
    """tab20 alone repeats from the 21st point or energy state (controller_cores.yaml has 24
    points, 26 states): a legend would name two by one colour. Distinct up to 60; ten or fewer
    points keep tab10, 20 or fewer states tab20."""
    for n in (10, 24, 60):
        c = plot.colours([f"p{i}" for i in range(n)])
        assert len(set(c.values())) == n, n
        assert len(set(plot.palette(n))) == n  # the energy breakdown's states (26 with 5 cores)
    assert plot.colours(["a"])["a"] == plt_colour("tab10", 0)
    assert plot.palette(20) == [plt_colour("tab20", i) for i in range(20)]  # as before


def plt_colour(name, i):
    import matplotlib.pyplot as plt
    return plt.get_cmap(name).colors[i]


def test_overlap_check_sees_overlapping_labels():
    """The check above would fail on crowded labels and on small text."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_xticks(range(10), [f"config=case_{i}x{i}" for i in range(10)])
    ax.text(0.5, 0.5, "one label", transform=ax.transAxes, fontsize=6)
    ax.text(0.5, 0.5, "another", transform=ax.transAxes)
    found = plot.overlapping_texts(fig)
    assert any("x tick" in f for f in found)
    assert any("'one label' overlaps" in f for f in found)
    # A figure title drawn over a panel's title.
    ax.set_title("a panel title")
    assert not any("'a panel title' overlaps" in f for f in plot.overlapping_texts(fig))
    box = ax.title.get_window_extent()
    fig.suptitle("a figure title", y=(box.y0 + box.y1) / 2 / fig.bbox.height, va="center")
    assert any("'a panel title' overlaps figure: 'a figure title'" in f
               for f in plot.overlapping_texts(fig))
    assert plot.small_texts(fig) == ["'one label' at 6.0 pt"]
    plt.close(fig)


def test_figures_na_panels_pareto_from_zero_and_flags(mixed):
    import matplotlib.pyplot as plt
    out, df, _ = mixed
    drawn = dict(figures_of(out, df))
    texts = lambda fig: [t.get_text() for ax in fig.axes for t in ax.texts]  # noqa: E731
    # Reads of a write-only workload: a placeholder, not an empty panel.
    assert "n/a\nno reads" in texts(drawn["tail"])
    assert "n/a\nno reads" in texts(drawn["latency_cdf"])
    assert "n/a" in texts(drawn["normalised"])
    # Panels of a workload whose runs warned name the warnings (the findings block's ids).
    titles = [ax.get_title() for ax in drawn["throughput"].axes]
    assert "mix70 [warnings W1]" in titles and "randwrite" in titles
    for ax in drawn["pareto"].axes:
        assert ax.get_xlim()[0] == 0 and ax.get_ylim()[0] == 0
        assert "axis from 0" in ax.get_xlabel()
    # The CDF's latency axis is logarithmic.
    cdf_axes = [ax for ax in drawn["latency_cdf"].axes if ax.lines]
    assert cdf_axes and all(ax.get_xscale() == "log" for ax in cdf_axes)
    for fig in drawn.values():
        plt.close(fig)


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


def test_coincident_curves_share_their_line_in_turns():
    """Curves equal point for point (four configs that time alike) take their line in turns,
    a dash of each colour, so none hides another; a curve of its own stays solid."""
    a, b = ([1, 2, 3], [0.1, 0.5, 1.0]), ([1, 2, 3], [0.2, 0.5, 1.0])
    styles = plot.coincident_styles([a, a, b, a])
    d = plot.DASH
    assert styles == [(0, (d, 2 * d)), (d, (d, 2 * d)), "-", (2 * d, (d, 2 * d))]
    assert plot.coincident_styles([a, b]) == ["-", "-"]
