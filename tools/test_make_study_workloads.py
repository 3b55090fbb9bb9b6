"""The shipped study stand-ins are what tools/make_study_workloads.py writes."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def test_shipped_files_match_the_generator(tmp_path):
    subprocess.run([sys.executable, os.path.join(HERE, "make_study_workloads.py"), str(tmp_path)],
                   check=True)
    shipped = os.path.join(HERE, "..", "workloads", "study")
    names = sorted(os.listdir(tmp_path))
    assert names == sorted(os.listdir(shipped))
    for name in names:
        with open(tmp_path / name) as made, open(os.path.join(shipped, name)) as kept:
            assert made.read() == kept.read(), name
