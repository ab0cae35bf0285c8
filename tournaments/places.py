"""Tournament games are played at tables: what pages call a table's game, and which games a
referee's start page lists (`table_labels`, `refereed_games`; config.places shows them on
scoring's pages); what scoring's game services and API need to know of tables
(scoring.places). Who may write a table's game, and when: tournaments.policy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import django_filters
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from core.api.base import ID_BOUNDS
from core.errors import PermissionDenied
from core.models import Player
from core.roles import is_site_admin
from scoring.models import Game
from scoring.places import GamePlace
from scoring.policy import game_relations
from scoring.selectors import PlaceLabels
from tournaments.models import Session, StaffRole, Table
from tournaments.policy import check_session_open
from tournaments.roles import is_referee, table_of, tournament_id_of_game


class TournamentTables(GamePlace):
    """A tournament's tables: each holds one game (`Table.game`)."""

    kind = "table"
    stamp = (
        "table__session__tournament_id",
        "table__session__tournament__status",
        "table__session__tournament__slug",
        "table__session__number",
        "table__number",
    )
    one_game_per_place = True

    def owns(self, game: Game) -> bool:
        if Game.table.is_cached(game):
            return table_of(game) is not None
        return tournament_id_of_game(game) is not None  # one query, remembered for the request

    def claims(self, place: Any) -> bool:
        return isinstance(place, Table)

    def places(self) -> QuerySet[Table]:
        return Table.objects.all()

    def check_create(self, actor: Any, place: Any, players: Sequence[Player]) -> None:
        if not is_referee(actor, place.session.tournament_id):
            raise PermissionDenied("You may not create a game here.")

    def check_place_open(self, actor: Any, place: Any) -> None:
        check_session_open(place.session, started=True)

    def place_taken(self, place: Any) -> bool:
        return Table.objects.filter(pk=place.pk, game__isnull=False).exists()

    def seated_game(self, place: Any) -> Game | None:
        return Game.objects.filter(table=place).first()

    def check_fill(self, actor: Any, place: Any) -> None:
        if not is_referee(actor, place.session.tournament_id):
            raise PermissionDenied("Only the tournament's referees may import its games.")

    def attach(self, game: Game, place: Any) -> None:
        place.game = game
        place.save(update_fields=["game"])

    def fields(self, game: Game) -> dict[str, Any]:
        table = table_of(game)
        if table is None:
            return super().fields(game)
        session = table.session
        return {
            "tournament": session.tournament.slug,
            "session": session.number,
            "table": table.pk,
            "table_number": table.number,
            "club_night": None,
        }

    def filters(self) -> dict[str, Any]:
        return {
            "tournament": django_filters.CharFilter(field_name="table__session__tournament__slug"),
            "session": django_filters.NumberFilter(field_name="table__session_id", **ID_BOUNDS),
        }


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
