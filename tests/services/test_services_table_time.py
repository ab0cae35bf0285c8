"""Time per table (issue 35.3): a table given extra minutes finishes on time (EMA 2025 7.4)
after its own signal, not at the session's; the extension is audited; the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from core.audit import audit_for_tournament
from core.errors import PermissionDenied, ValidationFailed
from scoring.services import enter_hand, finalize_game
from tests.factories import GameFactory, StaffRoleFactory, TableFactory, UserFactory, draw
from tournaments.models import Session
from tournaments.services.table_time import extend_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(referee):
    table = TableFactory()
    Session.objects.filter(pk=table.session_id).update(status="running")
    StaffRoleFactory(tournament=table.session.tournament, user=referee, role="referee")
    return GameFactory(table=table)


def minutes_left(session, minutes: int) -> None:
    session.started_at = timezone.now() - timedelta(minutes=session.duration_minutes - minutes)
    session.save(update_fields=["started_at"])


def test_extended_table_finishes_on_time_after_its_own_signal_only(game, referee):
    g = enter_hand(actor=referee, game=game, hand=draw(), expected_version=0).game
    table = g.table
    extend_table(actor=referee, table=table, minutes=10, reason="referee call at table 1")
    session = table.session
    # 14 minutes left: the session's signal (15 minutes before the end) has sounded, the
    # table's own (10 minutes later) has not. EMA 2025 7.4.
    minutes_left(session, 14)
    with pytest.raises(ValidationFailed) as err:
        finalize_game(actor=referee, game=g, expected_version=1, end="time")
    assert err.value.field == "end" and "time signal has not sounded" in err.value.message
    # 4 minutes left: 11 minutes after the session's signal, past the table's own.
    minutes_left(session, 4)
    g = finalize_game(actor=referee, game=g, expected_version=1, end="time")
    assert g.status == "finished"


def test_table_without_extension_follows_the_session(game, referee):
    g = enter_hand(actor=referee, game=game, hand=draw(), expected_version=0).game
    minutes_left(g.table.session, 14)
    assert finalize_game(actor=referee, game=g, expected_version=1, end="time").status == (
        "finished"
    )


def test_extension_is_audited_and_checked(game, referee):
    table = game.table
    with pytest.raises(ValidationFailed) as err:
        extend_table(actor=referee, table=table, minutes=5, reason=" ")
    assert err.value.field == "reason"
    with pytest.raises(ValidationFailed) as err:
        extend_table(actor=referee, table=table, reason="why")
    assert err.value.field == "minutes"
    with pytest.raises(PermissionDenied):
        extend_table(actor=UserFactory(), table=table, minutes=5, reason="x")
    table = extend_table(actor=referee, table=table, one_more_hand=True, reason="slow start")
    assert table.one_more_hand and table.extra_minutes == 0
    entry = audit_for_tournament(table.session.tournament_id).get(action="table.extend")
    assert entry.after == {"extra_minutes": 0, "one_more_hand": True, "one_more_hand_after": 0}
    assert entry.reason == "slow start"


def test_api_extend(game, referee):
    table = game.table
    url = f"/api/v1/tables/{table.pk}/extend/"
    assert APIClient().post(url, {"minutes": 5, "reason": "x"}, format="json").status_code == 403
    client = APIClient()
    client.force_authenticate(referee)
    minutes_left(table.session, 30)
    answer = client.post(url, {"minutes": 7, "reason": "referee call"}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["extra_minutes"] == 7 and body["one_more_hand"] is False
    assert body["signal_at"] < body["ends_at"]
    refused = client.post(url, {"minutes": 7}, format="json")
    assert refused.status_code == 400 and "reason" in refused.json()


def test_one_more_hand_waits_for_that_hand(game, referee):
    """EMA 2025 7.4 gives the hand in progress at the signal and one more; a table allowed one
    more hand (issue 35.3) may start one more after the grant, and finalize on time waits for
    it (referees; an organiser may still end it, audited as an override)."""
    g = enter_hand(actor=referee, game=game, hand=draw(), expected_version=0).game
    minutes_left(g.table.session, 14)  # the session's signal has sounded
    table = extend_table(actor=referee, table=g.table, one_more_hand=True, reason="slow table")
    assert table.one_more_hand_after == 1
    with pytest.raises(ValidationFailed) as err:
        finalize_game(actor=referee, game=g, expected_version=1, end="time")
    assert err.value.field == "end" and "after hand 2 is entered" in err.value.message
    g = enter_hand(actor=referee, game=g, hand=draw(), expected_version=1).game
    assert finalize_game(actor=referee, game=g, expected_version=2, end="time").status == (
        "finished"
    )


def test_referee_phone_and_hall_clock_show_the_tables_own_end(game, referee):
    from django.test import Client

    g = enter_hand(actor=referee, game=game, hand=draw(), expected_version=0).game
    session = g.table.session
    minutes_left(session, 30)
    extend_table(actor=referee, table=g.table, minutes=10, reason="referee call")
    phone = Client()
    phone.force_login(referee)
    entry = phone.get(f"/games/{g.pk}/entry/").content.decode()
    assert 'id="table-time"' in entry and "has 10 extra minutes" in entry
    other = TableFactory(session=session, number=2)  # on the session's time: not listed
    hall = Client().get(f"/t/{session.tournament.slug}/clock/").content.decode()
    assert 'id="table-times"' in hall and "(+10 min)" in hall
    assert f'data-table="{g.table.number}"' in hall and f'data-table="{other.number}"' not in hall
