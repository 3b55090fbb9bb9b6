"""The findings of a sweep with warnings and a write-only workload (a write buffer on or
off): best, worst, ratio and bottleneck, every warning with its points, the findings
block in the HTML page, n/a panels and readable figures; findings spec errors name the key.
Run with: python3 -m pytest tools/test_sweep_findings.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import html
import json
import re

import pandas as pd
import pytest

from ssdtlm_tools import describe, findings, plot, table
from ssdtlm_tools import spec as specmod
from sweep_testlib import (
    LAYOUTS,
    ROOT,
    assert_readable,
    figures_of,
    open_in_chromium,
    run_cli,
    write_spec,
)

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


def test_figures_are_readable_at_the_shipped_size(mixed):
    assert_readable(mixed[0], mixed[1])
