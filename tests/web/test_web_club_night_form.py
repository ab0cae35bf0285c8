"""Issue 33 item 5: creating a club night. "Create" with no date said "This field is
required." on the club page without naming the field and offered no date; GET on the form's
address answered 405."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import ClubNight, Membership
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _admin_client(club: Any) -> Client:
    user = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=user), role=Membership.Role.ADMIN)
    client = Client()
    client.force_login(user)
    return client


def test_the_form_offers_today_and_answers_get() -> None:
    club = ClubFactory(slug="owls")
    client = _admin_client(club)
    today = timezone.localdate().isoformat()
    for url in (reverse("club:detail", args=[club.slug]), f"/clubs/{club.slug}/nights/new/"):
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert 'id="new-night"' in page
        assert f'name="date" value="{today}"' in page, url


def test_a_missing_date_is_named_next_to_the_form_and_nothing_is_created() -> None:
    club = ClubFactory(slug="larks")
    client = _admin_client(club)
    response = client.post(reverse("club:create_night", args=[club.slug]), {"notes": "x"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "<li>Date: This field is required.</li>" in page
    assert 'value="x"' in page  # what was typed is kept
    assert not ClubNight.objects.filter(club=club).exists()
