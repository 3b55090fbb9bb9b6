"""Where a stage of the latency breakdown takes the tail over (`findings.tail`,
docs/sweeps.md#the-tails-stage): along the spec's axes, the share of the slowest requests'
latency (`latency_breakdown_us.<op>.slowest.mean.<stage>`, the slowest 1 % and the bucket
below p99) that the stage holds, and from which point on it is their largest stage: on an aged
drive, from which wear and data age read retries, not queues, set the read tail.
"""
from .describe import axis_grid, axis_ranks, percent


def tail(df, manifest):
    """Of one workload's rows: per point along `findings.tail.along` (rows by every axis but
    the last, columns by the last), the stage's share of the slowest requests' latency and
    whether it is their largest stage; per row, the first column from which it is, to the
    last. Where points differ in other axes, a cell shows the one where the stage's share is
    largest. None without `findings.tail` or without the stage in the table."""
    opts = ((manifest or {}).get("findings") or {}).get("tail")
    if not opts:
        return None
    ranks, shown = axis_ranks(manifest, opts["along"])
    prefix = f"latency_breakdown_us.{opts['op']}.slowest.mean."
    cols = [c for c in df.columns if c.startswith(prefix)]
    if not ranks or prefix + opts["stage"] not in cols:
        return None
    ok = df[df["sweep.ok"].astype(bool)]
    means = ok[cols].astype(float).groupby(ok["sweep.label"], sort=False).mean()
    shares = {}
    for lab, row in means.iterrows():
        total = row.sum()
        if lab in ranks and total > 0:
            stage = float(row[prefix + opts["stage"]])
            # Its largest stage, ties to the stage asked about.
            shares[lab] = {"label": lab, "share": stage / total, "us": stage,
                           "leads": stage >= float(row.max())}
    if not shares:
        return None
    order = {lab: i for i, lab in enumerate(shares)}

    def cell(labels):
        return shares[max(labels, key=lambda lab: (shares[lab]["share"], -order[lab]))]

    grid = axis_grid(opts["along"], ranks, shown, list(shares), cell, opts["stage"])
    onset = []
    for cells in grid["cells"]:
        # From the first column whose point and every later one's lead.
        start = len(cells)
        while start > 0 and (cells[start - 1] is None or cells[start - 1]["leads"]):
            start -= 1
        while start < len(cells) and cells[start] is None:
            start += 1
        onset.append(grid["cols"][start] if start < len(cells) else None)
    return {**opts, "grid": grid, "onset": onset,
            "largest": max(shares.values(), key=lambda c: (c["share"], -order[c["label"]]))}


def heading(t):
    return (f"{t['stage']} in the slowest 1 % of {t['op']}s (its share of their latency; "
            f"* where it is their largest stage), by {', '.join(t['along'])}")


def onset_text(t, i):
    """Row i's answer: from which column on the stage leads the tail."""
    last = t["grid"]["cols"][-1]
    col = t["onset"][i]
    if col is None:
        return "never the largest"
    return f"the largest at {last}" if col == last else f"the largest from {col} on"


def tail_text(t):
    """The tail's stage as lines of text."""
    lines = [f"{heading(t)}:"]
    g = t["grid"]
    for i, (row, cells) in enumerate(zip(g["rows"], g["cells"])):
        parts = [f"{col} {percent(cell['share'])}{' *' if cell['leads'] else ''}"
                 for col, cell in zip(g["cols"], cells) if cell is not None]
        lines.append(f"  {row}: {onset_text(t, i)}: {', '.join(parts)}")
    return lines
