"""A sweep spec (YAML or JSON, docs/sweeps.md) and the points it expands to.

A point is one run of the simulator: a config file, its overrides, one workload and one
repetition. Paths in a spec are relative to the spec file.
"""
import difflib
import itertools
import json
import math
import os
import re

import yaml

from .describe import STAGE_WAITS_FOR

KNOWN_KEYS = {"name", "description", "config", "set", "axes", "workloads", "repetitions",
              "seeds", "args", "plot", "findings"}
FINDINGS_KEYS = ["cost", "within", "meets", "tail"]
MEETS_KEYS = ["field", "at_most", "at_least"]
TAIL_KEYS = ["stage", "along", "op"]
# The cheapest point reaches the best throughput within this fraction unless the spec says.
DEFAULT_WITHIN = 0.05
AXIS_KINDS = {"product", "zip"}
WORKLOAD_KINDS = {"workload", "trace", "workload_file"}
# A dotted config key as ssdtlm --set takes it (docs/config.md#overrides-on-the-command-line),
# or `config`: the config file itself.
KEY_RE = re.compile(r"^[a-z_][a-z0-9_]*(\.([a-z_][a-z0-9_]*|[0-9]+))*$")
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")


class SpecError(Exception):
    """A spec that cannot be run; the message names the key."""


def _fail(key, reason):
    raise SpecError(f"{key}: {reason}")


def _close(key, known):
    """'; did you mean "x"?' when `key` is a slip for one of `known`, else ''."""
    close = difflib.get_close_matches(key, known, n=1)
    return f'; did you mean "{close[0]}"?' if close else ""


def _unknown(key, known, where=None):
    """Fails for an unknown key, naming the known ones and the closest if it is a slip."""
    _fail(f"{where}.{key}" if where else key,
          f"unknown key (known: {', '.join(known)}){_close(key, known)}")


def set_value(value):
    """A spec value as ssdtlm --set's VALUE: JSON text (a bare string stays a string)."""
    return json.dumps(value, separators=(",", ":"))


def _axis_values(table, at, base_dir):
    """[(key, [{"label": ..., "value": ...}, ...]), ...] of the axes of `table` (the mapping
    at `at`: axes.product, axes.zip or axes.zip[i]), checked. `label` is None for a plain value
    (shown as the value), the given text for a labelled one."""
    table = table or {}
    if not isinstance(table, dict):
        _fail(at, "expected a mapping of keys to lists of values")
    out = []
    for key, values in table.items():
        where = f"{at}.{key}"
        if key != "config" and not KEY_RE.match(str(key)):
            _fail(where, "not a dotted config key (e.g. flash.t_prog_us, power.rails.0.voltage_v)")
        if not isinstance(values, list) or not values:
            _fail(where, "expected a non-empty list of values")
        entries, shown = [], {}
        for i, v in enumerate(values):
            entry = _axis_value(v, f"{where}[{i}]")
            if key == "config":
                entry["value"] = _existing(base_dir, entry["value"], f"{where}[{i}]")
            # One name, one value: a value may repeat (a zip list), but a label may not name
            # two values, nor read as a plain value does.
            text = str(display(key, entry))  # as the point's label shows it
            if text in shown and entries[shown[text]]["value"] != entry["value"]:
                _fail(f"{where}[{i}]", f"duplicate label {text!r} (also {where}[{shown[text]}], "
                                       "another value): the values of one axis need labels of "
                                       "their own")
            shown.setdefault(text, i)
            entries.append(entry)
        out.append((str(key), entries))
    return out


LABELLED = ("label", "value")


def _axis_value(v, where):
    """One value of an axis: a plain value, or {label: TEXT, value: ANY} (docs/sweeps.md)."""
    if not isinstance(v, dict):
        return {"label": None, "value": v}
    unknown = sorted(set(v) - set(LABELLED))
    if unknown:
        _fail(f"{where}.{unknown[0]}", "unknown key of a labelled value (known: label, value; "
                                       "an object to --set goes in `value`)"
              + _close(str(unknown[0]), LABELLED))
    missing = [k for k in LABELLED if k not in v]
    if missing:
        _fail(where, f"a labelled value needs {' and '.join(missing)} "
                     "({label: TEXT, value: VALUE}; an object to --set goes in `value`)")
    label = v["label"]
    if not isinstance(label, str) or not label.strip():
        _fail(f"{where}.label", "expected a non-empty string (what the point is called)")
    return {"label": label.strip(), "value": v["value"]}


