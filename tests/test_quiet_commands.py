"""Issue 37: commands print what the user asked for. No "AXES: BEGIN version ..." banner at
start, no Celery or kombu lines when tasks run in-process; a higher verbosity
(`-v 2`, or LOG_LIBRARIES=INFO) shows them again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from config.celery import app as celery_app
from tests.factories import ClubFactory

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = ("axes", "celery", "kombu")
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin"}  # as README's lines run: nothing set


def manage(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    python = ROOT / ".venv/bin/python"
    return subprocess.run(
        [str(python) if python.exists() else sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**ENV, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_command_prints_no_axes_banner() -> None:
    result = manage("check")
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout
    assert "AXES" not in result.stdout + result.stderr
    assert result.stderr == ""


@pytest.mark.parametrize("verbose", [["-v", "2"], ["--verbosity=3"]])
def test_the_banner_is_there_at_a_higher_verbosity(verbose: list[str]) -> None:
    result = manage("check", *verbose)
    assert result.returncode == 0, result.stderr
    assert "AXES: BEGIN version" in result.stderr


def test_the_banner_is_there_with_log_libraries() -> None:
    result = manage("check", env={"LOG_LIBRARIES": "INFO"})
    assert "AXES: BEGIN version" in result.stderr


@pytest.mark.django_db(transaction=True)  # the ratings task runs once the import commits
def test_import_games_logs_nothing_of_celery(caplog: Any) -> None:
    """What reaches the console handler: the libraries' records stop at their loggers."""
    # Tasks in-process, as after `make demo` (the conftest's fixture, also when CI configures
    # a broker: the app's setting, not Django's CELERY_TASK_ALWAYS_EAGER, says so).
    assert celery_app.conf.task_always_eager
    club = ClubFactory(slug="quiet-club")
    call_command("import_games", str(ROOT / "docs/examples/game.json"), "--club", club.slug)
    chatter = [
        f"{r.name}: {r.getMessage()}" for r in caplog.records if r.name.startswith(LIBRARIES)
    ]
    # Was: kombu's "No hostname was supplied", Celery's "Task club.ratings... succeeded".
    assert chatter == []


def test_runserver_says_it_watches_for_changes_once() -> None:
    """The autoreloader's line reached the console twice (Django's "django" handler, then
    the root's): its logger now has the console handler and stops there."""
    import logging

    reloader = logging.getLogger("django.utils.autoreload")
    consoles = [h for h in reloader.handlers if type(h) is logging.StreamHandler]  # not pytest's
    assert reloader.propagate is False and len(consoles) == 1
    assert reloader.isEnabledFor(logging.INFO)
