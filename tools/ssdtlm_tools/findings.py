"""The answer of a sweep, from its tidy table (docs/sweeps.md#findings): per workload, the
best and the worst point of each headline figure (and, for a workload of several flows, each
flow's; for a drive of several namespaces, each one's WAF and flash energy) and by how much,
the bottleneck each of the two ran into, every warning of every run
(each naming its points) and the flagged points (failed, or with warnings).

Every figure here is a report.json field (`field`), averaged over a point's repetitions; a
figure that does not apply to a run (latency of an operation it never issued, the WAF of a run
that programmed nothing) is left out of that run, never counted as 0.
"""
import json
import math

import numpy as np

from .cheapest import cheapest, cheapest_text
from .describe import applicable, bottleneck, describe_bottleneck, fmt
from .tail import tail, tail_text

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
             ("waf", "waf_end_to_end", "WAF", "", "low")]
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


# A namespace's figures among the headline ones: its data's write amplification (end to end
# through the host's zone translation layer where one serves it) and its flash energy.
NAMESPACE_FIGURES = [("waf", "waf_end_to_end", "WAF", "", "low"),
                     ("energy", "flash_energy_j.total", "flash energy", "J", "low")]


def namespace_headline(df, wsel):
    """(id, field, name, unit, better) of each namespace's figures (NAMESPACE_FIGURES) where the
    workload's runs have two namespaces or more (namespaces.<name>.*,
    docs/report.md#namespaces): which tenant pays for what."""
    names = [c[len("namespaces."):-len(".flash_energy_j.total")] for c in df.columns
             if c.startswith("namespaces.") and c.endswith(".flash_energy_j.total")
             and c.count(".") == 3 and df.loc[wsel, c].notna().any()]
    if len(names) < 2:
        return []
    return [(f"ns.{n}.{fid}", f"namespaces.{n}.{field}", f"namespace {n} {name}", unit, better)
            for n in names for fid, field, name, unit, better in NAMESPACE_FIGURES]


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
        for fid, field, name, unit, better in (headline() + flow_headline(df, wsel)
                                               + namespace_headline(df, wsel)):
            v = applicable(df, field)
            if v is None or not v[wsel].notna().any():
                op = fid.split(".")[0]
                if op in ("flow", "ns"):
                    continue  # a flow that issued no reads, a namespace never written: no row
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
                         "bottleneck": bottleneck(df, blab, w)},
                "worst": {"label": wlab, "value": worst, "text": fmt(worst, unit),
                          "bottleneck": bottleneck(df, wlab, w)},
                "warnings": warned,
            })
        out.append({"workload": w, "rows": rows, "na": na,
                    "summary": _summary(w, rows, wins, losses, warned_runs),
                    "cheapest": cheapest(df[wsel], manifest), "tail": tail(df[wsel], manifest)})
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


def to_text(f):
    """The findings as plain text (findings.txt, and the reply of a sweep)."""
    lines = []
    for w in f["workloads"]:
        lines.append(f"{w['workload']}: {w['summary']}")
        if w.get("cheapest"):
            lines += [f"  {line}" for line in cheapest_text(w["cheapest"])]
        if w.get("tail"):
            lines += [f"  {line}" for line in tail_text(w["tail"])]
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
