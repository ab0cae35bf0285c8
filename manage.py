#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["seating_swiss"]:
        # Pure computation for scripts (issue 17): runs without Django settings, so a fresh
        # clone with nothing set in the environment can serve it.
        from tournaments.seating.cli import main as seating_swiss

        sys.exit(seating_swiss(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
