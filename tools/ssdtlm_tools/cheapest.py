"""The cheapest point of a sweep along its cost axes (docs/sweeps.md#the-cheapest-point): the
fewest cores, engines or microfarads that reach a throughput near the best point's, or keep a
report.json field within a bound (`findings.meets`), with its power and the best figure at each
cost.
"""
from .describe import (
    applicable,
    axis_grid,
    axis_ranks,
    bottleneck,
    describe_bottleneck,
    fmt,
    percent,
)

# The cheapest point (docs/sweeps.md#the-cheapest-point): the throughput it must reach, and
# what it costs in power, as report.json fields: (field, name, unit).
THROUGHPUT = ("iops", "IOPS")
POWER = [("energy_by_group_j.controller", "controller energy", "J"),
         ("controller_w", "controller average power", "W"),
         ("energy_total_j", "drive energy", "J"),
         ("peak_power_w", "drive peak power", "W")]


def _figures(df, label, best_value):
    """The point's throughput, the share of the best it reaches, its power figures (means over
    its repetitions) and its bottleneck."""
    sel = df[(df["sweep.label"] == label) & df["sweep.ok"].astype(bool)]
    out = {"label": label, "bottleneck": bottleneck(df, label, sel["sweep.workload"].iloc[0])}
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
    ranks, shown = axis_ranks(manifest, (manifest.get("findings") or {}).get("cost"))
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
    def cell(labels):
        top = min(labels, key=lambda lab: (sign * means[lab], order[lab]))
        return {"label": top, "value": float(means[top]),
                "of_best": None if meets else float(means[top] / means[best]),
                "reaches": bool(reaches(means[top]))}

    cost = options["cost"]
    return {"figure": field, "name": name, "within": options.get("within"), "meets": meets,
            "cost": cost, "best": figures(best),
            "cheapest": figures(pick) if pick is not None else None,
            "reaching": len(reach), "points": len(means),
            "grid": axis_grid(cost, ranks, shown, means.index, cell, name)}


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
