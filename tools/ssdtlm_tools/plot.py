"""ssdtlm-plot SWEEP_DIR (cli.py): the figures of a sweep from its tidy table and the points' energy
series, as PNG (or SVG, PDF) files in SWEEP_DIR/plots/ (docs/sweeps.md#figures)."""
import json
import math
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import describe, findings  # noqa: E402

# Figure id -> title; the HTML report shows them in this order.
# The normalised chart first: every point against the baseline on one scale, the quickest read.
FIGURES = {
    "normalised": "Latency and energy per config, normalised to the baseline of each workload",
    "throughput": "IOPS and MB/s per point (mean over repetitions; bars span them)",
    "tail": "Tail latency per op: p99, p99.9, p99.99 (mean over repetitions)",
    "latency_cdf": "Latency CDF per op (log latency; the fraction axis stretches the tail)",
    "pareto": "Energy vs mean latency, with the Pareto front (axes from 0)",
    "energy_breakdown": "Energy by component and state",
    "current": "Drive current over time (energy series)",
    "time_above": "Time above a power level (energy series windows)",
}

# The sizes every figure is drawn with (and checked at: tools/test_sweep*.py): at the page's
# 90 dpi nothing smaller than 8 pt.
STYLE = {"font.size": 9, "axes.titlesize": 9, "axes.labelsize": 9, "xtick.labelsize": 8,
         "ytick.labelsize": 8, "legend.fontsize": 8, "figure.titlesize": 10}
MIN_FONT_PT = 8
DPI = 90
NA_STYLE = {"ha": "center", "va": "center", "fontsize": 9, "color": "0.4"}


def na_panel(ax, why):
    """A panel whose figure does not apply: says so ("n/a: ...") instead of staying empty."""
    ax.set_xticks([])
    ax.set_yticks([])
    ax.text(0.5, 0.5, f"n/a\n{why}", transform=ax.transAxes, **NA_STYLE)


def palette(n, first="tab20"):
    """n colours: those of `first` while it has enough, else tab20, then tab20b and tab20c
    (60 colours, each its own, so a legend never names two things by one colour); only past 60
    do they repeat."""
    if n <= plt.get_cmap(first).N:
        colors = list(plt.get_cmap(first).colors)
    else:
        colors = [c for name in ("tab20", "tab20b", "tab20c") for c in plt.get_cmap(name).colors]
    return [colors[i % len(colors)] for i in range(n)]


def colours(labels):
    """A colour per point label, the same in every figure (sweep order): tab10 up to 10
    points, more from palette()."""
    return dict(zip(labels, palette(len(labels), "tab10")))


def _title(workload, warned):
    """A workload's panel title, with the ids of its runs' warnings (findings block)."""
    ids = warned.get(workload)
    return f"{workload} [warnings {', '.join(ids)}]" if ids else workload


def _labels_legend(fig, labels, colour):
    handles = [plt.Rectangle((0, 0), 1, 1, color=colour[lab]) for lab in labels]
    fig.legend(handles, labels, loc="outside right center", title="point", frameon=False)


def _ok(df):
    return df[df["sweep.ok"]].copy()


class Ctx:
    """What every figure needs: the table of finished runs, workloads and point labels in
    sweep order, a colour per label, the warning ids per workload, the sweep's directory and
    plot options."""

    def __init__(self, df, out_dir, opts):
        self.df, self.out_dir, self.opts = df, out_dir, opts
        self.workloads = list(dict.fromkeys(df["sweep.workload"]))
        self.labels = list(dict.fromkeys(df["sweep.label"]))
        self.colour = colours(self.labels)
        self.warned = findings.workload_warning_ids(df)

    def ops(self):
        """The ops (read, write, trim, flush) any run issued."""
        return [op for op in findings.OPS if f"latency_us.{op}.count" in self.df.columns
                and self.df[f"latency_us.{op}.count"].fillna(0).astype(float).gt(0).any()]


def _mean_latency(df):
    """Mean latency of reads and writes together, weighted by their counts."""
    num = den = 0
    for kind in ("read", "write"):
        n = df[f"latency_us.{kind}.count"].astype(float)
        # A kind with no request has no mean (null): it adds nothing.
        num = num + (n * df[f"latency_us.{kind}.mean"].astype(float)).where(n > 0, 0.0)
        den = den + n
    return num / den.replace(0, np.nan)


