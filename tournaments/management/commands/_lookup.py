"""Finding the tournament a management command names (slug or id)."""

from __future__ import annotations

from django.core.management.base import CommandError

from tournaments.models import Tournament


def tournament_named(value: str) -> Tournament:
    found = Tournament.objects.filter(slug=value).first()
    if found is None and value.isdigit():
        found = Tournament.objects.filter(pk=int(value)).first()
    if found is None:
        raise CommandError(f"no tournament with slug or id {value!r}")
    return found
