"""One tidy table of a sweep: a row per run (point x workload x repetition), its parameters
(`param.<key>`), and every field of its report.json flattened to a dotted column name (with
`waf_end_to_end` the drive's `waf` where the report has none, and each namespace's
`namespaces.<name>.waf_end_to_end` its zone translation layer's or else its `waf`)."""
import json
import os

import pandas as pd

# The sweep's own columns, before the parameters and the report's fields (prefixed, as the
# report has a `workload` field of its own).
ID_COLUMNS = ["sweep.key", "sweep.label", "sweep.workload", "sweep.repetition", "sweep.seed",
              "sweep.ok", "sweep.wall_s"]


def flatten(obj, prefix="", out=None):
    """{"a": {"b": 1}, "c": [{"name": "x", "v": 2}]} -> {"a.b": 1, "c.x.v": 2}. Lists of
    objects that carry a `name` are keyed by it (channels, dies, rails), other lists of
    objects by index; lists of plain values (histogram buckets, argv) stay one JSON cell."""
    out = {} if out is None else out
    if isinstance(obj, dict):
        for k, v in obj.items():
            flatten(v, f"{prefix}{k}.", out)
    elif isinstance(obj, list) and obj and all(isinstance(x, dict) for x in obj):
        named = all("name" in x for x in obj) and len({x["name"] for x in obj}) == len(obj)
        for i, x in enumerate(obj):
            flatten(x, f"{prefix}{x['name'] if named else i}.", out)
    elif isinstance(obj, list):
        out[prefix[:-1]] = json.dumps(obj)
    else:
        out[prefix[:-1]] = obj
    return out


def report_columns(report):
    """A report.json's columns: flatten()'s, and the write amplification end to end of the
    drive and of each namespace (without a host zone translation layer nothing writes between
    the host's requests and the drive: its `waf` is the end-to-end one)."""
    row = flatten(report)
    row.setdefault("waf_end_to_end", row.get("waf"))
    for col in [c for c in row if c.startswith("namespaces.") and c.endswith(".waf")
                and c.count(".") == 2]:
        ns = col[:-len(".waf")]
        row[f"{ns}.waf_end_to_end"] = row.get(f"{ns}.zone_translation.waf_end_to_end", row[col])
    return row


def build(out_dir):
    """The table of the sweep in `out_dir` (sweep.json and points/)."""
    with open(os.path.join(out_dir, "sweep.json")) as f:
        manifest = json.load(f)
    rows = []
    for run in manifest["runs"]:
        row = {f"sweep.{k}": run[k] for k in ("key", "label", "workload", "repetition", "seed")}
        row.update({f"param.{k}": v for k, v in run["params"].items()})
        point = os.path.join(out_dir, "points", run["key"])
        report = os.path.join(point, "report.json")
        row["sweep.ok"] = os.path.exists(report)
        if row["sweep.ok"]:
            with open(os.path.join(point, "point.json")) as f:
                row["sweep.wall_s"] = json.load(f)["wall_s"]
        if row["sweep.ok"]:
            with open(report) as f:
                row.update(report_columns(json.load(f)))
        rows.append(row)
    df = pd.DataFrame(rows)
    first = [c for c in ID_COLUMNS if c in df.columns]  # no wall time when nothing finished
    first += sorted(c for c in df.columns if c.startswith("param."))
    return df[first + [c for c in df.columns if c not in first]]


def long(df):
    """The table in long form: one row per run and numeric figure, the run's `sweep.*` and
    `param.*` columns, then `field` (the dotted report.json name) and `value` (a float). Texts,
    flags and JSON cells stay in the wide table."""
    ids = [c for c in df.columns if c.startswith(("sweep.", "param."))]
    figures = [c for c in df.columns if c not in ids and pd.api.types.is_numeric_dtype(df[c])
               and not pd.api.types.is_bool_dtype(df[c])]
    out = df.melt(id_vars=ids, value_vars=figures, var_name="field", value_name="value")
    out = out.dropna(subset=["value"]).reset_index(drop=True)
    out["value"] = out["value"].astype(float)
    return out


def write(df, out_dir):
    """results.csv and results.parquet, and results_long.parquet (long()), each replaced
    whole."""
    for name, save in (("results.csv", lambda p: df.to_csv(p, index=False)),
                       ("results.parquet", lambda p: _parquet(df, p)),
                       ("results_long.parquet", lambda p: _parquet(long(df), p))):
        path = os.path.join(out_dir, name)
        tmp = f"{path}.{os.getpid()}.tmp"
        save(tmp)
        os.replace(tmp, path)


def _parquet(df, path):
    # A column whose values mix types (a parameter that is a number in one row and a string
    # in another, null and a number) is stored as text rather than rejected.
    fixed = df.copy()
    for c in fixed.columns:
        kinds = {type(v) for v in fixed[c] if v is not None and v == v}
        if len(kinds) > 1 and not kinds <= {int, float}:
            fixed[c] = fixed[c].map(lambda v: None if v is None else str(v))
    fixed.to_parquet(path, index=False, engine="pyarrow")