def _by_config(df, value):
    """Mean over repetitions of `value` per (workload, label), labels in sweep order."""
    d = df.assign(_v=value)
    groups = d.groupby(["sweep.workload", "sweep.label"], sort=False)["_v"]
    agg = groups.agg(["mean", "min", "max"])
    # The mean of equal values can round one ulp outside them (0.1 three times: 0.1 + 2e-17),
    # which would make an error bar negative.
    agg["mean"] = agg["mean"].clip(agg["min"], agg["max"])
    return agg


def _baseline(labels, wanted):
    return wanted if wanted in labels else labels[0]


# Panels per row of a figure: more workloads wrap onto further rows, so a figure stays about
# 1400 px wide at the page's 90 dpi and its labels keep their size in the page.
MAX_COLS = 3


def _grid(rows, workloads, row_height, width=4.0, sharey=False):
    """A figure with `rows` panels per workload (one per metric or op), workloads side by side,
    at most MAX_COLS a row, wrapping onto further blocks of `rows` rows. Returns the figure and
    axes[row][j]: metric `row` of workload j (unused grid cells hidden)."""
    n = len(workloads)
    cols = min(MAX_COLS, n)
    blocks = math.ceil(n / cols)
    fig, grid = plt.subplots(rows * blocks, cols, figsize=(width * cols + 1.5,
                                                           row_height * rows * blocks),
                             squeeze=False, sharey=sharey, layout="constrained")
    axes = [[grid[(j // cols) * rows + r][j % cols] for j in range(n)] for r in range(rows)]
    for j in range(n, blocks * cols):
        for r in range(rows):
            grid[(j // cols) * rows + r][j % cols].set_visible(False)
    return fig, axes


def _ylabel(axes_row, text):
    """`text` on the y axis of the first panel of each row of panels."""
    cols = min(MAX_COLS, len(axes_row))
    for j, ax in enumerate(axes_row):
        if j % cols == 0:
            ax.set_ylabel(text)


def _barh_height(n_labels):
    return max(2.4, 0.32 * n_labels + 1.2)


def throughput(df, ctx):
    """IOPS (top row) and MB/s (bottom) of each point, a panel per workload, horizontal bars
    (the point labels read left to right), the value at each bar's end."""
    metrics = [("iops", "IOPS (requests/s)"), ("bandwidth_mbps", "MB/s")]
    fig, axes = _grid(2, ctx.workloads, _barh_height(len(ctx.labels)), sharey=True)
    for row, (field, name) in enumerate(metrics):
        agg = _by_config(df, describe.applicable(df, field))
        for ax, w in zip(axes[row], ctx.workloads):
            sub = agg.loc[w].reindex(ctx.labels) if w in agg.index.get_level_values(0) else None
            y = np.arange(len(ctx.labels))
            if sub is None or sub["mean"].isna().all():
                ax.barh(y, np.zeros(len(y)), color="none")
                ax.set_yticks(y, ctx.labels)
                ax.text(0.5, 0.5, "n/a\nno requests", transform=ax.transAxes, **NA_STYLE)
                ax.set_xticks([])
            else:
                m = sub["mean"].to_numpy(dtype=float)
                err = [np.nan_to_num(m - sub["min"].to_numpy(dtype=float)),
                       np.nan_to_num(sub["max"].to_numpy(dtype=float) - m)]
                ax.barh(y, np.nan_to_num(m), color=[ctx.colour[lab] for lab in ctx.labels],
                        xerr=err if np.nanmax(err) > 0 else None)
                ax.set_yticks(y, ctx.labels)
                # Each value beyond its bar's error bar, not under it.
                for yi, v, end in zip(y, m, np.nan_to_num(m) + err[1]):
                    ax.text(end if np.isfinite(v) else 0, yi,
                            f" {describe.fmt(v, '')}", va="center", ha="left", fontsize=8)
                ax.set_xlim(0, np.nanmax(m + err[1]) * 1.35)
                ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(4))
            ax.set_xlabel(name)
            if row == 0:
                ax.set_title(_title(w, ctx.warned))
    axes[0][0].invert_yaxis()  # shared by every panel: the first point on top
    return fig


PERCENTILES = [("p99", "p99"), ("p999", "p99.9"), ("p9999", "p99.99")]


def tail(df, ctx):
    """p99, p99.9 and p99.99 of each op (a row per op) and point, a panel per workload, on a
    latency axis from 0 (so a ratio reads as one); "n/a" where the workload has none of that
    op."""
    ops = ctx.ops() or ["write"]
    fig, axes = _grid(len(ops), ctx.workloads, _barh_height(len(ctx.labels)), sharey=True)
    pcolour = {"p99": "#9ecae1", "p999": "#3182bd", "p9999": "#08306b"}
    y = np.arange(len(ctx.labels))
    h = 0.8 / len(PERCENTILES)
    for row, op in enumerate(ops):
        for ax, w in zip(axes[row], ctx.workloads):
            sel = df["sweep.workload"] == w
            drawn = False
            for k, (stat, name) in enumerate(PERCENTILES):
                v = describe.applicable(df[sel], f"latency_us.{op}.{stat}")
                if v is None or v.isna().all():
                    continue
                agg = _by_config(df[sel], v).loc[w].reindex(ctx.labels)["mean"]
                ax.barh(y - 0.4 + h * (k + 0.5), agg.to_numpy(dtype=float), h,
                        color=pcolour[stat], label=name)
                drawn = True
            ax.set_yticks(y, ctx.labels)
            if drawn:
                scale, unit = _latency_unit(max(b.get_width() for b in ax.patches))
                ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(4))
                ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
                    lambda v, _, k=scale: f"{v / k:g}"))
                ax.set_xlabel(f"{op} latency ({unit}, from 0)")
            else:
                ax.text(0.5, 0.5, f"n/a\nno {op}s", transform=ax.transAxes, **NA_STYLE)
                ax.set_xticks([])
                ax.set_xlabel(f"{op} latency")
            if row == 0:
                ax.set_title(_title(w, ctx.warned))
    axes[0][0].invert_yaxis()  # shared by every panel: the first point on top
    handles = [plt.Rectangle((0, 0), 1, 1, color=pcolour[s]) for s, _ in PERCENTILES]
    fig.legend(handles, [n for _, n in PERCENTILES], loc="outside right center", frameon=False,
               title="percentile")
    return fig


def _latency_unit(max_us):
    """(us per unit, unit) for a latency axis reaching max_us."""
    if max_us >= 2e6:
        return 1e6, "s"
    if max_us >= 2e3:
        return 1e3, "ms"
    return 1.0, "us"


def _us_text(v, _=None):
    return describe.fmt(v, "us").replace(".0 ", " ")


def _log_latency_axis(ax, lo, hi):
    """A log latency axis over at least a decade (so it has labelled ticks), ticks at 1, 2
    and 5 of each decade, labelled with their unit (200 us, 1 ms)."""
    mid = math.sqrt(lo * hi)
    if hi / lo < 10:
        lo, hi = mid / math.sqrt(10), mid * math.sqrt(10)
    ax.set_xscale("log")
    ax.set_xlim(lo / 1.2, hi * 1.2)
    decades = math.log10(hi / lo)
    subs = (1, 2, 5) if decades <= 1.6 else (1, 3) if decades <= 3 else (1,)
    ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=subs, numticks=8))
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_us_text))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def _cdf(upper, count):
    if not isinstance(upper, str) or not isinstance(count, str):
        return None
    upper, count = json.loads(upper), np.array(json.loads(count), dtype=float)
    if not len(count) or count.sum() == 0:
        return None
    return np.array(upper), np.cumsum(count) / count.sum()


