"""Tests of tools/gtkwave_view.py on VCDs the simulator writes, and of the save file in GTKWave
itself. Run with: python3 -m pytest tools/test_gtkwave_view.py (SSDTLM_BINARY names the
simulator; ctest sets it, by hand it defaults to build/ssdtlm)."""

import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

TOOLS = pathlib.Path(__file__).parent
ROOT = TOOLS.parent
SCRIPT = TOOLS / "gtkwave_view.py"


def load_module():
    spec = importlib.util.spec_from_file_location("gtkwave_view", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gv = load_module()


def simulate(tmp_path, config, *options):
    """current.vcd of a short closed-loop run of `config`."""
    binary = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))
    assert os.access(binary, os.X_OK), f"{binary}: no simulator (build it, or set SSDTLM_BINARY)"
    out = tmp_path / config
    subprocess.run([binary, "--config", str(ROOT / "configs" / f"{config}.json"), "--workload",
                    "rw=randwrite,qd=8,count=200,seed=3", "--vcd", "--no-series", "-q",
                    "--out", str(out), *options], check=True)
    return out / "current.vcd"


def run_tool(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True, check=False)


def traces(gtkw_text):
    """The save file's signal list: ("signal", name), ("begin", group) and ("end", group)."""
    shown, flags = [], 0
    for line in gtkw_text.splitlines():
        if line.startswith("@"):
            flags = int(line[1:], 16)
        elif line.startswith("+{"):
            shown.append(("signal", line.split("} ", 1)[1]))
        elif line.startswith("-") and flags & gv.TR_GRP_BEGIN:
            shown.append(("begin", line[1:]))
        elif line.startswith("-") and flags & gv.TR_GRP_END:
            shown.append(("end", line[1:]))
    return shown


def test_small_drive_is_laid_out_total_first_then_channels_with_their_dies(tmp_path):
    vcd = simulate(tmp_path, "small_gc")
    result = run_tool(vcd)
    assert result.returncode == 0, result.stderr
    text = vcd.with_suffix(".gtkw").read_text()
    # The model's names, spelled out: if VcdWriter renames a signal, this fails.
    assert traces(text) == [
        ("signal", "ssd.drive_total_ma"),
        ("signal", "ssd.rail_5v_ma"),
        ("signal", "ssd.controller_ma"),
        ("signal", "ssd.dram_ma"),
        ("signal", "ssd.host_if_ma"),
        ("begin", "ch0"),
        ("signal", "ssd.ch0_ma"),
        ("signal", "ssd.ch0.w0d0_ma"),
        ("signal", "ssd.ch0.w1d0_ma"),
        ("end", "ch0"),
        ("begin", "ch1"),
        ("signal", "ssd.ch1_ma"),
        ("signal", "ssd.ch1.w0d0_ma"),
        ("signal", "ssd.ch1.w1d0_ma"),
        ("end", "ch1"),
    ]
    assert "+{drive total (mA)} ssd.drive_total_ma" in text
    assert "+{ch1 bus (mA)} ssd.ch1_ma" in text
    assert f'[dumpfile] "{vcd}"' in text


def test_the_timelines_figures_are_a_group_before_the_channels(tmp_path):
    vcd = simulate(tmp_path, "small_gc", "--timeline", "100")
    assert run_tool(vcd).returncode == 0
    shown = traces(vcd.with_suffix(".gtkw").read_text())
    begin, end = shown.index(("begin", "timeline")), shown.index(("end", "timeline"))
    assert shown[begin - 1] == ("signal", "ssd.host_if_ma")
    assert shown[end + 1] == ("signal", "ssd.ch0.power_mw")  # closed: above its group
    members = [name for _, name in shown[begin + 1:end]]
    # The simulator's probe names, in its order (tb/run/Timeline.cpp).
    assert members[:3] == ["ssd.timeline.read_iops", "ssd.timeline.write_iops",
                           "ssd.timeline.read_mbps"]
    assert members[-1] == "ssd.timeline.power_w" and len(members) == 20
    assert "+{read p99 us} ssd.timeline.read_p99_us" in vcd.with_suffix(".gtkw").read_text()
    # 20 more traces do not fit beside the channels: the groups start closed.
    assert all(f & gv.TR_CLOSED for f in group_flags(vcd.with_suffix(".gtkw").read_text()))


