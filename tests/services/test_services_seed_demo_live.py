"""Issue 37: the demo has a tournament running now (session 2 of 3 under way, its clock
started, tables part-way through, one finished, standings from session 1, a substitute and a
penalty) and a club night in progress; the demo `referee` sees its tables at once and README's
referee flow ("pick a table, tap the hand, see the payment preview, confirm") works on them.
A re-run keeps a current running session and rebuilds a stale one (its clock relative to now).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import Club
from demo.live import LIVE_SLUG
from scoring.models import Game
from scoring.services import preview
from tournaments.clock import session_clock
from tournaments.models import Penalty, Session, StandingRow, Tournament

pytestmark = pytest.mark.django_db


def live_games(number: int) -> list[Game]:
    return list(
        Game.objects.filter(
            table__session__tournament__slug=LIVE_SLUG, table__session__number=number
        ).order_by("table__number")
    )


def logged_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_the_demo_runs_a_tournament_now_and_its_referee_can_enter_a_hand() -> None:
    call_command("seed_demo")
    tournament = Tournament.objects.get(slug=LIVE_SLUG)
    assert tournament.status == Tournament.Status.RUNNING
    sessions = {s.number: s for s in tournament.sessions.all()}
    assert len(sessions) == 3
    assert sessions[1].status == Session.Status.CLOSED
    assert sessions[3].status == Session.Status.SEATED
    running = sessions[2]
    assert running.status == Session.Status.RUNNING
    assert session_clock(running)["state"] == "playing"  # EMA 2025 7.4: the clock runs

    # Session 2: one table finished, the others part-way through (hands entered, not over).
    games = live_games(2)
    assert [g.status for g in games].count(Game.Status.FINISHED) == 1
    part_way = [g for g in games if g.status == Game.Status.IN_PROGRESS]
    assert len(part_way) == 3 and all(g.hands.exists() for g in part_way)
    assert all(g.status == Game.Status.FINISHED for g in live_games(1))
    # EMA 2025 7.3: a substitute sits in from the start; EMA 2025 7.2: a lateness penalty.
    substituted = [g for g in games if g.substitutes]
    assert len(substituted) == 1 and substituted[0].substitutes[0]["from"] == "start"
    late = Penalty.objects.get(tournament=tournament, session=running)
    assert late.kind == Penalty.Kind.LATENESS
    assert late.points == 3000  # EMA 2025 7.2: 1,000 points per started minute, 3 minutes
    # The standings come from session 1 (and the finished table of session 2), penalty included.
    rows = StandingRow.objects.filter(tournament=tournament, is_substitute=False)
    assert rows.count() == 16 and rows.filter(rank=1).exists()
    assert all(row.games >= 1 for row in rows)
    assert rows.get(player=late.player).penalties == late.points

    # The club night in progress: tonight, games with hands, the demo `player` at one.
    club = Club.objects.get(slug="demo-riichi-club")
    tonight = club.nights.get(date=timezone.localdate())
    assert tonight.games.filter(status=Game.Status.IN_PROGRESS, hands__isnull=False).exists()
    player_home = logged_in("player").get(reverse("scoring:referee")).content.decode()
    assert any(
        reverse("scoring:entry", args=[g.pk]) in player_home
        for g in tonight.games.filter(seats__player__user__username="player")
    )

    # README: "/games/referee/: pick a table, tap the hand, see the payment preview, confirm".
    referee = logged_in("referee")
    home = referee.get(reverse("scoring:referee"))
    assert home.status_code == 200
    html = home.content.decode()
    assert "No running tables" not in html
    for game in part_way:
        assert reverse("scoring:entry", args=[game.pk]) in html
    game = part_way[0]
    assert referee.get(reverse("scoring:entry", args=[game.pk])).status_code == 200
    hands_before = game.hands.count()
    post = {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "3",
        "fu_1": "30",
        "expected_version": str(game.version),
    }
    expected = preview(
        game=game,
        hand={"outcome": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]},
    )["deltas"][1]
    shown = referee.post(reverse("scoring:preview", args=[game.pk]), post)
    assert shown.status_code == 200 and f"+{expected}" in shown.content.decode()
    assert game.hands.count() == hands_before  # a preview saves nothing
    confirmed = referee.post(reverse("scoring:add_hand", args=[game.pk]), post)
    assert confirmed.status_code == 302
    assert game.hands.count() == hands_before + 1

    # The organiser's console has a running session to look at.
    console = logged_in("organiser").get(reverse("tournaments:console", args=[LIVE_SLUG]))
    assert console.status_code == 200


def test_a_rerun_keeps_a_current_session_and_rebuilds_a_stale_one() -> None:
    call_command("seed_demo")
    running = Session.objects.get(tournament__slug=LIVE_SLUG, number=2)
    game_ids = sorted(g.pk for g in live_games(2))

    call_command("seed_demo")  # the clock still runs: nothing changes
    again = Session.objects.get(tournament__slug=LIVE_SLUG, number=2)
    assert (again.pk, again.started_at) == (running.pk, running.started_at)
    assert sorted(g.pk for g in live_games(2)) == game_ids

    # A day later the session's time is long up: the next run starts it afresh, from now.
    Session.objects.filter(pk=running.pk).update(started_at=timezone.now() - timedelta(days=1))
    before_rerun = timezone.now()
    call_command("seed_demo")
    assert Tournament.objects.filter(slug=LIVE_SLUG).count() == 1
    fresh = Session.objects.get(tournament__slug=LIVE_SLUG, number=2)
    assert fresh.pk != running.pk
    assert fresh.started_at is not None and fresh.started_at >= before_rerun
    assert session_clock(fresh)["state"] == "playing"
    assert not Game.objects.filter(pk__in=game_ids).exists()
    assert len(live_games(2)) == 4