# The CDF's fraction axis: logit, so p90, p99, p99.9 and p99.99 are as far apart as p50 and
# p90; a CDF reaching 1 is drawn up to the top of the axis.
CDF_TICKS = [(0.1, "p10"), (0.5, "p50"), (0.9, "p90"), (0.99, "p99"), (0.999, "p99.9"),
             (0.9999, "p99.99")]
CDF_TOP = 0.99995


# Dash length (points) of coincident curves taking the line in turns.
DASH = 4


def coincident_styles(curves):
    """A line style per curve ((x, y) arrays): a curve equal point for point to others shares
    the line with them in turns, a dash of each colour after the other, so no point's colour
    hides under another's; every other curve is solid."""
    groups = {}
    for i, (x, y) in enumerate(curves):
        key = (np.asarray(x, float).tobytes(), np.asarray(y, float).tobytes())
        groups.setdefault(key, []).append(i)
    styles = ["-"] * len(curves)
    for members in groups.values():
        for j, i in enumerate(members if len(members) > 1 else []):
            styles[i] = (j * DASH, (DASH, DASH * (len(members) - 1)))
    return styles


def _draw_curves(ax, curves, step=False, **kw):
    """Draws [(x, y, colour)] with coincident_styles; returns how many."""
    for (x, y, colour), style in zip(curves, coincident_styles([(x, y) for x, y, _ in curves])):
        if step:
            ax.step(x, y, where="post", color=colour, linestyle=style, **kw)
        else:
            ax.plot(x, y, color=colour, linestyle=style, **kw)
    return len(curves)


