#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def _verbosity(argv: list[str]) -> int:
    """The -v/--verbosity a command line asks for (Django's forms: -v 2, -v2, --verbosity=2)."""
    for i, arg in enumerate(argv):
        value = None
        if arg in ("-v", "--verbosity") and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--verbosity="):
            value = arg.split("=", 1)[1]
        elif arg.startswith("-v") and arg[2:].isdigit():
            value = arg[2:]
        if value is not None and value.isdigit():
            return int(value)
    return 1


def main() -> None:
    if sys.argv[1:2] == ["seating_swiss"]:
        # Pure computation for scripts (issue 17): runs without Django settings, so a fresh
        # clone with nothing set in the environment can serve it.
        from tournaments.seating.cli import main as seating_swiss

        sys.exit(seating_swiss(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if _verbosity(sys.argv) >= 2:
        # Libraries' start-up and task lines, quiet by default (config/settings.py LOGGING),
        # are logged before the command parses its options: ask for them here.
        os.environ.setdefault("LOG_LIBRARIES", "INFO")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
