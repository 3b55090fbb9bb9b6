"""ssdtlm-plot timeline RUN_DIR: a real run's timeline.csv (and its dies' heat map) drawn as
PNG, SVG and PDF; a run without one, or a file without a column, or a dies' file whose rows are
not the timeline's, is an error that says so.
Run with: python3 -m pytest tools/test_timeline.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import os
import pathlib
import subprocess

import pandas as pd
import pytest

from ssdtlm_tools import cli, timeline

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """small_gc preconditioned, random 4 KiB writes and reads: GC in most intervals."""
    assert os.access(BINARY, os.X_OK), f"{BINARY}: no simulator (build it, or set SSDTLM_BINARY)"
    d = tmp_path_factory.mktemp("timeline") / "run"
    r = subprocess.run([BINARY, "--config", str(ROOT / "configs" / "small_gc.json"),
                        "--precondition", "--workload", "rw=randrw,mix=0.3,bs=4k,qd=8,count=3000",
                        "--timeline", "2000", "--quiet", "--out", str(d)],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    return d


def test_reads_the_simulators_file(run_dir):
    df = timeline.read(str(run_dir))
    assert len(df) > 5
    assert df["gc_victims"].sum() > 0
    assert (df["t_start_s"].iloc[1:].to_numpy() == df["t_end_s"].iloc[:-1].to_numpy()).all()


@pytest.mark.parametrize("fmt, magic", [("png", b"\x89PNG"), ("svg", b"<?xml"), ("pdf", b"%PDF")])
def test_draws_each_format(run_dir, fmt, magic, capsys):
    args = ["timeline", str(run_dir)] + ([] if fmt == "png" else ["--format", fmt])
    assert cli.plot_main(args) == 0
    path = run_dir / f"timeline.{fmt}"
    assert capsys.readouterr().out.strip() == str(path)
    assert path.read_bytes().startswith(magic)


def test_one_panel_per_kind_with_temperatures(run_dir, tmp_path):
    df = timeline.read(str(run_dir))
    df["temp_controller_c"] = 40.0
    fig = timeline.draw(df)
    axes = [ax for ax in fig.axes if ax.get_ylabel()]
    assert [ax.get_ylabel() for ax in axes][:len(timeline.PANELS)] == \
        [p[0] for p in timeline.PANELS]
    assert "C" in [ax.get_ylabel() for ax in fig.axes]  # the temperatures' axis


def test_missing_file_and_column_are_errors(run_dir, tmp_path, capsys):
    assert cli.plot_main(["timeline", str(tmp_path)]) == 2
    assert "timeline.csv: no such file (run ssdtlm with --timeline US)" in capsys.readouterr().err
    bad = tmp_path / "bad"
    bad.mkdir()
    pd.read_csv(run_dir / "timeline.csv").drop(columns=["free_blocks"]).to_csv(
        bad / "timeline.csv", index=False)
    assert cli.plot_main(["timeline", str(bad)]) == 2
    assert "no column free_blocks" in capsys.readouterr().err


def test_heat_map_of_the_dies(run_dir):
    df = timeline.read(str(run_dir))
    dies = timeline.read_dies(str(run_dir), df)
    assert dies is not None and len(dies.columns) > 3
    fig = timeline.draw(df, dies=dies)
    heat = fig.axes[len(timeline.PANELS)]
    assert heat.get_ylabel() == f"die busy ({len(dies.columns) - 2} dies)"
    channels = sorted({c.split(".")[0] for c in dies.columns[2:]})
    assert sorted(t.get_text() for t in heat.get_yticklabels()) == channels
    mesh = heat.collections[0]
    assert mesh.get_array().size == len(dies) * (len(dies.columns) - 2)
    assert "busy fraction" in [ax.get_ylabel() for ax in fig.axes]  # its colour bar
    # A run without the file (a simulator before it) draws the panels alone.
    assert len(timeline.draw(df).axes) < len(fig.axes)


def test_dies_file_of_other_rows_is_an_error(run_dir, tmp_path, capsys):
    bad = tmp_path / "short"
    bad.mkdir()
    (bad / "timeline.csv").write_bytes((run_dir / "timeline.csv").read_bytes())
    pd.read_csv(run_dir / "timeline_dies.csv").iloc[:-1].to_csv(bad / "timeline_dies.csv",
                                                                 index=False)
    assert cli.plot_main(["timeline", str(bad)]) == 2
    assert "timeline_dies.csv: its rows are not those of timeline.csv" in capsys.readouterr().err
