"""Public tournament pages: list, detail, live standings, player pages, "where do I sit"."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core import names
from core.models import Player
from core.roles import is_site_admin
from scoring.models import Game, GameSeat
from scoring.selectors import round_label, visible_games
from scoring.summary import GameSummary
from tournaments import my_seat, roles
from tournaments.award_selectors import tournament_awards
from tournaments.models import Seat, Session, StandingRow, Tournament
from tournaments.roster import RosterSeat
from tournaments.selectors import HIDDEN, session_roster
from tournaments.standings import cache as standings_cache
from tournaments.standings.labels import TIE_BREAK_LABELS
from tournaments.standings.ranking import tie_breaks_of
from tournaments.standings.selectors import public_standings, session_numbers, standings_for
from tournaments.views.charts import line_chart_svg
from tournaments.views.visibility import public_view, visible_tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.exclude(status__in=HIDDEN)
    own: list[Tournament] = []
    if is_site_admin(request.user):
        own = list(Tournament.objects.all())
    elif request.user.is_authenticated:
        own = list(Tournament.objects.filter(staff__user_id=request.user.pk).distinct())
    return render(request, "tournaments/list.html", {"tournaments": tournaments, "own": own})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    sessions = tournament.sessions.all()
    context = {
        "tournament": tournament,
        "sessions": sessions,
        "players": tournament.registrations.filter(dropped_at__isnull=True).count(),
        "is_organiser": roles.is_organiser(request.user, tournament),
    }
    return render(request, "tournaments/detail.html", context)


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Live standings; the table re-fetches itself every 15 s (htmx polling)."""
    tournament = visible_tournament(request, slug)
    # The table shows nothing of the reader's: rendered once per standings change and language.
    table = standings_cache.cached(
        tournament, f"html-{get_language()}", lambda: standings_table_html(tournament)
    )
    if request.headers.get("HX-Request"):
        return HttpResponse(table)
    return render(
        request,
        "tournaments/standings.html",
        {
            "tournament": tournament,
            "table": mark_safe(table),  # rendered by our own template
            # The table is the public's for everyone; the staff are told so (issue 32.3).
            "view": public_view(request, tournament),
        },
    )


def standings_table_html(tournament: Tournament) -> str:
    public = public_standings(tournament)
    rows = public.rows
    sessions = session_numbers(rows)
    try:
        tie_breaks = tie_breaks_of(tournament.tie_breaks)
    except ValueError:
        tie_breaks = ()
    context = {
        "tournament": tournament,
        "lines": standings_lines(rows, sessions, tie_breaks),
        "sessions": sessions,
        "tie_break_names": [TIE_BREAK_LABELS.get(name, name) for name in tie_breaks],
        "hidden_from": public.hidden_from,
    }
    return render_to_string("tournaments/_standings_table.html", context)


# The names shown for Tournament.tie_breaks (tournaments/standings/ranking.py TIE_BREAKS).


def _tie_break_text(value: float | int | None) -> str:
    """A tie-break value as shown: a dash when there is none, averages to two decimals in the
    reader's number format, counts and points as they are."""
    if value is None:
        return "\u2013"  # en dash, as the other empty standings cells
    if isinstance(value, float) and not value.is_integer():
        return str(number_format(value, 2))
    return str(int(value))


