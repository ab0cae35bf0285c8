"""Club nights in scoring's game API (scoring.api.places): the `club_night` of a created or
imported game (with the club's house rules), what a game's answer says of its night, the
list's filters by night and club."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import django_filters
from django.db.models import QuerySet

from club.models import ClubNight
from club.places import NightPlace
from club.policy import night_id_of
from core.api.base import ID_BOUNDS
from scoring.api.places import GamePlace
from scoring.models import Game


class ClubNights(GamePlace):
    """A club's nights: each holds the casual games played there (`ClubGame`)."""

    kind = "club_night"
    stamp = ("club_game__night_id",)

    def owns(self, game: Game) -> bool:
        return night_id_of(game) is not None

    def places(self) -> QuerySet[ClubNight]:
        return ClubNight.objects.all()

    def place(self, place: Any) -> NightPlace:
        return NightPlace(place)

    def house_rules(self, place: Any) -> tuple[str, Mapping[str, Any] | None]:
        return place.club.ruleset, place.club.rule_overrides

    def fields(self, game: Game) -> dict[str, Any]:
        return {**super().fields(game), "club_night": night_id_of(game)}

    def filters(self) -> dict[str, Any]:
        return {
            "club_night": django_filters.NumberFilter(
                field_name="club_game__night_id", **ID_BOUNDS
            ),
            "club": django_filters.CharFilter(field_name="club_game__night__club__slug"),
        }