def display(key, entry):
    """How an axis value is shown in the point's label and params: a labelled value's label;
    a config file's name without its directory and extension; any other value as itself."""
    if entry["label"] is not None:
        return entry["label"]
    if key == "config":
        return os.path.splitext(os.path.basename(entry["value"]))[0]
    return entry["value"]


def _zip_groups(value, base_dir):
    """The zip groups: `axes.zip` is one group (a mapping of axes varied together) or a list
    of them, each varied together and the groups combined as a product. [[(key, entries),
    ...], ...], each group's lists checked to be of one length."""
    if not value:
        return []
    if isinstance(value, list):
        groups = [(g, f"axes.zip[{i}]") for i, g in enumerate(value)]
        for g, at in groups:
            if not isinstance(g, dict) or not g:
                _fail(at, "expected a mapping of keys to lists of values (a zip group)")
    else:
        groups = [(value, "axes.zip")]
    out = []
    for table, at in groups:
        group = _axis_values(table, at, base_dir)
        lengths = {len(v) for _, v in group}
        if len(lengths) > 1:
            _fail(at, f"lists of different lengths {sorted(lengths)}: zip varies them together")
        out.append(group)
    return out


def _existing(base_dir, path, key):
    if not isinstance(path, str) or not path:
        _fail(key, "expected a file path")
    full = os.path.normpath(os.path.join(base_dir, path))
    if not os.path.isfile(full):
        _fail(key, f"no such file: {full}")
    return full


def _workloads(spec, base_dir):
    items = spec.get("workloads")
    if not isinstance(items, list) or not items:
        _fail("workloads", "expected a non-empty list (each with workload, trace or workload_file)")
    out, names = [], set()
    for i, w in enumerate(items):
        where = f"workloads[{i}]"
        if not isinstance(w, dict):
            _fail(where, "expected a mapping")
        unknown = set(w) - WORKLOAD_KINDS - {"name", "args"}
        if unknown:
            _unknown(sorted(unknown)[0], ["name", "workload", "trace", "workload_file", "args"],
                     where)
        kinds = [k for k in WORKLOAD_KINDS if k in w]
        if len(kinds) != 1:
            _fail(where, "give exactly one of workload, trace, workload_file")
        kind = kinds[0]
        source = w[kind]
        if not isinstance(source, str) or not source:
            _fail(f"{where}.{kind}", "expected a string")
        if kind != "workload":
            source = _existing(base_dir, source, f"{where}.{kind}")
        name = w.get("name", os.path.basename(source) if kind != "workload" else source)
        if not isinstance(name, str) or not NAME_RE.match(name):
            _fail(f"{where}.name", "expected letters, digits, '_', '.', '-'")
        if name in names:
            _fail(f"{where}.name", f"duplicate workload name {name!r}")
        names.add(name)
        args = _string_list(w.get("args", []), f"{where}.args")
        out.append({"name": name, "kind": kind, "source": source, "args": args})
    return out


def _string_list(value, key):
    if not isinstance(value, list) or not all(isinstance(a, (str, int, float)) for a in value):
        _fail(key, "expected a list of strings")
    return [str(a) for a in value]


