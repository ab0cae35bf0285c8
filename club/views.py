"""Club pages: the club list, a club with its leagues and nights, league tables and ratings."""

from __future__ import annotations

import contextlib
import datetime
from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as Forbidden
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from club import services
from club.forms import ClubNightForm, NightSeatingForm
from club.models import Club, ClubNight, League, Rating
from club.roles import is_club_admin
from core.errors import PermissionDenied, ValidationFailed
from core.limits import upload_problem
from core.models import Player
from scoring.models import Game
from scoring.summary import GameSummary


def club_list(request: HttpRequest) -> HttpResponse:
    return render(request, "club/list.html", {"clubs": Club.objects.all()})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(request, "club/detail.html", _detail_context(request, club))


def _detail_context(
    request: HttpRequest, club: Club, night_form: ClubNightForm | None = None
) -> dict[str, Any]:
    return {
        "club": club,
        "leagues": club.leagues.all(),
        "nights": club.nights.all()[:10],
        "is_admin": is_club_admin(request.user, club),
        # Issue 33: tonight by default.
        "night_form": night_form
        or ClubNightForm(club=club, initial={"date": timezone.localdate()}),
        "members": club.memberships.select_related("player").order_by("player__last_name"),
    }


def league_rows(league: League) -> list[dict[str, Any]]:
    """Each player's results in the league's finished games, aggregated as the league says."""
    results: dict[int, list[int]] = defaultdict(list)
    games = Game.objects.filter(
        club_game__night__league=league, status=Game.Status.FINISHED
    ).prefetch_related("seats")
    for game in games:
        result = GameSummary.of(game.summary).result
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


# ---------------------------------------------------------------- club nights on the web


def _night_tables(night: ClubNight) -> list[dict[str, Any]]:
    games = night.games.prefetch_related("seats__player").order_by("pk")
    return [
        {
            "number": i,
            "game": g,
            "players": [s.player for s in g.seats.all()],
            "waiting": g.hands.filter(confirmed=False).count(),
        }
        for i, g in enumerate(games, start=1)
    ]


def club_night(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """A club night: its tables (games) with their players and state; club admins seat a
    round of whoever turned up (tables of 4 and 3) and start casual games here."""
    club = get_object_or_404(Club, slug=slug)
    night = get_object_or_404(ClubNight, pk=night_id, club=club)
    admin = is_club_admin(request.user, club)
    form = NightSeatingForm(club=club, data=request.POST or None) if admin else None
    if request.method == "POST":
        if not admin or form is None:
            raise Forbidden(_("Only the club's admins may seat a club night."))
        if form.is_valid():
            try:
                seating = services.seat_club_night(
                    actor=request.user, night=night, players=list(form.cleaned_data["players"])
                )
            except (ValidationFailed, PermissionDenied) as error:
                form.add_error(None, getattr(error, "message", str(error)))
            else:
                messages.success(
                    request,
                    ngettext(
                        "Seated %(count)d table.", "Seated %(count)d tables.", len(seating.games)
                    )
                    % {"count": len(seating.games)},
                )
                if seating.message:
                    messages.warning(request, seating.message)
                return redirect("club:night", slug=club.slug, night_id=night.pk)
    context = {
        "club": club,
        "night": night,
        "tables": _night_tables(night),
        "form": form,
        "is_admin": admin,
    }
    return render(request, "club/night.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def create_night(request: HttpRequest, slug: str) -> HttpResponse:
    """The club page with its "New club night" form (GET, e.g. a bookmarked link), or the
    night created (POST); an invalid form comes back with each error next to the field it
    names (issue 33)."""
    club = get_object_or_404(Club, slug=slug)
    if request.method == "GET":
        return render(request, "club/detail.html", _detail_context(request, club))
    form = ClubNightForm(club=club, data=request.POST)
    if not form.is_valid():
        context = _detail_context(request, club, form)
        return render(request, "club/detail.html", context, status=400)
    try:
        night = services.create_club_night(
            actor=request.user,
            club=club,
            date=form.cleaned_data["date"],
            league=form.cleaned_data.get("league"),
            notes=form.cleaned_data.get("notes") or "",
        )
    except (ValidationFailed, PermissionDenied) as error:
        messages.error(request, getattr(error, "message", str(error)))
        return redirect("club:detail", slug=club.slug)
    return redirect("club:night", slug=club.slug, night_id=night.pk)


@login_required
def online_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a Tenhou / Mahjong Soul log; names not mapped before are asked once (issue 20).

    Step 1 uploads the file; if some site names are new, the page asks for them (the log
    travels on in a hidden field) and step 2 imports. The result shows how our engine's
    replay compared with the points the site paid.
    """
    club = get_object_or_404(Club, slug=slug)
    members = [
        m.player for m in club.memberships.select_related("player").order_by("player__last_name")
    ]
    context: dict[str, Any] = {"club": club, "members": members}
    if request.method != "POST":
        return render(request, "club/online_import.html", context)
    upload = request.FILES.get("log")
    problem = upload_problem(upload, services.online.MAX_LOG_BYTES) if upload else None
    if problem:  # seen while it streamed in (issue 16.8)
        messages.error(request, problem)
        return render(request, "club/online_import.html", context, status=400)
    raw: bytes | str = (
        upload.read(services.online.MAX_LOG_BYTES + 1)
        if upload
        else request.POST.get("log_text", "")
    )
    if isinstance(raw, bytes) and raw[:2] != b"\x1f\x8b":
        # As text, so the log can travel on in the names form (a gzipped one stays bytes).
        with contextlib.suppress(UnicodeDecodeError):
            raw = raw.decode("utf-8-sig")
    date_text = request.POST.get("date") or ""
    players = {
        key.removeprefix("name:"): value
        for key, value in request.POST.items()
        if key.startswith("name:") and value
    }
    try:
        date = datetime.date.fromisoformat(date_text) if date_text else None
    except ValueError:
        messages.error(request, _("The date must be YYYY-MM-DD."))
        return render(request, "club/online_import.html", context)
    try:
        done = services.import_online_log(
            actor=request.user, club=club, data=raw, players=players, date=date
        )
    except PermissionDenied as error:
        raise Forbidden(error.message) from error
    except ValidationFailed as error:
        if error.field == "players" and error.errors and isinstance(raw, str):
            context.update(
                {"ask": error.errors, "log_text": raw, "date": date_text, "message": error.message}
            )
        else:
            messages.error(request, error.message)
        return render(request, "club/online_import.html", context)
    context.update({"done": done, "comparison": done.comparison})
    return render(request, "club/online_import.html", context)
