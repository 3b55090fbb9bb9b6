"""The answer of a sweep, from its tidy table (docs/sweeps.md#findings): per workload, the
best and the worst point of each headline figure (and, for a workload of several flows, each
flow's) and by how much, the bottleneck each of the two ran into, every warning of every run
(each naming its points) and the flagged points (failed, or with warnings).

Every figure here is a report.json field (`field`), averaged over a point's repetitions; a
figure that does not apply to a run (latency of an operation it never issued, the WAF of a run
that programmed nothing) is left out of that run, never counted as 0.
"""
import json
import math
import re

import numpy as np

OPS = ("read", "write", "trim", "flush")

# Differences below this (as a ratio) are reported as none: the runs are deterministic, so
# this is not noise but a difference too small to matter.
TIE = 1.01


def headline():
    """(id, field, name, unit, better) of the headline figures, in the order shown."""
    rows = [("iops", "iops", "IOPS", "", "high"),
            ("mbps", "bandwidth_mbps", "MB/s", "MB/s", "high")]
    for op in OPS:
        for stat, name in (("mean", "mean"), ("p99", "p99"), ("p999", "p99.9")):
            rows.append((f"{op}.{stat}", f"latency_us.{op}.{stat}", f"{op} {name} latency",
                         "us", "low"))
    rows += [("energy", "energy_total_j", "energy", "J", "low"),
             ("peak_current", "peak_current_ma", "peak current", "mA", "low"),
             ("waf", "waf", "WAF", "", "low")]
    return rows


# A flow's figures among the headline ones: its throughput and its mean and tail latency per op.
FLOW_FIGURES = [("iops", "iops", "IOPS", "", "high")] + [
    (f"{op}.{stat}", f"latency_us.{op}.{stat}", f"{op} {stat} latency", "us", "low")
    for op in ("read", "write") for stat in ("mean", "p99")]


def flow_headline(df, wsel):
    """(id, field, name, unit, better) of each flow's figures (FLOW_FIGURES) where the
    workload's runs have two flows or more (flows.<name>.*, docs/report.md#flows); one flow is
    the drive's own figures again."""
    flows = [c[len("flows."):-len(".iops")] for c in df.columns
             if c.startswith("flows.") and c.endswith(".iops") and c.count(".") == 2
             and df.loc[wsel, c].notna().any()]
    if len(flows) < 2:
        return []
    return [(f"flow.{f}.{fid}", f"flows.{f}.{field}", f"{f} {name}", unit, better)
            for f in flows for fid, field, name, unit, better in FLOW_FIGURES]


def applicable(df, field):
    """The column `field` with NaN where it does not apply to the run: latencies of an op with
    no requests of that kind, throughput of a run that moved nothing, a WAF of a run that
    programmed nothing (null or 0 in report.json), anything of a failed run."""
    if field not in df.columns:
        return None
    v = df[field].astype(float).where(df["sweep.ok"].astype(bool))
    m = re.match(r"^(flows\.[^.]+\.)?latency_us\.(\w+)\.", field)
    if m:
        count = f"{m.group(1) or ''}latency_us.{m.group(2)}.count"
        if count not in df.columns:
            return None
        return v.where(df[count].fillna(0).astype(float) > 0)
    if field == "waf":
        return v.where(v > 0)
    m = re.match(r"^(flows\.[^.]+\.)?iops$", field)
    if m:
        count = f"{m.group(1)}requests" if m.group(1) else "requests.count"
        return v.where(df[count].fillna(0).astype(float) > 0) if count in df.columns else v
    if field == "bandwidth_mbps":
        moved = [df[c].fillna(0).astype(float) for c in ("requests.read_bytes",
                                                         "requests.write_bytes")
                 if c in df.columns]
        if moved:
            return v.where(sum(moved) > 0)
    return v


def run_warnings(row):
    """The run's report.json `warnings` (a JSON cell of the table), [] without a report."""
    cell = row.get("warnings")
    if not isinstance(cell, str) or not cell:
        return []
    return json.loads(cell)