def load(path):
    """The spec at `path`, checked, with its paths resolved."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SpecError(f"{path}: {e.strerror}") from None
    try:
        spec = json.loads(text) if path.endswith(".json") else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as e:
        raise SpecError(f"{path}: not valid {'JSON' if path.endswith('.json') else 'YAML'}: "
                        f"{e}") from None
    return check(spec, os.path.dirname(os.path.abspath(path)), text)


def check(spec, base_dir, text=""):
    if not isinstance(spec, dict):
        _fail("(top level)", "expected a mapping")
    unknown = set(spec) - KNOWN_KEYS
    if unknown:
        _unknown(sorted(unknown)[0], sorted(KNOWN_KEYS))
    name = spec.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        _fail("name", "required: letters, digits, '_', '.', '-'")
    fixed = spec.get("set", {}) or {}
    if not isinstance(fixed, dict):
        _fail("set", "expected a mapping of dotted config keys to values")
    for key, value in fixed.items():
        if not KEY_RE.match(str(key)):
            _fail(f"set.{key}", "not a dotted config key")
        if isinstance(value, dict):
            _fail(f"set.{key}", "expected a value, got a mapping")
    axes = spec.get("axes", {}) or {}
    if not isinstance(axes, dict):
        _fail("axes", "expected a mapping with product and/or zip")
    for kind in axes:
        if kind not in AXIS_KINDS:
            _fail(f"axes.{kind}", "unknown axis kind (known: product, zip)")
    product = _axis_values(axes.get("product"), "axes.product", base_dir)
    zips = _zip_groups(axes.get("zip"), base_dir)
    keys = [k for k, _ in product] + [k for group in zips for k, _ in group]
    for k in keys:
        if k in fixed:
            _fail(f"set.{k}", "also an axis")
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        _fail(f"axes.zip.{sorted(dup)[0]}",
              "an axis twice (in product and zip, or in two zip groups)")
    has_config_axis = "config" in keys
    config = spec.get("config")
    if config is None and not has_config_axis:
        _fail("config", "required (or a `config` axis of config files)")
    if config is not None and has_config_axis:
        _fail("config", "given and also an axis")
    config = _existing(base_dir, config, "config") if config is not None else None
    reps = spec.get("repetitions", 1)
    if not isinstance(reps, int) or isinstance(reps, bool) or reps < 1:
        _fail("repetitions", "expected an integer >= 1")
    seeds = spec.get("seeds", list(range(1, reps + 1)))
    if (not isinstance(seeds, list) or len(seeds) != reps
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seeds)):
        _fail("seeds", f"expected {reps} non-negative integers, one per repetition")
    plot = spec.get("plot", {}) or {}
    if not isinstance(plot, dict) or set(plot) - {"baseline", "power_levels_w"}:
        _fail("plot", "expected a mapping with baseline and/or power_levels_w")
    return {
        "name": name,
        "description": str(spec.get("description", "")),
        "config": config,
        "set": {str(k): v for k, v in fixed.items()},
        "product": product,
        "zips": zips,
        "workloads": _workloads(spec, base_dir),
        "seeds": seeds,
        "args": _string_list(spec.get("args", []), "args"),
        "plot": plot,
        "findings": _findings(spec.get("findings"), keys),
        "text": text,
    }


def _findings(value, axis_keys):
    """The spec's `findings` options: `cost`, the axes that cost hardware, most significant
    first (the cheapest point reaching the best throughput is read along them), and `within`,
    how close to the best counts as reaching it; or, instead of `within`, `meets`: a bound on a
    report.json field that the cheapest point must meet. `tail`: where a stage of the latency
    breakdown takes the slowest requests over, along some axes (tail.py); with it alone, no
    cheapest point."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        _fail("findings", "expected a mapping with cost and within or meets, or tail")
    for k in value:
        if k not in FINDINGS_KEYS:
            _unknown(str(k), FINDINGS_KEYS, "findings")
    out = {"tail": _tail(value["tail"], axis_keys)} if "tail" in value else {}
    if out and not any(k in value for k in ("cost", "within", "meets")):
        return out
    cost = _axis_list(value.get("cost", []), "findings.cost", axis_keys,
                      "[controller.cores, controller.clock_mhz]")
    if "meets" in value:
        if "within" in value:
            _fail("findings.within", "not with findings.meets: the cheapest point is then the "
                                     "one that meets its bound, not one near the best throughput")
        return {**out, "cost": cost, "meets": _meets(value["meets"])}
    within = value.get("within", DEFAULT_WITHIN)
    if not _number(within) or not 0 <= within < 1:
        _fail("findings.within", "expected a fraction in [0, 1), e.g. 0.05 for 5 %")
    return {**out, "cost": cost, "within": float(within)}


def _axis_list(keys, where, axis_keys, example):
    """A non-empty list of distinct axis keys, the most significant first."""
    if not isinstance(keys, list) or not keys:
        _fail(where, f"expected a non-empty list of axis keys, the most significant first "
                     f"(e.g. {example})")
    for i, k in enumerate(keys):
        if k not in axis_keys:
            _fail(f"{where}[{i}]", f"{k!r} is not an axis (axes: {', '.join(axis_keys)})"
                  + _close(str(k), axis_keys))
        if keys.index(k) != i:
            _fail(f"{where}[{i}]", f"{k!r} given twice")
    return [str(k) for k in keys]


