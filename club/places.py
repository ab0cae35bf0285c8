"""Club games are played at club nights (`ClubGame`): the night as scoring's game services are
passed it (`NightPlace`), what pages call a night's game and which club games a player's start
page lists (`night_labels`, `playing_club_games`: config.places shows them on scoring's
pages). The game API's view of nights: club.api.places. Who may write a club game, and when:
club.policy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import formats
from django.utils.translation import gettext as _

from club.models import ClubGame, ClubNight
from club.policy import night_of
from club.roles import is_club_admin
from core.errors import PermissionDenied
from core.models import Player
from core.roles import player_of
from scoring.models import Game
from scoring.policy import game_relations
from scoring.selectors import PlaceLabels


@dataclass(frozen=True)
class NightPlace:
    """A club night as scoring's game services are passed it (scoring.services.games.Place):
    it holds any number of casual games (`ClubGame`), created by its club's organisers or by a
    member for a table where they sit; it is never closed."""

    night: ClubNight

    @property
    def pk(self) -> int:
        return int(self.night.pk)

    @property
    def one_game(self) -> bool:
        return False

    def check_create(self, actor: Any, players: Sequence[Player]) -> None:
        """Club games count for ratings: a club organiser may create one for anyone; a member
        only for a table where they sit themselves (issue 19: nobody rates games for other
        people)."""
        me = player_of(actor)
        if is_club_admin(actor, self.night.club_id):
            return
        if me is None or not self.night.club.memberships.filter(player=me).exists():
            raise PermissionDenied("You may not create a game here: only members of this club may.")
        if me.pk not in {p.pk for p in players}:
            raise PermissionDenied(
                "You may not create or import a game for other players: only a club "
                "organiser may, or a player seated at that game."
            )

    def check_open(self, actor: Any) -> None:
        """A club night takes games at any time."""

    def taken(self) -> bool:
        return False

    def seated_game(self) -> Game | None:
        return None

    def check_fill(self, actor: Any) -> None:
        """No club night has seated games to fill."""

    def attach(self, game: Game) -> None:
        ClubGame.objects.create(game=game, night=self.night)


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
