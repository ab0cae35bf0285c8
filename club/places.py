"""Club games are played at club nights: what pages call a night's game, and which club games
a player's start page lists (`night_labels`, `playing_club_games`; config.places shows them on
scoring's pages); what scoring's game services and API need to know of nights
(scoring.places). Who may write a club game, and when: club.policy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import django_filters
from django.db.models import Q, QuerySet
from django.utils import formats
from django.utils.translation import gettext as _

from club.models import ClubGame, ClubNight
from club.policy import night_id_of, night_of
from club.roles import is_club_admin
from core.api.base import ID_BOUNDS
from core.errors import PermissionDenied
from core.models import Player
from core.roles import player_of
from scoring.models import Game
from scoring.places import GamePlace
from scoring.policy import game_relations
from scoring.selectors import PlaceLabels


class ClubNights(GamePlace):
    """A club's nights: each holds the casual games played there (`ClubGame`)."""

    kind = "club_night"
    stamp = ("club_game__night_id",)

    def owns(self, game: Game) -> bool:
        return night_id_of(game) is not None

    def claims(self, place: Any) -> bool:
        return isinstance(place, ClubNight)

    def places(self) -> QuerySet[ClubNight]:
        return ClubNight.objects.all()

    def house_rules(self, place: Any) -> tuple[str, Mapping[str, Any] | None]:
        return place.club.ruleset, place.club.rule_overrides

    def check_create(self, actor: Any, place: Any, players: Sequence[Player]) -> None:
        """Club games count for ratings: a club organiser may create one for anyone; a member
        only for a table where they sit themselves (issue 19: nobody rates games for other
        people)."""
        me = player_of(actor)
        if is_club_admin(actor, place.club_id):
            return
        if me is None or not place.club.memberships.filter(player=me).exists():
            raise PermissionDenied("You may not create a game here: only members of this club may.")
        if me.pk not in {p.pk for p in players}:
            raise PermissionDenied(
                "You may not create or import a game for other players: only a club "
                "organiser may, or a player seated at that game."
            )

    def attach(self, game: Game, place: Any) -> None:
        ClubGame.objects.create(game=game, night=place)

    def fields(self, game: Game) -> dict[str, Any]:
        return {**super().fields(game), "club_night": night_id_of(game)}

    def filters(self) -> dict[str, Any]:
        return {
            "club_night": django_filters.NumberFilter(
                field_name="club_game__night_id", **ID_BOUNDS
            ),
            "club": django_filters.CharFilter(field_name="club_game__night__club__slug"),
        }


def night_labels(game: Game) -> PlaceLabels | None:
    """What pages call the club night `game` is played at (None: not a club game)."""
    night = night_of(game)
    if night is None:
        return None
    detail = [formats.localize(night.date), game.ruleset]
    if not game.confirmed:
        detail.append(_("hands to confirm"))
    return PlaceLabels(heading=str(night), line=night.club.name, detail=" · ".join(detail))


def playing_club_games(user: Any) -> list[Game]:
    """The start page's club games: where the user sits, running or with hands waiting for
    confirmation."""
    me = player_of(user)
    if me is None:
        return []
    return list(
        Game.objects.filter(club_game__isnull=False, seats__player=me)
        .filter(Q(status=Game.Status.IN_PROGRESS) | Q(confirmed=False))
        .select_related(*game_relations())  # what night_labels reads
        .prefetch_related("seats__player")
        .order_by("-club_game__night__date", "pk")
        .distinct()
    )