def _tail(value, axis_keys):
    """findings.tail: {stage: a latency-breakdown stage, along: [axis keys], op: read | write}."""
    if not isinstance(value, dict):
        _fail("findings.tail", "expected a mapping: {stage: STAGE, along: [AXIS, ...]}")
    for k in value:
        if k not in TAIL_KEYS:
            _unknown(str(k), TAIL_KEYS, "findings.tail")
    stages = list(STAGE_WAITS_FOR)
    stage = value.get("stage")
    if stage not in stages:
        _fail("findings.tail.stage", f"expected a stage of the latency breakdown "
                                     f"({', '.join(stages)})" + _close(str(stage), stages))
    op = value.get("op", "read")
    if op not in ("read", "write"):
        _fail("findings.tail.op", "expected read or write")
    along = _axis_list(value.get("along", []), "findings.tail.along", axis_keys,
                       "[flash.reliability.retention_days, flash.reliability.pe_cycles]")
    return {"stage": stage, "op": op, "along": along}


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _meets(value):
    """findings.meets: {field: a report.json field (dotted), at_most or at_least: a number}."""
    if not isinstance(value, dict):
        _fail("findings.meets", "expected a mapping: {field: FIELD, at_most: N} or "
                                "{field: FIELD, at_least: N}")
    for k in value:
        if k not in MEETS_KEYS:
            _unknown(str(k), MEETS_KEYS, "findings.meets")
    field = value.get("field")
    if not isinstance(field, str) or not re.fullmatch(r"[A-Za-z_][\w]*(\.[\w]+)*", field):
        _fail("findings.meets.field", "expected a report.json field, dotted as in the sweep's "
                                      "table (e.g. power_loss.acknowledged_units_lost)")
    bounds = [k for k in ("at_most", "at_least") if k in value]
    if len(bounds) != 1:
        _fail("findings.meets", "expected exactly one of at_most and at_least")
    bound = value[bounds[0]]
    if not _number(bound):
        _fail(f"findings.meets.{bounds[0]}", "expected a number")
    return {"field": field, bounds[0]: float(bound)}


def with_seed(workload_spec, seed):
    """A --workload spec with its seed replaced (or added)."""
    parts = [p for p in workload_spec.split(",") if p and not p.startswith("seed=")]
    return ",".join(parts + [f"seed={seed}"])


def axes(spec):
    """The axes in spec order (product, then zip), each with its values as the point's label
    shows them (`shown`) and, per value, the order it ranks in: the value itself when every
    value of the axis is a number, else the place of its first occurrence in the list (a value
    repeated in a zip list ranks once; docs/sweeps.md#the-cheapest-point). sweep.json keeps
    them."""
    out = []
    for key, entries in spec["product"] + [a for group in spec["zips"] for a in group]:
        values = [e["value"] for e in entries]
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        out.append({"key": key, "shown": [_in_label(key, e) for e in entries],
                    "order": values if numeric else [values.index(v) for v in values]})
    return out


def _in_label(key, entry):
    """An axis value as the point's label shows it: a label alone, else `key=value` by the
    key's last part (`t_prog_us=500`, `config=case_4x4`)."""
    if entry["label"] is not None:
        return entry["label"]
    return f"{key.rsplit('.', 1)[-1] if key != 'config' else 'config'}={display(key, entry)}"


def points(spec):
    """Every run of the sweep: one dict per config point x workload x repetition."""
    product = [(k, list(enumerate(v))) for k, v in spec["product"]]
    # Each zip group's rows (its lists varied together), then every row of one group with
    # every row of the others.
    groups = [list(zip(*[list(enumerate(v)) for _, v in group])) for group in spec["zips"]]
    zip_rows = [sum(rows, ()) for rows in itertools.product(*groups)]
    keys = [k for k, _ in product] + [k for group in spec["zips"] for k, _ in group]
    combos = [dict(zip(keys, prod + z)) for prod in itertools.product(*[v for _, v in product])
              for z in zip_rows]
    out = []
    for combo in combos:  # {key: (index in its axis, {"label", "value"})}
        config = combo["config"][1]["value"] if "config" in combo else spec["config"]
        overrides = [f"{k}={set_value(v)}" for k, v in spec["set"].items()]
        overrides += [f"{k}={set_value(e['value'])}" for k, (_, e) in combo.items()
                      if k != "config"]
        label = ", ".join(_in_label(k, e) for k, (_, e) in combo.items()) \
            or os.path.basename(config)
        params = {k: (os.path.basename(e["value"]) if k == "config" and e["label"] is None
                      else display(k, e)) for k, (_, e) in combo.items()}
        for w in spec["workloads"]:
            for rep, seed in enumerate(spec["seeds"]):
                source = with_seed(w["source"], seed) if w["kind"] == "workload" else w["source"]
                out.append({
                    "params": params,
                    "levels": {k: i for k, (i, _) in combo.items()},
                    "label": label,
                    "config": config,
                    "overrides": overrides,
                    "workload": w["name"],
                    "input_kind": w["kind"],
                    "input": source,
                    "args": spec["args"] + w["args"],
                    "repetition": rep,
                    "seed": seed,
                })
    return out