def warning_index(df):
    """The runs' warnings deduplicated by text, numbered W1, W2, ... in table order, each with
    the points (label / workload, repetitions) that gave it; {text: id}; and
    {(label, workload): {texts}}."""
    warn, warned_runs = {}, {}
    for _, row in df[df["sweep.ok"].astype(bool)].iterrows():
        for text in run_warnings(row):
            key = (row["sweep.label"], row["sweep.workload"])
            warn.setdefault(text, {}).setdefault(key, []).append(int(row["sweep.repetition"]))
            warned_runs.setdefault(key, set()).add(text)
    warnings = [{"id": f"W{i + 1}", "text": t,
                 "points": [{"label": lab, "workload": w, "reps": sorted(r),
                             "name": point_name(lab, w, r)} for (lab, w), r in pts.items()]}
                for i, (t, pts) in enumerate(warn.items())]
    return warnings, {x["text"]: x["id"] for x in warnings}, warned_runs


def workload_warning_ids(df):
    """{workload: [W1, ...]}: the warnings any run of the workload gave (figure titles)."""
    _, ids, warned_runs = warning_index(df)
    out = {}
    for (_, w), texts in warned_runs.items():
        out.setdefault(w, set()).update(ids[t] for t in texts)
    return {w: sorted(v, key=lambda i: int(i[1:])) for w, v in out.items()}


def _reps(reps):
    reps = sorted(set(int(r) for r in reps))
    return f"rep {reps[0]}" if len(reps) == 1 else f"reps {', '.join(map(str, reps))}"


def point_name(label, workload, reps=None):
    return f"{label} / {workload}" + (f" ({_reps(reps)})" if reps is not None else "")


def _first(series):
    s = series.dropna()
    return None if s.empty else s.iloc[0]


# What a request waiting in a stage of its latency breakdown (docs/report.md#latency-breakdown)
# waited for: the resource behind the stage.
STAGE_WAITS_FOR = {
    "host_queue": "the host's queue", "submission": "the submission queue and its fetch",
    "link_in": "the host link (in)", "core_queue": "the controller core",
    "firmware": "the core's firmware work", "messages": "messages between cores",
    "ftl_queue": "an FTL core", "ftl_firmware": "an FTL core's work",
    "core_wait_flash": "the core, blocked on flash", "core_wait_gc": "the core, blocked on GC",
    "data_wait": "its data", "throttle": "lifetime throttling",
    "flash_wait_host": "its die or channel, behind other host work",
    "flash_wait_gc": "its die, behind garbage collection",
    "flash_wait_power": "its die's wake-up or the power budget",
    "flash": "the flash operation itself",
    "read_retry": "read retries (aging NAND's bit errors)",
    "ecc_decode": "the ECC engines", "transfer_back": "the host link (back)",
}


def _waited(sel):
    """Where the point's requests spent most of their time (reads if it has any, else writes):
    the largest stage of the latency breakdown, its mean over the repetitions, its share of the
    mean latency and what it waited for; None without a breakdown."""
    for op in ("read", "write"):
        prefix = f"latency_breakdown_us.{op}.mean."
        cols = [c for c in sel.columns if c.startswith(prefix)]
        means = {c[len(prefix):]: float(sel[c].astype(float).mean()) for c in cols}
        means = {k: v for k, v in means.items() if math.isfinite(v)}
        total = sum(means.values())
        if total > 0:
            stage = max(means, key=lambda k: (means[k], k))
            return {"op": op, "stage": stage, "us": means[stage], "share": means[stage] / total,
                    "for": STAGE_WAITS_FOR.get(stage, stage)}
    return None


def _bottleneck(df, label, workload):
    """The busiest resource of the point while the host ran (utilisation.host_phase), else
    over the whole span (utilisation), with its busy fraction and the dies' mean; and where
    its requests waited most (`waited`, the latency breakdown's largest stage)."""
    sel = df[(df["sweep.label"] == label) & (df["sweep.workload"] == workload) & df["sweep.ok"]]
    for part in ("utilisation.host_phase", "utilisation"):
        name = f"{part}.bottleneck.name"
        if name in sel.columns and sel[name].notna().any():
            dies = f"{part}.dies_busy_mean"
            return {"field": f"{part}.bottleneck", "name": str(_first(sel[name])),
                    "busy": float(sel[f"{part}.bottleneck.busy"].astype(float).mean()),
                    "dies_busy_mean": (float(sel[dies].astype(float).mean())
                                       if dies in sel.columns else None),
                    "waited": _waited(sel)}
    return None