def test_every_signal_of_a_large_drive_is_shown_once_and_channels_in_number_order(tmp_path):
    # 8 channels of 4 dies and a full-duplex host link: a scope of its own, one signal per
    # direction.
    vcd = simulate(tmp_path, "nvme_tlc_1tb")
    assert run_tool(vcd).returncode == 0
    shown = traces(vcd.with_suffix(".gtkw").read_text())
    signals = [name for kind, name in shown if kind == "signal"]
    assert sorted(signals) == sorted(gv.read_vcd(str(vcd)).signals)
    # The total, the 3.3 V rail, the board's baseline, controller, DRAM, the link's power, busy
    # directions and its two directions, 8 channels of a power, a busy count, its dies reading,
    # programming and erasing, a bus and 4 dies.
    assert len(signals) == len(set(signals)) == 1 + 1 + 1 + 2 + 4 + 8 * (2 + 3 + 1 + 4)
    assert signals[:9] == ["ssd.drive_total_ma", "ssd.rail_3v3_ma", "ssd.board_ma",
                           "ssd.controller_ma", "ssd.dram_ma", "ssd.host_if.power_mw",
                           "ssd.host_if.busy", "ssd.host_if.to_device_ma",
                           "ssd.host_if.to_host_ma"]
    assert [name for kind, name in shown if kind == "begin"] == [f"ch{c}" for c in range(8)]
    # Each group closed below its channel's power, busy dies and what they do; inside it the
    # bus, then the channel's dies.
    for c in range(8):
        begin = shown.index(("begin", f"ch{c}"))
        end = shown.index(("end", f"ch{c}"))
        assert shown[begin - 5:begin] == [("signal", f"ssd.ch{c}.{s}") for s in
                                          ("power_mw", "busy", "reading", "programming",
                                           "erasing")]
        members = [name for _, name in shown[begin + 1:end]]
        assert members[0] == f"ssd.ch{c}_ma"
        assert len(members) == 5 and all(m.startswith(f"ssd.ch{c}.w") for m in members[1:])


def group_flags(gtkw_text):
    """The flags of every group's begin and end lines."""
    flags, out = 0, []
    for line in gtkw_text.splitlines():
        if line.startswith("@"):
            flags = int(line[1:], 16)
        elif line.startswith("-") and flags & (gv.TR_GRP_BEGIN | gv.TR_GRP_END):
            out.append(flags)
    return out


def test_a_large_drives_channels_start_closed_so_its_own_currents_fit(tmp_path):
    large = simulate(tmp_path, "nvme_tlc_1tb")
    assert run_tool(large).returncode == 0
    flags = group_flags(large.with_suffix(".gtkw").read_text())
    assert len(flags) == 16 and all(f & gv.TR_CLOSED for f in flags)
    # The small drive's whole layout (28 rows) fits: open, as are groups asked open.
    small = simulate(tmp_path, "small_gc")
    assert run_tool(small).returncode == 0
    assert not any(f & gv.TR_CLOSED for f in group_flags(small.with_suffix(".gtkw").read_text()))
    assert run_tool(large, "--groups", "open").returncode == 0
    assert not any(f & gv.TR_CLOSED for f in group_flags(large.with_suffix(".gtkw").read_text()))
    assert "ssd.ch0.power_mw" not in large.with_suffix(".gtkw").read_text()  # open: its dies
    assert run_tool(small, "--groups", "closed").returncode == 0
    closed = small.with_suffix(".gtkw").read_text()
    assert all(f & gv.TR_CLOSED for f in group_flags(closed))
    assert traces(closed)[5:11] == [("signal", f"ssd.ch0.{s}") for s in
                                    ("power_mw", "busy", "reading", "programming", "erasing")] + [
                                       ("begin", "ch0")]


def test_range_sets_the_start_the_zoom_and_a_marker_in_the_middle(tmp_path):
    vcd = simulate(tmp_path, "small_gc")
    end_s = gv.read_vcd(str(vcd)).end * 1e-12
    assert run_tool(vcd, "--start-s", end_s / 4, "--end-s", end_s / 2).returncode == 0
    text = vcd.with_suffix(".gtkw").read_text()
    assert f"[timestart] {int(end_s / 4 * 1e12)}" in text
    zoom, marker = re.search(r"^\*(\S+) (\d+)", text, re.MULTILINE).groups()
    assert int(marker) == pytest.approx(3 / 8 * end_s * 1e12, rel=1e-6)
    # 2 ** -zoom picoseconds per 200 pixels: the range fills the waves.
    assert 2 ** -float(zoom) / 200 * gv.WAVES_WIDTH == pytest.approx(end_s / 4 * 1e12)


def test_a_windowed_vcd_is_shown_from_its_start(tmp_path):
    vcd = simulate(tmp_path, "small_gc", "--vcd-window", "1ms:")
    assert gv.read_vcd(str(vcd)).start == 10**9
    assert run_tool(vcd).returncode == 0
    assert "[timestart] 1000000000" in vcd.with_suffix(".gtkw").read_text()


