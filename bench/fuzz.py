"""Live API fuzzing with schemathesis, reaching past validation (issue 16).

    .venv/bin/python bench/fuzz.py --examples 5         # its own server on a scratch SQLite
    .venv/bin/python bench/fuzz.py --database-url postgres://127.0.0.1/hanchan_fuzz
    bench/load.py --fuzz-examples 5                     # CI: after the load, on PostgreSQL

Random path parameters meet only 404s, and a request whose object is not there never reaches a
service. So before schemathesis runs:

1. `seed_fuzz_world()` creates what the operations work on: a running tournament with a seated
   session (a game with hands, an empty game, a finished game), a second session seated, a
   seating plan, registrations, a penalty; small tournaments to publish, to close a session in,
   to reopen a session in, to change the status of, to upload a plan to; a club with nights,
   a league and club games (a hand to confirm, one to delete, a whole game to finalize, one for
   paper scores); an organiser who is also the club's admin and a player, a site admin, each
   with an API token. Each operation that changes state has an object of its own;
2. `operation_examples()` holds one request per operation that succeeds on that world (path,
   query, body, role); `add_examples()` writes them into a copy of the server's schema
   (parameter `example`s, JSON body `examples`), which schemathesis sends first (examples
   phase), so every operation reaches its service at least once;
3. `write_config()` writes a schemathesis.toml that sends the organiser's token (the site
   admin's for creating clubs) and gives each operation's path parameters its objects (a
   `[[operations]]` entry per operation), for the phases after the examples;
4. the schema itself carries OpenAPI links (`config/openapi.py`: a created object's id or slug
   to the operations on it), so the stateful phase chains a create into what follows it;
5. `seed_pools()` adds fresh objects for the operations that change an object once (a
   registration to drop, a session to start, a penalty to cancel, a user to make staff, ...),
   and `bench/fuzz_hooks.py` (loaded by schemathesis) hands one to each generated request
   that fits the schema, with the game's current version and unique slugs; the list filters
   that the schema also documents on an object's own operations are left out of the fuzzed
   copy (`leaked_list_filters`). Before, 25 (SQLite) to 31 (CI) operations "mostly rejected
   generated data"; after, none (issue 37, docs/reliability.md);
6. schemathesis' CLI runs the examples, coverage and fuzzing phases with `--max-examples` per
   operation in three quarters of the time budget (`--max-time`), then the stateful phase in
   the last quarter (in one run fuzzing took it all), checking only `not_a_server_error` (a
   5xx fails the run);
7. `print_report()` reads the NDJSON event stream and prints, per operation, how many cases
   ran, how many got a 2xx, a 4xx and a 5xx, then "2xx reached: N of M operations" and each
   operation without a 2xx with what it got.

Standalone it migrates and seeds a scratch SQLite database, or `--database-url` (your own
PostgreSQL database, as CI runs it: createdb hanchan_fuzz first, drop it after).

Exit status (standalone): 1 when any answer was a 5xx. Loopback only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# The path's resource (the segment before a parameter) -> the seeded object for it.
RESOURCES = {
    "tournaments": "slug",
    "clubs": "club_slug",
    "games": "game",
    "sessions": "session",
    "tables": "table",
    "registrations": "registration",
    "players": "player",
    "penalties": "penalty",
    "seating-plans": "plan",
    "nights": "night",
    "staff": "staff",
    "hands": "hand_number",
    "tokens": "token_id",
    "referee-calls": "referee_call",
    "cut": "uncut",
    "sign-ups": "sign_up",
}


def _ron(winner: int, loser: int) -> dict[str, Any]:
    return {"outcome": "ron", "wins": [{"winner": winner, "han": 2, "fu": 30}], "loser": loser}


# EMA 2025: eight hands that each pass the dealership on end the game after South 4.
EAST_SOUTH = [_ron((i + 1) % 4, (i + 2) % 4) for i in range(8)]
# A real Tenhou log (tests/online/data/README.md): three scored hands, four named players.
ONLINE_LOG = ROOT / "tests" / "online" / "data" / "tenhou-three-hands.mjlog"


def _online_names(log: str) -> list[str]:
    found = re.search(r'<UN n0="([^"]*)" n1="([^"]*)" n2="([^"]*)" n3="([^"]*)"', log)
    assert found, "the log names no players"
    return [urllib.parse.unquote(name) for name in found.groups()]


def seed_fuzz_world() -> dict[str, Any]:
    """The objects the fuzzed operations act on (Django must be set up).

    Each operation that changes state gets an object of its own (a registration to drop,
    another to disqualify, a game per score-entry action, a small tournament each to publish,
    to close a session in, to reopen a session in, to change the status of), so its example
    succeeds whatever the order the operations run in."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.models import Club, ClubGame, ClubNight, League, Membership
    from core.models import Player
    from core.tokens import issue_token
    from scoring.models import Game, GameSeat, Hand
    from tournaments.models import (
        Cut,
        Penalty,
        Registration,
        Seat,
        SeatingPlan,
        Session,
        SignUp,
        StaffRole,
        Table,
        Tournament,
    )

    tag = secrets.token_hex(3)
    password = secrets.token_hex(8)
    user_model = get_user_model()
    organiser = user_model.objects.create_user(f"fuzz-organiser-{tag}", password=password)
    referee = user_model.objects.create_user(f"fuzz-referee-{tag}", password=secrets.token_hex(8))
    newcomer = user_model.objects.create_user(f"fuzz-staff-{tag}", password=secrets.token_hex(8))
    admin = user_model.objects.create_superuser(f"fuzz-admin-{tag}", password=secrets.token_hex(8))
    players = [
        Player.objects.create(first_name=f"Fuzz{i}", last_name=f"Player{tag}", country="DE")
        for i in range(20)
    ]
    players[0].user = organiser
    players[0].save(update_fields=["user"])
    spare_players = players[16:]  # registered nowhere: a substitute, a club member to add

    def tournament(suffix: str, status: str) -> Tournament:
        made = Tournament.objects.create(
            name=f"Fuzz {suffix}",
            slug=f"fuzz-{suffix}-{tag}" if suffix != "open" else f"fuzz-{tag}",
            ruleset="ema-2025",
            starts_on=datetime.date(2026, 5, 2),
            ends_on=datetime.date(2026, 5, 3),
            country="DE",
            status=status,
        )
        StaffRole.objects.create(tournament=made, user=organiser, role=StaffRole.Role.ORGANISER)
        return made

    def seat_table(session: Session, number: int, seated: list[Player]) -> Game:
        table = Table.objects.create(session=session, number=number)
        Seat.objects.bulk_create(Seat(table=table, wind=w, player=p) for w, p in enumerate(seated))
        game = Game.objects.create(ruleset="ema-2025")
        table.game = game  # the table holds the link (issue 14)
        table.save(update_fields=["game"])
        GameSeat.objects.bulk_create(
            GameSeat(game=game, seat=w, player=p) for w, p in enumerate(seated)
        )
        return game

    def add_hands(game: Game, hands: list[dict[str, Any]]) -> Game:
        Hand.objects.bulk_create(
            Hand(game=game, number=number, data=hand) for number, hand in enumerate(hands)
        )
        Game.objects.filter(pk=game.pk).update(version=len(hands))
        return game

    def finish(game: Game) -> Game:
        Game.objects.filter(pk=game.pk).update(
            entry=Game.Entry.FINAL_SCORES,
            final_scores={"scores": [50000, 40000, 20000, 10000], "riichi_sticks_left": 0},
            status=Game.Status.FINISHED,
            end="complete",
            finished_at=timezone.now(),
        )
        return game

    # The main tournament: running, session 1 under way, session 2 seated (to start, to swap
    # seats in), a seating plan for session 3.
    main = tournament("open", Tournament.Status.RUNNING)
    staff = StaffRole.objects.create(tournament=main, user=referee, role=StaffRole.Role.REFEREE)
    registrations = [Registration.objects.create(tournament=main, player=p) for p in players[:16]]
    Registration.objects.filter(pk=registrations[13].pk).update(
        dropped_at=timezone.now(), drop_reason="Fuzz"
    )
    # Started 80 minutes ago (of 90): the time signal has sounded (EMA 2025 7.4).
    session = Session.objects.create(
        tournament=main,
        number=1,
        status=Session.Status.RUNNING,
        started_at=timezone.now() - datetime.timedelta(minutes=80),
    )
    games = [seat_table(session, n + 1, players[4 * n : 4 * n + 4]) for n in range(4)]
    # Game 0 has two hands (to read, to correct); game 1 is empty (hand entry, preview); game 2
    # takes a substitute; game 3 is finished (reopen).
    add_hands(games[0], [_ron(1, 3), _ron(2, 3)])
    finish(games[3])
    seated = Session.objects.create(tournament=main, number=2, status=Session.Status.SEATED)
    for n in range(2):
        seat_table(seated, n + 1, players[4 * n + 2 : 4 * n + 6])
    penalty = Penalty.objects.create(
        tournament=main,
        player=players[1],
        kind=Penalty.Kind.OBSTRUCTION,
        points=8000,
        reason="Fuzz",
    )
    plan = SeatingPlan.objects.create(
        tournament=main,
        mode=SeatingPlan.Mode.RANDOM,
        status=SeatingPlan.Status.DONE,
        progress=1.0,
        plan=[[[r.pk for r in registrations[4 * t : 4 * t + 4]] for t in range(3)]],
        options={"from_session": 3},
    )

    # Small tournaments, one per step that changes a whole tournament or session.
    to_status = tournament("draft", Tournament.Status.DRAFT)
    # Open for self-registration (issue 35): a sign-up reaches the service; pending sign-ups
    # to approve, refuse (also read) and erase, and a player registered here alone to erase.
    to_sign_up = tournament("signup", Tournament.Status.REGISTRATION)
    pending = {
        step: SignUp.objects.create(
            tournament=to_sign_up,
            first_name=step.title(),
            last_name=f"Pending{tag}",
            name_key=f"{step} pending{tag}",
            country="GB",
            email=f"{step}-{tag}@example.org",
            status=SignUp.Status.PENDING,
            token=secrets.token_urlsafe(32),
            consent_at=timezone.now(),
        ).pk
        for step in ("approve", "refuse", "erase")
    }
    erasable = Registration.objects.create(
        tournament=to_sign_up,
        player=Player.objects.create(first_name="Erase", last_name=f"Me{tag}", country="DE"),
    )
    # Uploaded plans seat every active registration: four here, whatever other steps register.
    to_upload = tournament("seating", Tournament.Status.REGISTRATION)
    for player in players[:4]:
        Registration.objects.create(tournament=to_upload, player=player)
    stages = {}
    for suffix, session_status in (
        ("publish", Session.Status.CLOSED),
        ("close", Session.Status.RUNNING),
        ("reopen", Session.Status.CLOSED),
    ):
        stage = tournament(suffix, Tournament.Status.RUNNING)
        for player in players[:4]:
            Registration.objects.create(tournament=stage, player=player)
        stage_session = Session.objects.create(
            tournament=stage, number=1, status=session_status, started_at=timezone.now()
        )
        finish(seat_table(stage_session, 1, players[:4]))
        stages[suffix] = (stage, stage_session)
    # To cut (issue 32.2): eight players, session 1 closed, cut to the top four after it.
    to_cut = tournament("cut", Tournament.Status.RUNNING)
    for player in players[:8]:
        Registration.objects.create(tournament=to_cut, player=player)
    cut_session = Session.objects.create(
        tournament=to_cut, number=1, status=Session.Status.CLOSED, started_at=timezone.now()
    )
    finish(seat_table(cut_session, 1, players[:4]))
    finish(seat_table(cut_session, 2, players[4:8]))
    # Cut already (issue 32.2): one to undo; one whose first finalist dropped, to promote the
    # next player in their place.
    made_cuts = {}
    for suffix in ("uncut", "promote"):
        cut_event = tournament(suffix, Tournament.Status.RUNNING)
        for player in players[:8]:
            Registration.objects.create(tournament=cut_event, player=player)
        Session.objects.create(
            tournament=cut_event, number=1, status=Session.Status.CLOSED, started_at=timezone.now()
        )
        made_cuts[suffix] = Cut.objects.create(
            tournament=cut_event,
            after_session=1,
            top=4,
            order=[
                {"player": p.pk, "name": str(p), "rank": i + 1, "total": 0, "qualified": i < 4}
                for i, p in enumerate(players[:8])
            ],
        )
    Registration.objects.filter(
        tournament=made_cuts["promote"].tournament, player=players[0]
    ).update(dropped_at=timezone.now())

    # An online session (issue 32.5) under Tenhou's rules: table 1 waits for its log (the
    # three-hands log, its names given in the example), table 2's log is imported (to read).
    from tournaments.services.online import import_table_log

    online = tournament("online", Tournament.Status.RUNNING)
    Tournament.objects.filter(pk=online.pk).update(ruleset="tenhou")
    online_players = players[:8]
    online_registrations = [
        Registration.objects.create(tournament=online, player=p) for p in online_players
    ]
    online_session = Session.objects.create(
        tournament=online,
        number=1,
        status=Session.Status.RUNNING,
        started_at=timezone.now(),
        online=True,
    )
    online_games = [
        seat_table(online_session, n + 1, online_players[4 * n : 4 * n + 4]) for n in range(2)
    ]
    Game.objects.filter(pk__in=[g.pk for g in online_games]).update(ruleset="tenhou")
    read_log = ROOT / "tests" / "online" / "data" / "tenhou-east-south.mjlog"
    import_table_log(
        actor=None,
        table=online_games[1].table,
        data=read_log.read_bytes(),
        players=dict(
            zip(
                _online_names(read_log.read_text()),
                [r.pk for r in online_registrations[4:]],
                strict=True,
            )
        ),
    )

    # The club: the organiser is its admin and a member; club games on one night (a hand to
    # confirm, one to delete, a whole game to finalize, a paper sheet to enter), another night
    # to seat.
    club = Club.objects.create(name="Fuzz club", slug=f"fuzz-club-{tag}")
    members = players[:8]
    for index, player in enumerate(members):
        Membership.objects.create(
            club=club,
            player=player,
            role=Membership.Role.ADMIN if index == 0 else Membership.Role.MEMBER,
        )
    night = ClubNight.objects.create(club=club, date=timezone.localdate())
    to_seat = ClubNight.objects.create(club=club, date=timezone.localdate(), notes="to seat")
    League.objects.create(club=club, name="Fuzz league", starts_on=timezone.localdate())

    def club_game(hands: list[dict[str, Any]]) -> Game:
        game = Game.objects.create(ruleset="ema-2025")
        ClubGame.objects.create(game=game, night=night)  # the night holds the link (issue 14)
        GameSeat.objects.bulk_create(
            GameSeat(game=game, seat=w, player=p) for w, p in enumerate(members[:4])
        )
        return add_hands(game, hands)

    to_confirm = club_game([_ron(1, 2)])
    Hand.objects.filter(game=to_confirm).update(confirmed=False)
    to_delete = club_game([_ron(1, 2)])
    to_finalize = club_game(EAST_SOUTH)
    to_score = club_game([])
    # Paper final scores another player (the referee user) entered: the organiser, seated,
    # confirms them (POST /games/{id}/confirm/, club play without a referee, issue 30.3).
    to_confirm_game = finish(club_game([]))
    Game.objects.filter(pk=to_confirm_game.pk).update(
        entry_confirmed=False, entered_by=referee, confirmed_by=[], confirmed=False
    )

    # Referee calls (issue 35.2) from a running table: one to acknowledge, one to close.
    from tournaments.models import RefereeCall

    called = games[1].table
    calls = [RefereeCall.objects.create(tournament=main, table=called) for _ in range(2)]

    key = issue_token(organiser, name="fuzz")[1]
    admin_key = issue_token(admin, name="fuzz")[1]
    # A second token of the organiser's for DELETE /auth/tokens/{id}/ (not the one in use).
    spare = issue_token(organiser, name="fuzz spare")[0]
    return {
        "tag": tag,
        "token": key,
        "tokens": {"organiser": key, "admin": admin_key},
        "username": organiser.username,
        "password": password,
        "new_staff": newcomer.username,
        "slug": main.slug,
        "club_slug": club.slug,
        "game": games[1].pk,  # the empty one: hands, preview reach the services
        "games": [g.pk for g in games],
        "session": session.pk,
        "seated_session": seated.pk,
        "table": games[1].table.pk,
        "registration": registrations[-1].pk,
        "registrations": [r.pk for r in registrations],
        "player": players[0].pk,
        "players": [p.pk for p in players],
        "spare_players": [p.pk for p in spare_players],
        "members": [p.pk for p in members],
        "penalty": penalty.pk,
        "plan": plan.pk,
        "night": night.pk,
        "night_to_seat": to_seat.pk,
        "staff": staff.pk,
        "hand_number": 0,
        "token_id": spare.pk,
        "draft_slug": to_status.slug,
        "signup_slug": to_sign_up.slug,
        "pending_sign_ups": pending,
        "sign_up": pending["refuse"],
        "erasable_registration": erasable.pk,
        "referee_call": calls[0].pk,
        "referee_calls": [c.pk for c in calls],
        "upload_slug": to_upload.slug,
        "publish_slug": stages["publish"][0].slug,
        "cut_slug": to_cut.slug,
        "uncut_slug": made_cuts["uncut"].tournament.slug,
        "uncut": made_cuts["uncut"].pk,
        "promote_slug": made_cuts["promote"].tournament.slug,
        "promote_cut": made_cuts["promote"].pk,
        "promote_replaces": players[0].pk,
        "close_session": stages["close"][1].pk,
        "online_session": online_session.pk,
        "online_tables": [g.table.pk for g in online_games],
        "online_registrations": [r.pk for r in online_registrations[:4]],
        "reopen_session": stages["reopen"][1].pk,
        "club_games": {
            "confirm": to_confirm.pk,
            "delete": to_delete.pk,
            "finalize": to_finalize.pk,
            "final_scores": to_score.pk,
            "confirm_game": to_confirm_game.pk,
        },
    }


