"""Club games follow the club's rules: scoring asks through scoring.policy (issue 14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import django_filters
from django.db.models import Q, QuerySet
from django.utils import formats
from django.utils.translation import gettext as _

from club.models import Club, ClubGame, ClubNight, Membership
from club.roles import is_club_admin
from core.api.base import ID_BOUNDS
from core.errors import PermissionDenied
from core.models import Player
from core.players import PlayerPolicy
from core.roles import player_of, remembered
from scoring.models import Game
from scoring.policy import GamePolicy, PlaceLabels, game_relations


def night_id_of(game: Game) -> int | None:
    """The id of the club night `game` is played at (None: not a club game). The night owns
    the link (`ClubGame`, issue 14): read from the game's cache when it was loaded with it
    (scoring loads scoring.policy.game_relations()), else one query, remembered for the
    request."""
    if Game.club_game.is_cached(game):
        link = getattr(game, "club_game", None)
        return None if link is None else int(link.night_id)
    if game.pk is None:
        return None
    return remembered(
        ("game_club_night", game.pk),
        lambda: ClubGame.objects.filter(game_id=game.pk).values_list("night_id", flat=True).first(),
    )


def night_of(game: Game) -> ClubNight | None:
    """The club night `game` is played at, with its club (None: not a club game)."""
    night_id = night_id_of(game)
    if night_id is None:
        return None
    link = getattr(game, "club_game", None) if Game.club_game.is_cached(game) else None
    if link is not None and ClubGame.night.is_cached(link) and ClubNight.club.is_cached(link.night):
        return link.night
    return ClubNight.objects.select_related("club").get(pk=night_id)


def _club(game: Game) -> Club | None:
    night = night_of(game)
    return None if night is None else night.club


class ClubGamePolicy(GamePolicy):
    """A casual game at a club night: club admins enter it, and so do the players seated at
    it, whose hands then wait for the others' confirmation (club play without a referee).
    Its place is a `ClubNight`."""

    relations = ("club_game__night__club",)

    def owns(self, game: Game) -> bool:
        return night_id_of(game) is not None

    stamp = ("club_game__night_id",)

    def visible(self, user: Any) -> Q:
        """Club games are public."""
        return Q(club_game__isnull=False)

    def home_games(self, user: Any) -> dict[str, list[Game]]:
        """Club games where the user sits: running, or with hands waiting for confirmation."""
        me = player_of(user)
        if me is None:
            return {"club_games": []}
        return {
            "club_games": list(
                Game.objects.filter(club_game__isnull=False, seats__player=me)
                .filter(Q(status=Game.Status.IN_PROGRESS) | Q(confirmed=False))
                .select_related(*game_relations())  # what place_labels reads
                .prefetch_related("seats__player")
                .order_by("-club_game__night__date", "pk")
                .distinct()
            )
        }

    def place(self, game: Game) -> dict[str, Any]:
        return {**super().place(game), "club_night": night_id_of(game)}

    def labels(self, game: Game) -> PlaceLabels:
        night = night_of(game)
        if night is None:
            return super().labels(game)
        detail = [formats.localize(night.date), game.ruleset]
        if not game.confirmed:
            detail.append(_("hands to confirm"))
        return PlaceLabels(heading=str(night), line=night.club.name, detail=" · ".join(detail))

    def api_filters(self) -> dict[str, Any]:
        return {
            "club_night": django_filters.NumberFilter(
                field_name="club_game__night_id", **ID_BOUNDS
            ),
            "club": django_filters.CharFilter(field_name="club_game__night__club__slug"),
        }

    place_kind = "club_night"

    def places(self) -> QuerySet[ClubNight]:
        return ClubNight.objects.all()

    def claims(self, place: Any) -> bool:
        return isinstance(place, ClubNight)

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

    def may_edit(self, user: Any, game: Game) -> bool:
        club = _club(game)
        if club is not None and is_club_admin(user, club.pk):
            return True
        # Casual club games are entered by the players at the table.
        return game.seats.filter(player__user_id=user.pk).exists()

    def scope(self, game: Game) -> tuple[int | None, int | None]:
        night = night_of(game)
        return None, None if night is None else night.club_id

    def entry_waits(self, actor: Any, game: Game) -> bool:
        club = _club(game)
        return club is not None and actor is not None and not is_club_admin(actor, club)

    def confirmations_needed(self, game: Game) -> int:
        club = _club(game)
        if club is None:
            return 0
        others = game.seats.count() - 1
        return others if club.confirmations == club.Confirmations.ALL else 1


class ClubPlayerPolicy(PlayerPolicy):
    """Any club admin creates players (core.players)."""

    def may_create_players(self, user: Any) -> bool:
        return bool(
            getattr(user, "is_authenticated", False)
            and Membership.objects.filter(
                player__user_id=user.pk, role=Membership.Role.ADMIN
            ).exists()
        )
