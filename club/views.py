"""Club pages: the club list, a club with its leagues and nights, league tables and ratings."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from club.models import Club, League, Player, Rating
from scoring.models import Game


def club_list(request: HttpRequest) -> HttpResponse:
    return render(request, "club/list.html", {"clubs": Club.objects.all()})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    context = {
        "club": club,
        "leagues": club.leagues.all(),
        "nights": club.nights.all()[:10],
        "members": club.memberships.select_related("player").order_by("player__last_name"),
    }
    return render(request, "club/detail.html", context)


def league_rows(league: League) -> list[dict[str, Any]]:
    """Each player's results in the league's finished games, aggregated as the league says."""
    results: dict[int, list[int]] = defaultdict(list)
    games = Game.objects.filter(
        club_night__league=league, status=Game.Status.FINISHED
    ).prefetch_related("seats")
    for game in games:
        final = (game.summary or {}).get("final") or {}
        result = final.get("result") or []
        for seat in game.seats.all():
            if seat.seat < len(result):
                results[seat.player_id].append(int(result[seat.seat]))
    players = Player.objects.in_bulk(list(results))
    rows: list[dict[str, Any]] = []
    for player_id, values in results.items():
        if len(values) < league.min_games:
            continue
        if league.aggregate == League.Aggregate.AVERAGE:
            score: float = sum(values) / len(values)
        elif league.aggregate == League.Aggregate.BEST_N and league.best_n:
            score = sum(sorted(values, reverse=True)[: league.best_n])
        else:
            score = sum(values)
        rows.append({"player": players[player_id], "games": len(values), "score": round(score)})
    rows.sort(key=lambda row: (-row["score"], str(row["player"])))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows


def league_detail(request: HttpRequest, slug: str, league_id: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    league = get_object_or_404(League, pk=league_id, club=club)
    return render(
        request, "club/league.html", {"club": club, "league": league, "rows": league_rows(league)}
    )


def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """Club members' ratings, ordered by the conservative estimate mu - 3 sigma."""
    club = get_object_or_404(Club, slug=slug)
    rows = sorted(
        Rating.objects.filter(player__memberships__club=club).select_related("player"),
        key=lambda r: -(r.mu - 3 * r.sigma),
    )
    table = [
        {"rank": i, "rating": r, "ordinal": round(r.mu - 3 * r.sigma, 2)}
        for i, r in enumerate(rows, start=1)
    ]
    return render(request, "club/ratings.html", {"club": club, "rows": table})
