#!/usr/bin/env python3
"""Writes a GTKWave save file (.gtkw) for an ssdtlm current.vcd, laid out like the drive:

    tools/gtkwave_view.py out/default/current.vcd      # writes out/default/current.gtkw
    gtkwave out/default/current.gtkw

The drive's supply current comes first (taller), then each supply rail's current, the
board's baseline, the controller, the DRAM and the host link, then the timeline's figures
in a group (a run with --timeline: IOPS, latency, queue, free blocks, GC work per interval),
then per flash channel a group of its bus and its dies. On a large drive the groups start
closed, each channel's below its power in mW (bus and dies, summed by the simulator: they
run at different voltages) and how many of its dies are busy (a count, whatever each die's
current), so the drive's own currents and each channel's power and parallelism fit on the
screen (--groups). Every trace is an analog step waveform labelled with its unit, and a marker in
the middle of the shown time range lists every value beside its name. --start-s/--end-s
choose the range (default: what the VCD holds, the run or its --vcd-window).

A save file rather than a GTKWave Tcl script: groups, analog heights and the zoom are plain
directives there, while Tcl reaches them only through menu actions that open dialogs.
"""

import argparse
import math
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from typing import NamedTuple, Optional

EXIT_INPUT = 1
EXIT_ERROR = 2

# GTKWave trace flags (TR_* in its analyzer.h) as a save file's "@hex" lines set them.
TR_RJUSTIFY = 0x20
TR_BLANK = 0x200
TR_ANALOG_STEP = 0x8000
TR_ANALOG_BLANK_STRETCH = 0x20000
TR_COLLAPSED = 0x1000
TR_REAL = 0x40000
TR_CLOSED = 0x400000
TR_GRP_BEGIN = 0x800000
TR_GRP_END = 0x1000000

CURRENT = TR_REAL | TR_ANALOG_STEP | TR_RJUSTIFY
HEIGHT_EXTENSION = TR_BLANK | TR_ANALOG_BLANK_STRETCH  # each one makes the trace above taller

# Rows of height each trace gets: the drive total is what one looks at first; a channel's busy
# dies, a small count, one.
TOTAL_ROWS = 4
ROWS = 2
BUSY_ROWS = 1

# The window the save file asks for, and the part of it the waves get (GTKWave's zoom is in
# time units per pixel of the waves, so the width decides which range fits).
WINDOW = (1280, 800)
SIGNALS_WIDTH = 260
WAVES_WIDTH = WINDOW[0] - SIGNALS_WIDTH - 40
# Rows of traces the window shows at once (about 23 pixels each below the toolbar): with more,
# the channel groups start closed (--groups auto), so the drive's own currents fit on screen.
SCREEN_ROWS = 30

TOP = "ssd"
DRIVE_TOTAL = "drive_total_ma"
CHANNEL_POWER = "power_mw"
CHANNEL_BUSY = "busy"
# How many of a channel's dies read, program and erase (what its busy count is made of, beside
# transfers).
CHANNEL_ACTIVITIES = ("reading", "programming", "erasing")
# The signals shown between the drive total and the channels, in this order: each supply
# rail's current (what a power analyser on that rail shows), the board's baseline, then the
# components; any other top-level signal follows them in the VCD's order.
RAIL = re.compile(r"rail_.+")
FRONT = ["board", "controller", "dram", "host_if"]
CHANNEL = re.compile(r"ch(\d+)$")
# The scope of the timeline's figures (--timeline with --vcd): one group.
TIMELINE = "timeline"


class InputError(Exception):
    pass


class Vcd(NamedTuple):
    signals: list[str]  # full dotted names, in declaration order
    timescale_ps: float  # picoseconds per VCD time unit
    start: int  # the first timestamp: 0, or the start of ssdtlm's --vcd-window
    end: int  # the last timestamp, in VCD time units


TIMESCALE_PS = {"s": 1e12, "ms": 1e9, "us": 1e6, "ns": 1e3, "ps": 1.0, "fs": 1e-3}


def read_vcd(path: str) -> Vcd:
    """The declarations of a VCD and its first and last timestamps, without reading the value
    changes."""
    try:
        with open(path, "rb") as f:
            header, head, tail = _header_and_tail(f, path)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from e
    scopes: list[str] = []
    signals: list[str] = []
    timescale_ps = None
    for m in re.finditer(r"\$(\w+)(.*?)\$end", header, re.DOTALL):
        keyword, body = m.group(1), m.group(2).split()
        if keyword == "scope" and len(body) == 2:
            scopes.append(body[1])
        elif keyword == "upscope":
            if not scopes:
                raise InputError(f"{path}: $upscope without a $scope")
            scopes.pop()
        elif keyword == "var" and len(body) >= 4:
            signals.append(".".join(scopes + [body[3]]))
        elif keyword == "timescale":
            t = re.fullmatch(r"(1|10|100)\s*(s|ms|us|ns|ps|fs)", " ".join(body))
            if not t:
                raise InputError(f"{path}: unsupported $timescale {' '.join(body)!r}")
            timescale_ps = int(t.group(1)) * TIMESCALE_PS[t.group(2)]
    if timescale_ps is None:
        raise InputError(f"{path}: no $timescale: not a VCD file")
    stamps = re.findall(rb"^#(\d+)\s*$", tail, re.MULTILINE)
    first = re.search(rb"^#(\d+)\s*$", head, re.MULTILINE)
    if not stamps or not first:
        raise InputError(f"{path}: no timestamp after the declarations: the file is cut short")
    return Vcd(signals, timescale_ps, int(first.group(1)), int(stamps[-1]))


