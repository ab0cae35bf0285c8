"""The seating_plan management command, run as the organiser would (a subprocess)."""

import json
import os
import subprocess
import sys
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBUG": "1"}
    return subprocess.run(
        [sys.executable, "manage.py", "seating_plan", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_json_plan() -> None:
    done = run("--players", "16", "--rounds", "5", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    rounds = json.loads(done.stdout)["rounds"]
    assert len(rounds) == 5
    pairs = [pair for rnd in rounds for t in rnd for pair in combinations(sorted(t), 2)]
    assert len(pairs) == len(set(pairs)) == 120
    quality = json.loads(done.stdout)["quality"]
    assert quality["extra_meetings"] == 0 and quality["wind_spread"] == 1
    assert quality["table_revisits"] >= quality["table_revisits_least"] == 16


def test_a_known_design_past_the_old_search() -> None:
    # Issue 34: 40x13 had 79 extra meetings; the resolvable 2-(40,4,1) design has none.
    done = run("--players", "40", "--rounds", "13", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "Extra meetings:            0 (least possible 0)" in done.stdout
    assert "Table revisits:" in done.stdout and "Wind spread least possible: 1" in done.stdout


def test_quality_report_and_refusal() -> None:
    done = run("--players", "40", "--rounds", "7", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert "Extra meetings:            0" in done.stdout
    refused = run("--players", "42", "--rounds", "7")
    assert refused.returncode != 0
    assert "add 2 substitutes (to 44)" in refused.stderr