def resource_kind(name):
    if re.match(r"^ch\d+\.w\d+d\d+$", name):
        return "die"
    if re.match(r"^ch\d+$", name):
        return "channel bus"
    return {"host_if": "host link"}.get(name.split(".")[0], name.split(".")[0])


def describe_bottleneck(b):
    """'die ch0.w0d0 100 % busy (dies 6 % on average)': what limited the point; below 50 %
    busy nothing was saturated, so latency is service time, not queueing."""
    if b is None:
        return "n/a"
    kind = resource_kind(b["name"])
    text = f"{kind + ' ' if kind != b['name'] else ''}{b['name']} {percent(b['busy'])} busy"
    if b["dies_busy_mean"] is not None and resource_kind(b["name"]) == "die":
        text += f" (dies {percent(b['dies_busy_mean'])} on average)"
    if b["busy"] < 0.5:
        text += ": nothing saturated"
    w = b.get("waited")
    if w:
        text += (f"; {w['op']}s spent most in {w['stage']} ({fmt(w['us'], 'us')}, "
                 f"{percent(w['share'])} of their latency: waiting for {w['for']})")
    return text


def percent(fraction):
    """0.999 -> '99.9 %', 0.0032 -> '0.32 %'."""
    return f"{100 * fraction:.3g} %"


