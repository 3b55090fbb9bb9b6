"""The combination soak's parts: delta debugging and bisection, the pairwise generator under
constraints it learns from a made-up validation (every feasible pair covered, no refused row
kept, the infeasible pairs exactly those the rules exclude), the levels of numeric keys, the
workloads, failure signatures and the command printed; then the soak end to end on the real
simulator wrapped to fail on one option past a request count, which it must shrink to that
option and count.
Run with: python3 -m pytest tools/test_soak.py (SSDTLM_BINARY names the simulator, default
build/ssdtlm)."""
import itertools
import json
import os
import pathlib
import re
import stat
import subprocess
import sys

import pytest

from ssdtlm_tools import minimise, pairwise, soak
from ssdtlm_tools.soak_options import (
    CONFIG_REFUSAL,
    LIST_LEVELS,
    NUMBER_LEVELS,
    Oracle,
    key_table,
    levels,
    logical_bytes,
    options,
    proposals,
    related,
    set_arg,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
BINARY = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))


def test_ddmin_finds_the_minimal_failing_subset():
    calls = []

    def fails(s):
        calls.append(s)
        return {17, 42, 90} <= set(s)

    assert minimise.ddmin(list(range(100)), fails) == [17, 42, 90]
    assert len(calls) < 200
    assert minimise.ddmin([3, 4], lambda s: True) == []  # fails with nothing changed
    assert minimise.ddmin(list("abcdef"), lambda s: "d" in s) == ["d"]


def test_smallest_failing_count():
    assert minimise.smallest_failing(1000, lambda m: m >= 377) == 377
    assert minimise.smallest_failing(1000, lambda m: True) == 1
    assert minimise.smallest_failing(1, lambda m: True) == 1


def test_signature_drops_numbers_and_origin():
    a = ("ssdtlm: error: /x/small_gc.json with --set: ftl.overprovisioning: 0.0625 leaves 4 "
         "spare blocks per die")
    b = "ssdtlm: error: y.json: ftl.overprovisioning: 0.125 leaves 8 spare blocks per die"
    assert pairwise.signature(a) == pairwise.signature(b) == \
        "ftl.overprovisioning: N leaves N spare blocks per die"


# A made-up validation over five options (sizes 3, 2, 4, 2, 3): option 0 at 2 refuses option
# 1 at 1; option 3 at 1 needs option 2 at 3; option 4 at 2 is refused whatever else.
SIZES = [3, 2, 4, 2, 3]


def made_up(row):
    if row[0] == 2 and row[1] == 1:
        return "o0: 2 not with o1 1"
    if row[3] == 1 and row[2] != 3:
        return "o3: needs o2 3"
    if row[4] == 2:
        return "o4: never 2"
    return None


def excluded(i, a, j, b):
    """Whether the made-up rules leave no valid row for values a of i and b of j."""
    return not any(made_up(r) is None for r in itertools.product(*map(range, SIZES))
                   if r[i] == a and r[j] == b)


def test_generator_covers_every_feasible_pair_and_keeps_only_valid_rows():
    g = pairwise.Generator(SIZES, made_up, seed=5)
    rows = g.run()
    assert rows and all(made_up(r) is None for r in rows)
    covered = {((i, r[i]), (j, r[j])) for r in rows for i in range(5) for j in range(i + 1, 5)}
    for i, j in itertools.combinations(range(5), 2):
        for a in range(SIZES[i]):
            for b in range(SIZES[j]):
                pair = ((i, a), (j, b))
                if excluded(i, a, j, b):
                    assert pair in g.infeasible and pair not in covered, pair
                else:
                    assert pair in covered, pair
    assert frozenset({(4, 2)}) in g.forbidden
    assert frozenset({(0, 2), (1, 1)}) in g.forbidden
    assert g.rescues[frozenset({(3, 1)})] == [(2, 3)]  # refused alone, valid beside o2 = 3
    # Every pair of 3 x 4 values of options 0 and 2 needs a row of its own at least.
    assert len(rows) >= 12


def test_generator_is_seeded_and_stops_at_a_limit():
    assert pairwise.Generator(SIZES, made_up, seed=5).run() == \
        pairwise.Generator(SIZES, made_up, seed=5).run()
    full = pairwise.Generator(SIZES, made_up, seed=5).run()
    assert pairwise.Generator(SIZES, made_up, seed=5).run(limit=4) == full[:4]