def latency_cdf(df, ctx):
    """A row per op, a panel per workload: the CDF of each point (first repetition) from
    latency_histogram_us, log latency axis, logit fraction axis (the tail stretched)."""
    ops = ctx.ops() or ["write"]
    fig, axes = _grid(len(ops), ctx.workloads, 3.4)
    for row, op in enumerate(ops):
        for ax, w in zip(axes[row], ctx.workloads):
            sub = df[(df["sweep.workload"] == w) & (df["sweep.repetition"] == 0)]
            curves, lo, hi = [], math.inf, 0
            for _, r in sub.iterrows():
                c = _cdf(r.get(f"latency_histogram_us.{op}.upper_us"),
                         r.get(f"latency_histogram_us.{op}.count"))
                if c is None:
                    continue
                lo, hi = min(lo, c[0][0] / 10 ** 0.1), max(hi, c[0][-1])
                x = np.concatenate([[c[0][0] / 10 ** 0.1], c[0]])
                y = np.clip(np.concatenate([[0], c[1]]), 1e-3, CDF_TOP)
                curves.append((x, y, ctx.colour[r["sweep.label"]]))
            if not _draw_curves(ax, curves, step=True, lw=1.2):
                na_panel(ax, f"no {op}s")
            else:
                _log_latency_axis(ax, lo, hi)
                ax.set_yscale("logit")
                ax.set_ylim(0.05, CDF_TOP)
                ax.set_yticks([t for t, _ in CDF_TICKS], [n for _, n in CDF_TICKS])
                ax.yaxis.set_minor_locator(matplotlib.ticker.NullLocator())
                ax.grid(True, which="major", lw=0.4, color="0.85")
                ax.set_xlabel(f"{op} latency (log)")
            if row == 0:
                ax.set_title(_title(w, ctx.warned))
        _ylabel(axes[row], "fraction at or below")
    _labels_legend(fig, ctx.labels, ctx.colour)
    return fig


def normalised(df, ctx):
    """Bars per config, grouped by workload, each metric divided by the baseline config of
    its workload (the founding study normalises to its baseline drive, Cho et al. 2015);
    "n/a" where the workload has none of the metric (read p99 of a write-only workload)."""
    metrics = [("mean latency", _mean_latency(df)),
               ("read p99", describe.applicable(df, "latency_us.read.p99")),
               ("write p99", describe.applicable(df, "latency_us.write.p99")),
               ("energy", df["energy_total_j"].astype(float))]
    workloads, labels = ctx.workloads, ctx.labels
    base = _baseline(labels, ctx.opts.get("baseline"))
    # Two by two, each panel wide enough for its workloads' names; one above the other when
    # two would be wider than the page.
    panel_w = min(max(4.5, 0.9 * len(workloads) + 1.0), 14.0)
    cols = 2 if 2 * panel_w + 1.5 <= 16.5 else 1
    fig, axes = plt.subplots(4 // cols, cols, figsize=(cols * panel_w + 1.5, 4 // cols * 3.4),
                             squeeze=False, layout="constrained")
    width = 0.8 / len(labels)
    for ax, (name, value) in zip(axes.flat, metrics):
        agg = _by_config(df, value)
        drawn = []
        for i, label in enumerate(labels):
            ys, lo, hi = [], [], []
            for w in workloads:
                ref = agg["mean"].get((w, base), np.nan)
                m = agg.loc[(w, label)] if (w, label) in agg.index else None
                ys.append(m["mean"] / ref if m is not None else np.nan)
                lo.append((m["mean"] - m["min"]) / ref if m is not None else 0)
                hi.append((m["max"] - m["mean"]) / ref if m is not None else 0)
            lo, hi = list(np.nan_to_num(lo)), list(np.nan_to_num(hi))
            x = np.arange(len(workloads)) + i * width - 0.4 + width / 2
            ax.bar(x, ys, width, yerr=[lo, hi] if any(v > 0 for v in lo + hi) else None,
                   color=ctx.colour[label])
            drawn += [y for y in ys if np.isfinite(y) and y > 0]
        for j, w in enumerate(workloads):
            if not any((w, lab) in agg.index and np.isfinite(agg.loc[(w, lab)]["mean"])
                       for lab in labels):
                ax.text(j, 0.5, "n/a", ha="center", va="center", fontsize=9, color="0.4",
                        transform=ax.get_xaxis_transform())
        # Ratios far apart (one FTL 1000x slower on one workload) on a log scale, so the
        # others stay readable.
        if drawn and max(drawn) / min(drawn) > 20:
            ax.set_yscale("log")
        ax.axhline(1.0, color="k", lw=0.6)
        ax.set_xlim(-0.5, len(workloads) - 0.5)
        ax.set_xticks(range(len(workloads)),
                      [_title(w, ctx.warned).replace(" [", "\n[") for w in workloads],
                      rotation=30, ha="right", rotation_mode="anchor")
        ax.set_title(f"{name} / baseline")
    fig.supxlabel(f"baseline: {base}", fontsize=9)
    _labels_legend(fig, labels, ctx.colour)
    return fig