POOL_SIZE = 20


def seed_pools(world: dict[str, Any], size: int = POOL_SIZE) -> dict[str, list[Any]]:
    """Fresh objects for the operations that change an object once (a registration is dropped
    once, a session started once, a penalty cancelled once, a user made staff once): without
    them every generated request after the example met "already dropped" (400) and schemathesis
    warned that these operations mostly rejected its data (issue 37). bench/fuzz_hooks.py hands
    one out per generated request. All in tournaments and a club the organiser runs."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.models import Club, ClubGame, ClubNight, Membership
    from core.models import Player
    from scoring.models import Game, GameSeat, Hand
    from tournaments.models import (
        Penalty,
        Registration,
        Seat,
        Session,
        StaffRole,
        Table,
        Tournament,
    )

    tag = world["tag"]
    organiser = get_user_model().objects.get(username=world["username"])
    pool = Tournament.objects.create(
        name="Fuzz pool",
        slug=f"fuzz-pool-{tag}",
        ruleset="ema-2025",
        starts_on=datetime.date(2026, 5, 2),
        ends_on=datetime.date(2026, 5, 3),
        country="DE",
        status=Tournament.Status.RUNNING,
    )
    StaffRole.objects.create(tournament=pool, user=organiser, role=StaffRole.Role.ORGANISER)
    people = Player.objects.bulk_create(
        Player(first_name=f"Pool{i}", last_name=f"Fuzz{tag}", country="DE")
        for i in range(4 * size + 4)
    )
    # The sessions' four players (never dropped or disqualified), then the pools' registrations.
    seated = people[-4:]
    registrations = Registration.objects.bulk_create(
        Registration(tournament=pool, player=p) for p in [*people[: 3 * size], *seated]
    )[: 3 * size]
    Registration.objects.filter(pk__in=[r.pk for r in registrations[2 * size :]]).update(
        dropped_at=timezone.now(), drop_reason="Fuzz pool"
    )

    def session(number: int, status: str, finished: bool) -> Session:
        made = Session.objects.create(
            tournament=pool,
            number=number,
            status=status,
            started_at=None if status == Session.Status.SEATED else timezone.now(),
        )
        table = Table.objects.create(session=made, number=1)
        Seat.objects.bulk_create(Seat(table=table, wind=w, player=p) for w, p in enumerate(seated))
        game = Game.objects.create(ruleset="ema-2025")
        if finished:
            Game.objects.filter(pk=game.pk).update(
                entry=Game.Entry.FINAL_SCORES,
                final_scores={"scores": [50000, 40000, 20000, 10000], "riichi_sticks_left": 0},
                status=Game.Status.FINISHED,
                end="complete",
                finished_at=timezone.now(),
            )
        table.game = game
        table.save(update_fields=["game"])
        GameSeat.objects.bulk_create(
            GameSeat(game=game, seat=w, player=p) for w, p in enumerate(seated)
        )
        return made

    kinds = [
        ("start", Session.Status.SEATED, False),
        ("close", Session.Status.RUNNING, True),
        ("reopen", Session.Status.CLOSED, True),
    ]
    sessions: dict[str, list[int]] = {}
    for k, (kind, status, finished) in enumerate(kinds):
        sessions[kind] = [session(k * size + i + 1, status, finished).pk for i in range(size)]
    penalties = Penalty.objects.bulk_create(
        Penalty(
            tournament=pool, player=p, kind=Penalty.Kind.OBSTRUCTION, points=1000, reason="Fuzz"
        )
        for p in people[:size]
    )
    users = [get_user_model().objects.create_user(f"fuzz-pool-{tag}-{i}") for i in range(size)]
    # Club games with one hand each (to delete), on the fuzz club's night.
    club = Club.objects.get(slug=world["club_slug"])
    night = ClubNight.objects.get(pk=world["night"])
    members = list(
        Membership.objects.filter(club=club).order_by("pk").values_list("player_id", flat=True)
    )[:4]
    with_a_hand = []
    for _ in range(size):
        game = Game.objects.create(ruleset="ema-2025", version=1)
        ClubGame.objects.create(game=game, night=night)
        GameSeat.objects.bulk_create(
            GameSeat(game=game, seat=w, player_id=p) for w, p in enumerate(members)
        )
        Hand.objects.create(game=game, number=0, data=_ron(1, 2))
        with_a_hand.append(game.pk)
    return {
        "drop": [r.pk for r in registrations[:size]],
        "disqualify": [r.pk for r in registrations[size : 2 * size]],
        "reinstate": [r.pk for r in registrations[2 * size :]],
        "start": sessions["start"],
        "close": sessions["close"],
        "reopen": sessions["reopen"],
        "cancel": [x.pk for x in penalties],
        "staff": [u.username for u in users],
        "members": [p.pk for p in people[3 * size : 4 * size]],
        "delete_hand": with_a_hand,
    }


def operation_examples(world: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One request per operation that succeeds on the seeded world, whatever the order: its
    path parameters where they differ from the resource's default object, query parameters,
    body, and the role whose token sends it (the organiser unless said). add_examples() puts
    them in the schema, so schemathesis sends them first (its examples phase);
    tests/reliability/test_reliability_fuzz_setup.py sends each one and expects a 2xx.

    Operations left out need nothing beyond their path (reads of a seeded object)."""
    w, tag = world, world["tag"]
    games, clubs = w["games"], w["club_games"]
    members, spare = w["members"], w["spare_players"]
    today = datetime.date.today().isoformat()
    log = ONLINE_LOG.read_text()
    return {
        "POST /api/v1/auth/token/": {
            "body": {"username": w["username"], "password": w["password"]}
        },
        "POST /api/v1/clubs/": {
            "role": "admin",
            "body": {"name": "Fuzz tigers", "slug": f"fuzz-tigers-{tag}", "country": "DE"},
        },
        "GET /api/v1/clubs/": {"query": {"country": "DE"}},
        "POST /api/v1/clubs/{slug}/leagues/": {
            "body": {"name": "Fuzz spring", "starts_on": "2026-03-01"}
        },
        "POST /api/v1/clubs/{slug}/members/": {"body": {"player": spare[1], "role": "member"}},
        "POST /api/v1/clubs/{slug}/nights/": {"body": {"date": "2026-04-01", "notes": "Fuzz"}},
        "POST /api/v1/clubs/{slug}/nights/{night_id}/seat/": {
            "path": {"night_id": w["night_to_seat"]},
            "body": {"players": members, "seed": 1},
        },
        "POST /api/v1/clubs/{slug}/online-import/": {
            "body": {
                "log": log,
                "players": dict(zip(_online_names(log), members[4:8], strict=True)),
                "date": today,
            }
        },
        "GET /api/v1/games/": {"query": {"tournament": w["slug"]}},
        "POST /api/v1/games/": {
            "body": {"club_night": w["night"], "players": members[4:8], "ruleset": "ema-2025"}
        },
        "POST /api/v1/games/import/": {
            "body": {
                "record": {
                    "format": "riichi-game-record/1",
                    "ruleset": "ema-2025",
                    "players": ["A", "B", "C", "D"],
                    "hands": EAST_SOUTH,
                },
                "players": members[4:8],
                "club_night": w["night"],
            }
        },
        "POST /api/v1/games/{id}/final-scores/": {
            "path": {"id": clubs["final_scores"]},
            "body": {"version": 0, "scores": [50000, 40000, 20000, 10000]},
        },
        "POST /api/v1/games/{id}/finalize/": {
            "path": {"id": clubs["finalize"]},
            "body": {"version": len(EAST_SOUTH), "end": "complete"},
        },
        "PUT /api/v1/games/{id}/hands/{number}/": {
            "path": {"id": games[0], "number": 0},
            "body": {"version": 2, "hand": _ron(1, 2), "reason": "Fuzz: wrong loser"},
        },
        "DELETE /api/v1/games/{id}/hands/{number}/": {
            "path": {"id": clubs["delete"], "number": 0},
            "query": {"version": 1, "reason": "Fuzz: entered twice"},
        },
        "POST /api/v1/games/{id}/hands/{number}/confirm/": {
            "path": {"id": clubs["confirm"], "number": 0},
            "body": {"version": 1},
        },
        "POST /api/v1/games/{id}/confirm/": {
            "path": {"id": clubs["confirm_game"]},
            "body": {"version": 0},
        },
        "POST /api/v1/games/{id}/reopen/": {
            "path": {"id": games[3]},
            "body": {"version": 0, "reason": "Fuzz: a hand was forgotten"},
        },
        "POST /api/v1/games/{id}/substitutes/": {
            "path": {"id": games[2]},
            "body": {
                "version": 0,
                "seat": 2,
                "substitute": spare[0],
                "reason": "Fuzz: ill",
                "from": "start",
            },
        },
        "POST /api/v1/penalties/{id}/cancel/": {"body": {"reason": "Fuzz: given in error"}},
        "GET /api/v1/players/": {"query": {"search": "Fuzz"}},
        "POST /api/v1/players/": {
            "body": {"first_name": "Ada", "last_name": f"Fuzz{tag}", "country": "GB"}
        },
        "PUT /api/v1/players/{id}/": {
            "body": {"first_name": "Fuzz0", "last_name": f"Player{tag}", "country": "DE"}
        },
        "PATCH /api/v1/players/{id}/": {"body": {"country": "FR"}},
        "PATCH /api/v1/registrations/{id}/": {
            "path": {"id": w["registrations"][12]},
            "body": {"team": f"Fuzz team {tag}"},
        },
        "POST /api/v1/registrations/{id}/drop/": {
            "path": {"id": w["registrations"][15]},
            "body": {"reason": "Fuzz: ill"},
        },
        "POST /api/v1/registrations/{id}/disqualify/": {
            "path": {"id": w["registrations"][14]},
            "body": {"reason": "Fuzz: cheating"},
        },
        "POST /api/v1/registrations/{id}/reinstate/": {
            "path": {"id": w["registrations"][13]},
            "body": {"reason": "Fuzz: recovered"},
        },
        "POST /api/v1/seating-plans/{id}/apply/": {"body": {"from_session": 3}},
        "POST /api/v1/sessions/{id}/start/": {"path": {"id": w["seated_session"]}},
        "POST /api/v1/sessions/{id}/swap/": {
            "path": {"id": w["seated_session"]},
            "body": {"a": w["players"][2], "b": w["players"][7]},
        },
        "POST /api/v1/sessions/{id}/close/": {"path": {"id": w["close_session"]}},
        "POST /api/v1/sessions/{id}/reopen/": {
            "path": {"id": w["reopen_session"]},
            "body": {"reason": "Fuzz: a hand was forgotten"},
        },
        "GET /api/v1/sessions/{id}/tables/": {"query": {"player": w["player"]}},
        "GET /api/v1/tables/": {"query": {"tournament": w["slug"], "session": 1}},
        "GET /api/v1/tournaments/": {"query": {"status": "running"}},
        "POST /api/v1/tournaments/": {
            "body": {
                "name": "Fuzz spring open",
                "slug": f"fuzz-spring-{tag}",
                "starts_on": "2026-04-04",
                "ends_on": "2026-04-05",
            }
        },
        "PATCH /api/v1/tournaments/{slug}/": {"body": {"qualification_only": False}},
        "POST /api/v1/tournaments/{slug}/status/": {
            "path": {"slug": w["draft_slug"]},
            "body": {"status": "registration"},
        },
        "POST /api/v1/tournaments/{slug}/publish/": {"path": {"slug": w["publish_slug"]}},
        "PATCH /api/v1/sessions/{id}/": {
            "path": {"id": w["online_session"]},
            "body": {"online": True},
        },
        "GET /api/v1/tables/{id}/online-log/": {"path": {"id": w["online_tables"][1]}},
        "POST /api/v1/tables/{id}/online-log/": {
            "path": {"id": w["online_tables"][0]},
            "body": {
                "log": log,
                "players": dict(zip(_online_names(log), w["online_registrations"], strict=True)),
            },
        },
        "POST /api/v1/tables/{id}/extend/": {
            "body": {"minutes": 5, "reason": "Fuzz: the referee was called"}
        },
        "POST /api/v1/referee-calls/{id}/acknowledge/": {"path": {"id": w["referee_calls"][0]}},
        "POST /api/v1/referee-calls/{id}/close/": {"path": {"id": w["referee_calls"][1]}},
        "POST /api/v1/tournaments/{slug}/sign-ups/": {
            "path": {"slug": w["signup_slug"]},
            "body": {
                "first_name": "Grace",
                "last_name": f"Fuzz{tag}",
                "country": "GB",
                "email": f"grace-{tag}@example.org",
                "consent": True,
            },
        },
        "POST /api/v1/sign-ups/{id}/approve/": {"path": {"id": w["pending_sign_ups"]["approve"]}},
        "POST /api/v1/sign-ups/{id}/refuse/": {
            "path": {"id": w["pending_sign_ups"]["refuse"]},
            "body": {"reason": "Fuzz: full"},
        },
        "POST /api/v1/sign-ups/{id}/erase/": {"path": {"id": w["pending_sign_ups"]["erase"]}},
        "POST /api/v1/registrations/{id}/erase/": {
            "path": {"id": w["erasable_registration"]},
            "body": {"reason": "Fuzz: asked by the player"},
        },
        "GET /api/v1/tournaments/{slug}/ema-export/": {"query": {"format": "csv", "force": True}},
        "POST /api/v1/tournaments/{slug}/cut/": {
            "path": {"slug": w["cut_slug"]},
            "body": {"after_session": 1, "top": 4, "carry_over": True},
        },
        "DELETE /api/v1/tournaments/{slug}/cut/{cut_id}/": {
            "path": {"slug": w["uncut_slug"], "cut_id": w["uncut"]},
        },
        "POST /api/v1/tournaments/{slug}/cut/{cut_id}/promote/": {
            "path": {"slug": w["promote_slug"], "cut_id": w["promote_cut"]},
            "body": {"replaces": w["promote_replaces"]},
        },
        "POST /api/v1/tournaments/{slug}/penalties/": {
            "body": {
                "player": w["players"][2],
                "kind": "obstruction",
                "points": 8000,
                "reason": "Fuzz: talking",
            }
        },
        "POST /api/v1/tournaments/{slug}/table-penalties/": {
            "body": {"session": 1, "table": 1, "reason": "Fuzz: sheet unreadable"}
        },
        "POST /api/v1/tournaments/{slug}/registrations/": {
            "body": {"first_name": "Ada", "last_name": f"Fuzz{tag}", "country": "GB"}
        },
        "POST /api/v1/tournaments/{slug}/registrations/import/": {
            "body": {"text": f"first_name,last_name,ema_number,country\nAda,Byron{tag},,GB\n"}
        },
        "POST /api/v1/tournaments/{slug}/seating-plans/": {"body": {"mode": "random", "seed": 3}},
        "POST /api/v1/tournaments/{slug}/seating-plans/upload/": {
            "path": {"slug": w["upload_slug"]},
            "body": {"text": "round,table,east,south,west,north\n1,1,1,2,3,4\n"},
        },
        "POST /api/v1/tournaments/{slug}/sessions/": {"body": {"count": 4}},
        "POST /api/v1/tournaments/{slug}/staff/": {
            "body": {"user": w["new_staff"], "role": "referee"}
        },
        "GET /api/v1/tournaments/{slug}/standings/": {"query": {"format": "json"}},
        "GET /api/v1/tournaments/{slug}/team-standings/": {"query": {"format": "json"}},
    }