def fmt(value, unit):
    """A figure with its unit, latencies scaled to us, ms or s; 'n/a' for NaN/None."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    if unit == "us":
        if value >= 1e6:
            return f"{value / 1e6:.3g} s"
        if value >= 1e3:
            return f"{value / 1e3:.3g} ms"
        return f"{value:.3g} us"
    if abs(value) >= 1e4:
        text = f"{value:,.0f}"
    else:
        text = f"{value:.4g}"
    return f"{text} {unit}".rstrip()


def ratio_text(ratio):
    if ratio is None:
        return "one of them 0"
    if ratio < TIE:
        return "no difference (within 1 %)"
    return f"{ratio:.3g}x"


def compute(df, manifest=None):
    """The findings of the sweep table `df` (table.build); `manifest` (sweep.json) adds the
    points that failed without a row of their own. Deterministic: the same table gives the
    same findings."""
    manifest = manifest or {}
    ok = df["sweep.ok"].astype(bool)
    workloads = list(dict.fromkeys(df["sweep.workload"]))
    labels = list(dict.fromkeys(df["sweep.label"]))

    warnings, warning_id, warned_runs = warning_index(df)
    flagged = []
    failed_keys = set()
    for f in manifest.get("failed", []):
        failed_keys.add((f["label"], f["workload"]))
        flagged.append({"label": f["label"], "workload": f["workload"],
                        "name": point_name(f["label"], f["workload"]),
                        "reason": f"failed (exit {f['returncode']}), log {f['log']}"})
    for (lab, w), sub in df[~ok].groupby(["sweep.label", "sweep.workload"], sort=False):
        if (lab, w) not in failed_keys:
            flagged.append({"label": lab, "workload": w,
                            "name": point_name(lab, w, sub["sweep.repetition"]),
                            "reason": "no report (failed)"})
    for (lab, w), texts in warned_runs.items():
        flagged.append({"label": lab, "workload": w, "name": point_name(lab, w),
                        "reason": "warnings " + ", ".join(
                            sorted((warning_id[t] for t in texts), key=lambda i: int(i[1:])))})

    out = []
    for w in workloads:
        wsel = df["sweep.workload"] == w
        rows, na = [], []
        wins, losses = {}, {}
        for fid, field, name, unit, better in headline() + flow_headline(df, wsel):
            v = applicable(df, field)
            if v is None or not v[wsel].notna().any():
                op = fid.split(".")[0]
                if op == "flow":
                    continue  # a flow that issued no reads, or no writes: no row
                if op in ("read", "write"):
                    name = f"{op} latency (no {op}s)"
                if field in df.columns and op not in ("trim", "flush") and name not in na:
                    na.append(name)
                continue
            means = v[wsel].groupby(df.loc[wsel, "sweep.label"], sort=False).mean().dropna()
            means = means.reindex([lab for lab in labels if lab in means.index])
            if len(means) == 0:
                continue
            values = means.to_numpy()
            # Lowest or highest; ties go to the first point in sweep order.
            best_i = int(np.argmin(values) if better == "low" else np.argmax(values))
            worst_i = int(np.argmax(values) if better == "low" else np.argmin(values))
            best, worst = float(values[best_i]), float(values[worst_i])
            lo, hi = min(best, worst), max(best, worst)
            ratio = hi / lo if lo > 0 else (1.0 if hi == lo else None)  # None: one is 0
            tie = len(means) < 2 or (ratio is not None and ratio < TIE)
            blab, wlab = means.index[best_i], means.index[worst_i]
            if not tie:
                wins[blab] = wins.get(blab, []) + [name]
                losses[wlab] = losses.get(wlab, []) + [name]
            warned = sorted({warning_id[t] for lab in (blab, wlab)
                             for t in warned_runs.get((lab, w), ())}, key=lambda i: int(i[1:]))
            rows.append({
                "id": fid, "field": field, "name": name, "unit": unit, "better": better,
                "points": len(means), "tie": tie, "ratio": ratio,
                "best": {"label": blab, "value": best, "text": fmt(best, unit),
                         "bottleneck": _bottleneck(df, blab, w)},
                "worst": {"label": wlab, "value": worst, "text": fmt(worst, unit),
                          "bottleneck": _bottleneck(df, wlab, w)},
                "warnings": warned,
            })
        out.append({"workload": w, "rows": rows, "na": na,
                    "summary": _summary(w, rows, wins, losses, warned_runs),
                    "cheapest": cheapest(df[wsel], manifest)})
    return {"workloads": out, "warnings": warnings, "flagged": flagged,
            "runs": int(len(df)), "runs_ok": int(ok.sum())}


def _summary(workload, rows, wins, losses, warned_runs):
    """One sentence: which point is best on which of the figures that differ, and by how much
    at most; how many do not differ; whether those points warned."""
    if not rows:
        return "no figures (no run of this workload finished)"
    differ = [r for r in rows if not r["tie"]]
    if not differ:
        return (f"every point gives the same figures (within 1 %); "
                f"bottleneck: {describe_bottleneck(rows[0]['best']['bottleneck'])}")
    parts = []
    for lab, names in sorted(wins.items(), key=lambda kv: -len(kv[1])):
        mine = [r for r in differ if r["best"]["label"] == lab]
        top = max(mine, key=lambda r: math.inf if r["ratio"] is None else r["ratio"])
        which = (", ".join(names) if len(names) < len(differ) else
                 "the one figure that differs" if len(differ) == 1 else
                 f"all {len(differ)} figures that differ")
        parts.append(f"{lab} best on {which} (up to {ratio_text(top['ratio'])}, "
                     f"{top['name']})")
    text = "; ".join(parts)
    if len(differ) < len(rows):
        n = len(rows) - len(differ)
        text += f"; {n} figure{'s' if n > 1 else ''} within 1 %"
    names = set(wins) | set(losses)
    if any(warned_runs.get((lab, workload)) for lab in names):
        text += "; these points have warnings (below): their figures are suspect"
    return text


# The cheapest point (docs/sweeps.md#the-cheapest-point): the throughput it must reach, and
# what it costs in power, as report.json fields: (field, name, unit).
THROUGHPUT = ("iops", "IOPS")
POWER = [("energy_by_group_j.controller", "controller energy", "J"),
         ("controller_w", "controller average power", "W"),
         ("energy_total_j", "drive energy", "J"),
         ("peak_power_w", "drive peak power", "W")]


def _point_costs(manifest):
    """{point label: its cost, a tuple ranking it along the spec's `findings.cost` axes, most
    significant first} and {point label: {axis key: the value as the label shows it}}, from
    sweep.json; ({}, {}) when the spec names no cost axes."""
    cost = (manifest.get("findings") or {}).get("cost")
    axes = {a["key"]: a for a in manifest.get("axes", [])}
    if not cost or any(k not in axes for k in cost):
        return {}, {}
    ranks, shown = {}, {}
    for run in manifest.get("runs", []):
        levels = run.get("levels", {})
        if all(k in levels for k in cost):
            ranks[run["label"]] = tuple(axes[k]["order"][levels[k]] for k in cost)
            shown[run["label"]] = {k: axes[k]["shown"][levels[k]] for k in cost}
    return ranks, shown


def _figures(df, label, best_value):
    """The point's throughput, the share of the best it reaches, its power figures (means over
    its repetitions) and its bottleneck."""
    sel = df[(df["sweep.label"] == label) & df["sweep.ok"].astype(bool)]
    out = {"label": label, "bottleneck": _bottleneck(df, label, sel["sweep.workload"].iloc[0])}
    for field in (THROUGHPUT[0], "bandwidth_mbps"):
        v = applicable(sel, field)
        out[field] = None if v is None or v.isna().all() else float(v.mean())
    out["of_best"] = out[THROUGHPUT[0]] / best_value if best_value else None
    for field, _, _ in POWER:
        if field == "controller_w":  # the controller's energy over the run's energy span
            need = ("energy_by_group_j.controller", "energy_span_s")
            v = (sel[need[0]].astype(float) / sel[need[1]].astype(float)
                 if all(c in sel.columns for c in need) else None)
        else:
            v = sel[field].astype(float) if field in sel.columns else None
        out[field] = None if v is None or v.isna().all() else float(v.mean())
    return out


def cheapest(df, manifest):
    """Of one workload's rows: the cheapest point (lowest along the spec's `findings.cost`
    axes, the first most significant; then the better figure, then sweep order) that reaches
    the requirement: a throughput within `findings.within` of the best point's, or with
    `findings.meets` a field's value within its bound; its power against the best point's
    (the best figure), and the best figure at each combination of the cost axes (over the
    other axes). None when the spec names no cost axes or no run of the workload gives the
    figure; `cheapest` None when no point reaches it."""
    manifest = manifest or {}
    ranks, shown = _point_costs(manifest)
    if not ranks:
        return None
    options = manifest["findings"]
    meets = options.get("meets")
    field, name = (meets["field"], meets["field"]) if meets else THROUGHPUT
    v = applicable(df, field)
    if v is None:
        return None
    means = v.groupby(df["sweep.label"], sort=False).mean().dropna()
    means = means[[lab for lab in means.index if lab in ranks]]
    if means.empty:
        return None
    low = bool(meets) and "at_most" in meets  # the lower the better
    sign = 1.0 if low else -1.0  # sorts the better first
    order = {lab: i for i, lab in enumerate(means.index)}
    best = min(means.index, key=lambda lab: (sign * means[lab], order[lab]))
    if meets:
        bound = meets["at_most" if low else "at_least"]
        reaches = (lambda x: x <= bound) if low else (lambda x: x >= bound)
    else:
        floor = means[best] * (1 - options["within"])
        reaches = lambda x: x >= floor  # noqa: E731
    reach = [lab for lab in means.index if reaches(means[lab])]
    pick = min(reach, key=lambda lab: (ranks[lab], sign * means[lab], order[lab]), default=None)

    def figures(lab):
        out = _figures(df, lab, means[best] if not meets else None)
        out["value"] = float(means[lab])
        return out

    # The best figure of each cost combination: rows by every cost axis but the last, columns
    # by the last.
    cost = options["cost"]
    combos = {}
    for lab in means.index:
        combos.setdefault(ranks[lab], []).append(lab)
    rows, cols, cells = {}, {}, {}  # row and column texts -> their rank
    for rank in sorted(combos):
        top = min(combos[rank], key=lambda lab: (sign * means[lab], order[lab]))
        parts = [shown[top][k] for k in cost]
        row, col = ", ".join(parts[:-1]) or name, parts[-1]
        rows.setdefault(row, rank[:-1])
        cols.setdefault(col, rank[-1])
        cells[(row, col)] = {"label": top, "value": float(means[top]),
                             "of_best": None if meets else float(means[top] / means[best]),
                             "reaches": bool(reaches(means[top]))}
    rows, cols = sorted(rows, key=rows.get), sorted(cols, key=cols.get)
    return {"figure": field, "name": name, "within": options.get("within"), "meets": meets,
            "cost": cost, "best": figures(best),
            "cheapest": figures(pick) if pick is not None else None,
            "reaching": len(reach), "points": len(means),
            "grid": {"rows": rows, "cols": cols,
                     "cells": [[cells.get((r, c)) for c in cols] for r in rows]}}


def requirement_text(c):
    """What the cheapest point reaches: `within 5 % of the best IOPS`, or the field's bound."""
    m = c["meets"]
    if not m:
        return f"within {100 * c['within']:.3g} % of the best {c['name']}"
    return (f"{m['field']} at most {fmt(m['at_most'], '')}" if "at_most" in m
            else f"{m['field']} at least {fmt(m['at_least'], '')}")


