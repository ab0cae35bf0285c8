"""Club games follow the club's rules: scoring asks through scoring.policy (issue 14); where
they are played, club.places."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from club.models import Club, ClubGame, ClubNight, Membership
from club.roles import is_club_admin
from core.players import PlayerPolicy
from core.roles import remembered
from scoring.models import Game
from scoring.policy import GamePolicy, OnTime, Owner


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


def club_of(game: Game) -> Club | None:
    night = night_of(game)
    return None if night is None else night.club


class ClubGamePolicy(GamePolicy):
    """A casual game at a club night: club admins enter it, and so do the players seated at
    it, whose hands then wait for the others' confirmation (club play without a referee)."""

    relations = ("club_game__night__club",)

    def owner(self, game: Game) -> Owner | None:
        night_id = night_id_of(game)
        if night_id is None:
            return None
        link = getattr(game, "club_game", None) if Game.club_game.is_cached(game) else None
        if link is not None and ClubGame.night.is_cached(link):
            return Owner(club_id=link.night.club_id)
        # A night never moves to another club: safe to remember for the request.
        return Owner(
            club_id=remembered(
                ("night_club", night_id),
                lambda: (
                    ClubNight.objects.filter(pk=night_id).values_list("club_id", flat=True).get()
                ),
            )
        )

    def visible(self, user: Any) -> Q:
        """Club games are public."""
        return Q(club_game__isnull=False)

    def may_edit(self, user: Any, game: Game) -> bool:
        club = club_of(game)
        if club is not None and is_club_admin(user, club.pk):
            return True
        # Casual club games are entered by the players at the table.
        return game.seats.filter(player__user_id=user.pk).exists()

    def check_open(
        self, actor: Any, game: Game, *, started: bool = True, on_time: bool = False
    ) -> OnTime:
        # Club nights have no sessions: never locked, no time signal; the players stop when they
        # like, so the entry page offers a plain "Finalize the game" (issue 33).
        return OnTime(session=False)

    def entry_waits(self, actor: Any, game: Game) -> int:
        club = club_of(game)
        if club is None or actor is None or is_club_admin(actor, club):
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