def chained(sizes, needs_o1):
    """A generator over made-up rules: option 0 at 1 needs option 1 at a value `needs_o1`
    accepts (another refusal then), then option 2 at 1; and the rows it built."""
    def rules(row):
        if row[0] == 1 and not needs_o1(row[1]):
            return "o0: needs o1"
        if row[0] == 1 and row[2] != 1:
            return "o0: then needs o2"
        return None

    def related(reason):
        return [int(n) for n in re.findall(r"o(\d)", reason)], []

    g = pairwise.Generator(sizes, rules, seed=1, related=related)
    rows = g.run()
    assert all(rules(r) is None for r in rows)
    assert set(g.infeasible) == {((0, 1), (1, 0)), ((0, 1), (2, 0))}
    return rows


def test_a_chain_of_needs_is_followed():
    rows = chained([2, 2, 2, 2], lambda v: v == 1)
    assert (1, 1, 1, 0) in rows and (1, 1, 1, 1) in rows


def test_a_need_met_two_ways_keeps_both_and_a_set_follows_its_chain():
    # Option 1 at 1 or 2 (one-shot programming needs MLC or QLC, then a write buffer and the NAND
    # rules): the value the chain did not take is no constraint, and the pair it makes with
    # option 0 is covered through a chain of its own.
    rows = chained([2, 3, 2, 2], lambda v: v != 0)
    assert any(r[0] == 1 and r[1] == 1 for r in rows)
    assert any(r[0] == 1 and r[1] == 2 for r in rows)


def entry(kind, default, **bounds):
    return dict(key="k", type=kind, default=default, **bounds)


def test_levels_of_numeric_keys():
    assert proposals(entry("integer", 64, min=1, max=2 ** 32 - 1), 64) == [32, 128]
    assert proposals(entry("number", 500.0, min=0, min_open=True, max=1e6), 500.0) == \
        [125.0, 2000.0]
    assert proposals(entry("integer", 1, min=1, max=8), 1) == [2]  # 0.5 -> the bound
    assert proposals(entry("number", 1.0, min=0, min_open=True, max=1), 1.0) == [0.25]
    assert proposals(entry("number", 0.5, min=0, min_open=True, max=1, max_open=True),
                     0.5) == [0.125]
    # Refused alone: moved half way to the base until taken.
    refused = {0.0625: "too small"}
    assert levels(entry("number", 0.25, min=0, max=0.9, max_open=True), 0.25,
                  refused.get) == [0.25, 0.15625]
    # Never taken: kept as proposed, for another option's value to make valid.
    assert levels(entry("integer", 82, min=0, max=1000), 82, lambda v: "no" if v > 82
                  else None) == [82, 41, 164]
    # A base of 0: the smallest power of two taken alone.
    assert levels(entry("integer", 0, min=0, max=1 << 20), 0,
                  lambda v: None if v % 512 == 0 else "not a multiple of 512") == [0, 512]
    assert levels(entry("number", 0.0, min=0, max=1e6), 0.0, lambda v: None) == [0.0, 1.0]


def test_related_names_first_then_the_section():
    names = ["thermal.enabled", "thermal.ambient_c", "thermal.throttle.max_power_w", "ftl.type"]
    reason = ("ssdtlm: error: c.json with --set: thermal.throttle.max_power_w: the power_budget "
              "action needs a cap above 0")
    assert related(names, reason) == ([2], [0, 1])


SMALL_GC = json.loads(subprocess.run(
    [BINARY, "--config", str(ROOT / "configs" / "small_gc.json"), "--dump-config"],
    capture_output=True, text=True, check=False).stdout or "null")


