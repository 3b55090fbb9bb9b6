"""ssdtlm-plot timeline RUN_DIR (cli.py): RUN_DIR/timeline.csv (ssdtlm --timeline US,
docs/report.md#timelinecsv) as stacked panels over simulated time: host IOPS, latency, what
the drive holds (outstanding requests, write buffer, free blocks), garbage collection, busy
fractions, and power with the temperatures; below them, from RUN_DIR/timeline_dies.csv, each
die's busy fraction as a heat map (which dies the work went to, channel by channel). Written to
RUN_DIR/timeline.png (or .svg, .pdf)."""
import argparse
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import pandas as pd  # noqa: E402

FORMATS = ("png", "svg", "pdf")


class TimelineError(Exception):
    """timeline.csv is missing or is not one the simulator writes."""


# Panels top to bottom: (y label, [(column, legend label)], right-axis columns or None); the
# right axis holds a figure of another scale (GC victims refill the free blocks).
PANELS = [
    ("IOPS", [("read_iops", "read"), ("write_iops", "write")], None),
    ("latency (us)", [("read_mean_us", "read mean"), ("read_p99_us", "read p99"),
                      ("write_mean_us", "write mean"), ("write_p99_us", "write p99")], None),
    ("outstanding requests", [("outstanding", "outstanding requests")],
     [("write_buffer_pages", "write buffer pages")]),
    ("free blocks", [("free_blocks", "free blocks")], [("gc_victims", "GC victims")]),
    ("requests that waited", [("gc_waited", "requests that waited for GC")],
     [("gc_pages_copied", "GC pages copied"), ("slc_pages_folded", "SLC pages folded")]),
    ("busy fraction", [("dies_busy", "dies"), ("channels_busy", "channel buses"),
                       ("controller_busy", "controller")], None),
    ("power (W)", [("power_w", "drive power")], "temperatures"),
]


def _panel_columns():
    for _, left, right in PANELS:
        yield from (c for c, _ in left)
        if isinstance(right, list):
            yield from (c for c, _ in right)


def read(run_dir):
    """The rows of RUN_DIR/timeline.csv; TimelineError if it is missing or lacks a column."""
    path = os.path.join(run_dir, "timeline.csv")
    if not os.path.exists(path):
        raise TimelineError(f"{path}: no such file (run ssdtlm with --timeline US)")
    df = pd.read_csv(path)
    missing = [c for c in ["t_start_s", "t_end_s", *_panel_columns()] if c not in df.columns]
    if missing:
        raise TimelineError(f"{path}: no column {', '.join(missing)}")
    return df


def read_dies(run_dir, df):
    """The rows of RUN_DIR/timeline_dies.csv beside `df` (read()'s), None when the run has none
    (a simulator before it); TimelineError if its rows are not timeline.csv's."""
    path = os.path.join(run_dir, "timeline_dies.csv")
    if not os.path.exists(path):
        return None
    dies = pd.read_csv(path)
    if list(dies.columns[:2]) != ["t_start_s", "t_end_s"] or len(dies.columns) < 3:
        raise TimelineError(f"{path}: expected t_start_s, t_end_s and a column per die")
    if len(dies) != len(df) or not (dies["t_end_s"].to_numpy() == df["t_end_s"].to_numpy()).all():
        raise TimelineError(f"{path}: its rows are not those of timeline.csv")
    return dies


def _channel_of(die):
    """ch3 of the die column ch3.w1d0."""
    m = re.match(r"(ch\d+)\.", die)
    return m.group(1) if m else die


def _heat_map(ax, dies):
    """Each die's busy fraction over time (a row of the map a die, the channels apart)."""
    names = list(dies.columns[2:])
    x = list(dies["t_start_s"]) + [dies["t_end_s"].iloc[-1]]
    mesh = ax.pcolormesh(x, range(len(names) + 1), dies[names].to_numpy().T, vmin=0, vmax=1,
                         cmap="magma", shading="flat")
    ax.set_ylim(len(names), 0)  # the first die on top
    channels = [_channel_of(n) for n in names]
    starts = [i for i, c in enumerate(channels) if i == 0 or c != channels[i - 1]]
    for i in starts[1:]:
        ax.axhline(i, color="white", linewidth=0.6)
    ends = starts[1:] + [len(names)]
    ax.set_yticks([(a + b) / 2 for a, b in zip(starts, ends)], [channels[i] for i in starts],
                  fontsize="small")
    ax.set_ylabel(f"die busy ({len(names)} dies)")
    bar = ax.inset_axes([1.01, 0, 0.012, 1])
    ax.figure.colorbar(mesh, cax=bar, label="busy fraction")


def _steps(ax, df, column, label, **kw):
    """A row's value held over its span: a step line from each row's start to its end."""
    x = list(df["t_start_s"]) + [df["t_end_s"].iloc[-1]] if len(df) else []
    y = list(df[column]) + [df[column].iloc[-1]] if len(df) else []
    return ax.step(x, y, where="post", label=label, **kw)[0]


def draw(df, title=None, dies=None):
    """The figure of the timeline `df` (read()), with the dies' heat map when `dies`
    (read_dies()) is given."""
    heights = [2.1] * len(PANELS) + ([min(6.0, 1.2 + 0.06 * (len(dies.columns) - 2))]
                                     if dies is not None else [])
    fig, axes = plt.subplots(len(heights), 1, sharex=True, figsize=(11, sum(heights)),
                             height_ratios=heights, constrained_layout=True)
    temps = [c for c in df.columns if c.startswith("temp_") and c.endswith("_c")]
    for ax, (ylabel, left, right) in zip(axes, PANELS):
        lines = [_steps(ax, df, c, label) for c, label in left]
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        if right == "temperatures":
            right = [(c, c[len("temp_"):-len("_c")] + " (C)") for c in temps]
        if right:
            twin = ax.twinx()
            for i, (c, label) in enumerate(right):
                lines.append(_steps(twin, df, c, label, linestyle="--", color=f"C{len(left) + i}"))
            twin.set_ylabel("C" if temps and right[0][0] in temps else right[0][1])
        ax.legend(lines, [ln.get_label() for ln in lines], loc="upper right", fontsize="small")
    if dies is not None:
        _heat_map(axes[-1], dies)
    axes[-1].set_xlabel("simulated time (s)")
    if title:
        axes[0].set_title(title)
    return fig


def write(run_dir, fmt="png", out=None):
    """Draws RUN_DIR/timeline.csv into `out` (default RUN_DIR/timeline.FMT); returns the path."""
    df = read(run_dir)
    out = out or os.path.join(run_dir, f"timeline.{fmt}")
    fig = draw(df, title=os.path.basename(os.path.normpath(run_dir)), dies=read_dies(run_dir, df))
    fig.savefig(out, format=fmt, dpi=110)
    plt.close(fig)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="ssdtlm-plot timeline",
                                 description="Draw a run's timeline.csv (ssdtlm --timeline US) "
                                             "as stacked panels over simulated time.")
    ap.add_argument("run_dir", help="output directory of an ssdtlm run with --timeline")
    ap.add_argument("--format", choices=FORMATS, default="png",
                    help="file format (default png)")
    ap.add_argument("--out", help="the file to write (default RUN_DIR/timeline.FORMAT)")
    a = ap.parse_args(argv)
    try:
        print(write(a.run_dir, a.format, a.out))
    except TimelineError as e:
        print(f"ssdtlm-plot timeline: error: {e}", file=sys.stderr)
        return 2
    return 0
