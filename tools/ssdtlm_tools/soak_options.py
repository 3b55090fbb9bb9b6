"""The combination soak's options and the validation it asks of the simulator (soak.py runs
them): the keys `ssdtlm config-keys --json` lists, two or three levels of each numeric key, and
the Oracle, which says whether the simulator takes the base config with some overrides
(`--dump-config`'s validation, then the model built on one write), each answer kept.
"""
import hashlib
import json
import math
import os
import re
import subprocess
import tempfile

from . import pairwise, sweep

OPTION_TYPES = ("bool", "choice", "integer", "number")
# A count (geometry, thresholds, depths) is halved and doubled: a drive's size grows with the
# product of its geometry keys. A time, current, voltage or fraction is quartered and quadrupled.
INTEGER_FACTOR, NUMBER_FACTOR = 2, 4
# A proposed level the simulator refuses alone moves half way to the base value, this often.
MAX_STEPS = 3
MAX_GROWTH = 8  # raw capacity at most this many times the base drive's: the runs stay short
# The model built on one write: what the oracle runs once --dump-config takes a config.
BUILD_CHECK = "rw=write,bs=4k,qd=1,count=1,seed=1"
# A refusal at build (the model's ConfigError: `power_budget.max_power_w: ...`, `drive 'x': the
# dftl FTL ...`), not a failure of the simulation (`/ssdtlm/...`) nor of the scoreboard.
# Lists the soak sets whole (their items' keys are no options of their own): the levels beside
# the base config's.
LIST_LEVELS = {
    # Four firmware cores: one takes host commands up, one runs background work, two the FTL's
    # work (placement and message latency are options of their own).
    "controller.cores": [[{"name": "h0", "ftl": False, "background": False},
                          {"name": "bg", "host": False, "ftl": False},
                          {"name": "f0", "host": False, "background": False},
                          {"name": "f1", "host": False, "background": False}]],
    # A dynamic SLC cache (it needs MLC, TLC or QLC flash, which the generator learns): a tenth
    # of the native blocks from half free on, none at a fifth free.
    "ftl.slc_dynamic": [[{"free_fraction": 0.2, "slc_fraction": 0.0},
                         {"free_fraction": 0.5, "slc_fraction": 0.1},
                         {"free_fraction": 1.0, "slc_fraction": 0.1}]],
    # Aging NAND's retry table (with flash.reliability.enabled): a shifted-voltage read, then a
    # soft decode after extra sensing.
    "flash.reliability.retry_steps": [[{"t_read_us": 60, "t_decode_us": 2, "correctable_bits": 60},
                                       {"t_read_us": 120, "t_decode_us": 8,
                                        "correctable_bits": 120}]],
    # Two namespaces: the open loop in the first (1 MiB), the closed loop overwriting the second
    # (10 MiB, from byte 1 MiB on); what the small drive has past them is never written. Beside
    # them a zoned namespace of 4 zones (2 open at most, a 64 KiB write cache), whose band at the
    # end of every plane the FTL works around (its blocks renumbered, its capacity shrunk); a
    # third run appends to its zones (Workload.of).
    # Then zones on groups of 2 dies, capacity-sized, with a spare block per plane, 512 B
    # logical blocks and an active limit, listed first (the FTL's namespaces after it). Then a
    # zoned namespace the host's zone translation layer serves (16 KiB chunks; of its 8 zones 2
    # open for copies, 2 kept free and 5 spare): the third run writes and reads it as blocks, the
    # layer collecting throughout, two collections side by side.
    # Last, the two conventional namespaces with placement handle lists (with ftl.fdp of two
    # handles or more): the first's identifiers 0 and 1 name handles 1 and 0, the second's
    # writes all go to handle 0.
    "namespaces": [[{"name": "a", "size_bytes": 1 << 20}, {"name": "b", "size_bytes": 10 << 20},
                    {"name": "z", "kind": "zoned",
                     "zones": {"count": 4, "max_open": 2, "write_cache_bytes": 65536}}],
                   [{"name": "z", "kind": "zoned",
                     "zones": {"count": 6, "stripe": "die_group", "group_dies": 2,
                               "size": "capacity", "spare_blocks_per_plane": 1, "max_open": 2,
                               "max_active": 3, "lba_bytes": 512}},
                    {"name": "a", "size_bytes": 1 << 20}, {"name": "b", "size_bytes": 10 << 20}],
                   [{"name": "a", "size_bytes": 1 << 20},
                    {"name": "t", "kind": "zoned", "zones": {"count": 8, "max_open": 3},
                     "host_translation": {"enabled": True, "chunk_bytes": 16384, "gc_zones": 2,
                                          "free_zones": 2, "spare_zones": 5}}],
                   [{"name": "a", "size_bytes": 1 << 20, "placement_handles": [1, 0]},
                    {"name": "b", "size_bytes": 10 << 20, "placement_handles": [0]}]],
}
# Numeric keys whose generated levels (a power of two above a base of 0) would leave nothing to
# see: aging NAND's rates at 1 fail every read. Levels where reads need hard decodes, retries,
# and (1.0) fail; where erases and programs fail now and then.
NUMBER_LEVELS = {
    "flash.reliability.rber_base": [0.004, 1.0],
    "flash.reliability.rber_wear": [1e-9],
    "flash.reliability.rber_retention": [1e-6],
    "flash.reliability.rber_disturb": [1e-9],
    # Two ECC engines (per channel, or the controller's), beside the default one; the range's
    # top (1024) would only multiply the energy monitor's components.
    "flash.reliability.ecc_engines": [2],
    # Injected erase failures: at 1 every erase fails and each die runs out of spare blocks at
    # once; one in a thousand retires a few blocks in the soak's longer runs; one in twenty runs
    # the small drives' dies out of room (read-only, or writes steered to the other dies).
    "flash.faults.erase_fail_probability": [0.001, 0.05],
    # Injected program failures: each costs a block for good (retired once its data has moved),
    # so a few in ten thousand programs leaves the smallest drives their spare.
    "flash.faults.program_fail_probability": [0.0002],
    # A die that stops answering 10 ms in (mid-run on most runs; the drive serves the rest, its
    # data reported lost); which die is flash.faults.dead_die's own levels (0, 1).
    "flash.faults.dead_die_at_ms": [10],
    # A loss of the supply 20 ms in (mid-run, or after the workload, the drive idle until then),
    # on capacitors that run out during the flush or outlast it, charged from 12 V down to 5 V.
    "power.hold_up.loss_at_ms": [20],
    "power.hold_up.capacitance_uf": [50],
    "power.hold_up.charged_v": [12],
    "power.hold_up.cutoff_v": [5],
}
CONFIG_REFUSAL = re.compile(
    r"ssdtlm: error: (drive '[^']*': |[a-z_]+(\[\d+\])?(\.[\w\[\]]+)+: |namespaces: )")