@pytest.mark.skipif(SMALL_GC is None, reason="no simulator")
def test_workloads_of_a_combination():
    closed, open_loop = soak.Workload.of(SMALL_GC, 7)  # no zoned namespace: two runs
    # 32 MiB raw, 25 % over-provisioning: 24 MiB written twice over by 70 % of the requests.
    assert logical_bytes(SMALL_GC) == 24 << 20
    assert closed.source == "rw=randrw,mix=0.3,bs=4k,qd=16,count=17555,seed=7"
    assert closed.count() == 17555
    assert closed.cut(100).input_and_args() == (closed.source.replace("17555", "100"),
                                                ["--no-series"])
    assert open_loop.args == ["--no-series", "--precondition"]
    assert open_loop.count() == 1400
    assert open_loop.cut(9).input_and_args()[1][-2:] == ["--max-requests", "9"]
    lifetime = dict(SMALL_GC, lifetime=dict(SMALL_GC["lifetime"], mode="dedup"))
    assert soak.Workload.of(lifetime, 7)[1].args == ["--no-series"]  # refuses --precondition
    # With namespaces the closed loop writes as much into the last conventional one, not into
    # the zoned one after it (which takes writes at its zones' write pointers only).
    spaced = dict(SMALL_GC, namespaces=LIST_LEVELS["namespaces"][0])
    assert spaced["namespaces"][-1]["kind"] == "zoned"
    runs = soak.Workload.of(spaced, 7)
    assert runs[0].source == closed.source + ",namespace=b"
    # The zoned namespace gets a run of its own: zone appends with reads and zone reports.
    assert runs[2].source == ("rw=zoneappend,mix=0.3,bs=16k,qd=16,count=3000,seed=7,"
                              "namespace=z,zones=2,zone_report_every=64")
    assert runs[2].cut(10).input_and_args()[0].endswith(
        "count=10,seed=7,namespace=z,zones=2,zone_report_every=64")
    # One the host's zone translation layer serves is written and read as blocks.
    translated = dict(SMALL_GC, namespaces=LIST_LEVELS["namespaces"][2])
    assert translated["namespaces"][-1]["host_translation"]["enabled"]
    assert soak.Workload.of(translated, 7)[2].source == (
        "rw=randrw,mix=0.3,bs=4k,qd=16,count=3000,seed=7,namespace=t")


def test_command_and_overrides_as_typed():
    assert soak.shell_arg(set_arg("ftl.type", "dftl")) == "ftl.type=dftl"
    assert soak.shell_arg(set_arg("name", "123")) == "'name=\"123\"'"
    assert soak.shell_arg(set_arg("flash.t_prog_us", 125.0)) == "flash.t_prog_us=125.0"
    w = soak.Workload("closed", "workload", "rw=randrw,count=5,seed=1", ["--no-series"], 3)
    assert soak.command(str(ROOT / "build" / "ssdtlm"), str(ROOT / "configs" / "small_gc.json"),
                        [set_arg("ftl.type", "block")], w) == (
        "build/ssdtlm --config configs/small_gc.json --set ftl.type=block --workload "
        "rw=randrw,count=3,seed=1 --out out/soak-repro -q")


def test_failure_signature(tmp_path):
    log = tmp_path / "log.txt"
    log.write_text("ssdtlm --config config.json\nssdtlm: error: /ssdtlm/energy: ch1.w0d0: "
                   "transition to 'idle' at 6409423413333 ps goes back in time\n")
    assert soak.failure_signature({"returncode": 1, "log": str(log)}) == \
        "/ssdtlm/energy: chN.wNdN: transition to 'idle' at N ps goes back in time"
    log.write_text("==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020 at pc\n")
    assert soak.failure_signature({"returncode": 1, "log": str(log)}) == \
        "ERROR: AddressSanitizer: heap-use-after-free on address N at pc"
    log.write_text("")
    assert soak.failure_signature({"returncode": -11, "log": str(log)}) == "killed by signal 11"


WRAPPER = """#!/bin/sh
# The simulator, but a run whose config has cache_program on fails once it plays 300 requests.
for a in "$@"; do
  case "$a" in config.json) cfg=1 ;; esac
done
if [ -n "$cfg" ] && grep -q '"cache_program": true' config.json; then
  n=$(printf '%s\\n' "$@" | sed -n 's/.*count=\\([0-9]*\\).*/\\1/p')
  m=$(printf '%s\\n' "$@" | grep -A1 -x -e --max-requests | tail -1)
  [ -n "$m" ] && [ "$m" != "--max-requests" ] && n=$m
  if [ -z "$n" ] || [ "$n" -ge 300 ]; then echo "ssdtlm: error: injected" >&2; exit 1; fi
fi
exec {binary} "$@"
"""


@pytest.mark.skipif(not os.access(BINARY, os.X_OK), reason="no simulator")
def test_soak_shrinks_a_failure_to_its_option_and_request_count(tmp_path):
    wrapper = tmp_path / "ssdtlm"
    wrapper.write_text(WRAPPER.format(binary=os.path.abspath(BINARY)))
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    r = subprocess.run([sys.executable, "-m", "ssdtlm_tools.cli", "soak", "--binary",
                        str(wrapper), "--out", str(tmp_path / "out"), "--serial", "--only",
                        r"^(ftl\.(type|gc_policy)|flash\.(cache_program|multiplane))$"],
                       capture_output=True, text=True, env=env, check=False)
    assert r.returncode == 1, r.stderr
    summary = json.loads((tmp_path / "out" / "soak.json").read_text())
    assert summary["options"] == 4 and summary["values"] == 2 + 4 + 2 + 7
    assert summary["pages_checked"] > 0
    assert [f["signature"] for f in summary["failures"]] == ["injected"]
    failure = summary["failures"][0]
    assert failure["overrides"] == ["flash.cache_program=true"]
    assert failure["command"].startswith(f"{wrapper} --config configs/small_gc.json --set "
                                         "flash.cache_program=true --workload")
    assert "count=300," in failure["command"] or "--max-requests 300" in failure["command"]
    assert "FAILED" in r.stderr and failure["command"] in r.stderr


