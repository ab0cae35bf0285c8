"""Issue 18 (5): on a 390x844 phone a ron takes six taps and no swipe: after the outcome and
the winner, "who dealt in", han, fu and the confirm button are all on the screen (the
scoreboard folds to one line, the confirm bar stays under 80 px). Any earlier hand can be
corrected, from the table as it stood before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import PHONE, logged_in_page
from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ON_SCREEN = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }"""


def on_screen(locator: Any) -> bool:
    return bool(locator.evaluate(ON_SCREEN))


def ron(page: Any, winner: int, loser: int, han: int, *, check_screen: bool = False) -> None:
    """Six taps: outcome, winner, loser, han, fu, confirm. No scrolling by the test."""
    page.locator("label.chip:has(input[name='outcome'][value='ron'])").click()
    page.locator(f"label.chip:has(input[name='winners'][value='{winner}'])").click()
    block = page.locator(f".winner-block[data-seat='{winner}']")
    loser_chip = page.locator(f"label.chip:has(input[name='loser'][value='{loser}'])")
    han_chip = block.locator(f"label.chip:has(input[name='han_{winner}'][value='{han}'])")
    fu_chip = block.locator("label.chip:has(input[value='30'])")
    if check_screen:
        for what, locator in (("loser", loser_chip), ("han", han_chip), ("fu", fu_chip)):
            assert on_screen(locator), what
        assert on_screen(page.locator("#confirm-hand"))
        bar = page.locator(".confirm-bar").bounding_box()
        assert bar["height"] <= 80
        board = page.locator("#scoreboard").bounding_box()
        assert board["height"] <= 60  # folded to one line
    loser_chip.click()
    han_chip.click()
    fu_chip.click()
    page.wait_for_selector("#preview table")
    page.locator("#confirm-hand").click()
    page.wait_for_selector(".messages li.success")


def test_a_ron_fits_the_phone_and_an_earlier_hand_is_corrected(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    tournament: Any = TournamentFactory(name="Phone Cup", slug="phone-cup")
    names = [("Anna", "Adler"), ("Ben", "Berg"), ("Clara", "Claus"), ("David", "Dorn")]
    players: list[Any] = [PlayerFactory(first_name=f, last_name=last) for f, last in names]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    table: Any = TableFactory(session=SessionFactory(tournament=tournament, number=1), number=1)
    game: Any = GameFactory(table=table, players=players)
    referee: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).user

    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    # EMA 2025 rules have no nagashi mangan and no abortive draws: not offered.
    outcomes = page.locator("input[name='outcome']").evaluate_all("els => els.map(e => e.value)")
    assert outcomes == ["ron", "tsumo", "draw", "chombo"]
    ron(page, winner=1, loser=2, han=2, check_screen=True)
    page.screenshot(path=str(artifacts / "phone-entry-after-ron-390.png"))
    ron(page, winner=1, loser=3, han=3, check_screen=True)
    # A hand with riichi: the summary says who declared it.
    page.locator("label.chip:has(input[name='outcome'][value='draw'])").click()
    page.locator("label.chip:has(input[name='riichi'][value='0'])").click()
    page.locator("label.chip:has(input[name='tenpai'][value='0'])").click()
    page.wait_for_selector("#preview table")
    page.locator("#confirm-hand").click()
    page.wait_for_selector(".messages li.success")
    hands = page.locator("#hands").inner_text()
    assert "riichi: Anna Adler" in hands
    # Score columns carry the players' names.
    headers = page.locator("#hands thead th").all_inner_texts()
    assert [h for h in headers if "Adler" in h or "Dorn" in h]
    page.screenshot(path=str(artifacts / "phone-hands-390.png"), full_page=True)

    # Correct hand 1 (not the last): the scoreboard shows the start scores, the preview pays.
    page.locator("a[aria-label='Correct hand 1']").click()
    page.wait_for_selector("#save-correction")
    scores = page.locator("#scoreboard .score").all_inner_texts()
    assert scores == ["30000", "30000", "30000", "30000"]  # EMA 2025: 30,000 each
    block = page.locator(".winner-block[data-seat='1']")
    block.locator("label.chip:has(input[name='han_1'][value='4'])").click()
    page.wait_for_selector("#preview table")
    assert "+" in page.locator("#preview").inner_text()
    page.fill("#id_reason", "han misread")
    page.screenshot(path=str(artifacts / "phone-correct-hand-390.png"), full_page=True)
    page.locator("#save-correction").click()
    page.wait_for_selector(".messages li.success")
    first = game.hands.get(number=0).data
    assert first["wins"][0]["han"] == 4
    assert game.hands.count() == 3
