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
from django.db.models import F, Max
from openskill.models import PlackettLuce

from club.models import Rating, RatingChange
from scoring.models import Game, GameSeat
from scoring.records import game_final

MODEL = PlackettLuce()


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


def _finished() -> Iterable[Game]:
    # Club play without a referee: a game with hands still waiting for confirmation is not rated.
    return Game.objects.filter(status=Game.Status.FINISHED, confirmed=True).order_by(
        *_rated_order()
    )


@transaction.atomic
def rebuild_ratings() -> int:
    """Recompute every rating and the whole history from all finished games; returns the number
    of games rated. Idempotent."""
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


@transaction.atomic
def rate_game(*, game_id: int) -> None:
    """Bring ratings up to date after ``game_id`` changed: append it when it is the newest
    finished game and not yet rated, otherwise rebuild the history."""
    game = Game.objects.filter(pk=game_id).first()
    rated = RatingChange.objects.filter(game_id=game_id).exists()
    if game is None or rated or game.status != Game.Status.FINISHED or not game.confirmed:
        if rated or game is None:
            rebuild_ratings()
        return
    later_rated = RatingChange.objects.exclude(game_id=game_id).aggregate(
        last=Max("game__finished_at")
    )["last"]
    if later_rated is not None and game.finished_at is not None and later_rated > game.finished_at:
        rebuild_ratings()
        return
    players = list(GameSeat.objects.filter(game_id=game_id).values_list("player_id", flat=True))
    current = {
        r.player_id: (r.mu, r.sigma, r.games)
        for r in Rating.objects.select_for_update().filter(player_id__in=players)
    }
    matches = _matches([game])
    if not matches:
        return
    changes = _apply(matches[0], current)
    RatingChange.objects.bulk_create(changes)
    for pid in players:
        mu, sigma, n = current[pid]
        Rating.objects.update_or_create(
            player_id=pid, defaults={"mu": mu, "sigma": sigma, "games": n}
        )


def leaderboard(*, min_games: int = 0) -> list[Rating]:
    """Ratings by ordinal (mu - 3 sigma), best first."""
    rows = list(Rating.objects.filter(games__gte=min_games).select_related("player"))
    return sorted(rows, key=lambda r: (-ordinal(r.mu, r.sigma), r.player_id))