ORACLE_WRAPPER = """#!/bin/sh
echo "$@" >> {log}
exec {binary} "$@"
"""


@pytest.mark.skipif(not os.access(BINARY, os.X_OK), reason="no simulator")
def test_an_oracle_binary_answers_the_validation_and_only_that(tmp_path):
    log = tmp_path / "oracle.log"
    wrapper = tmp_path / "oracle"
    wrapper.write_text(ORACLE_WRAPPER.format(log=log, binary=os.path.abspath(BINARY)))
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    cmd = [sys.executable, "-m", "ssdtlm_tools.cli", "soak", "--binary", BINARY,
           "--out", str(tmp_path / "out"), "--serial", "--only",
           r"^flash\.(cache_program|multiplane)$"]
    missing = subprocess.run(cmd + ["--oracle-binary", str(tmp_path / "none")],
                             capture_output=True, text=True, env=env, check=False)
    assert missing.returncode == 2
    assert f"--oracle-binary: {tmp_path / 'none'} is not an executable" in missing.stderr
    r = subprocess.run(cmd + ["--oracle-binary", str(wrapper)], capture_output=True, text=True,
                       env=env, check=False)
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "out" / "soak.json").read_text())
    assert summary["oracle_binary"] == str(wrapper)
    assert summary["runs"] > 0 and summary["pages_checked"] > 0
    calls = log.read_text().splitlines()
    # The validation process, and build checks of one write each: never a soak run.
    assert any("--check-overrides -" in c for c in calls)
    assert all("--check-overrides -" in c or f"--workload {soak.BUILD_CHECK}" in c
               for c in calls), calls


def test_a_refusal_at_build_is_told_from_a_failing_run():
    refusals = ["ssdtlm: error: power_budget.max_power_w: a cap of 1 W leaves no room",
                "ssdtlm: error: drive 'small_gc': ftl.map_cache_bytes: the dftl FTL caches",
                "ssdtlm: error: drive 'x': the dftl FTL numbers its 9 translation pages",
                "ssdtlm: error: namespaces[2].zones.group_dies: must divide the drive's 4 dies",
                "ssdtlm: error: namespaces: the zoned namespaces take 64 blocks of every plane"]
    runs = ["ssdtlm: error: /ssdtlm/energy: ch1.w0d0: transition to 'idle' goes back in time",
            "ssdtlm: error: the scoreboard found lost or corrupted data (see report)",
            "ssdtlm: error: /ssdtlm/host: the simulation stalled at 5 us"]
    assert all(CONFIG_REFUSAL.match(r) for r in refusals)
    assert not any(CONFIG_REFUSAL.match(r) for r in runs)


@pytest.mark.skipif(SMALL_GC is None, reason="no simulator")
def test_oracle_refuses_what_the_model_refuses_when_built(tmp_path):
    # A power cap the dump may take (issue 43 item 3) but the model refuses when built: the
    # oracle refuses it either way, and a refusal only the build gave is kept as a gap.
    oracle = Oracle(BINARY, str(ROOT / "configs" / "small_gc.json"),
                    str(tmp_path / "oracle.json"))
    capped = ["power_budget.enabled=true", "power_budget.max_power_w=0.001"]
    assert oracle([]) is None
    assert "leaves no room for the largest die operation" in oracle(capped)
    for rule, example in oracle.gaps.items():
        assert rule.startswith("power_budget.max_power_w: a cap of N W") and example == capped
    oracle.save()
    again = Oracle(BINARY, str(ROOT / "configs" / "small_gc.json"),
                   str(tmp_path / "oracle.json"))
    calls = again.calls
    assert again(capped) == oracle(capped) and again.calls == calls  # kept, not asked again
    assert again.gaps == oracle.gaps
    oracle.close()
    again.close()