def _component_group(name):
    if re.match(r"^ch\d+\.w\d+d\d+$", name):
        return "nand"
    if re.match(r"^ch\d+$", name):
        return "channel"
    return name.split(".")[0]


def energy_breakdown(df, ctx):
    """Stacked horizontal bars per config, one panel per workload: energy of each component
    group (the dies as nand, the channel buses as channel) and state, mean over repetitions."""
    stacks = {}
    for c in (c for c in df.columns if c.startswith("energy_j.")):
        component, state = c[len("energy_j."):].rsplit(".", 1)
        stacks.setdefault(f"{_component_group(component)}.{state}", []).append(c)
    d = df.assign(**{k: df[v].astype(float).sum(axis=1) for k, v in stacks.items()})
    agg = d.groupby(["sweep.workload", "sweep.label"], sort=False)[list(stacks)].mean()
    agg = agg.loc[:, agg.sum() > 0]
    colour = palette(len(agg.columns))
    fig, axes = _grid(1, ctx.workloads, _barh_height(len(ctx.labels)), sharey=True)
    y = np.arange(len(ctx.labels))
    for ax, w in zip(axes[0], ctx.workloads):
        sub = agg.loc[w].reindex(ctx.labels).fillna(0)
        left = np.zeros(len(sub))
        for i, col in enumerate(agg.columns):
            ax.barh(y, sub[col], left=left, color=colour[i], label=col)
            left += sub[col].to_numpy()
        ax.set_yticks(y, ctx.labels)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(4))
        ax.set_title(_title(w, ctx.warned))
        ax.set_xlabel("energy (J)")
    axes[0][0].invert_yaxis()
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in colour]
    fig.legend(handles, list(agg.columns), loc="outside right center", frameon=False,
               ncol=1 + len(agg.columns) // 16)
    return fig


def _series(out_dir, key):
    path = os.path.join(out_dir, "points", key, "energy.csv")
    return pd.read_csv(path) if os.path.exists(path) else None


def current(df, ctx):
    fig, axes = _grid(1, ctx.workloads, 3.4)
    for ax, w in zip(axes[0], ctx.workloads):
        curves = []
        for _, row in df[(df["sweep.workload"] == w) & (df["sweep.repetition"] == 0)].iterrows():
            s = _series(ctx.out_dir, row["sweep.key"])
            if s is not None and not s.empty:
                curves.append((s["t_start_s"].to_numpy() * 1e3, s["avg_current_ma"].to_numpy(),
                               ctx.colour[row["sweep.label"]]))
        if not _draw_curves(ax, curves, lw=0.8):
            na_panel(ax, "no energy series (--no-series?)")
        else:
            ax.set_xlabel("time (ms)")
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(5))
        ax.set_title(_title(w, ctx.warned))
    _ylabel(axes[0], "drive current (mA, window average)")
    _labels_legend(fig, ctx.labels, ctx.colour)
    return fig


