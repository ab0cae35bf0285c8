"""Reading standings.

`public_standings` is the one selector every public surface reads (web page, projector, CSV,
API, player pages, ranking preview): the whole table, or while results are hidden (issue
32.3) the table as it stood before the first hidden session. Team standings and cuts build on
its rows, so they hide what it hides.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import F, Q, QuerySet
from django.db.models.functions import Coalesce

from core.models import Player
from tournaments.models import Penalty, Session, StandingRow, Tournament

from . import cache as standings_cache
from .asof import hidden_from
from .services import compute_standings


def standings_queryset(tournament: Tournament | int) -> QuerySet[StandingRow]:
    """Ranked players by rank, then unranked ones (substitutes) by total."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return (
        StandingRow.objects.filter(tournament_id=tournament_id)
        .select_related("player")
        .order_by(
            F("rank").asc(nulls_last=True),
            "-total",
            "player__last_name",
            "player__first_name",
            "player_id",
        )
    )


def standings_for(tournament: Tournament | int) -> list[StandingRow]:
    """Every row as it stands now, hidden sessions included: the organisers' and the
    seating's (Swiss) table. Public surfaces read `public_standings`."""
    return list(standings_queryset(tournament))


def session_numbers(rows: list[StandingRow]) -> list[int]:
    """The session numbers that appear in any row (the per-session columns)."""
    return sorted({int(e["session"]) for row in rows for e in row.per_session})


@dataclass(frozen=True)
class PublicStandings:
    """The standings as the public may see them: `rows` in standings order; `hidden_from`
    the first session left out (None: nothing is hidden)."""

    rows: list[StandingRow]
    hidden_from: int | None

    @property
    def hidden(self) -> bool:
        return self.hidden_from is not None


def public_standings(tournament: Tournament) -> PublicStandings:
    """The standings every public surface shows (issue 32.3): while the results from session
    k on are hidden, the table as it stood before session k (kept in the cache per standings
    version, as the other answers); otherwise the stored rows."""
    before = hidden_from(tournament)
    if before is None:
        return PublicStandings(standings_for(tournament), None)
    rows = standings_cache.cached(
        tournament, "as-of-rows", lambda: standings_before(tournament, before)
    )
    return PublicStandings(rows, before)


def hidden_penalty_filter(tournament: Tournament, session: int) -> Q:
    """The tournament penalties hidden from session `session` on (issue 32.3): those of that
    session or a later one, and those of no session given once it started."""
    started = (
        Session.objects.filter(tournament=tournament, number=session)
        .values_list("started_at", flat=True)
        .first()
    )
    when = Q(session__number__gte=session)
    if started is not None:
        when |= Q(session__isnull=True, created_at__gte=started)
    return when


def public_penalties(tournament: Tournament, *, staff: bool) -> QuerySet[Penalty]:
    """The penalties list as the reader may see it: while results are hidden, the public's
    lacks those given from the hidden session on (their points are hidden figures)."""
    rows = tournament.penalties.select_related("player", "session")
    before = hidden_from(tournament)
    if before is None or staff:
        return rows
    return rows.exclude(hidden_penalty_filter(tournament, before))


def _as_of_time(tournament: Tournament, session: int) -> datetime.datetime:
    """What the rows before `session` say they were computed at: the start of that session,
    else the close of the one before, else the tournament's creation (a fixed time, never one
    that moves with the hidden results)."""
    times = dict(
        Session.objects.filter(
            tournament=tournament, number__in=(session - 1, session)
        ).values_list("number", Coalesce("started_at", "closed_at"))
    )
    return times.get(session) or times.get(session - 1) or tournament.created_at


def standings_before(tournament: Tournament, session: int) -> list[StandingRow]:
    """The rows as they stood before `session` (unsaved, in standings order): the full
    rebuild's arithmetic (`services.compute_standings`: tie-breaks, substitutes, cuts) on the
    games of the earlier sessions and the penalties given before (`hidden_penalty_filter`)."""
    rows = compute_standings(
        tournament,
        before_session=session,
        hidden_penalties=hidden_penalty_filter(tournament, session),
    )
    players = Player.objects.in_bulk([r.player_id for r in rows])
    as_of = _as_of_time(tournament, session)
    for row in rows:
        row.player = players[row.player_id]
        # When the row was computed would tell a hidden game's end.
        row.computed_at = as_of
    rows.sort(
        key=lambda r: (
            r.rank is None,
            r.rank or 0,
            -r.total,
            r.player.last_name,
            r.player.first_name,
            r.player_id,
        )
    )
    return rows
