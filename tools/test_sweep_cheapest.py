"""Findings on a synthetic sweep of cores, clock and FTL placement: the cheapest point
that reaches the best or meets a bound, and the tail's stage along the axes.
Run with: python3 -m pytest tools/test_sweep_cheapest.py."""

import pandas as pd
import pytest

from ssdtlm_tools import cheapest, findings, report_html

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
