"""README's command lines run as printed from a checkout with nothing set in the environment
(issue 14.8: `manage.py seating_plan` used to stop on a missing SECRET_KEY).

The lines that need no database run here; those after `make demo` need the demo database and
are run by hand from a fresh clone (they write files into the working directory).
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ".venv/bin/python"


def readme_command_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines: list[str] = []
    in_block = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```sh"
            continue
        if in_block and line.strip():
            lines.append(" ".join(shlex.split(line, comments=True)))
    return lines


def without_database(line: str) -> bool:
    return line.startswith(f"{VENV_PYTHON} -m scoring ") or line.startswith(
        f"{VENV_PYTHON} manage.py seating_plan "
    )


COMMANDS = [line for line in readme_command_lines() if without_database(line)]


def test_readme_lists_the_command_lines_this_test_runs() -> None:
    assert len(COMMANDS) >= 4, COMMANDS


@pytest.mark.parametrize("line", COMMANDS)
def test_readme_command_runs_as_printed_with_an_empty_environment(line: str) -> None:
    argv = shlex.split(line)
    if not (ROOT / VENV_PYTHON).exists():  # a checkout tested with another interpreter
        argv[0] = sys.executable
    result = subprocess.run(
        argv,
        cwd=ROOT,
        env={"PATH": "/usr/local/bin:/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.strip()


def written_paths(line: str) -> list[str]:
    """What a README command line writes into the checkout: its `--output` and any SQLite
    database its DATABASE_URL names."""
    argv = shlex.split(line)
    paths = [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--output"]
    paths += [
        arg.split("=", 1)[1].removeprefix("sqlite:///")
        for arg in argv
        if arg.startswith("DATABASE_URL=sqlite:///")
    ]
    return [p for p in paths if p != "-"]


def test_readme_lists_the_files_its_lines_write() -> None:
    written = [p for line in readme_command_lines() for p in written_paths(line)]
    # export_ema, export_games, export_tournament, the restored database (issue 37)
    assert len(written) >= 4, written


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
@pytest.mark.parametrize(
    "path", sorted({p for line in readme_command_lines() for p in written_paths(line)})
)
def test_what_readme_lines_write_is_ignored_by_git(path: str) -> None:
    """Issue 37: running README's lines leaves nothing for `git status` to show."""
    probe = path.rstrip("/") + "/x.json" if path.endswith("/") else path
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", probe], cwd=ROOT, capture_output=True
    )
    assert result.returncode == 0, f"{path} (from README) is not in .gitignore"
