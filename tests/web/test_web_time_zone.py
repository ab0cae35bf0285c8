"""Issue 33 item 3: each tournament has a time zone (default settings.TIME_ZONE); the time
signal was shown in UTC ("05:15") instead of the event's time. Every time of day of its pages
and PDFs is in the tournament's zone."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.errors import ValidationFailed
from scoring.models import Game
from scoring.services import enter_hand
from tests.factories import non_dealer_rons
from tournaments.clock import session_clock
from tournaments.models import Session, Tournament
from tournaments.services import create_tournament, update_tournament

pytestmark = pytest.mark.django_db

STARTED = datetime.datetime(2026, 11, 28, 4, 0, tzinfo=datetime.UTC)


def test_a_new_tournament_takes_the_settings_zone_and_refuses_a_bad_one(organiser: Any) -> None:
    t = create_tournament(actor=organiser, name="Zone Cup", starts_on="2026-03-01")
    assert t.time_zone == settings.TIME_ZONE
    rome = create_tournament(
        actor=organiser, name="Roma", starts_on="2026-03-01", time_zone="Europe/Rome"
    )
    assert rome.time_zone == "Europe/Rome"
    with pytest.raises(ValidationFailed) as refused:
        update_tournament(actor=organiser, tournament=rome, time_zone="Mars/Olympus")
    assert refused.value.field == "time_zone"
    update_tournament(actor=organiser, tournament=rome, time_zone="America/New_York")
    assert Tournament.objects.get(pk=rome.pk).time_zone == "America/New_York"


def test_the_time_signal_is_shown_in_the_events_zone(
    referee_client: Client, referee: Any, game: Game, tournament: Tournament
) -> None:
    """EMA 2025 7.4: "Finalize on time becomes available after the time signal (HH:MM)"."""
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Asia/Tokyo")
    session = game.table.session
    started = timezone.now()  # the signal is 75 minutes ahead
    Session.objects.filter(pk=session.pk).update(started_at=started)
    enter_hand(actor=referee, game=game, hand=non_dealer_rons(1)[0], expected_version=0)
    signal_at = session_clock(Session.objects.get(pk=session.pk), started)["signal_at"]
    tokyo = signal_at.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M")
    utc = signal_at.astimezone(datetime.UTC).strftime("%H:%M")
    assert tokyo != utc
    page = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert 'id="finalize-after-signal"' in page
    assert f"({tokyo}, EMA 2025 7.4)" in page and f"({utc}," not in page


def test_console_pages_render_times_in_the_events_zone(
    organiser_client: Client, tournament: Tournament
) -> None:
    from tournaments.models import SeatingPlan

    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Asia/Tokyo")
    plan = SeatingPlan.objects.create(tournament=tournament, mode="random")
    SeatingPlan.objects.filter(pk=plan.pk).update(created_at=STARTED)
    page = organiser_client.get(
        reverse("tournaments:seating_console", args=[tournament.slug])
    ).content.decode()
    assert "1 p.m." in page or "13:00" in page  # 04:00 UTC is 13:00 in Tokyo
    assert "4 a.m." not in page and "04:00" not in page


def test_the_create_form_offers_the_zone(organiser_client: Client) -> None:
    page = organiser_client.get(reverse("tournaments:create")).content.decode()
    assert f'<option value="{settings.TIME_ZONE}" selected>' in page
    assert '<option value="Europe/Rome">' in page


def test_the_hall_clock_shows_a_tables_own_end_in_the_events_zone(
    client: Client, tournament: Tournament
) -> None:
    """The hall clock's one time of day: a table given extra minutes (issue 35.3) "its own
    end at HH:MM", read in the hall, so in the event's zone (its countdown counts down from
    the ISO instant and needs none)."""
    from tests.factories import SessionFactory, TableFactory

    Tournament.objects.filter(pk=tournament.pk).update(
        time_zone="Asia/Tokyo", status=Tournament.Status.RUNNING
    )
    session = SessionFactory(
        tournament=tournament,
        number=1,
        status=Session.Status.RUNNING,
        duration_minutes=90,
        started_at=timezone.now() - datetime.timedelta(minutes=10),
    )
    TableFactory(session=session, number=3, extra_minutes=10)
    ends = session_clock(Session.objects.get(pk=session.pk))["ends_at"]
    ends += datetime.timedelta(minutes=10)
    tokyo = ends.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M")
    utc = ends.astimezone(datetime.UTC).strftime("%H:%M")
    page = client.get(reverse("tournaments:clock", args=[tournament.slug])).content.decode()
    line = page[page.index('<li data-table="3">') :].split("</li>")[0]
    assert f"its own end at {tokyo} (+10 min)" in line and utc not in line, line