@pytest.mark.parametrize("header, message", [
    ("$timescale 1 ps $end\n$scope module top $end\n$var real 64 ! x_ma $end\n$upscope $end\n"
     "$enddefinitions $end\n#0\n", "no ssd.drive_total_ma"),
    ("$timescale 1 ps $end\n$scope module ssd $end\n", "no $enddefinitions"),
    ("$scope module ssd $end\n$var real 64 ! drive_total_ma $end\n$upscope $end\n"
     "$enddefinitions $end\n#0\n", "no $timescale"),
    ("$timescale 1 ps $end\n$scope module ssd $end\n$var real 64 ! drive_total_ma $end\n"
     "$upscope $end\n$enddefinitions $end\n", "cut short"),
])
def test_a_file_that_is_not_an_ssdtlm_vcd_is_an_error_and_writes_nothing(tmp_path, header,
                                                                         message):
    vcd = tmp_path / "bad.vcd"
    vcd.write_text(header)
    result = run_tool(vcd)
    assert result.returncode == gv.EXIT_INPUT
    assert message in result.stderr
    assert not (tmp_path / "bad.gtkw").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["bad.vcd"]


def test_a_range_outside_the_run_is_an_error(tmp_path):
    vcd = simulate(tmp_path, "small_gc")
    result = run_tool(vcd, "--start-s", 1e6)
    assert result.returncode == gv.EXIT_INPUT and "after the run's end" in result.stderr
    result = run_tool(vcd, "--start-s", 0.002, "--end-s", 0.001)
    assert result.returncode == gv.EXIT_INPUT and "start < end" in result.stderr
    assert not vcd.with_suffix(".gtkw").exists()


# Lists what GTKWave shows after loading the save file: each trace's label, its value at the
# marker and its flags; then quits.
PROBE = """
set out [open $::env(GTKW_PROBE) w]
for {set i 0} {$i < [gtkwave::getTotalNumTraces]} {incr i} {
  puts $out "[gtkwave::getTraceNameFromIndex $i]|[gtkwave::getTraceValueAtMarkerFromIndex $i]|\
[gtkwave::getTraceFlagsFromIndex $i]"
}
close $out
gtkwave::/File/Quit
"""


def test_gtkwave_loads_every_signal_as_an_analog_trace_with_a_value(tmp_path):
    for tool in ("gtkwave", "xvfb-run"):
        assert shutil.which(tool), f"{tool} missing: scripts/install-deps.sh installs it"
    vcd = simulate(tmp_path, "small_gc")
    assert run_tool(vcd).returncode == 0
    probe = tmp_path / "probe.tcl"
    probe.write_text(PROBE)
    listing = tmp_path / "shown.txt"
    subprocess.run(["xvfb-run", "-a", "gtkwave", "-S", str(probe), str(vcd.with_suffix(".gtkw"))],
                   env={**os.environ, "GTKW_PROBE": str(listing)}, capture_output=True,
                   timeout=120, check=True)
    rows = [line.split("|") for line in listing.read_text().splitlines()]
    shown = [(name, value, int(flags)) for name, value, flags in rows if name]
    # GTKWave drops a save file's signal that the VCD lacks: all 12 must be there, in order.
    assert [name for name, _, _ in shown] == [
        "drive total (mA)", "rail 5v (mA)", "controller (mA)", "dram (mA)", "host if (mA)",
        "ch0", "ch0 bus (mA)", "ch0 w0d0 (mA)", "ch0 w1d0 (mA)", "ch0",
        "ch1", "ch1 bus (mA)", "ch1 w0d0 (mA)", "ch1 w1d0 (mA)", "ch1"]
    for name, value, flags in shown:
        if name.endswith("(mA)"):
            assert flags & gv.TR_ANALOG_STEP, name
            assert float(value) >= 0, name
    # Closed groups: GTKWave hides their members (no value at the marker), the rest shows, and
    # each channel's power above its group.
    assert run_tool(vcd, "--groups", "closed").returncode == 0
    subprocess.run(["xvfb-run", "-a", "gtkwave", "-S", str(probe), str(vcd.with_suffix(".gtkw"))],
                   env={**os.environ, "GTKW_PROBE": str(listing)}, capture_output=True,
                   timeout=120, check=True)
    closed = [line.split("|") for line in listing.read_text().splitlines()]
    for name, value, _ in closed:
        if name.startswith("ch") and name.endswith("(mA)"):
            assert value == "", name
        elif name.endswith("(mA)") or name.endswith("(mW)"):
            assert float(value) >= 0, name
    assert [name for name, _, _ in closed if name.endswith("(mW)")] == [
        "ch0 power (mW)", "ch1 power (mW)"]
    # The drive total is the tallest: its height extensions (unnamed rows) follow it.
    names = [name for name, _, _ in rows]
    assert names[:gv.TOTAL_ROWS + gv.ROWS + 1] == (
        ["drive total (mA)"] + [""] * (gv.TOTAL_ROWS - 1) +
        ["rail 5v (mA)"] + [""] * (gv.ROWS - 1) + ["controller (mA)"])
