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

# Figure id -> title; the HTML report shows them in this order.
FIGURES = {
    "normalised": "Latency and energy per config, normalised to the baseline of each workload",
    "energy_breakdown": "Energy by component and state",
    "latency_cdf": "Latency CDF (from the report's log histograms)",
    "current": "Drive current over time (energy series)",
    "time_above": "Time above a power level (energy series windows)",
    "pareto": "Energy vs mean latency, with the Pareto front",
}


def _ok(df):
    return df[df["sweep.ok"]].copy()


def _mean_latency(df):
    """Mean latency of reads and writes together, weighted by their counts."""
    num = den = 0
    for kind in ("read", "write"):
        n = df[f"latency_us.{kind}.count"].astype(float)
        num = num + n * df[f"latency_us.{kind}.mean"].astype(float)
        den = den + n
    return num / den.replace(0, np.nan)


def _by_config(df, value):
    """Mean over repetitions of `value` per (workload, label), labels in sweep order."""
    d = df.assign(_v=value)
    groups = d.groupby(["sweep.workload", "sweep.label"], sort=False)["_v"]
    return groups.agg(["mean", "min", "max"])


def _baseline(labels, wanted):
    return wanted if wanted in labels else labels[0]


def normalised(df, ax_row, baseline=None):
    """Bars per config, grouped by workload, each metric divided by the baseline config of
    its workload (the founding study normalises to its baseline drive, Cho et al. 2015)."""
    metrics = [("mean latency", _mean_latency(df)),
               ("read p99", df["latency_us.read.p99"].where(df["latency_us.read.count"] > 0)),
               ("write p99", df["latency_us.write.p99"].where(df["latency_us.write.count"] > 0)),
               ("energy", df["energy_total_j"])]
    workloads = list(dict.fromkeys(df["sweep.workload"]))
    labels = list(dict.fromkeys(df["sweep.label"]))
    base = _baseline(labels, baseline)
    width = 0.8 / len(labels)
    for ax, (name, value) in zip(ax_row, metrics):
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
            x = np.arange(len(workloads)) + i * width - 0.4 + width / 2
            ax.bar(x, ys, width, yerr=[lo, hi] if any(v > 0 for v in lo + hi) else None,
                   label=label)
            drawn += [y for y in ys if np.isfinite(y) and y > 0]
        # Ratios far apart (one FTL 1000x slower on one workload) on a log scale, so the
        # others stay readable.
        if drawn and max(drawn) / min(drawn) > 20:
            ax.set_yscale("log")
        ax.axhline(1.0, color="k", lw=0.6)
        ax.set_xticks(range(len(workloads)), workloads, rotation=20, ha="right", fontsize=8)
        ax.set_title(f"{name} / {base}", fontsize=9)
    ax_row[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _component_group(name):
    if re.match(r"^ch\d+\.w\d+d\d+$", name):
        return "nand"
    if re.match(r"^ch\d+$", name):
        return "channel"
    return name.split(".")[0]


def energy_breakdown(df, axes, workloads):
    """Stacked bars per config, one panel per workload: energy of each component group
    (the dies as nand, the channel buses as channel) and state, mean over repetitions."""
    stacks = {}
    for c in (c for c in df.columns if c.startswith("energy_j.")):
        component, state = c[len("energy_j."):].rsplit(".", 1)
        stacks.setdefault(f"{_component_group(component)}.{state}", []).append(c)
    d = df.assign(**{k: df[v].astype(float).sum(axis=1) for k, v in stacks.items()})
    agg = d.groupby(["sweep.workload", "sweep.label"], sort=False)[list(stacks)].mean()
    agg = agg.loc[:, agg.sum() > 0]
    colours = plt.get_cmap("tab20")
    for ax, w in zip(axes, workloads):
        sub = agg.loc[w]
        bottom = np.zeros(len(sub))
        for i, col in enumerate(agg.columns):
            ax.bar(range(len(sub)), sub[col], bottom=bottom, label=col, color=colours(i % 20))
            bottom += sub[col].to_numpy()
        ax.set_xticks(range(len(sub)), sub.index, rotation=30, ha="right", fontsize=7)
        ax.set_title(w, fontsize=9)
    axes[0].set_ylabel("energy (J)")
    axes[-1].legend(fontsize=6, ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _cdf(upper, count):
    upper, count = json.loads(upper), np.array(json.loads(count), dtype=float)
    if not len(count):
        return None
    return np.array(upper), np.cumsum(count) / count.sum()


def latency_cdf(df, axes, workloads):
    for ax, w in zip(axes, workloads):
        sub = df[(df["sweep.workload"] == w) & (df["sweep.repetition"] == 0)]
        for _, row in sub.iterrows():
            for kind, style in (("write", "-"), ("read", "--")):
                c = _cdf(row[f"latency_histogram_us.{kind}.upper_us"],
                         row[f"latency_histogram_us.{kind}.count"])
                if c is not None:
                    ax.step(c[0], c[1], style, where="post", label=f"{row['sweep.label']} {kind}")
        ax.set_xscale("log")
        ax.set_title(w, fontsize=9)
        ax.set_xlabel("latency (us; - write, -- read)")
        ax.set_ylim(0, 1.01)
    axes[0].set_ylabel("fraction of requests")
    axes[0].legend(fontsize=6)


def _series(out_dir, key):
    path = os.path.join(out_dir, "points", key, "energy.csv")
    return pd.read_csv(path) if os.path.exists(path) else None


def current(df, axes, workloads, out_dir):
    for ax, w in zip(axes, workloads):
        for _, row in df[(df["sweep.workload"] == w) & (df["sweep.repetition"] == 0)].iterrows():
            s = _series(out_dir, row["sweep.key"])
            if s is not None:
                ax.plot(s["t_start_s"] * 1e3, s["avg_current_ma"], lw=0.8, label=row["sweep.label"])
        ax.set_title(w, fontsize=9)
        ax.set_xlabel("time (ms)")
    axes[0].set_ylabel("drive current (mA, window average)")
    axes[0].legend(fontsize=6)


def time_above(df, axes, workloads, out_dir, levels=None):
    """Fraction of the run's time with the window-average power above each level."""
    for ax, w in zip(axes, workloads):
        for _, row in df[(df["sweep.workload"] == w) & (df["sweep.repetition"] == 0)].iterrows():
            s = _series(out_dir, row["sweep.key"])
            if s is None or s.empty:
                continue
            dur = (s["t_end_s"] - s["t_start_s"]).to_numpy()
            p = s["avg_power_w"].to_numpy()
            grid = np.array(levels) if levels else np.linspace(0, p.max() * 1.05, 200)
            frac = [(dur * (p > g)).sum() / dur.sum() for g in grid]
            ax.plot(grid, frac, label=row["sweep.label"], marker="o" if levels else None)
        ax.set_title(w, fontsize=9)
        ax.set_xlabel("power level (W)")
    axes[0].set_ylabel("fraction of time above")
    axes[0].legend(fontsize=6)


def pareto_front(x, y):
    """Indices of the points no other point beats in both x and y (lower is better)."""
    order = np.lexsort((y, x))
    front, best = [], math.inf
    for i in order:
        if y[i] < best:
            front.append(i)
            best = y[i]
    return front


def pareto(df, axes, workloads):
    lat = _mean_latency(df)
    for ax, w in zip(axes, workloads):
        sel = df["sweep.workload"] == w
        agg = (df[sel].assign(_lat=lat[sel]).groupby("sweep.label", sort=False)
               [["_lat", "energy_total_j"]].mean().dropna())
        x, y = agg["_lat"].to_numpy(), agg["energy_total_j"].to_numpy()
        ax.scatter(x, y, s=14)
        for lab, xi, yi in zip(agg.index, x, y):
            ax.annotate(lab, (xi, yi), fontsize=6, xytext=(3, 3), textcoords="offset points")
        front = pareto_front(x, y)
        ax.plot(x[front], y[front], "r-", lw=1, label="Pareto front")
        ax.set_title(w, fontsize=9)
        ax.set_xlabel("mean latency (us)")
    axes[0].set_ylabel("energy (J)")
    axes[0].legend(fontsize=6)


FORMATS = ("png", "svg", "pdf")


def sweep_plot_options(out_dir):
    """The spec's plot options, as ssdtlm-sweep recorded them in OUT_DIR/sweep.json."""
    with open(os.path.join(out_dir, "sweep.json")) as f:
        return json.load(f).get("plot", {})


def make_figures(df, out_dir, plot_options=None, figures=None, fmt="png"):
    """Writes the figures named in `figures` (all by default) to out_dir/plots/<id>.<fmt>;
    returns {id: path}."""
    opts = plot_options or {}
    wanted = set(FIGURES if figures is None else figures)
    df = _ok(df)
    plots = os.path.join(out_dir, "plots")
    os.makedirs(plots, exist_ok=True)
    if df.empty:
        return {}
    workloads = list(dict.fromkeys(df["sweep.workload"]))
    n = len(workloads)
    paths = {}

    def save(fig_id, fig):
        fig.suptitle(FIGURES[fig_id], fontsize=10)
        fig.tight_layout()
        path = os.path.join(plots, f"{fig_id}.{fmt}")
        fig.savefig(f"{path}.tmp.{fmt}", dpi=90, format=fmt)
        os.replace(f"{path}.tmp.{fmt}", path)
        plt.close(fig)
        paths[fig_id] = path

    if "normalised" in wanted:
        fig, axes = plt.subplots(1, 4, figsize=(16, 3.8))
        normalised(df, axes, opts.get("baseline"))
        save("normalised", fig)
    for fig_id, draw in (("energy_breakdown", lambda a: energy_breakdown(df, a, workloads)),
                         ("latency_cdf", lambda a: latency_cdf(df, a, workloads)),
                         ("current", lambda a: current(df, a, workloads, out_dir)),
                         ("time_above", lambda a: time_above(df, a, workloads, out_dir,
                                                             opts.get("power_levels_w"))),
                         ("pareto", lambda a: pareto(df, a, workloads))):
        if fig_id not in wanted:
            continue
        fig, axes = plt.subplots(1, n, figsize=(4.2 * n + 2, 4), squeeze=False)
        draw(list(axes[0]))
        save(fig_id, fig)
    return paths
