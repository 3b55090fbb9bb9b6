"""tools/readme_figures.py, the figures README.md quotes from runs: every figure is marked once
and known to the script, and the README (or the Makefile) still shows each command it runs; its
quick form (make run's summary and figures, `explain`, the NVMe drive's currents: the runs of
seconds, about 3 CPU s) run on the simulator gives what the README says; and a changed figure
fails the check, named with the README's text and the run's, which the script writes back.

The other figures are the script's full form only: the aged 1 TB drive's (aging it takes a
minute of CPU and 4.2 GB of disk, then its --timeline run) and the sweeps' (minutes). A change
that moves them must run `python3 tools/readme_figures.py` (docs/developing.md#the-readmes-figures).
Run with: python3 -m pytest tools/test_readme_figures.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
BINARY = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))
SCRIPT = str(TOOLS / "readme_figures.py")
sys.path.insert(0, str(TOOLS))
import readme_figures as rf  # noqa: E402 (tools/ is not a package: imported from its path)


def test_every_figure_is_marked_once_and_every_command_is_shown():
    text = rf.README.read_text()
    readme, errors = rf.spans(text)
    assert not errors, errors
    assert set(readme) == set(rf.FIGURE_BY_ID)
    assert not rf.commands_not_shown(rf.RUNS, text)
    for fig in rf.FIGURES:
        assert fig.runs and all(r in rf.RUN_BY_ID for r in fig.runs), fig.id


def test_a_marker_out_of_place_and_a_command_no_longer_shown_are_named():
    text = rf.README.read_text()
    readme, _ = rf.spans(text)
    inline = f"<!--fig:stages-->{readme['stages']}<!--/fig-->"
    _, errors = rf.spans(text.replace(inline, "\n" + inline, 1) + "and <!--fig:nope-->1<!--/fig-->")
    assert errors == ["stages: an inline figure at the start of a line",
                      "nope: no such figure in tools/readme_figures.py"]
    gone = rf.commands_not_shown(rf.RUNS, text.replace("--timeline 10000", "--timeline 5000"))
    assert len(gone) == 1 and gone[0].startswith("timeline: README.md no longer shows")


def test_differences_name_a_figure_with_both_texts_and_leave_out_times_and_the_machines():
    figs = [rf.Figure("a", ("make-run",), None), rf.Figure("t", ("make-run",), None, exact=False),
            rf.Figure("s", ("make-run",), None, normalise=rf.machine_free)]
    summary = ("\n```\n  drive      aged\n             preconditioned and stored in the state "
               "cache: ~/.cache/ssdtlm/97cea1bf2f9040277aaea3cd05f3f939.state\n  requests   10\n"
               "  wall       2.400 s (4166 requests per wall second)\n```\n")
    failures, notes = rf.differences(figs, {"a": "180 ns", "t": "about 15 s", "s": summary},
                                     {"a": "190 ns", "t": "about 20 s",
                                      "s": summary.replace("2.400", "14.617").replace(
                                          "/97cea1bf2f9040277aaea3cd05f3f939.state",
                                          "/d21d845514a9b0dd1dc21b48a24cf49f.state")})
    assert failures == ["a: the README says '180 ns', the run gives '190 ns'"]
    assert notes == ["t: the README says 'about 15 s', the run gives 'about 20 s' (a time: not "
                     "checked)", "s: differs only where another machine or build would"]
    failures, _ = rf.differences(figs, {"s": summary}, {"s": summary.replace("10", "11")})
    assert failures == ["s: the README and the run differ:\n--- README.md\n+++ the run\n"
                        "-  requests   10\n+  requests   11"]


def test_rewriting_keeps_the_readmes_summary_when_only_the_machine_changed():
    text = rf.README.read_text()
    readme, _ = rf.spans(text)
    same = rf.rewrite(text, {"summary": rf.machine_free(readme["summary"]) + "x"})
    assert same != text
    assert rf.rewrite(text, {"summary": readme["summary"].replace(
        "requests per wall second", "requests per wall second ")}) == text
    key = rf.re.search(r"[0-9a-f]{32}\.state", readme["summary"]).group(0)
    other_build = readme["summary"].replace(key, "0" * 32 + ".state")
    assert rf.rewrite(text, {"summary": other_build}) == text
    assert rf.about(14.2) == "about 15 s" and rf.about(64.9) == "about a minute"
    assert rf.about(355) == "about 6 minutes" and rf.about(3.4) == "about 3 s"


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """The quick form's check, run once on the simulator; its runs' results are kept."""
    assert os.access(BINARY, os.X_OK), f"{BINARY}: no simulator (build it, or set SSDTLM_BINARY)"
    keep = tmp_path_factory.mktemp("readme-figures")
    r = subprocess.run([sys.executable, SCRIPT, "--check", "--quick", "--binary", BINARY,
                        "--keep", str(keep)], capture_output=True, text=True, check=False)
    return r, keep / "results"


def test_the_readme_quotes_what_the_quick_runs_give(quick):
    r, _ = quick
    assert r.returncode == 0, ("README.md's figures are out of date (regenerate them: python3 "
                               "tools/readme_figures.py):\n" + r.stderr)
    assert "0 changed, 0 no longer borne out" in r.stderr


def test_a_changed_figure_fails_the_check_and_the_script_writes_it_back(quick, tmp_path):
    _, results = quick
    text = rf.README.read_text()
    readme, _ = rf.spans(text)
    spike = " ".join(readme["peak_spike"].split())  # as the prose wraps it, or not
    changed = tmp_path / "README.md"
    changed.write_text(text.replace(f"-->{readme['peak_spike']}<!--", "-->999 ns<!--", 1)
                       .replace("scoreboard 10106 page reads", "scoreboard 10107 page reads", 1))
    args = [sys.executable, SCRIPT, "--quick", "--results", str(results), "--readme",
            str(changed)]
    r = subprocess.run(args + ["--check"], capture_output=True, text=True, check=False)
    assert r.returncode == 1
    assert f"peak_spike: the README says '999 ns', the run gives '{spike}'" in r.stderr
    assert "-  scoreboard 10107 page reads" in r.stderr
    assert "+  scoreboard 10106 page reads" in r.stderr
    assert "2 changed" in r.stderr
    r = subprocess.run(args, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    # Rewritten as the runs give it: the summary with this run's wall clock and state file, a
    # figure on one line; the prose as it was.
    back = changed.read_text()
    assert rf.SPAN.sub("", back) == rf.SPAN.sub("", text)
    again, _ = rf.spans(back)
    for fid, value in again.items():
        fig = rf.FIGURE_BY_ID[fid]
        assert rf.comparable(fig, value) == rf.comparable(fig, readme[fid]), fid