# A drive its FTL cannot age: garbage collection finds nothing to gain while the drive is
# preconditioned (DFTL with mapping units smaller than the page, a random victim policy and a
# small map cache: each victim's translation pages fill as much as it frees). The config is valid
# field by field, and the model says so with what helps; the soak counts it as refused when built
# (a validation gap, listed), not as a failure of the run.
CANNOT_AGE = re.compile(r"ssdtlm: error: /ssdtlm/controller: precondition: firmware: .*"
                        r"(garbage collection cannot make progress|has no reclaimable block)")


def run_text(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return r.returncode, r.stdout, r.stderr


def key_table(binary):
    rc, out, err = run_text([binary, "config-keys", "--json"])
    if rc != 0:
        raise RuntimeError(f"{binary} config-keys --json: exit {rc}: {err.strip()}")
    return json.loads(out)


def lookup(doc, key):
    for part in key.split("."):
        doc = doc[part]
    return doc


def set_arg(key, value):
    """`key=VALUE` for --set: VALUE as JSON."""
    return f"{key}={json.dumps(value)}"


def raw_bytes(cfg):
    f = cfg["flash"]
    return math.prod(f[k] for k in ("channels", "ways_per_channel", "dies_per_way",
                                    "planes_per_die", "blocks_per_plane", "pages_per_block",
                                    "page_bytes"))


def logical_bytes(cfg):
    """DriveConfig::logical_pages() x page_bytes: whole pages after over-provisioning."""
    pages = raw_bytes(cfg) // cfg["flash"]["page_bytes"]
    ppm = round(cfg["ftl"]["overprovisioning"] * 1e6)
    return pages * (1000000 - ppm) // 1000000 * cfg["flash"]["page_bytes"]


class Oracle:
    """Whether the simulator takes the base config with these overrides: None, or its refusal.
    `--dump-config`'s validation first, asked of one `--check-overrides -` process kept running
    (a process per config cost the sanitized simulator more than the validation); a config it
    takes is then built by the model on one write (BUILD_CHECK, a process each; preconditioned,
    as the soak's runs are, unless the lifetime manager refuses it), and a refusal naming a key
    there, or a drive its FTL cannot age (CANNOT_AGE), is a refusal too, kept in `gaps` (rule ->
    the overrides of its shortest example). Answers are kept (OUT/oracle.json, per binary and
    base config). close() ends the process."""

    def __init__(self, binary, config, cache_path=None):
        self.binary, self.config, self.calls = binary, config, 0
        self.cache_path, self.checker, self.checker_err = cache_path, None, None
        self.ident = hashlib.sha256((sweep.sha256_file(binary) + sweep.sha256_file(config))
                                    .encode()).hexdigest()
        self.answers, self.gaps = {}, {}
        if cache_path and os.path.exists(cache_path):
            with open(cache_path) as f:
                saved = json.load(f)
            if saved.get("ident") == self.ident:
                self.answers, self.gaps = saved["answers"], saved.get("gaps", {})
        self.base = json.loads(self.dump([]))
        self.max_raw = MAX_GROWTH * raw_bytes(self.base)

    def command(self, overrides):
        cmd = [self.binary, "--config", self.config]
        for o in overrides:
            cmd += ["--set", o]
        return cmd

    def dump(self, overrides):
        """What --dump-config prints with the overrides; raises ValueError with the lines it
        refuses them with (`ssdtlm: error: ...`, as oracle.json keeps them)."""
        self.calls += 1
        if self.checker is None:
            self.checker_err = tempfile.TemporaryFile()
            self.checker = subprocess.Popen(
                self.command([]) + ["--check-overrides", "-"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=self.checker_err, text=True)
        try:
            self.checker.stdin.write(json.dumps(overrides) + "\n")
            self.checker.stdin.flush()
            line = self.checker.stdout.readline()
        except BrokenPipeError:  # it ended before reading the line
            line = ""
        if not line:
            self.close()  # raises with its error
            raise RuntimeError(f"{self.binary} --check-overrides: ended without an answer")
        answer = json.loads(line)
        if "error" in answer:
            raise ValueError("\n".join(f"ssdtlm: error: {ln}"
                                       for ln in answer["error"].split("\n")).strip())
        return answer["config"]

    def close(self):
        """Ends the --check-overrides process; raises RuntimeError if it failed (a sanitizer's
        report at its exit: a leak)."""
        if self.checker is None:
            return
        checker, self.checker = self.checker, None
        try:
            checker.stdin.close()
        except BrokenPipeError:  # it ended before reading all
            pass
        rc = checker.wait()
        self.checker_err.seek(0)
        err = self.checker_err.read().decode(errors="replace").strip()
        self.checker_err.close()
        if rc != 0:
            raise RuntimeError(f"{self.binary} --check-overrides: exit {rc}: {err}")

    def build_refusal(self, overrides, cfg):
        """The model's refusal of a config --dump-config took (`cfg`, its effective config; a
        failure of the run itself is left to the soak's runs)."""
        aged = ["--precondition"] if cfg["lifetime"]["mode"] == "off" else []
        with tempfile.TemporaryDirectory(prefix="ssdtlm-soak-") as out:
            rc, _, err = run_text(self.command(overrides) + [
                "--workload", BUILD_CHECK, *aged, "--no-state-cache", "--out", out, "-q",
                "--no-series"])
        first = next((ln for ln in err.splitlines() if ln.startswith("ssdtlm: error: ")), "")
        if rc == 0 or not (CONFIG_REFUSAL.match(first) or CANNOT_AGE.match(first)):
            return None
        sig = pairwise.signature(first)
        if sig not in self.gaps or len(overrides) < len(self.gaps[sig]):
            self.gaps[sig] = overrides
        return first

    def __call__(self, overrides):
        ident = "\n".join(overrides)
        if ident not in self.answers:
            try:
                cfg = json.loads(self.dump(overrides))
                size = raw_bytes(cfg)
                self.answers[ident] = None if size <= self.max_raw else (
                    f"soak: flash: a raw capacity of {size >> 20} MiB is more than {MAX_GROWTH} x "
                    "the base drive's (the soak keeps its drives small)")
                if self.answers[ident] is None:
                    self.answers[ident] = self.build_refusal(overrides, cfg)
            except ValueError as e:
                self.answers[ident] = str(e)
        return self.answers[ident]

    def save(self):
        if self.cache_path:
            sweep.write_atomic(self.cache_path, json.dumps({
                "ident": self.ident, "answers": self.answers, "gaps": self.gaps}))


def proposals(entry, v):
    """The levels to try beside the base value v of a numeric key, within its range."""
    integer = entry["type"] == "integer"
    lo, hi = entry.get("min", -math.inf), entry.get("max", math.inf)
    lo_open, hi_open = entry.get("min_open", False), entry.get("max_open", False)
    factor = INTEGER_FACTOR if integer else NUMBER_FACTOR
    out = []
    for p in ([v / factor, v * factor] if v != 0 else []):
        if integer:
            p = round(p)
        if p < lo or (lo_open and p <= lo):
            p = None if lo_open else lo
        if p is not None and (p > hi or (hi_open and p >= hi)):
            p = None if hi_open else hi
        if p is not None and p != v and p not in out:
            out.append(int(p) if integer else float(p))
    return out


def levels(entry, v, refused):
    """v, then each proposal the simulator takes alone (`refused(value)` is its refusal or
    None), moved half way to v while refused (MAX_STEPS times; kept as proposed if never taken:
    another option's value may make it valid). A key whose base is 0 (off, none, no cost) gets
    the smallest power of two taken alone."""
    integer = entry["type"] == "integer"
    if v == 0:
        hi = min(entry.get("max", 2.0 ** 30), 2.0 ** 30)
        tries = [2 ** k for k in range(31) if 2 ** k <= hi and 2 ** k >= entry.get("min", 0)]
        if not tries:
            return [v]
        first = next((t for t in tries if refused(t if integer else float(t)) is None), tries[0])
        return [v, first if integer else float(first)]
    out = [v]
    for p in proposals(entry, v):
        q = p
        for _ in range(MAX_STEPS):
            if refused(q) is None:
                break
            q = round((q + v) / 2) if integer else (q + v) / 2
        if refused(q) is not None:
            q = p
        if q != v and q not in out:
            out.append(q)
    return out


def options(keys, oracle, only=None):
    """[(key, [values...])]: every bool, choice, integer and number key outside a list, and the
    lists of LIST_LEVELS (whose key matches the regular expression `only`, if given), its base
    value first."""
    out = []
    for e in keys:
        listed = e["key"] in LIST_LEVELS
        if (e["type"] not in OPTION_TYPES and not listed) or "[i]" in e["key"]:
            continue
        if only is not None and not re.search(only, e["key"]):
            continue
        v = lookup(oracle.base, e["key"])
        if listed:
            values = [v] + [level for level in LIST_LEVELS[e["key"]] if level != v]
        elif e["key"] in NUMBER_LEVELS:
            values = [v] + [level for level in NUMBER_LEVELS[e["key"]] if level != v]
        elif e["type"] == "bool":
            values = [v, not v]
        elif e["type"] == "choice":
            values = [v] + [c for c in e["choices"] if c != v]
        else:
            values = levels(e, v, lambda x, k=e["key"]: oracle([set_arg(k, x)]))
        if len(values) > 1:
            out.append((e["key"], values))
    return out


def related(names, reason):
    """The options a refusal names, and the others of the section of the key it starts with
    (`flash.multiplane: needs planes_per_die ...`: flash.*): two lists of indices."""
    text = pairwise.signature(reason)
    head = re.match(r"[\w.]+", text)
    section = head.group(0).split(".")[0] + "." if head else None
    named = [i for i, k in enumerate(names)
             if re.search(rf"(?<![\w.]){re.escape(k)}(?![\w])", text)]
    return named, [i for i, k in enumerate(names)
                   if section and k.startswith(section) and i not in named]


def overrides_of(opts, row):
    return [set_arg(opts[i][0], opts[i][1][v]) for i, v in enumerate(row) if v != 0]


def kind_of(values):
    if isinstance(values[0], list):
        return "list"
    if isinstance(values[0], bool):
        return "bool"
    return "choice" if isinstance(values[0], str) else "numeric"
