"""What the sweep tool's tests share: the simulator, a small 2x2 spec and the command line
that runs it, headless Chromium, and the figures a sweep draws."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from ssdtlm_tools import plot

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
BINARY = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))
CONFIG = str(ROOT / "configs" / "case_4x4.json")
SMALL = "rw=randwrite,bs=4k,qd=32,count=2000"

# Two controller layouts of small_gc.json, as labelled values of an axis over a list.
TWO_CORES = [{"name": "host", "ftl": False}, {"name": "ftl0", "host": False,
                                             "background": False}]
LAYOUTS = [{"label": "1 core", "value": []}, {"label": "2 cores", "value": TWO_CORES}]


def write_spec(path, **overrides):
    spec = {
        "name": "t2x2",
        "config": CONFIG,
        "axes": {"product": {"ftl.type": ["page", "dftl"], "flash.t_prog_us": [500, 900]}},
        "workloads": [{"name": "randwrite", "workload": SMALL}],
    }
    spec.update(overrides)
    path.write_text(json.dumps(spec))
    return str(path)


def run_cli(*args, **kw):
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    return subprocess.run([sys.executable, "-m", "ssdtlm_tools.cli", "sweep", *args,
                           "--binary", BINARY],
                          capture_output=True, text=True, env=env, check=False, **kw)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("no chromium (scripts/install-deps.sh installs Debian's)")


def open_in_chromium(path, tmp_path):
    """The page's DOM after load and the browser's console lines, from headless Chromium."""
    r = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
         "--v=0", f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000",
         "--dump-dom", pathlib.Path(path).as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    console = [line for line in r.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    return r.stdout, console


def figures_of(out, df):
    return list(plot.draw_figures(df, str(out), plot.sweep_plot_options(str(out))))


def assert_readable(out, df):
    """No two tick labels (or texts of a panel) overlap, no text below 8 pt, in any figure of
    the sweep in `out` (its table `df`), drawn as the report draws them."""
    import matplotlib.pyplot as plt
    drawn = figures_of(out, df)
    assert [fid for fid, _ in drawn] == list(plot.FIGURES)
    for fid, fig in drawn:
        assert plot.overlapping_texts(fig) == [], fid
        assert plot.small_texts(fig) == [], fid
        plt.close(fig)
