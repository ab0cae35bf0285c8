"""Load the demo data `make run` shows: demo logins, a club with members and its past nights, a
published tournament, and (demo.live) a tournament running now and tonight's club night.

Everything goes through the services (so the engine scores every hand and the audit log,
summaries, standings and ratings are real). Idempotent: the club and the published tournament
are only built when their slugs are not there yet; the running parts are rebuilt only when
stale (demo.live), so a re-run keeps the running session's clock current.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from club.models import Club
from club.places import NightPlace
from club.ratings.services import rebuild_ratings
from club.ratings.tasks import update_ratings
from club.services import (
    add_member,
    create_club,
    create_club_night,
    create_league,
    register_player,
)
from core.enqueue import deferred_tasks
from core.models import Player
from demo import live
from demo.play import PEOPLE, play_game, random_hand
from scoring.models import Game
from scoring.services import create_game
from tournaments.models import SeatingPlan, Session, Tournament
from tournaments.services import (
    add_staff,
    apply_seating_plan,
    close_session,
    create_sessions,
    create_tournament,
    publish_results,
    request_seating_plan,
    seat_session,
    start_session,
)
from tournaments.services import register_player as register_for_tournament
from tournaments.services.tasks import generate_seating_plan
from tournaments.standings.services import recompute_standings
from tournaments.standings.tasks import recompute_standings as recompute_standings_task

__all__ = ["Command", "play_game", "random_hand"]

DEMO_PASSWORD = "hanchan-demo"  # printed by `make run`; demo data only
DEMO_USERS = {
    "admin": {"is_staff": True, "is_superuser": True},
    "organiser": {},
    "referee": {},
    "player": {},
}
CLUB_SLUG = "demo-riichi-club"
TOURNAMENT_SLUG = "demo-open-2026"


class Command(BaseCommand):
    help = "Create demo logins and demo data (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        with deferred_tasks() as follow_ups, transaction.atomic():
            users = self._users()
            players = self._players(users["player"])
            if not Club.objects.filter(slug=CLUB_SLUG).exists():
                self._club(players, admin=users["admin"])
            if not Tournament.objects.filter(slug=TOURNAMENT_SLUG).exists():
                self._tournament(players[:16], users)
            # The running parts (demo.live): rebuilt when stale, so the clock stays current.
            removed = False
            if not live.live_tournament_is_current():
                removed = live.remove_live_tournament()
                live.build_live_tournament(
                    players=[*players[:12], *players[16:20]],
                    substitute=players[12],
                    users=users,
                    clubs={p.pk: PEOPLE[i][3] for i, p in enumerate(players)},
                    seat=self._seat,
                )
            club = Club.objects.get(slug=CLUB_SLUG)
            removed = live.remove_stale_nights(club) or removed
            if live.live_night(club) is None:
                # Members of the club: the demo `player` plays at the first table.
                live.build_live_night(
                    club=club, players=[*players[:3], *players[16:20], players[3]]
                )
        # Removed finished games leave ratings behind: rebuild them (the follow-ups may too).
        self._run_follow_ups(follow_ups, ratings=removed)
        self.stdout.write(self.style.SUCCESS("Demo data ready."))

    def _users(self) -> dict[str, Any]:
        user_model = get_user_model()
        users = {}
        for username, flags in DEMO_USERS.items():
            user, created = user_model.objects.get_or_create(username=username, defaults=flags)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[username] = user
        return users

    def _players(self, player_user: Any) -> list[Player]:
        players = []
        for i, (first, last, country, _club) in enumerate(PEOPLE):
            ema = f"{990000 + i:08d}"
            player = Player.objects.filter(ema_number=ema).first()
            if player is None:
                player = register_player(
                    actor=None,
                    first_name=first,
                    last_name=last,
                    ema_number=ema,
                    country=country,
                    user=player_user if i == 0 and not hasattr(player_user, "player") else None,
                )
            players.append(player)
        return players

    def _club(self, players: list[Player], *, admin: Any) -> None:
        members = [players[0], *players[1:3], *players[16:20], *players[3:8]]  # 12 members
        club = create_club(
            actor=admin,
            name="Demo Riichi Club",
            slug=CLUB_SLUG,
            city="Berlin",
            country="DE",
            ruleset="wdmc-2019",
            admin=players[1],
        )
        for p in members:
            if p != players[1]:  # already its admin
                add_member(actor=None, club=club, player=p, joined_on="2025-09-01")
        league = create_league(
            actor=None, club=club, name="Season 2026", starts_on="2026-01-01", ends_on="2026-12-31"
        )
        rng = random.Random(2026)
        for day, seed_tables in (("2026-02-05", 2), ("2026-02-19", 2)):
            night = create_club_night(actor=None, club=club, date=day, league=league)
            at_night = rng.sample(members, 4 * seed_tables)
            for t in range(seed_tables):
                game = create_game(
                    actor=None,
                    players=at_night[4 * t : 4 * t + 4],
                    ruleset=club.ruleset,
                    rule_overrides=club.rule_overrides or None,
                    place=NightPlace(night),
                )
                play_game(game, rng, actor=None)

    def _tournament(self, players: list[Player], users: dict[str, Any]) -> None:
        organiser, referee = users["organiser"], users["referee"]
        tournament = create_tournament(
            actor=organiser,
            name="Demo Open 2026",
            slug=TOURNAMENT_SLUG,
            ruleset="ema-2025",
            starts_on=datetime.date(2026, 3, 14),
            ends_on=datetime.date(2026, 3, 15),
            city="Berlin",
            country="DE",
            sessions_planned=4,
        )
        add_staff(actor=organiser, tournament=tournament, user=referee, role="referee")
        for i, player in enumerate(players):
            register_for_tournament(
                actor=organiser, tournament=tournament, player=player, club_name=PEOPLE[i][3]
            )
        sessions = self._seat(tournament, players, organiser)
        rng = random.Random(14032026)
        for session in sessions:
            start_session(actor=organiser, session=session)
            for table in session.tables.order_by("number"):
                play_game(Game.objects.get(table=table), rng, actor=referee)
            close_session(actor=organiser, session=session)
        publish_results(actor=organiser, tournament=tournament)

    def _seat(self, tournament: Tournament, players: list[Player], organiser: Any) -> list[Session]:
        """Seat all sessions with the seating algorithm, else with a simple rotation."""
        try:
            plan = request_seating_plan(
                actor=organiser,
                tournament=tournament,
                mode=SeatingPlan.Mode.RANDOM,
                seed=2026,
                options={"time_budget": 2.0},
            )
            generate_seating_plan(plan.pk)  # here, not in a worker: the demo must be complete
            plan.refresh_from_db()
            if plan.status == SeatingPlan.Status.DONE:
                return apply_seating_plan(actor=organiser, plan=plan)
        except ImportError:
            pass
        sessions = create_sessions(actor=organiser, tournament=tournament) or list(
            tournament.sessions.order_by("number")
        )
        n = len(players)
        for r, session in enumerate(sessions):
            order = [players[(i * (2 * r + 1) + r) % n] for i in range(n)]  # 16 is coprime to 2r+1
            seat_session(
                actor=organiser,
                session=session,
                tables=[order[i : i + 4] for i in range(0, n, 4)],
            )
        return [s for s in tournament.sessions.order_by("number")]

    def _run_follow_ups(
        self, follow_ups: set[tuple[str, tuple[Any, ...]]], *, ratings: bool = False
    ) -> None:
        """The tasks the demo's writes asked for, each run once here (core.enqueue)."""
        tournaments = {
            args[0] for name, args in follow_ups if name == recompute_standings_task.name
        }
        for tournament_id in sorted(tournaments):
            recompute_standings(tournament_id=tournament_id)
        if ratings or any(name == update_ratings.name for name, _ in follow_ups):
            rebuild_ratings()