def time_above(df, ctx):
    """Fraction of the run's time with the window-average power above each level."""
    levels = ctx.opts.get("power_levels_w")
    fig, axes = _grid(1, ctx.workloads, 3.4)
    for ax, w in zip(axes[0], ctx.workloads):
        curves = []
        for _, row in df[(df["sweep.workload"] == w) & (df["sweep.repetition"] == 0)].iterrows():
            s = _series(ctx.out_dir, row["sweep.key"])
            if s is None or s.empty:
                continue
            dur = (s["t_end_s"] - s["t_start_s"]).to_numpy()
            p = s["avg_power_w"].to_numpy()
            grid = np.array(levels) if levels else np.linspace(0, p.max() * 1.05, 200)
            frac = [(dur * (p > g)).sum() / dur.sum() for g in grid]
            curves.append((grid, frac, ctx.colour[row["sweep.label"]]))
        if not _draw_curves(ax, curves, marker="o" if levels else None):
            na_panel(ax, "no energy series (--no-series?)")
        else:
            ax.set_xlabel("power level (W)")
        ax.set_title(_title(w, ctx.warned))
    _ylabel(axes[0], "fraction of time above")
    _labels_legend(fig, ctx.labels, ctx.colour)
    return fig


def pareto_front(x, y):
    """Indices of the points no other point beats in both x and y (lower is better)."""
    order = np.lexsort((y, x))
    front, best = [], math.inf
    for i in order:
        if y[i] < best:
            front.append(i)
            best = y[i]
    return front


def _spread(v):
    """(largest - smallest) / smallest as a percentage (180 %, 0.0096 %), '0 %' when all
    equal."""
    lo, hi = float(np.min(v)), float(np.max(v))
    if hi == lo or lo <= 0:
        return "0 %"
    pct = 100 * (hi - lo) / lo
    return f"{pct:.0f} %" if pct >= 10 else f"{pct:.2g} %"


def pareto(df, ctx):
    """Energy against mean latency per point, both axes from 0 (so a 0.01 % difference looks
    like one), points told apart by colour (legend) rather than by labels that could overlap;
    the spread of each axis (largest / smallest) is written in the panel."""
    lat = _mean_latency(df)
    fig, axes = _grid(1, ctx.workloads, 3.6)
    for ax, w in zip(axes[0], ctx.workloads):
        sel = df["sweep.workload"] == w
        agg = (df[sel].assign(_lat=lat[sel]).groupby("sweep.label", sort=False)
               [["_lat", "energy_total_j"]].mean().dropna())
        ax.set_title(_title(w, ctx.warned))
        if agg.empty:
            na_panel(ax, "no reads or writes")
            continue
        x, y = agg["_lat"].to_numpy(), agg["energy_total_j"].to_numpy()
        for lab, xi, yi in zip(agg.index, x, y):
            ax.scatter([xi], [yi], s=30, color=ctx.colour[lab], zorder=3)
        front = pareto_front(x, y)
        ax.plot(x[front], y[front], "r-", lw=1, zorder=2)
        ax.set_xlim(0, x.max() * 1.15)
        ax.set_ylim(0, y.max() * 1.15)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(5))
        ax.set_xlabel("mean latency (us; axis from 0)")
        ax.text(0.03, 0.04, f"spread: latency {_spread(x)}\nenergy {_spread(y)}",
                transform=ax.transAxes, fontsize=8)
    _ylabel(axes[0], "energy (J; axis from 0)")
    handles = [plt.Line2D([], [], color="r", lw=1)]
    handles += [plt.Line2D([], [], marker="o", ls="", color=ctx.colour[lab]) for lab in ctx.labels]
    fig.legend(handles, ["Pareto front"] + ctx.labels, loc="outside right center", frameon=False)
    return fig


DRAW = {"throughput": throughput, "tail": tail, "latency_cdf": latency_cdf,
        "normalised": normalised, "pareto": pareto, "energy_breakdown": energy_breakdown,
        "current": current, "time_above": time_above}

FORMATS = ("png", "svg", "pdf")


def sweep_plot_options(out_dir):
    """The spec's plot options, as ssdtlm-sweep recorded them in OUT_DIR/sweep.json."""
    with open(os.path.join(out_dir, "sweep.json")) as f:
        return json.load(f).get("plot", {})


