"""The player's phone (issue 35.4, docs/my-seat.md): a private link names the player by a
signed token; the page shows table, seat wind, opponents and standing, answers 304 to a poll
while nothing changed, and shows the next session once it is seated; "Where do I sit?"
remembers the link; the table cards carry the QR codes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import (
    SeatFactory,
    SessionFactory,
    TableFactory,
    TournamentFactory,
)
from tests.web.test_web_pdf import pdf_text
from tournaments.models import Session, StandingRow
from tournaments.my_seat import player_link, player_token, table_card_links
from tournaments.pdf import _tables
from tournaments.services import signups

pytestmark = pytest.mark.django_db


def _path(tournament: Any, player: Any) -> str:
    return f"/t/{tournament.slug}/me/{player_token(tournament, player)}/"


def test_my_seat_page_renews_itself_when_the_next_session_is_seated(
    tournament: Any, players: list[Any], game: Any
) -> None:
    anna, ben, clara, david = players
    StandingRow.objects.create(tournament=tournament, player=anna, rank=2, total=12300, games=1)
    phone = Client()
    url = _path(tournament, anna)
    page = phone.get(url)
    text = page.content.decode()
    assert page.status_code == 200 and page["Referrer-Policy"] == "no-referrer"
    assert "Table 1" in text and 'class="my-wind">East<' in text
    assert all(p.last_name in text for p in (ben, clara, david))
    assert "place 2, 12300 points after 1 games" in text
    assert f'hx-get="{url}"' in text and 'hx-trigger="every 20s"' in text
    assert phone.cookies[f"hanchan-me-{tournament.pk}"].value in url

    # A poll while nothing changed: 304, no body.
    etag = page["ETag"]
    again = phone.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""

    # Session 1 ends, session 2 is seated: the poll gets the new table (Anna is South there).
    Session.objects.filter(pk=game.table.session_id).update(status=Session.Status.CLOSED)
    table = TableFactory(
        session=SessionFactory(tournament=tournament, number=2, status=Session.Status.SEATED),
        number=7,
    )
    for wind, p in enumerate([ben, anna, david, clara]):
        SeatFactory(table=table, wind=wind, player=p)
    fresh = phone.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    panel = fresh.content.decode()
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    assert panel.startswith('<section id="my-seat"') and "<html" not in panel
    assert "Session 2" in panel and "Table 7" in panel and 'class="my-wind">South<' in panel

    # "Where do I sit?" remembers the player on this phone, and only there.
    remembered = phone.get(f"/t/{tournament.slug}/seating/").content.decode()
    assert 'id="remembered"' in remembered and "Table 7" in remembered
    assert 'id="remembered"' not in Client().get(f"/t/{tournament.slug}/seating/").content.decode()


def test_a_forged_or_foreign_token_is_refused(tournament: Any, players: list[Any]) -> None:
    other = TournamentFactory(slug="other-event")
    client = Client()
    assert client.get(_path(tournament, players[0]).replace(":", ":x")).status_code == 404
    foreign = player_token(other, players[0])
    assert client.get(f"/t/{tournament.slug}/me/{foreign}/").status_code == 404
    stranger = SeatFactory().player  # a player not registered here
    assert client.get(_path(tournament, stranger)).status_code == 404
    page = client.get(_path(tournament, players[0])).content.decode()
    assert 'id="not-seated"' in page and "No session is seated yet." in page


@pytest.mark.pdftotext
def test_table_cards_carry_each_players_qr_code(
    organiser_client: Client, game: Any, tmp_path: Any
) -> None:
    session = game.table.session
    tables = _tables(session)
    table_card_links(session.tournament, tables)
    assert [q["wind"] for q in tables[0]["qr"]] == ["East", "South", "West", "North"]
    assert all(q["uri"].startswith("data:image/svg+xml") for q in tables[0]["qr"])
    pdf = organiser_client.get(
        reverse("tournaments:session_pdf", args=[session.tournament.slug, 1, "table-cards"])
    )
    text = pdf_text(pdf.content, tmp_path)
    assert "scan your wind" in text


def test_the_registration_email_carries_the_link(
    mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t = TournamentFactory(status="registration", slug="mail-seat")
    with django_capture_on_commit_callbacks(execute=True):
        record = signups.sign_up(
            tournament=t,
            first_name="Mira",
            last_name="Seat",
            country="DE",
            email="mira@example.org",
            consent=True,
        )
    link = player_link(t, record.registration.player)
    assert link in mailoutbox[0].body
    path = re.sub(r"^https?://[^/]+", "", link)
    assert "Mira Seat" in Client().get(path).content.decode()