def standings_lines(
    rows: list[StandingRow], sessions: list[int], tie_breaks: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Each row with its per-session cells (the game result; a seat played as a substitute
    is marked and does not count, EMA 2025 7.3) and its tie-break values: shown in columns
    (a line under the name on phones, issue 22) and, as before, as a tooltip."""
    lines = []
    for row in rows:
        by_session: dict[int, dict[str, Any]] = {}
        for entry in row.per_session:
            cell = by_session.setdefault(
                int(entry["session"]),
                {
                    "result": 0,
                    "place": entry.get("place"),
                    "table": entry.get("table"),
                    "sub": False,
                },
            )
            if entry.get("as_substitute"):
                cell["sub"] = True
            else:
                cell["result"] += int(entry["result"])
        title = "; ".join(
            f"{TIE_BREAK_LABELS.get(name, name)}: {'-' if value is None else value}"
            for name, value in zip(tie_breaks, row.tie_break_values or [], strict=False)
        )
        in_game = row.all_penalties - row.penalties
        values = list(row.tie_break_values or [])
        lines.append(
            {
                "row": row,
                "cells": [by_session.get(n) for n in sessions],
                "tie_breaks": title,
                # Tournament penalties and what games deducted after uma (chombo, EMA 2025
                # 3.4.6; already in the game results): every deduction shows in the column.
                "penalties": row.all_penalties,
                "penalties_title": _("in games (chombo): %(games)s; tournament: %(t)s")
                % {"games": in_game, "t": row.penalties}
                if in_game
                else "",
                "tie_break_cells": [
                    {
                        "name": TIE_BREAK_LABELS.get(name, name),
                        "value": _tie_break_text(values[i] if i < len(values) else None),
                    }
                    for i, name in enumerate(tie_breaks)
                ],
            }
        )
    return lines


def _player_games(tournament: Tournament, player: Player) -> list[dict[str, Any]]:
    """The player's tournament games in session order, each with their score through it
    (every game: `shown_games` hides what the reader may not see)."""
    seats = (
        GameSeat.objects.filter(player=player, game__table__session__tournament=tournament)
        .select_related("game__table__session")
        .order_by("game__table__session__number")
    )
    games: list[dict[str, Any]] = []
    for game_seat in seats:
        game: Game = game_seat.game
        table = roles.table_of(game)  # read with the seat (select_related)
        summary = GameSummary.of(game.summary)
        hands = summary.hands
        seat = game_seat.seat
        start = (hands[0]["scores"][seat] - hands[0]["deltas"][seat]) if hands else None
        scores = ([start] if start is not None else []) + [h["scores"][seat] for h in hands]
        labels = [_("start")] + [round_label(h) for h in hands]
        final = summary.final or {}
        result = (summary.result or [None] * 4)[seat] if final else None
        rank = (summary.rank or [None] * 4)[seat] if final else None
        games.append(
            {
                "game": game,
                "session": table.session if table else None,
                "table": table,
                "seat": seat,
                "opponents": [
                    str(s.player) for s in game.seats.select_related("player") if s.seat != seat
                ],
                "hands": hands,
                "result": result,
                "rank": rank,
                "finished": game.status == Game.Status.FINISHED,
                "chart": line_chart_svg(
                    scores,
                    labels=labels,
                    title=_("Score through session %(n)s") % {"n": table.session.number}
                    if table
                    else _("Score"),
                    baseline=start,
                )
                if scores
                else None,
                # EMA 2025 7.3: sat in for an absent player: shown, not counted.
                "as_substitute": _replaced_at(game, seat) not in (None, player.pk),
            }
        )
    games += _substituted_sessions(tournament, player)
    games.sort(key=lambda g: (g["session"].number if g["session"] else 0, g["game"].pk))
    return games


def _replaced_at(game: Game, seat: int) -> int | None:
    """The player the tournament seated at ``seat`` when a substitute took that seat
    (EMA 2025 7.3), else None."""
    table = roles.table_of(game)
    if table is None or not any(int(s.get("seat", -1)) == seat for s in game.substitutes or []):
        return None
    found = Seat.objects.filter(table_id=table.pk, wind=seat).values_list("player_id", flat=True)
    return found[0] if found else None


def _substituted_sessions(tournament: Tournament, player: Player) -> list[dict[str, Any]]:
    """The sessions a substitute played in this player's seat: EMA 2025 7.3, "A player who is
    substituted will score -15,000 points and -15,000 uma at each session" (the seat's result,
    as the standings count it), with no place and no hands of their own."""
    out: list[dict[str, Any]] = []
    for seat in Seat.objects.filter(
        player=player, table__session__tournament=tournament
    ).select_related("table__session"):
        game = Game.objects.filter(table__id=seat.table_id).first()
        if game is None:
            continue
        sub = next((s for s in game.substitutes or [] if int(s.get("seat", -1)) == seat.wind), None)
        sitter = game.seats.select_related("player").filter(seat=seat.wind).first()
        if sub is None or sitter is None or sitter.player_id == player.pk:
            continue
        final = GameSummary.of(game.summary).final or {}
        finished = game.status == Game.Status.FINISHED
        out.append(
            {
                "game": game,
                "session": seat.table.session,
                "table": seat.table,
                "seat": seat.wind,
                "opponents": [
                    str(s.player)
                    for s in game.seats.select_related("player")
                    if s.seat != seat.wind
                ],
                "hands": [],
                # EMA 2025 7.3: -15,000 and -15,000 uma; the substitute's own penalties in
                # the game (a chombo) are theirs, as the standings count it.
                "result": final["result"][seat.wind]
                + (final.get("penalties") or [0] * 4)[seat.wind]
                if finished and final
                else None,
                "rank": None,
                "finished": finished,
                "chart": None,
                "substituted": True,
                "substitute": str(sitter.player),
                "during": sub.get("from") == "during",
                "as_substitute": False,
            }
        )
    return out


def shown_games(user: Any, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`games` as `user` may see them: a game whose results are hidden from them (issue 32.3:
    a session from `standings_hidden_from` on, not their table, not staff) keeps its session,
    table and opponents, and loses its result, place, hands and chart. Which games those are
    is scoring's visibility question (`visible_games`: TournamentGamePolicy.visible)."""
    ids = {entry["game"].pk for entry in games}
    visible = set(visible_games(user).filter(pk__in=ids).values_list("pk", flat=True))
    out = []
    for entry in games:
        if entry["game"].pk not in visible:
            entry = {
                **entry,
                "hidden": True,
                "hands": [],
                "result": None,
                "rank": None,
                "finished": False,
                "chart": None,
            }
        out.append(entry)
    return out