def draw_figures(df, out_dir, plot_options=None, figures=None):
    """Yields (id, matplotlib figure) for the figures named in `figures` (all by default), in
    FIGURES order, drawn with STYLE; the caller saves and closes each."""
    wanted = set(FIGURES if figures is None else figures)
    df = _ok(df)
    if df.empty:
        return
    ctx = Ctx(df, out_dir, plot_options or {})
    for fig_id in FIGURES:
        if fig_id not in wanted:
            continue
        with plt.rc_context(STYLE):
            fig = DRAW[fig_id](df, ctx)
            fig.suptitle(FIGURES[fig_id])  # constrained layout makes room for it
        yield fig_id, fig


def make_figures(df, out_dir, plot_options=None, figures=None, fmt="png"):
    """Writes the figures named in `figures` (all by default) to out_dir/plots/<id>.<fmt>;
    returns {id: path}."""
    plots = os.path.join(out_dir, "plots")
    os.makedirs(plots, exist_ok=True)
    paths = {}
    for fig_id, fig in draw_figures(df, out_dir, plot_options, figures):
        path = os.path.join(plots, f"{fig_id}.{fmt}")
        with plt.rc_context(STYLE):
            fig.savefig(f"{path}.tmp.{fmt}", dpi=DPI, format=fmt, bbox_inches="tight")
        os.replace(f"{path}.tmp.{fmt}", path)
        plt.close(fig)
        paths[fig_id] = path
    return paths


def _visible_texts(fig, renderer):
    """(where, text, bbox) of every drawn, non-empty text of `fig`: tick labels within their
    axes' view, texts in the axes, axis labels and titles, the figure's own texts (title,
    notes) and its legends' texts."""
    out = []

    def add(where, t):
        if t.get_visible() and t.get_text():
            out.append((where, t, t.get_window_extent(renderer)))

    for i, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        where = f"axes {i} ({ax.get_title() or 'untitled'})"
        box = ax.get_window_extent(renderer)
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            for t in axis.get_ticklabels(which="both"):
                if not t.get_visible() or not t.get_text():
                    continue
                b = t.get_window_extent(renderer)
                centre = (b.x0 + b.x1) / 2 if name == "x" else (b.y0 + b.y1) / 2
                lo, hi = (box.x0, box.x1) if name == "x" else (box.y0, box.y1)
                if lo - 1 <= centre <= hi + 1:  # ticks outside the view are not drawn
                    out.append((f"{where} {name} tick", t, b))
            add(f"{where} {name} label", axis.label)
        for t in ax.texts:
            add(f"{where} text", t)
        for t in (ax.title, ax._left_title, ax._right_title):
            add(f"{where} title", t)
        if ax.get_legend():
            for t in ax.get_legend().get_texts():
                add(f"{where} legend", t)
    own = fig.texts + [x for x in (fig._suptitle, fig._supxlabel, fig._supylabel) if x]
    for t in dict.fromkeys(own):  # the title is among fig.texts too
        add("figure", t)
    for leg in fig.legends:
        for t in leg.get_texts() + [leg.get_title()]:
            add("figure legend", t)
    return out


def overlapping_texts(fig):
    """Pairs of texts of `fig` (tick labels, labels, titles, notes, legends) whose boxes overlap
    once the figure is drawn, by more than half a pixel each way; [] when every label is
    readable. The x and y tick labels of one panel may touch at its corner (both are 0).
    Laid out as drawing does it (ticks, layout engine, text extents) without rasterising: the
    same boxes, checked for every figure of the sweep tests, at about two thirds of the CPU."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    texts = _visible_texts(fig, renderer)
    out = []
    for i, (wa, ta, ba) in enumerate(texts):
        for wb, tb, bb in texts[i + 1:]:
            if wa.endswith("tick") and wb.endswith("tick") and wa[:-7] == wb[:-7] \
                    and wa != wb:
                continue  # x and y ticks of one panel
            dx = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)
            dy = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
            if dx > 0.5 and dy > 0.5:
                out.append(f"{wa}: {ta.get_text()!r} overlaps {wb}: {tb.get_text()!r}")
    return out


def small_texts(fig, min_pt=MIN_FONT_PT):
    """Texts of `fig` drawn smaller than min_pt points (laid out as overlapping_texts does)."""
    fig.draw_without_rendering()
    return [f"{t.get_text()!r} at {t.get_fontsize()} pt" for t in fig.findobj(matplotlib.text.Text)
            if t.get_visible() and t.get_text() and t.get_fontsize() < min_pt]
