"""README.md's layout table is true to the tree: every folder it lists exists and every tracked
top-level folder is listed (itself or a folder under it); every file it names (a backquoted
name with an extension) is tracked, or is an output a run writes; every class it names (a
backquoted CamelCase word) is declared in its row's folders, or is a source file's name there.
Run with: python3 -m pytest tools/test_readme_layout.py"""

import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).parent.parent
TICKS = re.compile(r"`([^`]+)`")
FILE = re.compile(r"^[\w.-]+\.(?:json|py|sh|cmake|in|toml|md|h|cpp|yaml)$")
CLASS = re.compile(r"^[A-Z][a-z]+(?:[A-Z][a-z]*)+$|^[A-Z][a-z]{3,}$")


def rows():
    """(folders, description) of each row of the table under '## Layout'."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        out.append((TICKS.findall(cells[0]), cells[1]))
    assert out, "README.md: no layout table under '## Layout'"
    return out


def tracked():
    return subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.split()


def test_every_folder_listed_exists_and_every_top_folder_is_listed():
    listed = {f.rstrip("/") for folders, _ in rows() for f in folders}
    for folder in listed:
        assert (ROOT / folder).is_dir(), f"README.md layout: {folder}/ does not exist"
    top = {p.split("/")[0] for p in tracked() if "/" in p and not p.startswith(".")}
    missing = {t for t in top if not any(f == t or f.startswith(t + "/") for f in listed)}
    assert not missing, f"README.md layout: not listed: {sorted(missing)}"


def test_files_and_classes_named_are_in_their_rows_folders():
    files = tracked()
    anywhere = {pathlib.PurePosixPath(p).name for p in files}
    outputs = (ROOT / "tb" / "run" / "OutputSet.h").read_text()
    wrong = []
    for folders, text in rows():
        mine = [p for p in files if any(p.startswith(f.rstrip("/") + "/") for f in folders)]
        stems = {pathlib.PurePosixPath(p).stem for p in mine}
        sources = "\n".join((ROOT / p).read_text(errors="replace") for p in mine
                            if p.endswith(".h"))
        for word in TICKS.findall(text):
            if FILE.match(word) and word not in anywhere and f'"{word}"' not in outputs:
                wrong.append(f"{folders[0]}: no file {word}")
            elif CLASS.match(word) and word not in stems and not re.search(
                    rf"\b(?:class|struct)\s+(?:\w+\s+)?{word}\b", sources):
                wrong.append(f"{folders[0]}: no class or source {word}")
    assert not wrong, "README.md layout: " + "; ".join(wrong)
