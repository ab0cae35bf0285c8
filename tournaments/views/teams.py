"""A team event's public pages (issue 32.1, docs/teams.md): the team standings (a tab of the
standings page, the projector, the CSV download) and each team's page (members and games).

Public like the player standings (drafts only to their staff); not found unless the
tournament is a team event."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from scoring.models import Game, GameSeat
from scoring.selectors import visible_games
from scoring.summary import GameSummary
from tournaments import roles
from tournaments.models import Team, Tournament
from tournaments.standings import cache as standings_cache
from tournaments.standings.exports import team_standings_csv
from tournaments.standings.labels import TIE_BREAK_LABELS
from tournaments.standings.ranking import tie_breaks_of
from tournaments.standings.selectors import standings_for
from tournaments.standings.teams import TeamStanding, team_standings
from tournaments.views.public import _tie_break_text
from tournaments.views.visibility import public_view, visible_tournament


def team_event(request: HttpRequest, slug: str) -> Tournament:
    tournament = visible_tournament(request, slug)
    if not tournament.teams_enabled:
        raise Http404("Not a team event.")
    return tournament


def _tie_break_names(tournament: Tournament) -> list[str]:
    try:
        return list(tie_breaks_of(tournament.tie_breaks))
    except ValueError:
        return []


def team_standings_table_html(tournament: Tournament) -> str:
    names = _tie_break_names(tournament)
    rows = team_standings(tournament)
    context = {
        "tournament": tournament,
        "lines": [
            {"row": row, "tie_breaks": [_tie_break_text(v) for v in row.tie_break_values]}
            for row in rows
        ],
        "tie_break_names": [TIE_BREAK_LABELS.get(n, n) for n in names],
    }
    return render_to_string("tournaments/_team_standings_table.html", context)


def team_standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings page's Teams tab; the table re-fetches itself every 15 s as the players'
    does, and is rendered once per standings change and language."""
    tournament = team_event(request, slug)
    table = standings_cache.cached(
        tournament, f"team-html-{get_language()}", lambda: team_standings_table_html(tournament)
    )
    if request.headers.get("HX-Request"):
        return HttpResponse(table)
    return render(
        request,
        "tournaments/team_standings.html",
        {
            "tournament": tournament,
            "table": mark_safe(table),  # rendered by our own template
            "view": public_view(request, tournament),  # the staff's note (issue 32.3)
        },
    )


def projector_team_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The team standings in large print for the hall, paged like the players' projector."""
    tournament = team_event(request, slug)
    try:
        seconds = min(max(int(request.GET.get("seconds", "10")), 4), 60)
    except ValueError:
        seconds = 10
    context = {
        "tournament": tournament,
        "rows": team_standings(tournament),
        "seconds": seconds,
        "provisional": tournament.status != tournament.Status.PUBLISHED,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/hall/_team_standings_rows.html", context)
    return render(request, "tournaments/hall/team_standings.html", context)


def team_standings_download(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = team_event(request, slug)
    response = HttpResponse(team_standings_csv(tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-team-standings.csv"'
    return response


def _find_team(tournament: Tournament, key: str) -> Team:
    """A team by its slug, or by its id (a slug is never all digits)."""
    teams = Team.objects.filter(tournament=tournament)
    team = teams.filter(pk=int(key)).first() if key.isdigit() else teams.filter(slug=key).first()
    if team is None:
        raise Http404("No such team.")
    return team


def _team_games(tournament: Tournament, player_ids: list[int]) -> list[dict[str, Any]]:
    """The members' games by session and table: who of the team sat where, and how it ended."""
    seats = (
        GameSeat.objects.filter(
            player_id__in=player_ids, game__table__session__tournament=tournament
        )
        .select_related("game__table__session", "player")
        .order_by("game__table__session__number", "game__table__number", "seat")
    )
    games = []
    for game_seat in seats:
        game: Game = game_seat.game
        table = roles.table_of(game)
        summary = GameSummary.of(game.summary)
        finished = game.status == Game.Status.FINISHED and bool(summary.final)
        games.append(
            {
                "game": game,
                "session": table.session.number if table else None,
                "table": table.number if table else None,
                "player": game_seat.player,
                "finished": finished,
                "rank": (summary.rank or [None] * 4)[game_seat.seat] if finished else None,
                "result": (summary.result or [None] * 4)[game_seat.seat] if finished else None,
            }
        )
    return games


def _shown(user: Any, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Issue 32.3: a game whose results are hidden from `user` (scoring's visibility
    question, TournamentGamePolicy.visible) keeps its session, table and player only."""
    visible = set(
        visible_games(user)
        .filter(pk__in=[g["game"].pk for g in games])
        .values_list("pk", flat=True)
    )
    return [
        g
        if g["game"].pk in visible
        else {**g, "hidden": True, "finished": False, "rank": None, "result": None}
        for g in games
    ]


def team_page(request: HttpRequest, slug: str, team: str) -> HttpResponse:
    """`/t/<slug>/teams/<slug or id>/`: the team's place in the team standings, its members
    (counted or not, with their own rank and total) and their games."""
    tournament = team_event(request, slug)
    found = _find_team(tournament, team)
    # The public's view, also for the staff unless they preview the hidden results (32.3).
    view = public_view(request, tournament)
    ranked = team_standings(tournament, standings_for(tournament) if view.preview else None)
    standing: TeamStanding | None = next((row for row in ranked if row.team_id == found.pk), None)
    members = list(found.members.select_related("player").order_by("pk"))
    context = {
        "tournament": tournament,
        "team": found,
        "standing": standing,
        "registrations": {r.player_id: r for r in members},
        "games": _shown(view.reader, _team_games(tournament, [r.player_id for r in members])),
        "view": view,
    }
    return render(request, "tournaments/team.html", context)