def _header_and_tail(f, path: str) -> tuple[str, bytes, bytes]:
    header = b""
    while b"$enddefinitions" not in header:
        chunk = f.read(1 << 16)
        if not chunk:
            raise InputError(f"{path}: no $enddefinitions: not a VCD file")
        header += chunk
    cut = header.index(b"$enddefinitions")
    head = header[cut:] + f.read(256)  # the first timestamp follows the declarations
    # The last timestamp is near the end: the last 64 KiB hold it unless a single instant
    # changed thousands of signals, which the model never does.
    size = f.seek(0, os.SEEK_END)
    f.seek(max(cut, size - (1 << 16)))
    tail = f.read()
    return header[:cut].decode("ascii", errors="replace"), head, tail


class Channel(NamedTuple):
    name: str
    power: Optional[str]  # its bus and dies together (none in a VCD of selected signals)
    busy: Optional[str]  # how many of its dies are busy (likewise)
    activity: list[str]  # how many read, program, erase (those in the VCD)
    members: list[str]  # its bus signal, then its dies


class Layout(NamedTuple):
    total: str
    front: list[str]
    timeline: list[str]  # in the VCD's order; empty without --timeline
    channels: list[Channel]


def lay_out(signals: Sequence[str], path: str) -> Layout:
    """Orders the signals of an ssdtlm current.vcd; every signal appears exactly once."""
    total = f"{TOP}.{DRIVE_TOTAL}"
    if total not in signals:
        raise InputError(f"{path}: no {total}: not a current.vcd written by ssdtlm --vcd")
    stray = [s for s in signals if not s.startswith(TOP + ".")]
    if stray:
        raise InputError(f"{path}: {stray[0]} is outside the top scope {TOP!r}")

    def component(signal: str) -> str:
        # "ssd.ch3_ma" and "ssd.ch3.w1d0_ma" both belong to ch3.
        first = signal[len(TOP) + 1:].split(".")[0]
        return first[:-3] if first.endswith("_ma") else first

    channels = {}
    front, timeline = [], []
    for s in signals:
        if s == total:
            continue
        c = component(s)
        if CHANNEL.fullmatch(c):
            channels.setdefault(c, []).append(s)
        elif c == TIMELINE:
            timeline.append(s)
        else:
            front.append(s)
    rank = {name: i for i, name in enumerate(FRONT)}

    def place(signal: str) -> int:
        c = component(signal)
        return -1 if RAIL.fullmatch(c) else rank.get(c, len(FRONT))

    front.sort(key=place)  # stable: VCD order within
    ordered = []
    for name in sorted(channels, key=lambda c: int(CHANNEL.fullmatch(c).group(1))):
        bus, power = f"{TOP}.{name}_ma", f"{TOP}.{name}.{CHANNEL_POWER}"
        busy = f"{TOP}.{name}.{CHANNEL_BUSY}"
        activity = [s for s in (f"{TOP}.{name}.{a}" for a in CHANNEL_ACTIVITIES)
                    if s in channels[name]]
        members = [s for s in channels[name] if s not in (power, busy, *activity)]
        # The bus first, then the dies in the VCD's order (way by way).
        ordered.append(Channel(name, power if power in channels[name] else None,
                               busy if busy in channels[name] else None, activity,
                               [s for s in members if s == bus] +
                               [s for s in members if s != bus]))
    return Layout(total, front, timeline, ordered)


def label(signal: str) -> str:
    """What GTKWave shows for a signal: its path below the top scope, the unit spelled out."""
    name = signal[len(TOP) + 1:]
    if name.startswith(TIMELINE + "."):  # its group says so
        name = name[len(TIMELINE) + 1:]
    if name.endswith("_ma"):
        name = name[:-3]
        # A channel's own signal is its bus: say so, as its dies carry its name too.
        name += " bus (mA)" if CHANNEL.fullmatch(name) else " (mA)"
    elif name.endswith("_mw"):
        name = name[:-3] + " (mW)"
    return name.replace(".", " ").replace("_", " ")


def zoom_for(span_ps: float, timescale_ps: float) -> float:
    """GTKWave's zoom for a range: 2 ** -zoom time units per frame of 200 pixels."""
    units_per_pixel = max(span_ps / timescale_ps / WAVES_WIDTH, 1e-9)
    return -math.log2(units_per_pixel * 200)


def rows_open(layout: Layout) -> int:
    """Rows the whole layout takes with every group open."""
    groups = [c.members for c in layout.channels] + ([layout.timeline] if layout.timeline else [])
    return TOTAL_ROWS + ROWS * len(layout.front) + sum(2 + ROWS * len(g) for g in groups)