def player_statistics(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Hand-level counts from the game summaries and stored hands (won, dealt in, riichi)."""
    hands = wins = deal_ins = riichi = 0
    placements: list[int] = []
    for entry in games:
        if entry.get("substituted") or entry.get("hidden"):
            continue  # a substitute played these hands (EMA 2025 7.3); results hidden (32.3)
        seat = entry["seat"]
        for stored in entry["game"].hands.all():
            data = stored.data
            hands += 1
            if any(w.get("winner") == seat for w in data.get("wins", [])):
                wins += 1
            if data.get("outcome") == "ron" and data.get("loser") == seat:
                deal_ins += 1
            if seat in data.get("riichi", []):
                riichi += 1
        if entry["finished"] and entry["rank"]:
            placements.append(entry["rank"])
    return {
        "hands": hands,
        "win_rate": round(100 * wins / hands, 1) if hands else None,
        "deal_in_rate": round(100 * deal_ins / hands, 1) if hands else None,
        "riichi_rate": round(100 * riichi / hands, 1) if hands else None,
        "average_placement": round(sum(placements) / len(placements), 2) if placements else None,
    }


def player_seats(tournament: Tournament, player: Player) -> list[dict[str, Any]]:
    """Per session, where the roster (issue 31) has the player: the seat they play (maybe as
    a substitute for someone), or the seat the plan gave them that a substitute plays."""
    numbers = set(
        Seat.objects.filter(player=player, table__session__tournament=tournament).values_list(
            "table__session__number", flat=True
        )
    )
    numbers |= {
        number
        for number, subs in Game.objects.filter(
            table__session__tournament=tournament, seats__player=player
        ).values_list("table__session__number", "substitutes")
        if any(s.get("player_id") == player.pk for s in subs or [])
    }
    out = []
    for session in Session.objects.filter(tournament=tournament, number__in=numbers).order_by(
        "number"
    ):
        roster = session_roster(session)
        seat = roster.seat_of(player.pk) or roster.planned_seat(player.pk)
        if seat is not None:
            out.append({"session": session, "seat": seat, "label": Seat.WIND_LABELS[seat.wind]})
    return out


def player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    registration = get_object_or_404(
        tournament.registrations.select_related("player", "team"), player_id=player_id
    )
    player = registration.player
    view = public_view(request, tournament)
    games = shown_games(view.reader, _player_games(tournament, player))
    running: list[int] = [0]
    labels = [_("start")]
    for entry in games:
        # What the standings count: a substituted session's -30,000 (EMA 2025 7.3) yes, a
        # game played as a substitute for someone else no.
        if entry["finished"] and entry["result"] is not None and not entry["as_substitute"]:
            running.append(running[-1] + int(entry["result"]))
            labels.append(
                _("Session %(number)s") % {"number": entry["session"].number}
                if entry["session"]
                else ""
            )
    # The standings the public sees (issue 32.3: before the hidden session, if any); the
    # whole table in the staff's preview.
    public = public_standings(tournament)
    rows = standings_for(tournament) if view.preview else public.rows
    row = next((r for r in rows if r.player_id == player.pk), None)
    tables = player_seats(tournament, player)
    context = {
        "tournament": tournament,
        "player": player,
        "registration": registration,
        "row": row,
        "hidden_from": None if view.preview else public.hidden_from,
        "view": view,
        "tables": tables,
        "games": games,
        "stats": player_statistics(games),
        "total_chart": line_chart_svg(
            running,
            labels=labels,
            title=_("Tournament total after each session"),
            baseline=0,
            signed=True,
        )
        if len(running) > 1
        else None,
    }
    return render(request, "tournaments/player.html", context)


def seating_cards(
    session: Session, query: str = ""
) -> tuple[list[dict[str, Any]], list[RosterSeat]]:
    """The session roster's tables (issue 31) matching `query` (a name: the one who sits there
    now or the one the plan seated), and the seats whose planned player a substitute replaces
    that the query names: a replaced player looking up their seat is told so."""
    roster = session_roster(session)
    tables = []
    replaced = []
    for table in roster.tables:
        rows = []
        hit = False
        for seat in table.seats:
            sits = names.matches(query, seat.player.name) if query else False
            planned = names.matches(query, seat.registered.name) if query else False
            if seat.substituted and planned and not sits:
                replaced.append(seat)
            hit = hit or sits or planned
            rows.append({"seat": seat, "label": Seat.WIND_LABELS[seat.wind], "match": sits})
        if not query or hit:
            tables.append({"table": table, "seats": rows})
    return tables, replaced


def seating(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    """Where do I sit: a session's tables, searchable by name."""
    tournament = visible_tournament(request, slug)
    sessions = list(tournament.sessions.exclude(status=Session.Status.PLANNED))
    session = None
    if number is not None:
        session = get_object_or_404(Session, tournament=tournament, number=number)
    elif sessions:
        running = [s for s in sessions if s.status != Session.Status.CLOSED]
        session = running[0] if running else sessions[-1]
    query = (request.GET.get("q") or "").strip()
    tables, replaced = seating_cards(session, query) if session is not None else ([], [])
    context = {
        "tournament": tournament,
        "sessions": sessions,
        "session": session,
        "tables": tables,
        "replaced": replaced,
        "query": query,
        "winds": Seat.WIND_LABELS,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/_seating_tables.html", context)
    # The player's own link, remembered on this phone (issue 35.4): their seat first.
    token = request.COOKIES.get(f"{my_seat.COOKIE}-{tournament.pk}", "")
    me = my_seat.player_from_token(tournament, token) if token else None
    if me is not None and tournament.registrations.filter(player_id=me).exists():
        context["me"] = my_seat.my_seat(tournament, Player.objects.get(pk=me))
        context["me_token"] = token
    return render(request, "tournaments/seating.html", context)


def awards(request: HttpRequest, slug: str) -> HttpResponse:
    """`/t/<slug>/awards/` (issue 32.4): computed from the hand records. While the standings
    are hidden (issue 32.3) the public sees that they are, and so do the staff unless they
    preview them (`?preview=1`)."""
    tournament = visible_tournament(request, slug)
    view = public_view(request, tournament)
    context = {
        "tournament": tournament,
        "hidden_from": view.hidden_from,
        "awards": tournament_awards(tournament)
        if view.hidden_from is None or view.preview
        else None,
        "view": view,
    }
    return render(request, "tournaments/awards.html", context)