def cell_text(c, cell):
    """A grid cell: its share of the best throughput, or the field's value."""
    return fmt(cell["value"], "") if c["meets"] else percent(cell["of_best"])


def _power_text(p):
    return (f"controller {fmt(p['energy_by_group_j.controller'], 'J')}, "
            f"{fmt(p['controller_w'], 'W')} on average; drive {fmt(p['energy_total_j'], 'J')}, "
            f"peak {fmt(p['peak_power_w'], 'W')}")


def cheapest_text(c):
    """The cheapest point as lines of text: the point, the best one, and the best figure at
    each cost."""
    name, req = c["name"], requirement_text(c)
    ch, best = c["cheapest"], c["best"]

    def figure(p):
        if c["meets"]:
            return (f"{name} {fmt(p['value'], '')}; {fmt(p['iops'], '')} IOPS "
                    f"({fmt(p['bandwidth_mbps'], 'MB/s')})")
        return (f"{fmt(p['value'], '')} {name} ({fmt(p['bandwidth_mbps'], 'MB/s')}"
                + (f", {percent(p['of_best'])} of the best)" if p is ch else ")"))

    head = (f"cheapest {'meeting' if c['meets'] else 'within'} "
            f"{req.removeprefix('within ')} (fewest {', then '.join(c['cost'])}; "
            f"{c['reaching']} of {c['points']} points reach it)")
    if ch is None:
        lines = [f"{head}: none"]
    else:
        lines = [f"{head}: {ch['label']}: {figure(ch)}; {_power_text(ch)}"]
    if ch is not None and ch["label"] == best["label"]:
        lines[0] += "; it is the best point too"
    else:
        lines.append(f"best: {best['label']}: {figure(best)}; {_power_text(best)}")
    lines[-1] += f"; bottleneck {describe_bottleneck(best['bottleneck'])}"
    key = f"* {req}" if c["meets"] else f"% of the best; * within {100 * c['within']:.3g} %"
    lines.append(f"best {name} at each cost, over the other axes ({key}):")
    g = c["grid"]
    for row, cells in zip(g["rows"], g["cells"]):
        parts = [f"{col} {cell_text(c, cell)}{' *' if cell['reaches'] else ''}"
                 for col, cell in zip(g["cols"], cells) if cell is not None]
        lines.append(f"  {row}: {', '.join(parts)}")
    return lines


