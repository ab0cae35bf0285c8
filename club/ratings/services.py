"""Ratings: one openskill Plackett-Luce rating per player over every finished game.

Each finished game, club or tournament, is one match of four (or three) single-player teams
ranked by their table places (ties share a place). Games are taken in the order they finished
(``finished_at``, then creation, then id). Ratings depend on that order, so:

- a game finished after every rated game is simply applied (``rate_game``);
- any other change (a correction to an already rated game, a late entry) rebuilds the whole
  history (``rebuild_ratings``), which is fast (a few thousand games per second).

The shown rating is the conservative ``ordinal = mu - 3 * sigma``. See docs/ratings.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F, Min, QuerySet
from openskill.models import PlackettLuce

from club.models import Rating, RatingChange, RatingsState
from scoring.models import Game, GameSeat
from scoring.records import game_final

MODEL = PlackettLuce()
STATE_ROW = 1  # RatingsState has one row


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


@dataclass(frozen=True)
class _Match:
    game_id: int
    players: list[int]  # by seat
    places: list[int]  # by seat, 1 = first


def _rated_order() -> list[Any]:
    return [F("finished_at").asc(nulls_last=True), F("created_at").asc(), F("id").asc()]


def _matches(games: Iterable[Game]) -> list[_Match]:
    games = list(games)
    seats: dict[int, dict[int, int]] = {}
    for game_id, seat, pid in GameSeat.objects.filter(
        game_id__in=[g.pk for g in games]
    ).values_list("game_id", "seat", "player_id"):
        seats.setdefault(game_id, {})[seat] = pid
    out = []
    for game in games:
        final = game_final(game)
        by_seat = seats.get(game.pk, {})
        if final is None or len(by_seat) != len(final["rank"]):
            continue
        order = sorted(by_seat)
        out.append(
            _Match(game.pk, [by_seat[s] for s in order], [int(final["rank"][s]) for s in order])
        )
    return out


def _apply(match: _Match, current: dict[int, tuple[float, float, int]]) -> list[RatingChange]:
    before = [current.get(pid, (MODEL.mu, MODEL.sigma, 0)) for pid in match.players]
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in match.places])
    changes = []
    for pid, (mu0, s0, n), [new] in zip(match.players, before, after, strict=True):
        current[pid] = (new.mu, new.sigma, n + 1)
        changes.append(
            RatingChange(
                player_id=pid,
                game_id=match.game_id,
                mu_before=mu0,
                sigma_before=s0,
                mu_after=new.mu,
                sigma_after=new.sigma,
            )
        )
    return changes


def _finished() -> QuerySet[Game]:
    # Club play without a referee: a game with hands still waiting for confirmation is not rated.
    return Game.objects.filter(status=Game.Status.FINISHED, confirmed=True).order_by(
        *_rated_order()
    )


@transaction.atomic
def rebuild_ratings() -> int:
    """Recompute every rating and the whole history from all finished games; returns the number
    of games rated. Idempotent."""
    _lock_ratings()
    current: dict[int, tuple[float, float, int]] = {}
    changes: list[RatingChange] = []
    matches = _matches(_finished())
    for match in matches:
        changes.extend(_apply(match, current))
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    Rating.objects.bulk_create(
        [
            Rating(player_id=pid, mu=mu, sigma=sigma, games=n)
            for pid, (mu, sigma, n) in sorted(current.items())
        ],
        batch_size=1000,
    )
    return len(matches)


def _lock_ratings() -> None:
    """Ratings updates run one at a time: each reads the history the previous one wrote."""
    RatingsState.objects.select_for_update().get_or_create(pk=STATE_ROW)


def _applied_order() -> list[int]:
    """Rated games in the order their changes were written (RatingChange ids grow)."""
    return [
        game_id
        for game_id, _first in RatingChange.objects.values_list("game_id")
        .annotate(first=Min("id"))
        .order_by("first")
    ]


@transaction.atomic
def rate_game(*, game_id: int) -> None:
    """Bring ratings up to date after ``game_id`` changed (finished, corrected, reopened).

    Ratings depend on order, so the history is rewound to the first place where the games
    applied so far and the rated order (``_finished``) part, at the latest the changed game
    itself, and replayed from there: a game finished after every rated one is appended; two
    games whose updates arrive in the other order (finished a moment apart at two tables)
    replay those two, not the whole history. The result is the full rebuild's, float for
    float (same games, same order, same arithmetic; tests/standings/test_standings_ratings.py).
    """
    _lock_ratings()
    if not Game.objects.filter(pk=game_id).exists():
        rebuild_ratings()  # its history went with it (cascade): nothing left to rewind from
        return
    applied = _applied_order()
    target = list(_finished().values_list("id", flat=True))
    common = 0
    for done, wanted in zip(applied, target, strict=False):
        if done != wanted or done == game_id:
            break
        common += 1
    undone, redo = applied[common:], target[common:]
    if not undone and not redo:
        return
    by_id = Game.objects.in_bulk(redo)
    matches = _matches(by_id[pk] for pk in redo)
    removed = list(
        RatingChange.objects.filter(game_id__in=undone)
        .order_by("id")
        .values_list("player_id", "mu_before", "sigma_before")
    )
    players = {pid for pid, _mu, _sigma in removed} | {
        pid for match in matches for pid in match.players
    }
    current = {
        pid: (mu, sigma, games)
        for pid, mu, sigma, games in Rating.objects.filter(player_id__in=players).values_list(
            "player_id", "mu", "sigma", "games"
        )
    }
    if any(pid not in current for pid, _mu, _sigma in removed):
        rebuild_ratings()  # a history without its rating (edited by hand): start over
        return
    rewound: set[int] = set()
    for pid, mu_before, sigma_before in removed:  # oldest first: the state before it is kept
        games = current[pid][2] - 1
        current[pid] = (
            (current[pid][0], current[pid][1], games)
            if pid in rewound
            else (mu_before, sigma_before, games)
        )
        rewound.add(pid)
    RatingChange.objects.filter(game_id__in=undone).delete()
    changes: list[RatingChange] = []
    for match in matches:
        changes.extend(_apply(match, current))
    RatingChange.objects.bulk_create(changes)
    # Every player here is in `current`: rewound (checked above) or just rated.
    Rating.objects.filter(player_id__in=[p for p in players if current[p][2] == 0]).delete()
    Rating.objects.bulk_create(
        [
            Rating(player_id=pid, mu=mu, sigma=sigma, games=games)
            for pid, (mu, sigma, games) in sorted(current.items())
            if games
        ],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "games", "updated_at"],
    )


def leaderboard(*, min_games: int = 0) -> list[Rating]:
    """Ratings by ordinal (mu - 3 sigma), best first."""
    rows = list(Rating.objects.filter(games__gte=min_games).select_related("player"))
    return sorted(rows, key=lambda r: (-ordinal(r.mu, r.sigma), r.player_id))
