"""Reads of tournaments shared by the web pages and the API: who may see what.

The one draft-visibility rule: a tournament in draft is visible to its staff (organisers and
referees of that tournament) and to site admins only; every other status is public, with its
sessions, seating, games, penalties and standings. Club games are public. The web pages
(`tournaments/views`) and the API (the tournament view sets) both read through these
functions, so the two cannot differ; games are read through scoring.selectors.visible_games,
which asks TournamentGamePolicy.visible (built on visible_tournaments here).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from core.errors import ValidationFailed
from core.roles import is_site_admin
from scoring.engine import load_ruleset
from tournaments import roles
from tournaments.models import Registration, Session, Tournament

HIDDEN = (Tournament.Status.DRAFT,)


def _staffed(user: Any) -> QuerySet[Tournament, Any]:
    return Tournament.objects.filter(staff__user_id=user.pk).values("pk")


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments `user` (maybe anonymous or None) may read."""
    tournaments = Tournament.objects.all()
    if is_site_admin(user):
        return tournaments
    public = ~Q(status__in=HIDDEN)
    if user is not None and user.is_authenticated:
        return tournaments.filter(public | Q(pk__in=_staffed(user)))
    return tournaments.filter(public)


def can_see_tournament(user: Any, tournament: Tournament) -> bool:
    """The rule of `visible_tournaments` for one tournament already loaded."""
    return may_see(user, tournament.pk, tournament.status)


def may_see(user: Any, tournament_id: int, status: str) -> bool:
    """The rule of `visible_tournaments` from a tournament's id and status alone."""
    # Staff = organisers and referees (roles.is_referee counts both, and site admins).
    return status not in HIDDEN or roles.is_referee(user, tournament_id)


# ---------------------------------------------------------------- sessions

# The API's wording (its answers are English); the console passes its own, translated text.
NO_SUCH_SESSION = "No session with this number."


def session_by_number(
    tournament: Tournament, number: int, *, missing: str = NO_SUCH_SESSION
) -> Session:
    """The tournament's session `number`, as a request's `session` field names it; else that
    field's error (a 400 on the API, the field's error on a console form)."""
    session = Session.objects.filter(tournament=tournament, number=number).first()
    if session is None:
        raise ValidationFailed(missing, field="session")
    return session


def session_tables(session: Session) -> list[dict[str, Any]]:
    """The session's tables in order, each with its seats (and players) and its game: two
    queries however many tables (the console polled this with one query per table)."""
    rows: list[dict[str, Any]] = []
    tables = (
        session.tables.order_by("number")
        .select_related("game")
        .defer("game__summary")
        .prefetch_related("seats__player")
    )
    for table in tables:
        rows.append({"table": table, "seats": list(table.seats.all()), "game": table.game})
    return rows


def active_registrations(tournament: Tournament | int) -> list[Registration]:
    """Players still in the tournament, in a stable order (plans index into this list)."""
    tid = tournament if isinstance(tournament, int) else tournament.pk
    return list(
        Registration.objects.filter(tournament_id=tid, dropped_at__isnull=True)
        .select_related("player")
        .order_by("id")
    )


def table_size(tournament: Tournament) -> int:
    """Seats per table under the tournament's rules (3 for WDMC 2019 section 5)."""

    return load_ruleset(tournament.ruleset, tournament.rule_overrides or None).players