def to_text(f):
    """The findings as plain text (findings.txt, and the reply of a sweep)."""
    lines = []
    for w in f["workloads"]:
        lines.append(f"{w['workload']}: {w['summary']}")
        if w.get("cheapest"):
            lines += [f"  {line}" for line in cheapest_text(w["cheapest"])]
        said = set()  # the points whose bottleneck is already written: once a point
        for r in w["rows"]:
            flag = f"  [warnings {', '.join(r['warnings'])}]" if r["warnings"] else ""
            if r["points"] < 2:
                lines.append(f"  {r['name']}: {r['best']['text']} (one point){flag}")
                continue
            if r["tie"]:
                lines.append(f"  {r['name']}: {r['best']['text']} everywhere, "
                             f"{ratio_text(r['ratio'])}{flag}")
                continue
            lines.append(f"  {r['name']}: best {r['best']['label']} {r['best']['text']}, worst "
                         f"{r['worst']['label']} {r['worst']['text']}: "
                         f"{ratio_text(r['ratio'])}{flag}")
            necks = [f"{side} {describe_bottleneck(r[side]['bottleneck'])}"
                     for side in ("best", "worst") if r[side]["label"] not in said]
            said |= {r["best"]["label"], r["worst"]["label"]}
            if necks:
                lines.append(f"    bottleneck: {'; '.join(necks)}")
        if w["na"]:
            lines.append(f"  n/a: {', '.join(w['na'])}")
    if f["warnings"]:
        lines.append("warnings:")
        for x in f["warnings"]:
            lines.append(f"  {x['id']}: {x['text']}")
            lines.append(f"    in: {'; '.join(p['name'] for p in x['points'])}")
    if f["flagged"]:
        lines.append("flagged points:")
        for p in f["flagged"]:
            lines.append(f"  {p['name']}: {p['reason']}")
    return "\n".join(lines) + "\n"
