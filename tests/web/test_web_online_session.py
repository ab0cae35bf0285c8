"""Issue 32.5 in the organiser console: a session marked online, each table's real Tenhou log
uploaded with the players' names on the site (remembered for the tournament), the comparison
with what Tenhou paid shown per table; a log of other players refused naming them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from core.models import AuditEntry
from scoring.models import Game
from tests.factories import SessionFactory
from tournaments.models import OnlineName, Session, Tournament
from tournaments.services import seat_session, start_session

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent.parent / "online" / "data"
WEST4 = (DATA / "tenhou-west4.mjlog").read_bytes()
WEST4_NAMES = ["はぐれミント", "SNインパクト", "CLS", "ハガタカのえじき"]


@pytest.fixture
def session(tournament: Tournament, organiser: Any, players: list[Any]) -> Session:
    Tournament.objects.filter(pk=tournament.pk).update(ruleset="tenhou")  # the site's rules
    tournament.refresh_from_db()
    made = SessionFactory(tournament=tournament, number=1, status=Session.Status.PLANNED)
    seat_session(actor=organiser, session=made, tables=[players])
    return start_session(actor=organiser, session=made)


def _page(tournament: Tournament) -> str:
    return reverse("tournaments:session", args=[tournament.slug, 1])


def _upload(client: Client, tournament: Tournament, names: dict[int, str]) -> Any:
    data: dict[str, Any] = {"log": SimpleUploadedFile("table1.mjlog", WEST4, "text/xml")}
    data.update({f"name-{registration}": name for registration, name in names.items()})
    url = reverse("tournaments:table_online_log", args=[tournament.slug, 1, 1])
    return client.post(url, data, follow=True)


def test_the_organiser_marks_the_session_online_and_imports_a_table(
    organiser_client: Client, tournament: Tournament, players: list[Any], session: Session
) -> None:
    page = organiser_client.get(_page(tournament)).content.decode()
    assert 'id="session-online"' in page and "online-log-form-1" not in page
    toggled = organiser_client.post(
        reverse("tournaments:session_action", args=[tournament.slug, 1, "online"]), follow=True
    )
    assert toggled.status_code == 200
    session.refresh_from_db()
    assert session.online
    page = toggled.content.decode()
    assert 'id="online-log-form-1"' in page and 'id="session-offline"' in page

    registrations = list(tournament.registrations.order_by("player_id"))
    by_player = {r.player_id: r.pk for r in registrations}
    names = {by_player[p.pk]: name for p, name in zip(players, WEST4_NAMES, strict=True)}
    answer = _upload(organiser_client, tournament, names)
    text = answer.content.decode()
    assert "Table 1 imported: 15 hands, 15 paid as on the site." in text
    assert 'id="online-log-1"' in text and "Tenhou log" in text
    game = Game.objects.get(table__session=session, table__number=1)
    assert game.status == Game.Status.FINISHED
    assert OnlineName.objects.filter(tournament=tournament).count() == 4
    assert AuditEntry.objects.filter(action="table.import_online").count() == 1
    # Imported: the session stays online (turning it off is refused, said on the page).
    off = organiser_client.post(
        reverse("tournaments:session_action", args=[tournament.slug, 1, "offline"]), follow=True
    )
    assert "Games of this session were imported from online logs." in off.content.decode()


def test_a_log_of_other_players_is_refused_on_the_page(
    organiser_client: Client, tournament: Tournament, players: list[Any], session: Session
) -> None:
    Session.objects.filter(pk=session.pk).update(online=True)
    answer = _upload(organiser_client, tournament, {})
    text = answer.content.decode()
    assert "do not match table 1" in text
    for name in WEST4_NAMES:
        assert name in text
    assert "Anna Adler" in text  # the table's players no name matched
    assert not Game.objects.get(table__session=session).hands.exists()


def test_referees_and_strangers_have_no_console(
    referee_client: Client, stranger_client: Client, tournament: Tournament, session: Session
) -> None:
    Session.objects.filter(pk=session.pk).update(online=True)
    for client in (referee_client, stranger_client):
        assert _upload(client, tournament, {}).status_code == 403