@pytest.mark.skipif(SMALL_GC is None, reason="no simulator")
def test_oracle_dumps_as_dump_config_does(tmp_path):
    # One --check-overrides process answers every dump: the text --dump-config prints, or the
    # error lines it refuses with (oracle.json keeps those), one after another.
    oracle = Oracle(BINARY, str(ROOT / "configs" / "small_gc.json"))
    for overrides in (["ftl.type=dftl"], ["flash.page_bytes=3", "host.queue_depth=0"],
                      ["power_budget.enabled=true", "power_budget.max_power_w=0.001"], []):
        r = subprocess.run(oracle.command(overrides) + ["--dump-config"], capture_output=True,
                           text=True, check=False)
        if r.returncode == 0:
            assert oracle.dump(overrides) == r.stdout
        else:
            with pytest.raises(ValueError) as refusal:
                oracle.dump(overrides)
            assert r.returncode == 1 and str(refusal.value) == r.stderr.strip()
    oracle.close()
    # A process that ends without answering (a config file it cannot read) is an error.
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(RuntimeError, match=r"--check-overrides: exit 1: .*bad.json:1:2: invalid"):
        Oracle(BINARY, str(bad))


@pytest.mark.skipif(SMALL_GC is None, reason="no simulator")
def test_lists_the_soak_sets_whole_are_options_the_simulator_takes(tmp_path):
    # controller.cores, ftl.slc_dynamic, aging NAND's retry table and the namespaces are lists:
    # options of the soak by their levels, each of which the simulator takes (with the per-die
    # queues several cores need, the MLC flash a dynamic SLC cache needs, aging NAND on; the
    # namespaces alone, or with the flexible data placement their handle lists need), and a list
    # stays a list.
    oracle = Oracle(BINARY, str(ROOT / "configs" / "small_gc.json"))
    opts = dict(options(key_table(BINARY), oracle,
                        only=r"^(controller\.cores|ftl\.slc_dynamic|"
                             r"flash\.reliability\.retry_steps|namespaces)$"))
    assert sorted(opts) == sorted(LIST_LEVELS)
    needs = {"controller.cores": ["controller.issue_order=per_die_queues"],
             "ftl.slc_dynamic": [set_arg("flash.cell_type", "mlc")],
             "flash.reliability.retry_steps": ["flash.reliability.enabled=true"],
             "namespaces": []}
    for key, values in opts.items():
        assert values[0] == [] and values[1:] == LIST_LEVELS[key]
        for level in values[1:]:
            lists = key == "namespaces" and any("placement_handles" in n for n in level)
            fdp = ["ftl.fdp.enabled=true"] if lists else []
            assert oracle([set_arg(key, level), *needs[key], *fdp]) is None, level
    assert "several cores need controller.issue_order per_die_queues" in oracle(
        [set_arg("controller.cores", LIST_LEVELS["controller.cores"][0]),
         "controller.issue_order=in_order"])
    oracle.close()


@pytest.mark.skipif(SMALL_GC is None, reason="no simulator")
def test_rates_take_their_chosen_levels():
    # A rate's generated level (a power of two above 0) would fail every read, or every erase:
    # the chosen ones also give reads that need hard decodes and retries, and erases and programs
    # that fail now and then.
    oracle = Oracle(BINARY, str(ROOT / "configs" / "small_gc.json"))
    rates = r"^flash\.(reliability\.rber_|faults\.\w+_probability)"
    opts = dict(options(key_table(BINARY), oracle, only=rates))
    assert opts == {k: [0.0] + v for k, v in NUMBER_LEVELS.items() if re.match(rates, k)}
    # Two ECC engines beside one, not the range's top (1024 engines a channel).
    assert dict(options(key_table(BINARY), oracle, only=r"^flash\.reliability\.ecc_engines$")) == {
        "flash.reliability.ecc_engines": [1, 2]}
    oracle.close()


@pytest.mark.skipif(SMALL_GC is None, reason="no simulator")
def test_power_loss_takes_its_chosen_levels():
    # Generated levels of a base of 0 would be powers of two: a loss at 1 ms, a bank charged to
    # 1 V. The chosen ones lose the supply mid-run on a bank of 12 V down to 5 V.
    oracle = Oracle(BINARY, str(ROOT / "configs" / "small_gc.json"))
    opts = dict(options(key_table(BINARY), oracle, only=r"^power\.hold_up\."))
    assert opts == {k: [0.0] + v for k, v in NUMBER_LEVELS.items() if k.startswith("power.")}
    oracle.close()
