"""docs/report.md's example report.json has every object of a real one, in the same order.

The example is `make run`'s report; a field added to the report without the example (or the
other way round) fails here. Values are not compared: they change with the model."""
import json
import os
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def shape(value, path="report"):
    """The keys of every object, in order, as 'path: key, key, ...' lines."""
    lines = []
    if isinstance(value, dict):
        lines.append(f"{path}: {', '.join(value)}")
        for key, inner in value.items():
            lines += shape(inner, f"{path}.{key}")
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        lines += shape(value[0], f"{path}[0]")
    return lines


def test_example_has_the_real_reports_shape(tmp_path):
    binary = os.environ.get("SSDTLM_BINARY", str(ROOT / "build" / "ssdtlm"))
    assert os.access(binary, os.X_OK), f"{binary}: no simulator (build it, or set SSDTLM_BINARY)"
    # As make run on a machine that has run it before: the aged drive from the state cache
    # (a cache of its own, so the shape does not depend on this machine's).
    for _ in range(2):
        subprocess.run([binary, "--config", str(ROOT / "configs/default.json"), "--trace",
                        str(ROOT / "traces/umass_financial1.head10k.spc"), "--format", "spc",
                        "--max-requests", "300", "--precondition", "--state-cache",
                        str(tmp_path / "cache"), "--quiet", "--out", str(tmp_path / "out")],
                       check=True, stdout=subprocess.DEVNULL)
    real = json.loads((tmp_path / "out" / "report.json").read_text())
    assert real["provenance"]["aged_drive"]["from"] == "cache"
    doc = (ROOT / "docs" / "report.md").read_text()
    example = json.loads(re.search(r"```json\n(.*?)\n```", doc, re.S).group(1))
    assert shape(example) == shape(real)
