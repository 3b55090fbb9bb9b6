#!/usr/bin/env python3
"""Plot the energy time series of an ssdtlm run.

Reads DIR/energy.csv (written by `ssdtlm --out DIR`, columns in docs/energy-model.md) and
draws, per window, the drive's average power stacked by hardware group (each <group>_j
column divided by the window length) and the drive's peak power in the window as a line.
Writes a PNG (default DIR/energy.png). Long runs are drawn with consecutive windows merged
(--max-bars): average power over the merged span, the highest of the merged peaks.

    tools/plot_energy.py out/default
    tools/plot_energy.py out/default --start 180 --end 185 --out /tmp/zoom.png

Exit status: 0 on success; 2 for bad arguments or a missing or malformed energy.csv (the
message names the file and the line); 1 if matplotlib is missing or the PNG cannot be
written.
"""

import argparse
import csv
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Optional

# The fixed leading columns of energy.csv; the per-group <group>_j columns follow them.
FIXED_COLUMNS = ("t_start_s", "t_end_s", "energy_j", "avg_power_w", "peak_power_w",
                 "avg_current_ma")
GROUP_SUFFIX = "_j"
TEMPERATURE_PREFIX = "temp_"

EXIT_ERROR = 1  # matplotlib missing, or the PNG cannot be written
EXIT_INPUT = 2  # bad arguments, or a missing or malformed energy.csv


class InputError(Exception):
    """A missing or malformed input file; the message names the file (and line)."""


@dataclass
class Series:
    """The windows of one energy.csv, in file order."""

    t_start: list[float] = field(default_factory=list)
    t_end: list[float] = field(default_factory=list)
    peak_w: list[float] = field(default_factory=list)
    # Group name (column name without "_j") -> average power per window, in W.
    group_w: dict[str, list[float]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.t_start)


