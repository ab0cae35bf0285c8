"""Issue 33 item 4: tables fit a phone. At 320 and 390 px the referee's hand list, the public
game page, the standings and the player page show every score column without sideways
scrolling; names break between words only ("Giulia Bianc/hi" was seen) and numbers never
wrap ("-1830/0")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scoring.services import enter_hand, finalize_game
from tests.browser.pages import logged_in_page
from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    draw,
    ron,
    tsumo,
)
from tournaments.models import Session, StaffRole, Tournament
from tournaments.standings.services import recompute_standings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    ("Giulia", "Bianchi"),
    ("Niccolò", "Castellani"),
    ("Maximilian", "Schönberger"),
    ("Anna-Lena", "Wójcik"),
]

CHECK = (Path(__file__).parent / "table_fit.js").read_text(encoding="utf-8")


def _finished_event() -> tuple[Any, Any, list[Any], Any]:
    tournament: Any = TournamentFactory(
        name="Narrow Open", slug="narrow-open", status=Tournament.Status.RUNNING
    )
    players = [PlayerFactory(first_name=f, last_name=last) for f, last in NAMES]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    session: Any = SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    referee: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).user
    game: Any = GameFactory(table=TableFactory(session=session, number=1), players=players)
    hands = [
        ron(winner=1, loser=0, han=6, fu=None),  # Giulia deals in a haneman: 30000 -> 12000
        tsumo(winner=2, han=3, fu=40),
        draw(tenpai=[1, 3]),
        ron(winner=3, loser=0, han=2, fu=30),
        ron(winner=2, loser=1, han=1, fu=30),
    ]
    for version, hand in enumerate(hands):
        enter_hand(actor=referee, game=game, hand=hand, expected_version=version)
    live: Any = GameFactory(table=TableFactory(session=session, number=2), players=players)
    for version, hand in enumerate(hands[:3]):
        enter_hand(actor=referee, game=live, hand=hand, expected_version=version)
    game.refresh_from_db()
    organiser: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.ORGANISER).user
    finalize_game(
        actor=organiser, game=game, expected_version=game.version, end="time", reason="test"
    )
    recompute_standings(tournament_id=tournament.pk)
    return tournament, referee, players, live


@pytest.mark.parametrize("width", [320, 390])
def test_tables_fit_the_phone(chromium: Any, live_server: Any, artifacts: Path, width: int) -> None:
    tournament, referee, players, live = _finished_event()
    game = tournament.sessions.get().tables.get(number=1).game
    page = logged_in_page(chromium, live_server, referee, viewport={"width": width, "height": 800})
    pages = {
        "referee": f"/games/{live.pk}/entry/",
        "game": f"/games/{game.pk}/",
        "standings": f"/t/{tournament.slug}/standings/",
        "player": f"/t/{tournament.slug}/players/{players[0].pk}/",
    }
    found = {}
    for name, path in pages.items():
        page.goto(live_server.url + path)
        page.wait_for_selector("main table")
        page.screenshot(path=str(artifacts / f"fit-{name}-{width}.png"), full_page=True)
        found[name] = page.evaluate(CHECK + "()")
    assert found == {name: [] for name in pages}
