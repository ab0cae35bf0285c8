"""Issue 18 (3): the session clock can be paused, resumed and extended from the console,
audited; the hall clock /t/<slug>/clock/ and the projector standings page."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.audit import audit_for_tournament
from tests.factories import PlayerFactory, SessionFactory
from tournaments.clock import session_clock
from tournaments.models import Session, StandingRow, Tournament

pytestmark = pytest.mark.django_db


def running(tournament: Tournament, minutes_ago: int = 10, number: int = 1) -> Session:
    return SessionFactory(
        tournament=tournament,
        number=number,
        status=Session.Status.RUNNING,
        duration_minutes=90,
        started_at=timezone.now() - datetime.timedelta(minutes=minutes_ago),
    )


def clock_post(client: Client, session: Session, **data: Any) -> Any:
    url = reverse("tournaments:session_clock", args=[session.tournament.slug, session.number])
    return client.post(url, data)


def test_pause_resume_and_extend_are_audited(
    organiser_client: Client, tournament: Tournament
) -> None:
    """EMA 2025 7.4: the signal at 15 minutes left moves with pauses and extensions."""
    session = running(tournament, minutes_ago=10)
    assert clock_post(organiser_client, session, action="pause").status_code == 302
    session.refresh_from_db()
    assert session.paused_at is not None
    # Ten minutes of pause later, the remaining time is unchanged and the state says so.
    now = timezone.now()
    paused = session_clock(session, now + datetime.timedelta(minutes=10))
    assert paused["state"] == "paused"
    assert paused["remaining"] == session_clock(session, now)["remaining"]
    assert 79 * 60 <= paused["remaining"] <= 80 * 60
    session.paused_at -= datetime.timedelta(minutes=10)  # as if the pause lasted 10 minutes
    session.save()
    clock_post(organiser_client, session, action="resume")
    session.refresh_from_db()
    assert session.paused_at is None and 600 <= session.paused_seconds <= 630
    clock_post(organiser_client, session, action="extend", minutes="5", reason="hall fire alarm")
    session.refresh_from_db()
    assert session.duration_minutes == 95
    now_clock = session_clock(session)
    # 95 minutes + 10 paused - 10 played = 95 minutes left.
    # (give or take the seconds the requests above took on a busy machine)
    assert abs(now_clock["remaining"] - 95 * 60) <= 30 and now_clock["state"] == "playing"
    actions = list(
        audit_for_tournament(tournament.pk)
        .filter(action__startswith="session.")
        .values_list("action", flat=True)
    )
    assert {"session.pause", "session.resume", "session.extend"} <= set(actions)
    extend = audit_for_tournament(tournament.pk).get(action="session.extend")
    assert extend.reason == "hall fire alarm" and extend.before["duration_minutes"] == 90


def test_clock_changes_are_refused_with_a_message(
    organiser_client: Client, referee_client: Client, tournament: Tournament
) -> None:
    session = running(tournament)
    assert clock_post(referee_client, session, action="pause").status_code == 403
    page = organiser_client.post(
        reverse("tournaments:session_clock", args=[tournament.slug, 1]),
        {"action": "resume"},
        follow=True,
    )
    assert "The clock is not paused." in page.content.decode()
    too_long = clock_post(organiser_client, session, action="extend", minutes="900")
    assert too_long.status_code == 302
    session.refresh_from_db()
    assert session.duration_minutes == 90


def test_session_length_per_tournament_and_per_session(
    organiser_client: Client, tournament: Tournament, plain_user_client: Client
) -> None:
    data = {
        "name": "Short Open",
        "slug": "short-open",
        "ruleset": "ema-2025",
        "starts_on": "2026-06-06",
        "ends_on": "2026-06-06",
        "sessions_planned": "4",
        "session_minutes": "75",
    }
    assert plain_user_client.post(reverse("tournaments:create"), data).status_code == 302
    assert Tournament.objects.get(slug="short-open").session_minutes == 75
    seated = SessionFactory(tournament=tournament, number=2, status=Session.Status.SEATED)
    clock_post(organiser_client, seated, action="length", minutes="60")
    seated.refresh_from_db()
    assert seated.duration_minutes == 60


def test_hall_clock_page_shows_the_running_session(client: Client, tournament: Tournament) -> None:
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    url = reverse("tournaments:clock", args=[tournament.slug])
    assert url == "/t/hamburg-open/clock/"
    assert "No session is seated yet." in client.get(url).content.decode()
    running(tournament, minutes_ago=80)  # 10 minutes left: after the 15-minute signal
    html = client.get(url).content.decode()
    assert 'id="hall-countdown"' in html and "Session 1" in html
    assert 'data-state="signal"' in html
    assert "finish the current hand, then play one more" in html
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith('<section id="hall-clock"') and "<html" not in fragment


def test_hall_screens_of_a_draft_are_hidden(client: Client, tournament: Tournament) -> None:
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    assert client.get(reverse("tournaments:clock", args=[tournament.slug])).status_code == 404
    url = reverse("tournaments:projector_standings", args=[tournament.slug])
    assert client.get(url).status_code == 404


def test_projector_standings_lists_every_row_and_says_provisional(
    client: Client, tournament: Tournament
) -> None:
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    for rank in range(1, 31):
        StandingRow.objects.create(
            tournament=tournament,
            player=PlayerFactory(first_name="P", last_name=f"Row{rank:02d}"),
            rank=rank,
            total=100 - rank,
            games=2,
        )
    url = reverse("tournaments:projector_standings", args=[tournament.slug])
    html = client.get(url, {"seconds": "6"}).content.decode()
    assert html.count("<tr>") == 31  # header + 30 rows; the page shows a screenful at a time
    assert 'data-seconds="6"' in html  # read by static/js/hall-standings.js (CSP)
    assert "Provisional" in html
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    assert "Provisional" not in client.get(url).content.decode()


def test_publish_is_the_primary_action_only_once_results_exist(
    organiser_client: Client, tournament: Tournament
) -> None:
    """Issue 18 (7): on an empty draft "Publish results" is a secondary button."""
    url = reverse("tournaments:console", args=[tournament.slug])
    html = organiser_client.get(url).content.decode()
    assert 'class="secondary" id="publish"' in html
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.CLOSED)
    assert session.status == Session.Status.CLOSED
    StandingRow.objects.create(tournament=tournament, player=PlayerFactory(), rank=1, total=0)
    html = organiser_client.get(url).content.decode()
    assert '<button type="submit" id="publish">' in html
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    html = organiser_client.get(url).content.decode()
    assert 'id="published"' in html and 'id="publish"' not in html


def test_standings_page_says_provisional_until_published(
    client: Client, tournament: Tournament
) -> None:
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    url = reverse("tournaments:standings", args=[tournament.slug])
    assert 'id="provisional"' in client.get(url).content.decode()
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    assert 'id="provisional"' not in client.get(url).content.decode()


def test_small_items_of_issue_18(client: Client, tournament: Tournament) -> None:
    """No favicon 404; the standings CSV names tie-breaks in words and writes points as the
    page does (a penalty of 3000 is -3000, not -3)."""
    from tournaments.standings.exports import standings_csv

    assert client.get("/favicon.ico").status_code == 301
    tournament.tie_breaks = ["best_game", "most_firsts"]
    tournament.save()
    StandingRow.objects.create(
        tournament=tournament,
        player=PlayerFactory(first_name="Pia", last_name="Punkt"),
        rank=1,
        total=26300,
        penalties=3000,
        tie_break_values=[26300, 1],
    )
    header, row = standings_csv(tournament).splitlines()[:2]
    assert '"Best game","Most firsts"' in header and "best_game" not in header
    assert '"26300","-3000"' in row
