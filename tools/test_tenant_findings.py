"""The findings of a sweep per tenant: each flow's figures (a workload file's jobs) and each
namespace's (its data's WAF and flash energy) among the headline ones, from real runs of the
simulator on two points.
Run with: python3 -m pytest tools/test_tenant_findings.py (SSDTLM_BINARY names the simulator,
default build/ssdtlm)."""
import json
import os
import pathlib
import subprocess

import pandas as pd

from ssdtlm_tools import findings, table

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))
CONFIG = str(ROOT / "configs" / "case_4x4.json")


def runs(tmp_path, jobs, config, points):
    """A table of one run per point (label, [--set overrides]) of the workload file `jobs`."""
    (tmp_path / "w.json").write_text(json.dumps(jobs))
    rows = []
    for label, sets in points:
        out = tmp_path / label.replace(" ", "_")
        args = [a for s in sets for a in ("--set", s)]
        subprocess.run([BINARY, "--config", config, "--workload-file", str(tmp_path / "w.json"),
                        *args, "--reproducible", "--quiet", "--no-series", "--out", str(out)],
                       check=True)
        rows.append({"sweep.key": label, "sweep.label": label, "sweep.workload": "tenants",
                     "sweep.repetition": 0, "sweep.ok": True,
                     **table.report_columns(json.loads((out / "report.json").read_text()))})
    return pd.DataFrame(rows)


def test_flows_become_columns_by_name(tmp_path):
    """A workload file's jobs are flows: each gets its own columns, keyed by the job's name,
    so a sweep can plot one tenant's p99.9 against its neighbour's load."""
    jobs = {"jobs": [{"name": "reader", "rw": "randread", "bs": "4k", "qd": 1, "count": 50},
                     {"name": "writer", "rw": "randwrite", "bs": "4k", "qd": 64, "count": 500}]}
    (tmp_path / "w.json").write_text(json.dumps(jobs))
    subprocess.run([BINARY, "--config", CONFIG, "--workload-file", str(tmp_path / "w.json"),
                    "--quiet", "--no-series", "--out", str(tmp_path / "out")], check=True)
    flat = table.flatten(json.loads((tmp_path / "out" / "report.json").read_text()))
    assert flat["flows.reader.latency_us.read.count"] == 50
    assert flat["flows.writer.latency_us.write.count"] == 500
    assert flat["flows.reader.latency_us.read.p999"] > 0
    assert flat["flows.writer.queue"] == 0


def test_findings_of_each_flow(tmp_path):
    """A workload of two flows gets each flow's rows (its IOPS, and the mean and p99 latency of
    the ops it issued) beside the drive's, best and worst by the flow's own figure; a flow that
    issued no writes has no write rows; a one-flow workload gets none."""
    jobs = {"jobs": [{"name": "reader", "rw": "randread", "bs": "4k", "qd": 1, "count": 200},
                     {"name": "writer", "rw": "randwrite", "bs": "4k", "qd": 32,
                      "count": 2000}]}
    df = runs(tmp_path, jobs, CONFIG, [("no buffer", ["dram.write_buffer_mb=0"]),
                                       ("buffer", ["dram.write_buffer_mb=16"])])
    w = findings.compute(df)["workloads"][0]
    by = {r["id"]: r for r in w["rows"]}
    for f in ("reader", "writer"):
        assert f"flow.{f}.iops" in by
    assert {"flow.reader.read.mean", "flow.reader.read.p99", "flow.writer.write.mean",
            "flow.writer.write.p99"} <= set(by)
    assert not [i for i in by if i.startswith(("flow.reader.write", "flow.writer.read"))]
    p99 = by["flow.writer.write.p99"]
    values = {lab: df.loc[df["sweep.label"] == lab, "flows.writer.latency_us.write.p99"].item()
              for lab in ("no buffer", "buffer")}
    assert p99["field"] == "flows.writer.latency_us.write.p99"
    assert p99["best"]["value"] == min(values.values())
    assert p99["best"]["label"] == min(values, key=values.get)
    assert "writer write p99 latency" in findings.to_text(findings.compute(df))
    one = df[[c for c in df.columns if not c.startswith("flows.writer.")]]
    assert not [r for r in findings.compute(one)["workloads"][0]["rows"]
                if r["id"].startswith("flow.")]


def test_findings_of_each_namespace(tmp_path):
    """Two tenants in namespaces of their own, without and with a placement handle each: each
    namespace's WAF and flash energy are headline rows, best and worst by its own figure; the
    per-namespace WAF end to end is its WAF without a zone translation layer; one namespace gets
    no rows."""
    jobs = {"jobs": [{"name": "churn", "namespace": "db", "rw": "randwrite", "bs": "4k",
                      "qd": 8, "count": 3000},
                     {"name": "fill", "namespace": "logs", "rw": "write", "bs": "16k", "qd": 4,
                      "count": 300}]}
    spaces = [{"name": "db", "size_bytes": 8 << 20}, {"name": "logs", "size_bytes": 8 << 20}]
    handles = [dict(s, placement_handles=[i]) for i, s in enumerate(spaces)]
    df = runs(tmp_path, jobs, str(ROOT / "configs" / "small_gc.json"),
              [("shared", [f"namespaces={json.dumps(spaces)}"]),
               ("a handle each", [f"namespaces={json.dumps(handles)}", "ftl.fdp.enabled=true",
                                  "ftl.fdp.handles=2"])])
    w = findings.compute(df)["workloads"][0]
    by = {r["id"]: r for r in w["rows"]}
    assert {"ns.db.waf", "ns.db.energy", "ns.logs.waf", "ns.logs.energy"} <= set(by)
    for n in ("db", "logs"):
        assert (df[f"namespaces.{n}.waf_end_to_end"] == df[f"namespaces.{n}.waf"]).all()
        energy = by[f"ns.{n}.energy"]
        values = dict(zip(df["sweep.label"], df[f"namespaces.{n}.flash_energy_j.total"]))
        assert energy["field"] == f"namespaces.{n}.flash_energy_j.total"
        assert energy["best"]["value"] == min(values.values()) > 0
        assert energy["worst"]["label"] == max(values, key=values.get)
    assert "namespace logs flash energy" in findings.to_text(findings.compute(df))
    one = df[[c for c in df.columns if not c.startswith("namespaces.logs.")]]
    assert not [r for r in findings.compute(one)["workloads"][0]["rows"]
                if r["id"].startswith("ns.")]
