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


# Issue 22: the focused element's box against the sticky scoreboard and confirm bar (the bars
# themselves and what is inside them are skipped); null when nothing visible has focus.
COVERED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const target = el.closest('label.chip, label.toggle') || el;
  const r = target.getBoundingClientRect();
  if (!r.height) return null;
  const bars = [document.getElementById('scoreboard'), document.querySelector('.confirm-bar')];
  const hits = bars.filter(b => b && !b.contains(el)).map(b => b.getBoundingClientRect())
    .filter(b => r.top < b.bottom && r.bottom > b.top && r.left < b.right && r.right > b.left);
  return {what: (el.name || el.id || el.tagName) + '=' + (el.value || ''), covered: hits.length,
          top: r.top, bottom: r.bottom};
}"""


def test_the_entry_page_with_the_keyboard_and_a_screen_reader(
    chromium: Any, live_server: Any
) -> None:
    """Tab through the whole phone entry page with a ron open: no focused control is under a
    sticky bar; Enter on a chip chooses it and saves nothing; one h1, no duplicate ids, a
    named group (fieldset and legend) for every choice; the focus ring is 3:1 or more."""
    tournament: Any = TournamentFactory(
        name="Keyboard Cup", slug="keyboard-cup", rule_overrides={"time_limit": "ema"}
    )
    names = [("Jonas", "Wagner"), ("Ben", "Berg"), ("Clara", "Claus"), ("David", "Dorn")]
    players: list[Any] = [PlayerFactory(first_name=f, last_name=last) for f, last in names]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    table: Any = TableFactory(session=SessionFactory(tournament=tournament, number=1), number=1)
    game: Any = GameFactory(table=table, players=players)
    referee: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).user
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    ron(page, winner=1, loser=2, han=2)  # a hand in the list: its links and the delete form
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")

    assert page.locator("h1").count() == 1
    # Nothing widens the page past the phone (the hands table scrolls inside its box).
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ids = page.locator("[id]").evaluate_all("els => els.map(e => e.id)")
    assert sorted({i for i in ids if ids.count(i) > 1}) == []
    # Every group of choices is a fieldset named by its legend ("Han - Jonas Wagner").
    radios = page.locator(".chip input").evaluate_all(
        "els => els.filter(e => !e.closest('fieldset') || !e.closest('fieldset')"
        ".querySelector('legend')).map(e => e.name)"
    )
    assert radios == []
    legends = page.locator(".winner-block[data-seat='0'] legend").all_text_contents()
    assert [" ".join(t.split()) for t in legends] == [
        "Han - Jonas Wagner",
        "Fu - Jonas Wagner",
        "or a yakuman - Jonas Wagner",
    ]
    assert page.locator(".time-signal input").count() == 1  # EMA 2025 7.4 box is offered

    # Ron, Ben Berg wins: his han, fu and yakuman groups are on the page.
    page.locator("label.chip:has(input[name='outcome'][value='ron'])").click()
    page.locator("label.chip:has(input[name='winners'][value='1'])").click()
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    seen, covered = [], []
    for _ in range(120):
        page.keyboard.press("Tab")
        state = page.evaluate(COVERED)
        if state is None:
            continue
        seen.append(state["what"])
        if state["covered"]:
            covered.append(state)
        if state["what"].startswith("han_1"):
            for _step in range(3):  # arrows move within the group
                page.keyboard.press("ArrowRight")
                state = page.evaluate(COVERED)
                seen.append(state["what"])
                if state["covered"]:
                    covered.append(state)
        if state["what"].startswith("language"):
            break
    for name in ("han_1", "fu_1", "riichi", "time_signal", "confirm-hand", "language"):
        assert any(s.startswith(name) for s in seen), (name, " ".join(seen))
    assert covered == [], covered

    # Enter on a chip chooses it and saves nothing (the hand needs riichi ticked first).
    before = game.hands.count()
    page.locator("input[name='han_1'][value='3']").focus()
    page.keyboard.press("Enter")
    assert page.locator("input[name='han_1'][value='3']").is_checked()
    page.locator("input[name='riichi'][value='0']").focus()
    page.keyboard.press("Enter")
    assert page.locator("input[name='riichi'][value='0']").is_checked()
    page.wait_for_timeout(300)
    assert game.hands.count() == before
    assert "/entry/" in page.url and page.locator(".messages li.success").count() == 0

    # The focus ring: 3:1 or more against the page behind it (WCAG 1.4.11).
    ring = page.evaluate(
        """() => {
          const el = document.activeElement.closest('label.chip').querySelector('span');
          return [getComputedStyle(el).outlineColor,
                  getComputedStyle(document.body).backgroundColor]; }"""
    )
    assert contrast(*ring) >= 3, ring


def _luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two computed `rgb(...)` colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
