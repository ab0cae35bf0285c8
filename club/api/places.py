"""Club nights in scoring's game API (scoring.api.places; composed with tournament tables in
config.game_places): the `club_night` of a created or imported game (with the club's house
rules), what a game's answer says of its night, the list's filters by night and club."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import django_filters
from django.db.models import QuerySet

from club.models import ClubNight
from club.places import NightPlace
from club.policy import night_id_of
from core.api.base import ID_BOUNDS
from scoring.models import Game

# What the answer shows of a night changes with this (a path from Game).
STAMP = ("club_game__night_id",)


def rows() -> QuerySet[ClubNight]:
    return ClubNight.objects.all()


def place(night: ClubNight) -> NightPlace:
    return NightPlace(night)


def house_rules(night: ClubNight) -> tuple[str, Mapping[str, Any] | None]:
    return night.club.ruleset, night.club.rule_overrides


def fields(game: Game) -> dict[str, Any] | None:
    """A club game's place fields (None: not a club game)."""
    night_id = night_id_of(game)
    if night_id is None:
        return None
    return {
        "tournament": None,
        "session": None,
        "table": None,
        "table_number": None,
        "club_night": night_id,
    }


def filters() -> dict[str, Any]:
    return {
        "club_night": django_filters.NumberFilter(field_name="club_game__night_id", **ID_BOUNDS),
        "club": django_filters.CharFilter(field_name="club_game__night__club__slug"),
    }