def _number(text: str, where: str, column: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{where}: {column}: expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise InputError(f"{where}: {column}: expected a finite number, got {text!r}")
    return value


def _groups_from_header(header: Sequence[str], where: str) -> list[str]:
    if tuple(header[:len(FIXED_COLUMNS)]) != FIXED_COLUMNS:
        raise InputError(f"{where}: header: expected it to start with "
                         f"{','.join(FIXED_COLUMNS)}, got {','.join(header)!r}")
    groups = header[len(FIXED_COLUMNS):]
    # With a thermal model, temp_<node>_c columns follow the groups; the plot leaves them out.
    while groups and groups[-1].startswith(TEMPERATURE_PREFIX) and groups[-1].endswith("_c"):
        groups = groups[:-1]
    if not groups:
        raise InputError(f"{where}: header: no <group>{GROUP_SUFFIX} columns")
    for name in groups:
        if not name.endswith(GROUP_SUFFIX) or len(name) == len(GROUP_SUFFIX):
            raise InputError(f"{where}: header: group column {name!r} does not end in "
                             f"{GROUP_SUFFIX!r}")
    return [name[:-len(GROUP_SUFFIX)] for name in groups]


def read_series(path: str) -> Series:
    """Parses energy.csv; raises InputError("path:line: ...") on any defect."""
    try:
        handle = open(path, newline="", encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot open: {e.strerror}") from None
    series = Series()
    with handle:
        reader = csv.reader(handle)
        try:
            header = next(reader, None)
            if header is None:
                raise InputError(f"{path}:1: empty file (expected the energy.csv header)")
            groups = _groups_from_header(header, f"{path}:{reader.line_num}")
            series.group_w = {g: [] for g in groups}
            for row in reader:
                where = f"{path}:{reader.line_num}"
                if len(row) != len(header):
                    raise InputError(f"{where}: expected {len(header)} comma-separated "
                                     f"fields, got {len(row)}")
                values = [_number(text, where, column) for text, column in zip(row, header)]
                t0, t1 = values[0], values[1]
                if t1 <= t0:
                    raise InputError(f"{where}: t_end_s: {t1!r} is not after t_start_s {t0!r}")
                if series.t_end and t0 < series.t_end[-1]:
                    raise InputError(f"{where}: t_start_s: {t0!r} is before the previous "
                                     f"window's end {series.t_end[-1]!r}")
                series.t_start.append(t0)
                series.t_end.append(t1)
                series.peak_w.append(values[FIXED_COLUMNS.index("peak_power_w")])
                for g, joules in zip(groups, values[len(FIXED_COLUMNS):]):
                    series.group_w[g].append(joules / (t1 - t0))
        except csv.Error as e:
            raise InputError(f"{path}:{reader.line_num}: {e}") from None
        except UnicodeDecodeError:
            raise InputError(f"{path}:{reader.line_num + 1}: not UTF-8 text") from None
    if not series:
        raise InputError(f"{path}:2: no data rows after the header")
    return series


def select(series: Series, start: Optional[float], end: Optional[float]) -> Series:
    """The windows that overlap [start, end) (either bound may be None)."""
    keep = [i for i in range(len(series))
            if (start is None or series.t_end[i] > start)
            and (end is None or series.t_start[i] < end)]
    return Series(t_start=[series.t_start[i] for i in keep],
                  t_end=[series.t_end[i] for i in keep],
                  peak_w=[series.peak_w[i] for i in keep],
                  group_w={g: [w[i] for i in keep] for g, w in series.group_w.items()})


def merge(series: Series, factor: int) -> Series:
    """Merges each run of `factor` consecutive windows into one: average power over the
    merged span (energy / time), peak power the highest of the merged peaks."""
    if factor <= 1:
        return series
    out = Series(group_w={g: [] for g in series.group_w})
    for lo in range(0, len(series), factor):
        hi = min(lo + factor, len(series))
        spans = [series.t_end[i] - series.t_start[i] for i in range(lo, hi)]
        out.t_start.append(series.t_start[lo])
        out.t_end.append(series.t_end[hi - 1])
        out.peak_w.append(max(series.peak_w[lo:hi]))
        for g, w in series.group_w.items():
            joules = sum(p * dt for p, dt in zip(w[lo:hi], spans))
            out.group_w[g].append(joules / sum(spans))
    return out


def plot(series: Series, out_path: str, title: str) -> None:
    """Stacked average power per group and peak power per window, as steps over time."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # Step plots need the right edge of the last window: repeat its value there.
    edges = series.t_start + [series.t_end[-1]]
    stacks = [w + [w[-1]] for w in series.group_w.values()]
    peak = series.peak_w + [series.peak_w[-1]]

    fig, ax = plt.subplots(figsize=(11, 5), layout="constrained")
    ax.stackplot(edges, stacks, labels=[f"{g} (average)" for g in series.group_w],
                 step="post", alpha=0.85, linewidth=0)
    ax.step(edges, peak, where="post", color="black", linewidth=0.8,
            label="drive peak power")
    ax.set_xlim(edges[0], edges[-1])
    ax.set_ylim(bottom=0)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("power (W)")
    ax.set_title(title)
    ax.grid(True, axis="y", linewidth=0.3)
    # Reverse so the legend lists groups top-down, as they are stacked.
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles[::-1], labels[::-1], loc="upper left", bbox_to_anchor=(1.01, 1.0),
              fontsize="small", frameon=False)
    fig.savefig(out_path, dpi=120)
    plt.close(fig)


def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="plot_energy.py",
        description="Plot DIR/energy.csv of an ssdtlm run: average power per window stacked "
                    "by hardware group, and the drive's peak power per window.")
    parser.add_argument("dir", metavar="DIR", help="ssdtlm output directory (holds energy.csv)")
    parser.add_argument("--out", metavar="FILE", help="PNG to write (default: DIR/energy.png)")
    parser.add_argument("--start", type=float, metavar="S",
                        help="plot only windows ending after S seconds")
    parser.add_argument("--end", type=float, metavar="S",
                        help="plot only windows starting before S seconds")
    parser.add_argument("--max-bars", type=int, default=1000, metavar="N",
                        help="merge consecutive windows so that at most N are drawn "
                             "(default 1000; 0: never merge)")
    parser.add_argument("--title", help="plot title (default: the CSV's path)")
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    if args.max_bars < 0:
        print("plot_energy.py: error: --max-bars: must be >= 0", file=sys.stderr)
        return EXIT_INPUT
    csv_path = os.path.join(args.dir, "energy.csv")
    out_path = args.out or os.path.join(args.dir, "energy.png")
    try:
        series = read_series(csv_path)
        shown = select(series, args.start, args.end)
        if not shown:
            raise InputError(f"{csv_path}: no window overlaps --start/--end "
                             f"(the series spans {series.t_start[0]:g} to "
                             f"{series.t_end[-1]:g} s)")
    except InputError as e:
        print(f"plot_energy.py: error: {e}", file=sys.stderr)
        return EXIT_INPUT
    factor = math.ceil(len(shown) / args.max_bars) if args.max_bars else 1
    title = args.title or csv_path
    if factor > 1:
        title += f" ({factor} windows per step)"
    try:
        plot(merge(shown, factor), out_path, title)
    except ImportError:
        print("plot_energy.py: error: matplotlib is not installed "
              "(scripts/install-deps.sh installs it)", file=sys.stderr)
        return EXIT_ERROR
    except OSError as e:
        print(f"plot_energy.py: error: {out_path}: cannot write: {e.strerror}", file=sys.stderr)
        return EXIT_ERROR
    print(f"plot_energy.py: wrote {out_path} ({len(shown)} windows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
