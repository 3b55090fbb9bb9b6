"""tools/validate.py, the validation page: its rules for judging a simulated figure against a
published one; its reduced form run on the simulator, every figure within its tolerance or
explained on the page; and docs/validation.md as that run reproduces it.
Run with: python3 -m pytest tools/test_validate.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
BINARY = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))
sys.path.insert(0, str(TOOLS))
import validate  # noqa: E402 (tools/ is not a package: imported from its path)


def figure(**kw):
    base = {"id": "T1", "drive": "nvme", "label": "test", "published": 100.0, "unit": "IOPS",
            "sources": (), "runs": ("r",), "metric": lambda res: res["r"], "tol": (0.8, 1.25)}
    base.update(kw)
    return validate.Figure(**base)


def test_a_figure_is_judged_by_its_tolerance_and_its_explanation():
    plain = figure()
    explained = figure(why=lambda res, cfg: "because")
    assert validate.judge(plain, 100) == validate.WITHIN
    assert validate.judge(plain, 80) == validate.WITHIN
    assert validate.judge(plain, 125) == validate.WITHIN
    assert validate.judge(plain, 79.9) == validate.UNEXPLAINED
    assert validate.judge(plain, 125.1) == validate.UNEXPLAINED
    assert validate.judge(explained, 30) == validate.EXPLAINED
    assert validate.judge(explained, 100) == validate.STALE  # the explanation no longer holds
    assert validate.judge(plain, None) == validate.NOT_RUN


def test_failures_name_the_figure_an_unexplained_gap_and_a_stale_explanation():
    figs = [figure(id="A"), figure(id="B"), figure(id="C", why=lambda res, cfg: "x"),
            figure(id="D", why=lambda res, cfg: "x")]
    res = {"r": 200.0}
    verdicts = validate.evaluate(figs, res)
    assert [v[1] for v in verdicts.values()] == [validate.UNEXPLAINED] * 2 + [
        validate.EXPLAINED] * 2
    lines = validate.failures(figs, verdicts)
    assert len(lines) == 2 and lines[0].startswith("A test: OUTSIDE, NOT EXPLAINED")
    assert "ratio 2.00, tolerance x/÷ 1.25" in lines[0]
    res = {"r": 100.0}
    lines = validate.failures(figs, validate.evaluate(figs, res))
    assert [line.split()[0] for line in lines] == ["C", "D"]
    assert all("STALE" in line for line in lines)


def test_every_figure_names_known_runs_and_sources_and_a_tolerance_around_one():
    ids = [f.id for f in validate.FIGURES]
    assert len(ids) == len(set(ids))
    for fig in validate.FIGURES:
        assert fig.sources and all(s in validate.SOURCES for s in fig.sources), fig.id
        assert fig.runs and all(r in validate.RUN_BY_ID for r in fig.runs), fig.id
        # A bound ("more than 3") is held from the bound up: its tolerance starts at 1.
        assert fig.tol[0] <= 1 < fig.tol[1] and fig.published > 0, fig.id
        assert fig.drive in validate.DRIVES, fig.id
    assert set(validate.RUN_NOTES) == set(validate.RUN_BY_ID)


def test_reduced_form_must_not_replace_the_page():
    r = subprocess.run([sys.executable, str(TOOLS / "validate.py"), "--reduced",
                        "--binary", BINARY], check=False, capture_output=True,
                       text=True)
    assert r.returncode == 2 and "--reduced needs --out" in r.stderr


@pytest.fixture(scope="module")
def reduced(tmp_path_factory):
    """The reduced form, run once: its exit status, its messages and its page."""
    assert os.access(BINARY, os.X_OK), f"{BINARY}: no simulator (build it, or set SSDTLM_BINARY)"
    out = tmp_path_factory.mktemp("validate") / "validation.md"
    r = subprocess.run([sys.executable, str(TOOLS / "validate.py"), "--reduced", "--out",
                        str(out), "--binary", BINARY], check=False, capture_output=True,
                       text=True)
    return r, out.read_text() if out.exists() else ""


def test_reduced_form_keeps_every_figure_within_tolerance_or_explained(reduced):
    r, page = reduced
    assert r.returncode == 0, r.stderr
    values = validate.page_values(page)
    full_only = {run.id for run in validate.RUNS if run.full_only}
    for fig in validate.FIGURES:
        assert f"| {fig.id} | {fig.label} |" in page
        assert (values[fig.id] is None) == any(run in full_only for run in fig.runs), fig.id
        if fig.why and values[fig.id] is not None:
            assert f"**{fig.id}, {fig.label}.**" in page  # the disagreement is explained
    for key in validate.SOURCES:
        assert validate.SOURCES[key] in page


def test_the_committed_page_is_what_the_simulator_gives_now(reduced):
    r, page = reduced
    assert r.returncode == 0, r.stderr
    now = validate.page_values(page)
    committed = validate.page_values((ROOT / "docs" / "validation.md").read_text())
    assert set(committed) == set(now)
    stale = [f"{fid}: the page says {committed[fid]:.6g}, the simulator gives {value:.6g}"
             for fid, value in sorted(now.items())
             if value is not None and committed[fid] != pytest.approx(value, rel=5e-3)]
    assert not stale, ("docs/validation.md is out of date (regenerate it: python3 "
                       "tools/validate.py):\n" + "\n".join(stale))
    full_only = [f.id for f in validate.FIGURES if now[f.id] is None]
    assert all(committed[fid] is not None for fid in full_only)  # the page is the full form
