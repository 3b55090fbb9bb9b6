"""Runs the combination soak found failing, as it shrank them (docs/developing.md#combination-soak):
each command, on the soak's base drive and workload, must finish within a time and memory bound
with the scoreboard intact. A failure here is a soak finding come back.
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
OPEN_LOOP = ROOT / "workloads" / "soak-idle-gaps.json"
MEMORY_BYTES = 2 << 30  # the base drive runs in tens of MB
SECONDS = 120

FINDINGS = {
    # Background GC toward a target the die could not reach (2 x 8 free blocks), its victims'
    # copies filling what they freed: it ran on after the last request without end, 19 GB in
    # a minute.
    "background GC that frees nothing": [
        "ftl.mapping_unit_bytes=512", "ftl.gc_threshold_blocks=8", "ftl.background_gc=true"],
    # An SLC fold's wait interrupted by a host command left its program's end notified for
    # later, which woke the write buffer's next wait before its own program ended ("write
    # buffer: no slot free after waiting for the oldest destage").
    "an interrupted wait that woke the next one": [
        "flash.ways_per_channel=1", "flash.planes_per_die=2", "flash.pages_per_block=16",
        "flash.cell_type=\"qlc\"", "flash.t_prog_slc_us=2000.0", "ftl.mapping_unit_bytes=512",
        "ftl.slc_cache_blocks_per_plane=1"],
}


def bounded():
    # Not under AddressSanitizer, which reserves terabytes of address space for its shadow.
    if not os.environ.get("ASAN_OPTIONS"):
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_finding_runs_to_its_end(name, tmp_path):
    cmd = [BINARY, "--config", str(BASE)]
    for o in FINDINGS[name]:
        cmd += ["--set", o]
    cmd += ["--workload-file", str(OPEN_LOOP), "--precondition", "--reproducible",
            "--no-series", "--out", str(tmp_path), "-q"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=SECONDS,
                       preexec_fn=bounded, check=False)
    assert r.returncode == 0, r.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["requests"]["count"] == 1400
    assert report["scoreboard"]["mismatches"] == 0
