"""Tournament games are played at tables (`Table.game`): the table as scoring's game services
are passed it (`TablePlace`), what pages call a table's game and which games a referee's start
page lists (`table_labels`, `offers_reopen`, `refereed_games`: config.places shows them on
scoring's pages). The game API's view of tables: tournaments.api.places. Who may write a
table's game, and when: tournaments.policy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from core.errors import PermissionDenied
from core.models import Player
from core.roles import is_site_admin
from scoring.models import Game
from scoring.policy import game_relations
from scoring.selectors import PlaceLabels
from tournaments.models import Session, StaffRole, Table
from tournaments.policy import check_session_open
from tournaments.roles import is_referee, table_of


@dataclass(frozen=True)
class TablePlace:
    """A tournament table as scoring's game services are passed it (scoring.services.games
    .Place): it holds one game, which its tournament's referees create or import while its
    session is open; the table holds the link (`Table.game`)."""

    table: Table

    @property
    def pk(self) -> int:
        return int(self.table.pk)

    @property
    def one_game(self) -> bool:
        return True

    def check_create(self, actor: Any, players: Sequence[Player]) -> None:
        if not is_referee(actor, self.table.session.tournament_id):
            raise PermissionDenied("You may not create a game here.")

    def check_open(self, actor: Any) -> None:
        check_session_open(self.table.session, started=True)

    def taken(self) -> bool:
        return Table.objects.filter(pk=self.table.pk, game__isnull=False).exists()

    def seated_game(self) -> Game | None:
        return Game.objects.filter(table=self.table).first()

    def check_fill(self, actor: Any) -> None:
        if not is_referee(actor, self.table.session.tournament_id):
            raise PermissionDenied("Only the tournament's referees may import its games.")

    def attach(self, game: Game) -> None:
        self.table.game = game
        self.table.save(update_fields=["game"])


def table_labels(game: Game) -> PlaceLabels | None:
    """What pages call the table `game` is played at (None: not a table's game). Read with
    the policy's relations (scoring loads them with the game): no query."""
    table = table_of(game)
    if table is None:
        return None
    session = table.session
    title = _("Table %(number)s") % {"number": table.number}
    where = _("Session %(s)s, table %(t)s") % {"s": session.number, "t": table.number}
    return PlaceLabels(
        title=title,
        heading=f"{session.tournament.name} · {where}",
        line=title,
        detail=f"{session.tournament.name} · "
        + _("Session %(number)s") % {"number": session.number},
    )


def offers_reopen(game: Game) -> bool:
    """A finished table's game may be reopened from its entry page (by its referees)."""
    return table_of(game) is not None


def refereed_games(user: Any) -> list[Game]:
    """The referee start page's tables: in-progress games of the running sessions of the
    tournaments where the user referees (issue 15: tables of sessions not started or closed
    take no scores)."""
    games = Game.objects.filter(
        status=Game.Status.IN_PROGRESS,
        table__isnull=False,
        table__session__status=Session.Status.RUNNING,
    )
    if not is_site_admin(user):
        tournament_ids = StaffRole.objects.filter(user_id=user.pk).values_list(
            "tournament_id", flat=True
        )
        games = games.filter(table__session__tournament_id__in=list(tournament_ids))
    return list(
        games.select_related(*game_relations())  # what table_labels reads
        .prefetch_related("seats__player")
        .order_by("table__session__tournament__name", "table__session__number", "table__number")
    )