def save_file(vcd_path: str, vcd: Vcd, layout: Layout, start_s: Optional[float],
              end_s: Optional[float], groups: str = "auto") -> str:
    run_end_ps = vcd.end * vcd.timescale_ps
    start_ps = vcd.start * vcd.timescale_ps if start_s is None else start_s * 1e12
    end_ps = run_end_ps if end_s is None else end_s * 1e12
    if start_ps >= run_end_ps:
        raise InputError(f"--start-s: {start_ps / 1e12:g} s is after the run's end "
                         f"({run_end_ps / 1e12:g} s)")
    if start_ps < 0 or end_ps <= start_ps:
        raise InputError(f"--start-s/--end-s: expected 0 <= start < end, got "
                         f"{start_ps / 1e12:g} to {end_ps / 1e12:g} s")
    start = int(start_ps / vcd.timescale_ps)
    marker = int((start_ps + end_ps) / 2 / vcd.timescale_ps)
    lines = [
        f"[*] written by tools/gtkwave_view.py for {os.path.basename(vcd_path)}",
        f'[dumpfile] "{os.path.abspath(vcd_path)}"',
        f"[size] {WINDOW[0]} {WINDOW[1]}",
        "[pos] -1 -1",
        f"*{zoom_for(end_ps - start_ps, vcd.timescale_ps):.6f} {marker}" + " -1" * 26,
        f"[timestart] {start}",
        "[sst_expanded] 0",
        f"[signals_width] {SIGNALS_WIDTH}",
    ]
    flags = None

    def set_flags(f: int):
        nonlocal flags
        if f != flags:
            lines.append(f"@{f:x}")
            flags = f

    def trace(signal: str, rows: int):
        set_flags(CURRENT)
        lines.append(f"+{{{label(signal)}}} {signal}")
        set_flags(HEIGHT_EXTENSION)
        lines.extend(["-"] * (rows - 1))

    trace(layout.total, TOTAL_ROWS)
    for s in layout.front:
        trace(s, ROWS)
    closed = groups == "closed" or (groups == "auto" and rows_open(layout) > SCREEN_ROWS)

    def group(name: str, members: list[str]):
        set_flags(TR_GRP_BEGIN | TR_BLANK | (TR_CLOSED if closed else 0))
        lines.append(f"-{name}")
        for s in members:
            trace(s, ROWS)
        set_flags(TR_GRP_END | TR_BLANK | (TR_CLOSED | TR_COLLAPSED if closed else 0))
        lines.append(f"-{name}")

    if layout.timeline:
        group(TIMELINE, layout.timeline)
    for channel in layout.channels:
        # Outside the closed group: what it draws, and how many of its dies work and at what
        # (counts, whatever each die's current). An open group shows its dies instead.
        if closed and channel.power:
            trace(channel.power, ROWS)
        if closed:
            for count in ([channel.busy] if channel.busy else []) + channel.activity:
                trace(count, BUSY_ROWS)
        group(channel.name, channel.members)
    return "\n".join(lines) + "\n"


def write_whole(path: str, text: str) -> None:
    """Writes `path` through a temporary file beside it: whole or not at all."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="gtkwave_view.py",
        description="Write a GTKWave save file for an ssdtlm current.vcd: the drive total "
                    "first, then controller, DRAM and host link, then the timeline's "
                    "figures (--timeline) in a group, then each channel's bus and dies in a "
                    "group (closed below the channel's power on a large drive), as analog "
                    "steps in mA and mW.")
    parser.add_argument("vcd", metavar="VCD", help="current.vcd of an ssdtlm run (--vcd)")
    parser.add_argument("--out", metavar="FILE",
                        help="save file to write (default: VCD with the suffix .gtkw)")
    parser.add_argument("--start-s", type=float, metavar="S",
                        help="show from S seconds of simulated time (default: where the VCD "
                             "starts, 0 or its --vcd-window start)")
    parser.add_argument("--end-s", type=float, metavar="S",
                        help="show until S seconds (default: the end of the run)")
    parser.add_argument("--groups", choices=("auto", "open", "closed"), default="auto",
                        help="channel groups open or closed (a click opens one); auto: closed "
                             f"when the open layout takes more than {SCREEN_ROWS} rows")
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    out = args.out or os.path.splitext(args.vcd)[0] + ".gtkw"
    try:
        vcd = read_vcd(args.vcd)
        text = save_file(args.vcd, vcd, lay_out(vcd.signals, args.vcd), args.start_s,
                         args.end_s, args.groups)
    except InputError as e:
        print(f"gtkwave_view.py: error: {e}", file=sys.stderr)
        return EXIT_INPUT
    try:
        write_whole(out, text)
    except OSError as e:
        print(f"gtkwave_view.py: error: {out}: cannot write: {e.strerror}", file=sys.stderr)
        return EXIT_ERROR
    print(f"gtkwave_view.py: wrote {out}; open it with: gtkwave {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
