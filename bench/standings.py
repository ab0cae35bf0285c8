"""Standings benchmark: 1000 players x 12 sessions (3000 games, ~30k hands).

Builds the tournament in a temporary SQLite database (migrated), then times the full
recompute (target <= 2 s) and the update after one hand changed (target <= 1/50 of the full
recompute), and prints both and their ratio.

    HANCHAN_TESTING=1 .venv/bin/python bench/standings.py [--players 1000] [--sessions 12]
"""

from __future__ import annotations

import argparse
import atexit
import datetime
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WINS = [(1, 30), (2, 30), (3, 30), (4, 30), (1, 40), (2, 40), (3, 40), (2, 50), (5, None)]


def random_hand(rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    riichi = [s for s in range(4) if rng.random() < 0.15]
    han, fu = rng.choice(WINS)
    win: dict[str, Any] = {"han": han} | ({"fu": fu} if fu else {})
    if roll < 0.55:
        winner = rng.randrange(4)
        loser = rng.choice([s for s in range(4) if s != winner])
        return {
            "outcome": "ron",
            "loser": loser,
            "wins": [{"winner": winner, **win}],
            "riichi": [s for s in riichi if s != loser],
        }
    if roll < 0.85:
        return {"outcome": "tsumo", "wins": [{"winner": rng.randrange(4), **win}], "riichi": riichi}
    return {
        "outcome": "draw",
        "tenpai": sorted(rng.sample(range(4), rng.randrange(5))),
        "riichi": riichi,
    }


def playable_hands(rng: random.Random, ruleset: str, count: int) -> tuple[list[dict], dict]:
    """Random hands the engine accepts (cut where the rules end the game), and the replay."""
    from scoring.engine import RecordError, replay

    hands = [random_hand(rng) for _ in range(count)]
    record = {
        "format": "riichi-game-record/1",
        "ruleset": ruleset,
        "players": list("ABCD"),
        "hands": hands,
        "end": "time",
    }
    while True:
        try:
            return hands, replay({**record, "hands": hands})
        except RecordError as exc:
            if exc.hand is None or exc.hand == 0:
                hands = [random_hand(rng) for _ in range(count)]
            else:
                hands = hands[: exc.hand]  # the game was over, or a hand did not fit: cut


def build(players: int, sessions: int, hands_per_game: int, seed: int) -> int:
    from core.models import Player
    from scoring.models import Game, GameSeat, Hand
    from tournaments.models import Registration, Seat, Session, Table, Tournament

    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        name="Bench Open",
        slug="bench-open",
        ruleset="ema-2025",
        starts_on=datetime.date(2026, 6, 1),
        ends_on=datetime.date(2026, 6, 3),
        sessions_planned=sessions,
        tie_breaks=["best_game", "most_firsts", "head_to_head"],
    )
    people = Player.objects.bulk_create(
        Player(
            first_name=f"P{i}",
            last_name=f"Bench{i:04d}",
            ema_number=f"{i:08d}",
            country=rng.choice(["DE", "FR", "NL", "AT", "DK", "PL", "IT"]),
        )
        for i in range(players)
    )
    Registration.objects.bulk_create(Registration(tournament=tournament, player=p) for p in people)
    session_rows = Session.objects.bulk_create(
        Session(tournament=tournament, number=n + 1, status="closed") for n in range(sessions)
    )
    tables = Table.objects.bulk_create(
        Table(session=s, number=t + 1) for s in session_rows for t in range(players // 4)
    )
    seatings: list[list[Any]] = []
    for _session in range(sessions):
        order = people[:]
        rng.shuffle(order)
        seatings.extend(order[4 * t : 4 * t + 4] for t in range(players // 4))
    Seat.objects.bulk_create(
        Seat(table=table, wind=w, player=p)
        for table, four in zip(tables, seatings, strict=True)
        for w, p in enumerate(four)
    )
    played = [playable_hands(rng, "ema-2025", hands_per_game) for _ in tables]
    now = datetime.datetime.now(tz=datetime.UTC)
    games = Game.objects.bulk_create(
        Game(
            ruleset="ema-2025",
            status="finished",
            end="time",
            summary=summary,
            version=len(hands),
            finished_at=now,
        )
        for hands, summary in played
    )
    for table, game in zip(tables, games, strict=True):
        table.game = game  # the table holds the link (issue 14)
    Table.objects.bulk_update(tables, ["game"])
    GameSeat.objects.bulk_create(
        GameSeat(game=g, seat=w, player=p)
        for g, four in zip(games, seatings, strict=True)
        for w, p in enumerate(four)
    )
    Hand.objects.bulk_create(
        (
            Hand(game=g, number=i, data=h)
            for g, (hands, _) in zip(games, played, strict=True)
            for i, h in enumerate(hands)
        ),
        batch_size=2000,
    )
    return tournament.pk


def change_one_hand(tournament_id: int, rng: random.Random) -> int:
    """Correct one hand of one game (as scoring's correct_hand would) and return the game id."""
    from scoring.engine import RecordError, replay
    from scoring.models import Game, Hand
    from scoring.records import game_record

    games = list(
        Game.objects.filter(table__session__tournament_id=tournament_id).values_list(
            "id", flat=True
        )
    )
    while True:
        game = Game.objects.get(pk=rng.choice(games))
        hand = Hand.objects.filter(game=game).order_by("-number").first()
        if hand is None:
            continue
        old = hand.data
        hand.data = random_hand(rng)
        hand.save()
        try:
            game.summary = replay(game_record(game))
        except RecordError:
            hand.data = old
            hand.save()
            continue
        game.version += 1
        game.save(update_fields=["summary", "version"])
        return game.pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=12)
    parser.add_argument("--hands", type=int, default=16, help="hands per game (at most)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="hanchan-bench-")
    atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("HANCHAN_TESTING", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from scoring.models import Hand
    from tournaments.models import StandingRow
    from tournaments.standings.services import (
        compute_standings,
        recompute_standings,
        update_game_standings,
    )

    call_command("migrate", verbosity=0)
    from django.db import connection

    if connection.vendor == "sqlite":
        # WAL with synchronous=NORMAL: commits append to the log without an fsync each, the
        # usual setting for SQLite behind a web app (else every commit waits for the disk).
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
    started = time.perf_counter()
    tournament_id = build(args.players, args.sessions, args.hands, args.seed)
    games = args.players // 4 * args.sessions
    print(
        f"built {args.players} players x {args.sessions} sessions: {games} games, "
        f"{Hand.objects.count()} hands in {time.perf_counter() - started:.1f} s"
    )

    full: list[float] = []
    full_cpu: list[float] = []
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        recompute_standings(tournament_id=tournament_id)
        full.append(time.perf_counter() - t0)
        full_cpu.append(time.process_time() - c0)
    rng = random.Random(args.seed + 1)
    incremental: list[float] = []
    incremental_cpu: list[float] = []
    for _ in range(args.repeat * 10):
        game_id = change_one_hand(tournament_id, rng)
        t0, c0 = time.perf_counter(), time.process_time()
        update_game_standings(tournament_id=tournament_id, game_id=game_id)
        incremental.append(time.perf_counter() - t0)
        incremental_cpu.append(time.process_time() - c0)

    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=tournament_id)
    fields = ["player_id", "rank", "total", "per_session", "tie_break_values"]
    stored = sorted(StandingRow.objects.filter(tournament_id=tournament_id).values_list(*fields))
    fresh = sorted(tuple(getattr(r, f) for f in fields) for r in compute_standings(tournament))
    same = stored == fresh

    full_s, inc_s = statistics.median(full), statistics.median(incremental)
    full_c, inc_c = statistics.median(full_cpu), statistics.median(incremental_cpu)
    print(
        f"database: {connection.vendor}; medians of {len(full)} full and "
        f"{len(incremental)} one-hand runs (wall clock; CPU time in brackets)"
    )
    print(
        f"full recompute:   {full_s * 1000:8.1f} ms [{full_c * 1000:.1f}]  (target <= 2000 ms) "
        f"{'ok' if full_s <= 2 else 'SLOW'}"
    )
    print(
        f"one-hand update:  {inc_s * 1000:8.1f} ms [{inc_c * 1000:.1f}]  (target <= full / 50 "
        f"= {full_s * 1000 / 50:.1f} ms) {'ok' if inc_s <= full_s / 50 else 'SLOW'}"
    )
    print(f"ratio full / one-hand: {full_s / inc_s:.0f}x [{full_c / inc_c:.0f}x] (target >= 50x)")
    print(f"incremental rows identical to a full rebuild: {same}")


if __name__ == "__main__":
    main()
