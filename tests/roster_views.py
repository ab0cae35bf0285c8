"""Issue 31.6: one helper that compares every view of who sits where with the session roster
(tournaments.selectors.session_roster): the API's tables and session, the console's session
page, the public "Where do I sit?" page and its name search, the projector's standings and the
table-card PDF's text. The day tests (web and browser) call it after each step.

`get(url) -> (status, body)` fetches a page as the caller does it (Django's test client, or
the browser's own requests); `pdf_text(bytes) -> str` reads a PDF's text.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

from tournaments.models import Session, StandingRow
from tournaments.selectors import session_roster

Get = Callable[[str], tuple[int, bytes]]


def _text(body: bytes) -> str:
    """The page's visible text, tags dropped and entities read (names such as Zoë)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body.decode())).split())


def _card(page: str, number: int) -> str:
    """The text of table `number`'s card: from its heading to the next table's."""
    start = page.index(f"Table {number}")
    nxt = page.find(f"Table {number + 1}", start + 1)
    return page[start : nxt if nxt != -1 else len(page)]


def assert_views_match_roster(
    get: Get, session: Session, pdf_text: Callable[[bytes], str], *, console: bool = True
) -> None:
    roster = session_roster(session)
    slug = session.tournament.slug
    n = session.number

    # API: the tables of the session, each seat with who sits there now.
    status, body = get(f"/api/v1/tables/?tournament={slug}&session={n}&page_size=100")
    assert status == 200, body
    answer = json.loads(body)
    tables = answer["results"] if isinstance(answer, dict) else answer
    api = {
        (t["number"], s["wind"]): (s["player"]["id"], s["sits"]["id"], s["state"], s["flagged"])
        for t in tables
        for s in t["seats"]
    }
    expected = {
        (s.table, s.wind): (s.registered.id, s.player.id, s.state, s.flagged)
        for s in roster.seats()
    }
    assert api == expected, {k: (api.get(k), v) for k, v in expected.items() if api.get(k) != v}
    # API: the session's roster is the selector's, to the letter.
    status, body = get(f"/api/v1/sessions/{session.pk}/")
    assert status == 200, body
    assert json.loads(body)["roster"] == json.loads(json.dumps(roster.as_dict()))

    # Public "Where do I sit?": every card names who sits there now, substitutes marked.
    status, body = get(f"/t/{slug}/seating/{n}/")
    assert status == 200
    public = _text(body)
    for table in roster.tables:
        card = _card(public, table.number)
        for seat in table.seats:
            assert seat.player.name in card, (seat, card)
            if seat.substituted:
                assert f"for {seat.registered.name}" in card
            if seat.flagged:
                assert "seat to fill" in card
    # ... and its search: the substitute finds the seat; the replaced player is told so.
    for seat in roster.substitutions:
        status, body = get(f"/t/{slug}/seating/{n}/?q={seat.player.name.split()[-1]}")
        found = _text(body)
        assert f"Table {seat.table}" in found and seat.player.name in found
        status, body = get(f"/t/{slug}/seating/{n}/?q={seat.registered.name.split()[-1]}")
        assert f"you were replaced by {seat.player.name}" in _text(body)

    # Console: the session page's table cards.
    if console:
        status, body = get(f"/t/{slug}/console/sessions/{n}/")
        assert status == 200
        page = _text(body)
        page = page[page.index("Tables") :]
        for table in roster.tables:
            card = _card(page, table.number)
            for seat in table.seats:
                assert seat.player.name in card, (seat, card)
        if roster.blocked and roster.status == Session.Status.SEATED:
            assert "This session cannot start yet" in _text(body)
            for seat in roster.flagged:
                assert f"Table {seat.table} {seat.wind_name}: {seat.registered.name}" in _text(body)

        # Table cards (PDF): the one sitting there, with whom a substitute replaces.
        status, body = get(f"/t/{slug}/console/sessions/{n}/pdf/table-cards.pdf")
        assert status == 200
        text = " ".join(pdf_text(body).split())
        for seat in roster.seats():
            assert seat.player.name in text
            if seat.substituted:
                assert f"substitute for {seat.registered.name}" in text

    # Projector standings: every row with its marks (dropped, substituted, fill-in, reserve).
    status, body = get(f"/t/{slug}/standings/projector/")
    assert status == 200
    lines = [_text(tr.encode()) for tr in re.findall(r"<tr>(.*?)</tr>", body.decode(), re.S)]
    for row in StandingRow.objects.filter(tournament_id=session.tournament_id).select_related(
        "player"
    ):
        line = next(line for line in lines if str(row.player) in line)
        for mark, words in MARK_WORDS.items():
            assert (words in line) == (mark in row.marks), (row.player, mark, line)


MARK_WORDS = {
    "dropped": "dropped",
    "disqualified": "disqualified (not ranked)",
    "substituted": "replaced by a substitute",
    "fill-in": "fill-in substitute",
    "reserve": "reserve substitute",
}


def client_get(client: Any) -> Get:
    def get(url: str) -> tuple[int, bytes]:
        response = client.get(url)
        return response.status_code, response.content

    return get
