"""The code's rooms include each other one way only: no cycle between the C++ folders, none
between the modules of the Python package. Run with: python3 -m pytest tools/test_layout.py

A C++ room is a top-level folder with its subfolders (`model` with `model/flash`, `firmware`
with `firmware/ftl`, ...: a subfolder holds parts of its parent's blocks and uses its types),
except under `tb/`, whose folders (`tb/run`, `tb/trace`, `tb/host`, ...) are rooms of their
own. An edge is an `#include "path"` of a tracked source or header naming a file of another
room; a Python edge is a module of `tools/ssdtlm_tools` importing another, at any depth of
the file (an import inside a function hides a cycle, it does not remove it)."""

import ast
import graphlib
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).parent.parent
PACKAGE = ROOT / "tools" / "ssdtlm_tools"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def room(path: str) -> str:
    parts = pathlib.PurePosixPath(path).parts[:-1]
    if not parts:
        return "."
    return "/".join(parts[:2]) if parts[0] == "tb" and len(parts) > 1 else parts[0]


def cycles(edges: dict[str, dict[str, str]]) -> list[list[str]]:
    """A cycle of the graph, as its sorted nodes, or none (graphlib finds one at a time)."""
    try:
        graphlib.TopologicalSorter({v: set(targets) for v, targets in edges.items()}).prepare()
    except graphlib.CycleError as e:
        return [sorted(set(e.args[1]))]
    return []


def explain(edges: dict[str, dict[str, str]], component: list[str]) -> str:
    return "; ".join(edges[a][b] for a in component for b in component
                     if b in edges.get(a, {}))


def cpp_edges() -> dict[str, dict[str, str]]:
    files = subprocess.run(["git", "ls-files", "*.h", "*.cpp"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    assert files, "no tracked C++ files: run from a git checkout"
    edges: dict[str, dict[str, str]] = {}
    for f in files:
        for included in INCLUDE.findall((ROOT / f).read_text(errors="replace")):
            if not (ROOT / included).is_file():
                continue  # a system or library header, or relative to the file
            a, b = room(f), room(included)
            if a != b:
                edges.setdefault(a, {}).setdefault(b, f"{f} includes {included}")
    return edges


def python_edges() -> dict[str, dict[str, str]]:
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    edges: dict[str, dict[str, str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module == PACKAGE.name:
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[1] for a in node.names
                         if a.name.startswith(PACKAGE.name + ".")]
            for name in names:
                if name in modules and name != path.stem:
                    edges.setdefault(path.stem, {}).setdefault(
                        name, f"{path.name}:{node.lineno} imports {name}")
    return edges


def test_the_rules_see_a_cycle():
    edges = {"a": {"b": "a->b"}, "b": {"c": "b->c"}, "c": {"a": "c->a"}, "d": {"a": "d->a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert room("tb/trace/TraceCli.cpp") == "tb/trace"
    assert room("model/flash/FlashChannel.h") == "model"
    assert room("firmware/ftl/Dftl.cpp") == "firmware"


def test_no_include_cycle_between_the_cpp_rooms():
    edges = cpp_edges()
    assert "tb/run" in edges and "model" in edges.get("tb/run", {}), "the scan found no edges"
    found = cycles(edges)
    assert not found, "include cycles: " + " | ".join(explain(edges, c) for c in found)


def test_no_import_cycle_in_the_python_package():
    edges = python_edges()
    assert "cli" in edges, "the scan found no imports"
    found = cycles(edges)
    assert not found, "import cycles: " + " | ".join(explain(edges, c) for c in found)
