"""ssdtlm-sweep's spec: errors name the key (before anything runs), labelled and zipped
axes expand, and the shipped specs load.
Run with: python3 -m pytest tools/test_sweep_spec.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import json

import pandas as pd
import pytest

from ssdtlm_tools import spec as specmod
from sweep_testlib import (
    CONFIG,
    LAYOUTS,
    ROOT,
    SMALL,
    TWO_CORES,
    open_in_chromium,
    run_cli,
    write_spec,
)


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
