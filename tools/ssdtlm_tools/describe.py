"""A report.json field in a sweep's tidy table: where it applies, how it is written, and what
limited a point (its busiest resource and where its requests waited), for the findings
(findings.py, cheapest.py), the page and the figures.
"""
import math
import re


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
    if field in ("waf", "waf_end_to_end"):
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


def bottleneck(df, label, workload):
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


def axis_ranks(manifest, keys):
    """{point label: its rank along the axes `keys` (a tuple of each axis's order, the first
    most significant)} and {point label: {axis key: the value as the label shows it}}, from
    sweep.json; ({}, {}) without keys, or with one that is not an axis."""
    axes = {a["key"]: a for a in manifest.get("axes", [])}
    if not keys or any(k not in axes for k in keys):
        return {}, {}
    ranks, shown = {}, {}
    for run in manifest.get("runs", []):
        levels = run.get("levels", {})
        if all(k in levels for k in keys):
            ranks[run["label"]] = tuple(axes[k]["order"][levels[k]] for k in keys)
            shown[run["label"]] = {k: axes[k]["shown"][levels[k]] for k in keys}
    return ranks, shown


def axis_grid(keys, ranks, shown, labels, cell, corner):
    """The points `labels` on a grid by the axes `keys` (axis_ranks' ranks and shown values):
    rows by every axis but the last (`corner` names the one row of a single axis), columns by
    the last, in axis order; each cell `cell(the labels at it)`, None where no point is."""
    at = {}
    for lab in labels:
        at.setdefault(ranks[lab], []).append(lab)
    rows, cols, cells = {}, {}, {}  # row and column texts -> their rank
    for rank in sorted(at):
        parts = [shown[at[rank][0]][k] for k in keys]
        row, col = ", ".join(parts[:-1]) or corner, parts[-1]
        rows.setdefault(row, rank[:-1])
        cols.setdefault(col, rank[-1])
        cells[(row, col)] = cell(at[rank])
    rows, cols = sorted(rows, key=rows.get), sorted(cols, key=cols.get)
    return {"rows": rows, "cols": cols, "cells": [[cells.get((r, c)) for c in cols] for r in rows]}
