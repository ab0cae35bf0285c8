"""The running half of the demo (issue 37): a tournament in the middle of its day and a club
night in progress, so a new user has something to enter at once.

- "Demo Spring Cup" (`demo-live`), today, 16 players, 3 sessions of 90 minutes: session 1
  played and closed (the standings come from it), session 2 running with its clock started
  (now): one table finished, three part-way through, a substitute in from the start (EMA 2025
  7.3) and a lateness penalty (EMA 2025 7.2); session 3 seated. The demo `referee` referees it.
- Tonight's club night of the demo club, two games in progress (one with the demo `player`).

Everything is written through the services, so the engine scores every hand and the audit log,
standings and ratings are real. Both parts are rebuilt by `seed_demo` when they are stale: the
tournament once its running session's time is up (or its session 2 no longer runs), the club
night once it is not tonight's. Otherwise a re-run leaves them (and what a user entered) alone.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from club.models import Club, ClubNight
from club.places import NightPlace
from club.services import create_club_night
from core.models import Player
from demo.play import play_game, play_hands
from scoring.models import Game
from scoring.services import create_game
from tournaments.clock import session_clock
from tournaments.models import Penalty, Session, Tournament
from tournaments.services import (
    add_penalty,
    add_staff,
    close_session,
    create_tournament,
    start_session,
    substitute_player,
)
from tournaments.services import register_player as register_for_tournament

LIVE_SLUG = "demo-live"
LIVE_NAME = "Demo Spring Cup"
LIVE_SESSIONS = 3
# Session 2's tables: hands entered so far (None: played to the end and finalized).
LIVE_TABLE_HANDS: tuple[int | None, ...] = (None, 6, 3, 2)
SUBSTITUTED_TABLE = 4  # a substitute sits in from the start (EMA 2025 7.3)
LATE_TABLE = 3  # a player of this table came late to session 2 (EMA 2025 7.2)
NIGHT_NOTES = "Demo: tonight's games (make demo starts a new night each day)."
NIGHT_HANDS = (5, 2)


def live_tournament_is_current(now: datetime.datetime | None = None) -> bool:
    """Whether `demo-live` exists with session 2 running and time left on its clock."""
    session = Session.objects.filter(tournament__slug=LIVE_SLUG, number=2).first()
    if session is None or session.status != Session.Status.RUNNING:
        return False
    return session_clock(session, now)["state"] not in ("time_up", "closed")


def remove_live_tournament() -> bool:
    """Delete a stale `demo-live` (its sessions, tables, games and penalties go with it);
    returns whether there was one. Demo data only: nothing else is touched."""
    deleted, _ = Tournament.objects.filter(slug=LIVE_SLUG).delete()
    return bool(deleted)


def build_live_tournament(
    *,
    players: list[Player],
    substitute: Player,
    users: dict[str, Any],
    clubs: dict[int, str],
    seat: Callable[[Tournament, list[Player], Any], list[Session]],
) -> Tournament:
    """Session 1 played, session 2 running part-way, session 3 seated (see the module)."""
    organiser, referee = users["organiser"], users["referee"]
    today = timezone.localdate()
    tournament = create_tournament(
        actor=organiser,
        name=LIVE_NAME,
        slug=LIVE_SLUG,
        ruleset="ema-2025",
        starts_on=today,
        ends_on=today,
        city="Berlin",
        country="DE",
        sessions_planned=LIVE_SESSIONS,
        session_minutes=90,
    )
    add_staff(actor=organiser, tournament=tournament, user=referee, role="referee")
    for player in players:
        register_for_tournament(
            actor=organiser,
            tournament=tournament,
            player=player,
            club_name=clubs.get(player.pk, ""),
        )
    first, running, _third = seat(tournament, players, organiser)
    rng = random.Random(20260501)

    start_session(actor=organiser, session=first)
    for table in first.tables.order_by("number"):
        play_game(Game.objects.get(table=table), rng, actor=referee)
    close_session(actor=organiser, session=first)

    start_session(actor=organiser, session=running)
    for table, hands in zip(running.tables.order_by("number"), LIVE_TABLE_HANDS, strict=True):
        game = Game.objects.get(table=table)
        if table.number == SUBSTITUTED_TABLE:
            game = substitute_player(
                actor=referee,
                game=game,
                seat=2,
                substitute=substitute,
                reason="Ill this morning; a substitute plays the session (EMA 2025 7.3).",
                from_="start",
            )
        if table.number == LATE_TABLE:
            late = game.seats.get(seat=1).player
            add_penalty(
                actor=referee,
                tournament=tournament,
                player=late,
                kind=Penalty.Kind.LATENESS,
                minutes_late=3,
                session=running,
                reason="Came to the table after the start signal.",
            )
        if hands is None:
            play_game(game, rng, actor=referee)
        else:
            play_hands(game, rng, actor=referee, count=hands)
    return tournament


def live_night(club: Club) -> ClubNight | None:
    return ClubNight.objects.filter(club=club, notes=NIGHT_NOTES).order_by("-date").first()


def remove_stale_nights(club: Club) -> bool:
    """Delete the demo's club nights of earlier days (their games go with them)."""
    today = timezone.localdate()
    stale = ClubNight.objects.filter(club=club, notes=NIGHT_NOTES).exclude(date=today)
    deleted, _ = stale.delete()
    return bool(deleted)


def build_live_night(*, club: Club, players: list[Player]) -> ClubNight:
    """Tonight's club night: two games in progress (the first with the demo `player`)."""
    today = timezone.localdate()
    league = club.leagues.filter(starts_on__lte=today).order_by("-starts_on").first()
    if league is not None and league.ends_on is not None and league.ends_on < today:
        league = None
    night = create_club_night(actor=None, club=club, date=today, league=league, notes=NIGHT_NOTES)
    rng = random.Random(today.toordinal())
    for t, hands in enumerate(NIGHT_HANDS):
        game = create_game(
            actor=None,
            players=players[4 * t : 4 * t + 4],
            ruleset=club.ruleset,
            rule_overrides=club.rule_overrides or None,
            place=NightPlace(night),
        )
        play_hands(game, rng, actor=None, count=hands)
    return night
