"""Issue 33.3: the organiser changes the event's time zone in the console after creating the
tournament (the same service as the API's PATCH, audited); a name that is no IANA time zone
is refused with the field's error and nothing saved; referees cannot change it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from core.models import AuditEntry
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_organiser_changes_the_time_zone_in_the_console(
    organiser_client: Client, tournament: Any
) -> None:
    overview = organiser_client.get(reverse("tournaments:console", args=[tournament.slug]))
    page = overview.content.decode()
    assert 'id="time-zone-settings"' in page
    assert f'<option value="{tournament.time_zone}" selected>' in page

    url = reverse("tournaments:time_zone_settings", args=[tournament.slug])
    saved = organiser_client.post(url, {"time_zone": "America/New_York"}, follow=True)
    assert saved.status_code == 200
    assert "the event&#x27;s times are shown in America/New_York" in saved.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).time_zone == "America/New_York"
    assert (
        AuditEntry.objects.filter(action="tournament.update").latest("id").after["time_zone"]
        == "America/New_York"
    )
    again = organiser_client.get(reverse("tournaments:console", args=[tournament.slug]))
    assert '<option value="America/New_York" selected>' in again.content.decode()


def test_a_bad_time_zone_is_refused_and_nothing_saved(
    organiser_client: Client, referee_client: Client, tournament: Any
) -> None:
    before = tournament.time_zone
    url = reverse("tournaments:time_zone_settings", args=[tournament.slug])
    bad = organiser_client.post(url, {"time_zone": "Mars/Olympus"})
    assert bad.status_code == 400
    assert "Mars/Olympus is not one of the available choices" in bad.content.decode()
    assert referee_client.post(url, {"time_zone": "Asia/Tokyo"}).status_code in (403, 404)
    assert Tournament.objects.get(pk=tournament.pk).time_zone == before
