"""The shipped TPC-C-like trace is what tools/gen_tpcc_like.py writes with its defaults."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def test_shipped_trace_matches_the_generator(tmp_path):
    made = tmp_path / "tpcc_like.msr.csv"
    subprocess.run([sys.executable, os.path.join(HERE, "gen_tpcc_like.py"), str(made)],
                   check=True)
    with open(os.path.join(HERE, "..", "traces", "tpcc_like.msr.csv"), "rb") as kept:
        assert made.read_bytes() == kept.read()


def test_repeat_continues_in_time(tmp_path):
    made = tmp_path / "t.csv"
    subprocess.run([sys.executable, os.path.join(HERE, "gen_tpcc_like.py"), str(made),
                    "--count", "50", "--repeat", "3"], check=True)
    rows = [line.split(",") for line in made.read_text().splitlines()]
    assert len(rows) == 150
    times = [int(r[0]) for r in rows]
    assert times == sorted(times) and times[50] > times[49]
    assert [r[1:] for r in rows[:50]] == [r[1:] for r in rows[100:]]
