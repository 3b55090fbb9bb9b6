"""Tests of tools/plot_energy.py. Run with: python3 -m pytest tools/test_plot_energy.py"""

import importlib.util
import pathlib
import subprocess
import sys

import pytest

SCRIPT = pathlib.Path(__file__).with_name("plot_energy.py")

HEADER = ("t_start_s,t_end_s,energy_j,avg_power_w,peak_power_w,avg_current_ma,"
          "host_interface_j,controller_j,dram_j,channel_j,nand_j")
# Three 10 ms windows, the last one partial (as the simulator writes them).
ROWS = [
    "0,0.01,0.0032,0.32,0.84,64,2e-06,0.0005,0.00066,5e-06,0.002033",
    "0.01,0.02,0.003135,0.3135,0.3135,62.7,0,0.000495,0.00066,0,0.00198",
    "0.02,0.025,0.0016,0.32,0.77,64,1e-06,0.00025,0.00033,2e-06,0.001017",
]


def load_module():
    spec = importlib.util.spec_from_file_location("plot_energy", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_run(tmp_path, lines):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "energy.csv").write_text("\n".join(lines) + "\n")
    return run_dir


def run_tool(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True, check=False)


def test_reads_average_power_per_group(tmp_path):
    pe = load_module()
    s = pe.read_series(str(write_run(tmp_path, [HEADER] + ROWS) / "energy.csv"))
    assert len(s) == 3
    assert list(s.group_w) == ["host_interface", "controller", "dram", "channel", "nand"]
    assert s.group_w["controller"][0] == pytest.approx(0.0005 / 0.01)
    assert s.group_w["nand"][2] == pytest.approx(0.001017 / 0.005)
    assert s.peak_w == [0.84, 0.3135, 0.77]


def test_temperature_columns_are_left_out(tmp_path):
    pe = load_module()
    lines = [HEADER + ",temp_controller_c,temp_nand_c"] + [r + ",41.5,40.25" for r in ROWS]
    s = pe.read_series(str(write_run(tmp_path, lines) / "energy.csv"))
    assert list(s.group_w) == ["host_interface", "controller", "dram", "channel", "nand"]
    assert s.group_w["nand"][2] == pytest.approx(0.001017 / 0.005)


def test_merge_keeps_energy_and_peak():
    pe = load_module()
    s = pe.Series(t_start=[0.0, 1.0, 2.0], t_end=[1.0, 2.0, 2.5], peak_w=[3.0, 5.0, 4.0],
                  group_w={"g": [1.0, 2.0, 4.0]})
    m = pe.merge(s, 2)
    assert m.t_start == [0.0, 2.0] and m.t_end == [2.0, 2.5]
    assert m.peak_w == [5.0, 4.0]
    assert m.group_w["g"] == pytest.approx([1.5, 4.0])


def test_writes_png(tmp_path):
    pytest.importorskip("matplotlib")
    run_dir = write_run(tmp_path, [HEADER] + ROWS)
    result = run_tool(run_dir)
    assert result.returncode == 0, result.stderr
    png = run_dir / "energy.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_out_option_and_range(tmp_path):
    pytest.importorskip("matplotlib")
    run_dir = write_run(tmp_path, [HEADER] + ROWS)
    out = tmp_path / "zoom.png"
    result = run_tool(run_dir, "--out", out, "--start", "0.012", "--end", "0.03")
    assert result.returncode == 0, result.stderr
    assert "(2 windows)" in result.stdout
    assert out.stat().st_size > 0
    assert not (run_dir / "energy.png").exists()


@pytest.mark.parametrize("bad_row, message", [
    ("0.02,0.025,0.0016,0.32,oops,64,1e-06,0.00025,0.00033,2e-06,0.001017",
     "peak_power_w: expected a number, got 'oops'"),
    ("0.02,0.025,0.0016", "expected 11 comma-separated fields, got 3"),
    ("0.02,0.02,0.0016,0.32,0.77,64,1e-06,0.00025,0.00033,2e-06,0.001017",
     "t_end_s: 0.02 is not after t_start_s 0.02"),
])
def test_malformed_row_names_file_and_line(tmp_path, bad_row, message):
    run_dir = write_run(tmp_path, [HEADER, ROWS[0], ROWS[1], bad_row])
    result = run_tool(run_dir)
    assert result.returncode == 2
    csv_path = run_dir / "energy.csv"
    assert f"{csv_path}:4: {message}" in result.stderr
    assert not (run_dir / "energy.png").exists()


def test_wrong_header(tmp_path):
    run_dir = write_run(tmp_path, ["time,energy"] + ROWS)
    result = run_tool(run_dir)
    assert result.returncode == 2
    assert f"{run_dir / 'energy.csv'}:1: header:" in result.stderr


def test_header_only(tmp_path):
    run_dir = write_run(tmp_path, [HEADER])
    result = run_tool(run_dir)
    assert result.returncode == 2
    assert f"{run_dir / 'energy.csv'}:2: no data rows" in result.stderr


def test_missing_file(tmp_path):
    result = run_tool(tmp_path / "nowhere")
    assert result.returncode == 2
    assert f"{tmp_path / 'nowhere' / 'energy.csv'}: cannot open" in result.stderr