def path_parameters(path: str, world: dict[str, Any], method: str = "") -> dict[str, Any]:
    """The seeded ids and slugs for a schema path's parameters: the resource's default object
    (by the segment before each parameter), or the operation's own (operation_examples)."""
    values: dict[str, Any] = {}
    parts = [p for p in path.split("/") if p]
    for index, part in enumerate(parts):
        if part.startswith("{") and part.endswith("}") and index > 0:
            resource = parts[index - 1]
            if resource in RESOURCES:
                value = world[RESOURCES[resource]]
                # The game with hands for the hand-number paths, so the number exists.
                if resource == "hands" or (resource == "games" and "/hands/{" in path):
                    value = world["games"][0] if resource == "games" else value
                values[f"path.{part[1:-1]}"] = value
    own = operation_examples(world).get(f"{method.upper()} {path}", {}).get("path", {})
    values.update({f"path.{name}": value for name, value in own.items()})
    return values


def _operation_items(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    methods = ("get", "post", "put", "patch", "delete")
    return [
        (path, method, item[method])
        for path, item in sorted(schema["paths"].items())
        for method in methods
        if method in item
    ]


def leaked_list_filters(schema: dict[str, Any]) -> dict[tuple[str, str], set[str]]:
    """Query parameters the schema documents on an object's own operations that are the list
    filters of its collection (`GET /tournaments/{slug}/standings/?status=draft&year=0`): the
    ViewSets' filters also narrow the lookup of one object, so a generated `status` answered
    404 and `year=0` 400 on every such operation (GET, and POST too) whatever the body, and
    schemathesis reported them as rejecting its data. Per (path, method), the names to leave out
    of the fuzzed schema; `page` stays (it is the list's own)."""
    leaked: dict[tuple[str, str], set[str]] = {}
    for path, method, operation in _operation_items(schema):
        if "{" not in path:
            continue
        collection = path[: path.index("{")]
        listed = schema["paths"].get(collection, {}).get("get", {})
        filters = {p["name"] for p in listed.get("parameters", []) if p["in"] == "query"}
        own = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        names = (own & filters) - {"page"}
        if names:
            leaked[(path, method)] = names
    return leaked


def add_examples(schema: dict[str, Any], world: dict[str, Any]) -> dict[str, Any]:
    """The schema with each operation's example (operation_examples) in it: path and query
    parameters get an `example`, JSON bodies an `examples` entry. Examples the schema
    already has (the hand, preview and tile evaluation ones) stay as they are."""
    schema = json.loads(json.dumps(schema))
    examples = operation_examples(world)
    leaked = leaked_list_filters(schema)
    for path, method, operation in _operation_items(schema):
        example = examples.get(f"{method.upper()} {path}", {})
        drop = leaked.get((path, method), set())
        operation["parameters"] = [
            p
            for p in operation.get("parameters", [])
            if not (p["in"] == "query" and p["name"] in drop)
        ]
        for parameter in operation["parameters"]:
            # The filters and the paginator refuse 0 and below (400, 404): say so, as they do.
            if parameter["in"] == "query" and parameter["name"] in ("year", "page"):
                parameter.setdefault("schema", {}).setdefault("minimum", 1)
        fixed = path_parameters(path, world, method)
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path" and f"path.{parameter['name']}" in fixed:
                parameter["example"] = fixed[f"path.{parameter['name']}"]
            elif parameter["in"] == "query" and parameter["name"] in example.get("query", {}):
                parameter["example"] = example["query"][parameter["name"]]
        bodies = operation.get("requestBody", {}).get("content", {})
        if bodies.get("application/json", {}).get("examples") or "body" in example:
            for media_type, other in bodies.items():  # the schema's own, in JSON only
                if media_type != "application/json":
                    other.pop("examples", None)
        if "body" not in example:
            continue
        # In JSON only: the same example as a form or multipart body would be sent two more
        # times, and a form cannot carry the nested objects most of them have.
        content = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if content is not None and not content.get("examples"):
            content["examples"] = {"seeded": {"value": example["body"]}}
    return schema


def write_config(schema: dict[str, Any], world: dict[str, Any], path: Path) -> None:
    """schemathesis.toml: the organiser's token, and per operation its path parameters and,
    where another role is needed, that role's token."""
    lines = [
        "# Written by bench/fuzz.py for one run.",
        f'headers = {{ Authorization = "Token {world["token"]}" }}',
        "",
        # Each example once (schemathesis sent the same one up to --max-examples times).
        "[phases.examples.generation]",
        "max-examples = 1",
        "",
    ]
    examples = operation_examples(world)
    for api_path, method, _operation in _operation_items(schema):
        name = f"{method.upper()} {api_path}"
        fixed = path_parameters(api_path, world, method)
        role = examples.get(name, {}).get("role")
        if not fixed and not role:
            continue
        lines += ["[[operations]]", f"include-name = {json.dumps(name)}"]
        if fixed:
            pairs = ", ".join(f'"{k}" = {json.dumps(v)}' for k, v in sorted(fixed.items()))
            lines += [f"parameters = {{ {pairs} }}"]
        if role:
            token = world["tokens"][role]
            lines += [f'headers = {{ Authorization = "Token {token}" }}']
        lines += [""]
    path.write_text("\n".join(lines))


def tally(report: Path) -> dict[str, Counter[str]]:
    """Per operation: the cases sent and their answers by class (2xx, 3xx, 4xx, 5xx), read from
    schemathesis' NDJSON events (each finished scenario records its cases and interactions)."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    seen: set[str] = set()
    for line in report.read_text().splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        recorder = (event.get("ScenarioFinished") or {}).get("recorder") or {}
        interactions = recorder.get("interactions") or {}
        for case_id, case in (recorder.get("cases") or {}).items():
            interaction = interactions.get(case_id)
            if case_id in seen or not interaction or not interaction.get("response"):
                continue
            seen.add(case_id)
            value = case.get("value") or {}
            operation = f"{str(value.get('method', '')).upper()} {value.get('path', '')}"
            status = int(interaction["response"]["status_code"])
            counts[operation]["cases"] += 1
            counts[operation][f"{status // 100}xx"] += 1
    return counts


def _operations(schema: dict[str, Any]) -> list[str]:
    methods = {"get", "post", "put", "patch", "delete"}
    return sorted(
        f"{method.upper()} {path}"
        for path, item in schema["paths"].items()
        for method in item
        if method in methods
    )


def print_report(counts: dict[str, Counter[str]], schema: dict[str, Any]) -> None:
    operations = _operations(schema)
    print(f"\n{'operation':<64}{'cases':>7}{'2xx':>6}{'4xx':>6}{'5xx':>6}")
    print("-" * 89)
    reached = 0
    for operation in operations:
        c = counts.get(operation, Counter())
        reached += c["2xx"] > 0
        print(f"{operation:<64}{c['cases']:>7}{c['2xx']:>6}{c['4xx']:>6}{c['5xx']:>6}")
    total = Counter[str]()
    for c in counts.values():
        total.update(c)
    print("-" * 89)
    print(f"{'all':<64}{total['cases']:>7}{total['2xx']:>6}{total['4xx']:>6}{total['5xx']:>6}")
    print(f"2xx reached: {reached} of {len(operations)} operations")
    missed = [operation for operation in operations if not counts.get(operation, Counter())["2xx"]]
    for operation in missed:
        answers = ", ".join(
            f"{n} x {key}"
            for key, n in sorted(counts.get(operation, Counter()).items())
            if key != "cases"
        )
        print(f"  no 2xx: {operation} ({answers or 'not run within the time budget'})")


EXCEPTION_LINE = re.compile(r"[A-Za-z_][\w.]*(Error|Exception|DoesNotExist)\b")


def print_server_errors(server_log: Path, limit: int = 10) -> None:
    """The failing path and the final exception of each 5xx in the server's log: the logs
    folder is a temporary one in CI, so this is all that is left to debug a failure from."""
    if not server_log.exists():
        return
    failures: list[list[str]] = []
    for line in server_log.read_text(errors="replace").splitlines():
        if line.startswith("Internal Server Error:"):
            failures.append([line, ""])
        elif failures and EXCEPTION_LINE.match(line):
            failures[-1][1] = line  # the last exception of a chain is the one raised
    for path, error in failures[:limit]:
        print(f"  {path}\n    {error}")


def fuzz_live(
    base: str,
    world: dict[str, Any],
    examples: int,
    work: Path,
    *,
    max_time: int = 150,
    request_timeout: int = 10,
) -> int:
    """schemathesis' CLI against the running server; returns the number of 5xx answers."""
    with urllib.request.urlopen(f"{base}/api/schema/?format=json", timeout=30) as response:
        schema = json.loads(response.read())
    config = work / "schemathesis.toml"
    write_config(schema, world, config)
    # The server's schema plus a seeded request per operation (sent first, examples phase).
    seeded = work / "schema.json"
    seeded.write_text(json.dumps(add_examples(schema, world)))
    # bench/fuzz_hooks.py: fresh objects for the generated requests (issue 37).
    hook_state = work / "fuzz-state.json"
    hook_state.write_text(
        json.dumps(
            {
                "base": base,
                "token": world["token"],
                "username": world["username"],
                "password": world["password"],
                "tag": world["tag"],
                "pools": world.get("pools") or {},
            }
        )
    )
    hook_env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "fuzz_hooks",
        "HANCHAN_FUZZ_STATE": str(hook_state),
        "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).resolve().parent), os.environ.get("PYTHONPATH", "")]
        ).rstrip(os.pathsep),
    }
    if not world.get("pools"):
        hook_env.pop("SCHEMATHESIS_HOOKS")
    print(f"\nschemathesis: {examples} examples per operation against {base}/api/schema/")
    # Two runs: in one, fuzzing fills whatever time the examples and coverage phases leave, and
    # the stateful phase (OpenAPI links) got none on a busy machine; a quarter of the budget is
    # its own.
    runs = [("examples,coverage,fuzzing", max_time - max_time // 4), ("stateful", max_time // 4)]
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    outputs, codes = [], []
    started = time.monotonic()
    for phases, seconds in runs:
        report = work / f"schemathesis-{phases.split(',')[0]}.ndjson"
        command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"]
        command += [str(seeded), "--url", base, "--checks", "not_a_server_error"]
        command += ["--max-examples", str(examples), "--max-time", str(seconds), "--seed", "1"]
        command += ["--phases", phases, "--no-shrink"]
        command += ["--report", "ndjson", "--report-ndjson-path", str(report), "--no-color"]
        command += ["--suppress-health-check", "all", "--workers", "1"]
        command += ["--request-timeout", str(request_timeout)]
        result = subprocess.run(
            command, cwd=work, env=hook_env, capture_output=True, text=True, timeout=seconds + 180
        )
        (work / f"{report.stem}.log").write_text(result.stdout + result.stderr)
        for operation, counted in (tally(report) if report.exists() else {}).items():
            counts[operation].update(counted)
        outputs.append(result.stdout)
        codes.append(result.returncode)
    print_report(counts, schema)
    server_errors = sum(c["5xx"] for c in counts.values())
    # schemathesis closes with a pytest-style "=== ... ===" banner; CI reads such banners as a
    # test runner's verdict, so they are left out of what we print.
    tails = []
    for (phases, _seconds), output in zip(runs, outputs, strict=True):
        lines = [line for line in output.strip().splitlines() if not line.startswith("==")]
        tails.append(f"[{phases}]\n" + "\n".join(lines[-12:]))
    tail = "\n".join(tails)
    print(f"\nschemathesis ({time.monotonic() - started:.0f} s):\n{tail}")
    rejected = [int(n) for n in re.findall(r"(\d+) operations? mostly rejected", "".join(outputs))]
    print(
        f"operations that mostly rejected generated data (schemathesis' warning): "
        f"{max(rejected, default=0)}"
    )
    result = subprocess.CompletedProcess(command, max(codes), "\n".join(outputs))
    if result.returncode not in (0, 1):
        raise RuntimeError(f"schemathesis could not run ({result.returncode}):\n{tail}")
    if result.returncode == 1 and not server_errors:
        server_errors = max(1, result.stdout.count("Server error"))  # count it, don't hide it
    print(f"server errors (5xx) found: {server_errors} -> {'OK' if not server_errors else 'FAIL'}")
    if server_errors:
        print_server_errors(work / "gunicorn.log")
    return server_errors


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5, help="examples per operation (5)")
    parser.add_argument("--max-time", type=int, default=150, help="time budget in seconds")
    parser.add_argument("--keep", action="store_true", help="keep the work folder and database")
    parser.add_argument(
        "--database-url",
        help="a database of your own (e.g. postgres://127.0.0.1/hanchan_fuzz, as CI's PostgreSQL"
        " run); migrated and seeded, never dropped (default: a scratch SQLite file)",
    )
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hanchan-fuzz-"))
    env = {
        **os.environ,
        "DATABASE_URL": options.database_url or f"sqlite:///{work / 'fuzz.sqlite3'}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("HANCHAN_TESTING", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(
        {k: env[k] for k in ("DATABASE_URL", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")}
    )
    os.environ.pop("HANCHAN_TESTING", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    world = seed_fuzz_world()
    world["pools"] = seed_pools(world)
    port = _free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"),
            *("--workers", "2", "--timeout", "60", "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(work / "gunicorn.log").open("w"),
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/health/", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        # Without a broker the server runs tasks inside the request (CELERY_TASK_ALWAYS_EAGER):
        # a Swiss seating plan took 11 s there on a loaded machine, past schemathesis' 10 s.
        found = fuzz_live(
            base, world, options.examples, work, max_time=options.max_time, request_timeout=60
        )
        return 1 if found else 0
    finally:
        server.terminate()
        server.wait(timeout=30)
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept {work}")


if __name__ == "__main__":
    sys.exit(main())
