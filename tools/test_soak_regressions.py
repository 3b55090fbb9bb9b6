"""Runs the combination soak found failing, as it shrank them (docs/developing.md#combination-soak):
each command, on the soak's base drive and one of its workloads, must finish within a time and
memory bound with the scoreboard intact. A failure here is a soak finding come back.
Run with: python3 -m pytest tools/test_soak_regressions.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import json
import os
import pathlib
import resource
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))
BASE = ROOT / "configs" / "small_gc.json"
# The soak's workloads: open loop (preconditioned), and closed loop overwriting past capacity.
OPEN_LOOP = ("--workload-file", str(ROOT / "workloads" / "soak-idle-gaps.json"), "--precondition")


def closed_loop(count):
    return ("--workload", f"rw=randrw,mix=0.3,bs=4k,qd=16,count={count},seed=43")


MEMORY_BYTES = 2 << 30  # the base drive runs in tens of MB
# A run that never ends is what these findings were; one that ends is the pass. The bound is
# far above a run's time (the longest, 79,000 requests, took over 120 s under the sanitizers
# on a machine at load 6), so a busy machine does not fail it.
SECONDS = 600

DYNAMIC_SLC = [
    'ftl.slc_dynamic=[{"free_fraction": 0.2, "slc_fraction": 0}, '
    '{"free_fraction": 0.5, "slc_fraction": 0.1}, {"free_fraction": 1, "slc_fraction": 0.1}]',
    "flash.cell_type=\"mlc\"", "flash.blocks_per_plane=32", "ftl.overprovisioning=0.15625",
    "ftl.gc_threshold_blocks=2"]

FINDINGS = {
    # Background GC toward a target the die could not reach (2 x 8 free blocks), its victims'
    # copies filling what they freed: it ran on after the last request without end, 19 GB in
    # a minute.
    "background GC that frees nothing": (OPEN_LOOP, 1400, [
        "ftl.mapping_unit_bytes=512", "ftl.gc_threshold_blocks=8", "ftl.background_gc=true"]),
    # An SLC fold's wait interrupted by a host command left its program's end notified for
    # later, which woke the write buffer's next wait before its own program ended ("write
    # buffer: no slot free after waiting for the oldest destage").
    "an interrupted wait that woke the next one": (OPEN_LOOP, 1400, [
        "flash.ways_per_channel=1", "flash.planes_per_die=2", "flash.pages_per_block=16",
        "flash.cell_type=\"qlc\"", "flash.t_prog_slc_us=2000.0", "ftl.mapping_unit_bytes=512",
        "ftl.slc_cache_blocks_per_plane=1"]),
    # DFTL with random victims: translation pages of other dies' collections took a die's last
    # free blocks, and its own random victims' copies filled what they freed ("garbage
    # collection cannot make progress ... no die has a free block for a mapping page").
    "DFTL random victims on a die out of blocks": (closed_loop(78995), 78995, [
        "flash.planes_per_die=2", "flash.pages_per_block=64", "flash.page_bytes=2048",
        "ftl.type=\"dftl\"", "ftl.gc_policy=\"random\""]),
    # The same with incremental GC: the victim a step left half done no longer fit the die's
    # room ("copying the next victim stopped: die 0: no free block left").
    "DFTL incremental victim that no longer fits": (closed_loop(35109), 35109, [
        "ftl.type=\"dftl\"", "ftl.mapping_unit_bytes=512", "ftl.gc_mode=\"incremental\"",
        "ftl.gc_policy=\"random\"", "ftl.map_cache_bytes=65536"]),
    # A dynamic SLC cache kept its full blocks (folded only when idle, never during the
    # preconditioning's writes) while the die filled: in SLC mode they hold half their data, so
    # the main region ran out of spare blocks. With 512-byte units GC's victims copied as much as
    # they freed, without end, in the bulk preconditioning model; with whole pages, "no
    # reclaimable block (over-provisioning too small)".
    "a dynamic SLC cache holding a full die's spare blocks": (OPEN_LOOP, 1400, DYNAMIC_SLC + [
        "ftl.mapping_unit_bytes=512"]),
    "a dynamic SLC cache holding a full die's spare blocks, whole pages": (
        OPEN_LOOP, 1400, DYNAMIC_SLC),
    # One-shot programming on two lanes in lockstep (die_first): padding a word line opened the
    # next lanes' blocks without making room first, and took the die's last free blocks ("die 0
    # has no reclaimable block ... it has no free block").
    "word-line padding that took a die's last free blocks": (OPEN_LOOP, 1400, [
        "controller.block_order=\"nand\"", "dram.write_buffer_mb=1", "flash.planes_per_die=2",
        "flash.cell_type=\"mlc\"", "flash.program_unit=\"word_line\"",
        "ftl.allocation=\"die_first\"", "ftl.gc_threshold_blocks=2"]),
    # One-shot programming padded a die's word line at every idle gap without moving the die
    # rotation on: every write of the idle-gapped job went to die 0, which filled ("die 0 has no
    # reclaimable block: every full block on it holds only valid data").
    "word-line pads that kept the die rotation on one die": (OPEN_LOOP, 1400, [
        "controller.suspend_for_reads=true", "controller.block_order=\"nand\"",
        "dram.write_buffer_mb=1", "flash.dies_per_way=2", "flash.planes_per_die=2",
        "flash.cell_type=\"qlc\"", "flash.program_unit=\"word_line\"",
        "ftl.allocation=\"plane_first\"", "ftl.background_gc=true", "ftl.bg_gc_idle_us=250.0"]),
    # With one-shot word lines and a static SLC cache, a die whose SLC block was retired took a
    # word line (4 pages) a turn of the die rotation while the others took one SLC page: it got
    # four times their data and filled ("it holds 3878 valid units against a mean of 2385").
    "a die out of SLC blocks taking a word line a turn": (closed_loop(26478), 26478, [
        "controller.block_order=\"nand\"", "dram.write_buffer_mb=1", "flash.blocks_per_plane=128",
        "flash.cell_type=\"qlc\"", "flash.program_unit=\"word_line\"", "flash.faults.seed=0",
        "flash.faults.erase_fail_probability=0.001", "ftl.slc_cache_blocks_per_plane=1",
        "ftl.slc_fold=\"on_full\""]),
    # DFTL with one erase in twenty failing: a die's victims' erases failed faster than GC
    # reclaimed them, and a victim's copies found no free block left; under injected faults that
    # die is out of room (here the drive turns read-only), not a run that "cannot make progress".
    "DFTL under erase failures, a victim's copies with no block left": (closed_loop(17556), 17556, [
        "flash.faults.seed=0", "flash.faults.erase_fail_probability=0.05",
        "flash.faults.program_fail_probability=0.0002", "ftl.type=\"dftl\"",
        "ftl.overprovisioning=0.15625", "ftl.background_gc=true", "ftl.bg_gc_idle_us=250.0",
        "ftl.map_cache_bytes=16384"]),
    # The same drive further on: a failed program in that GC run had no block left on its die to
    # be written again to, and its data stayed mapped to the failed page (read later: a NAND rule
    # violation). It goes to the next die with room; 1,663 writes refused once read-only.
    "DFTL under erase failures, a failed program with no block left on its die": (
        closed_loop(19887), 18224, [
            "flash.faults.seed=0", "flash.faults.erase_fail_probability=0.05",
            "flash.faults.program_fail_probability=0.0002", "ftl.type=\"dftl\"",
            "ftl.overprovisioning=0.15625", "ftl.background_gc=true", "ftl.bg_gc_idle_us=250.0",
            "ftl.map_cache_bytes=16384"]),
    # With a QLC drive's dynamic SLC cache: idle-time folding met a die with no block left (a
    # failed program had closed its stream early) and the run ended on "no free block left";
    # under injected faults that die is out of room, the work done stays done.
    "DFTL under erase failures, idle-time folding with no block left": (closed_loop(16968), 16968, [
        "flash.cell_type=\"qlc\"", "flash.cache_program=true",
        "flash.faults.erase_fail_probability=0.05",
        "flash.faults.program_fail_probability=0.0002", "ftl.type=\"dftl\"",
        "ftl.overprovisioning=0.15625", "ftl.gc_threshold_blocks=2", "ftl.map_cache_bytes=16384",
        "ftl.slc_cache_blocks_per_plane=1", DYNAMIC_SLC[0]]),
    # Erases failing at one in twenty on a 16-die QLC drive, DFTL, `other_dies`: once every die was
    # out of room, the data in flight met a die with no block left and stopped the run while
    # other dies had some; it goes to the next die with a block. (44,585 served until GC's
    # translation pages stopped taking another die's last free blocks: 44,753.)
    "Every die out of room, the data in flight on a die with no block left": (
        closed_loop(60000), 44753, [
            "host.link_mb_per_s=1200.0", "host.full_duplex=true", "controller.t_cmd_issue_us=7.5",
            "controller.t_fw_per_cmd_us=0.5", "controller.t_fw_per_page_us=0.25",
            "controller.block_order=\"nand\"", "controller.issue_order=\"in_order\"",
            "dram.t_access_ns=15.0", "dram.access_bytes=8", "flash.ways_per_channel=4",
            "flash.blocks_per_plane=128", "flash.page_bytes=2048", "flash.cell_type=\"qlc\"",
            "flash.t_read_slc_us=200.0", "flash.reliability.enabled=true",
            "flash.faults.erase_fail_probability=0.05",
            "flash.faults.die_out_of_room=\"other_dies\"", "ftl.type=\"dftl\"",
            "ftl.gc_threshold_blocks=2", "ftl.gc_policy=\"window\"", "ftl.gc_window_fraction=0.4",
            "ftl.slc_cache_blocks_per_plane=1"]),
    # A dynamic SLC cache's fold in a foreground GC run, on a small DFTL drive with erases failing:
    # the translation pages written for the folded data found no die with a block left, and the
    # run ended on "no die has a free block for a mapping page" (GC's own victims were already
    # handled so); that die is out of room, the drive turns read-only, nothing is lost.
    "DFTL under erase failures, a fold's translation pages with no block left": (
        closed_loop(1375), 1375, [
            "dram.access_bytes=8", "flash.ways_per_channel=1", "flash.pages_per_block=16",
            "flash.page_bytes=2048", "flash.cell_type=\"mlc\"", "flash.faults.seed=2",
            "flash.faults.erase_fail_probability=0.05", "ftl.type=\"dftl\"",
            "ftl.mapping_unit_bytes=512", "ftl.gc_threshold_blocks=2",
            "ftl.slc_cache_blocks_per_plane=1", DYNAMIC_SLC[0]]),
}


def bounded():
    # Not under AddressSanitizer, which reserves terabytes of address space for its shadow.
    if not os.environ.get("ASAN_OPTIONS"):
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_finding_runs_to_its_end(name, tmp_path):
    workload, requests, overrides = FINDINGS[name]
    cmd = [BINARY, "--config", str(BASE)]
    for o in overrides:
        cmd += ["--set", o]
    cmd += [*workload, "--reproducible", "--no-series", "--out", str(tmp_path), "-q"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=SECONDS,
                       preexec_fn=bounded, check=False)
    assert r.returncode == 0, r.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["requests"]["count"] == requests
    assert report["scoreboard"]["mismatches"] == 0
