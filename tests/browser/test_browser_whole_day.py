"""Issue 18 (9): a whole tournament day through the pages only (no API, no admin).

An organiser creates a 16-player tournament, imports the players from CSV (twice: nobody is
doubled), adds a referee by username, seats two sessions, starts the clock; the referee enters
a game hand by hand on a 390x844 phone (a chombo, an earlier hand corrected), three tables
play on paper; the organiser closes the session, re-seats session 2 by standings (Swiss,
confirming the replacement), plays it on paper, publishes and downloads the EMA file.

Screenshots of each key page go to tests/artifacts/whole-day/; the copies committed in
docs/screenshots/ (named in README, so anyone can look at the product without running it)
are refreshed with HANCHAN_SCREENSHOTS=docs/screenshots.
"""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests.browser.pages import PHONE, logged_in_page
from tests.factories import UserFactory
from tournaments.models import Session, StaffRole, Tournament


def close_session(page: Any) -> None:
    """Issue 33: "Close the session" asks first; then the confirmation closes it."""
    page.locator("#close-session summary").click()
    page.locator("#close-session-confirm").click()
    page.wait_for_selector("text=Session closed.")


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
# A test run writes outside the repository's tracked files unless asked to refresh them.
SHOTS = ROOT / os.environ.get("HANCHAN_SCREENSHOTS", "tests/artifacts/whole-day")
DESKTOP = {"width": 1280, "height": 800}
NAMES = [
    "Jan de Vries",
    "Zoë Müller",
    "Ludwig van der Berg",
    "Anna Adler",
    "Ben Berg",
    "Clara Claus",
    "David Dorn",
    "Eva Eule",
    "Fay Fink",
    "Gus Gans",
    "Hal Hahn",
    "Ivo Igel",
    "Jule Jung",
    "Kai Kranich",
    "Lea Lerche",
    "Mo Meise",
]
PAPER = ["45000", "32000", "25000", "18000"]  # adds up to 4 x 30,000 (EMA 2025)


def shot(page: Any, name: str, *, full_page: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def ron(page: Any, winner: int, loser: int, han: int) -> None:
    page.locator("label.chip:has(input[name='outcome'][value='ron'])").click()
    page.locator(f"label.chip:has(input[name='winners'][value='{winner}'])").click()
    page.locator(f"label.chip:has(input[name='loser'][value='{loser}'])").click()
    block = page.locator(f".winner-block[data-seat='{winner}']")
    block.locator(f"label.chip:has(input[name='han_{winner}'][value='{han}'])").click()
    block.locator("label.chip:has(input[value='30'])").click()
    page.wait_for_selector("#preview table")
    page.locator("#confirm-hand").click()
    page.wait_for_selector(".messages li.success")


def paper_sheet(page: Any, base: str, game: Game) -> None:
    page.goto(f"{base}/games/{game.pk}/entry/paper/")
    for seat, score in enumerate(PAPER):
        page.fill(f"#id_score_{seat}", score)
    page.locator("#save-paper").click()
    page.wait_for_selector("#paper-entered")
    page.locator("#finalize").click()
    page.wait_for_selector("text=This game is finalized.")


def play_session_on_paper(page: Any, base: str, session: Session) -> None:
    for game in Game.objects.filter(table__session=session).order_by("table__number"):
        if game.status != Game.Status.FINISHED:
            paper_sheet(page, base, game)


def test_a_whole_tournament_day_through_the_pages(chromium: Any, live_server: Any) -> None:
    base = live_server.url
    organiser: Any = UserFactory(username="olga")
    UserFactory(username="rita")
    page = logged_in_page(chromium, live_server, organiser, viewport=DESKTOP)

    # 1. Create the tournament: 2 sessions of 60 minutes under EMA 2025 rules.
    page.goto(f"{base}/t/new/")
    today = datetime.date.today().isoformat()
    page.fill("#id_name", "Hall Open")
    page.fill("#id_slug", "hall-open")
    page.select_option("#id_ruleset", "ema-2025")
    page.fill("#id_starts_on", today)
    page.fill("#id_ends_on", today)
    page.fill("#id_sessions_planned", "2")
    page.fill("#id_session_minutes", "60")
    page.get_by_role("button", name="Create", exact=True).click()
    page.wait_for_selector("text=Tournament created.")
    shot(page, "01-console-new-tournament")

    # 2. Import the players from CSV; the same file again doubles nobody.
    csv = "name,country\n" + "\n".join(f"{name},DE" for name in NAMES) + "\n"
    page.goto(f"{base}/t/hall-open/console/registrations/")
    for _attempt in range(2):
        page.locator("summary:has-text('Import a CSV')").click()
        page.fill("#id_csv-text", csv)
        page.get_by_role("button", name="Import", exact=True).click()
        page.wait_for_selector(".messages li.success")
    assert "16 rows were already registered and skipped" in page.locator(".messages").inner_text()
    tournament = Tournament.objects.get(slug="hall-open")
    assert tournament.registrations.count() == 16
    assert tournament.registrations.filter(player__last_name="de Vries").exists()
    shot(page, "02-registrations-imported")

    # 3. Add the referee by username.
    page.goto(f"{base}/t/hall-open/console/staff/")
    page.fill("#id_identifier", "rita")
    page.select_option("#id_role", "referee")
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_selector("text=rita is now a referee.")
    assert StaffRole.objects.filter(tournament=tournament, user__username="rita").exists()
    shot(page, "03-staff")

    # 4. Seat both sessions (no repeat opponents) and apply.
    page.goto(f"{base}/t/hall-open/console/seating/")
    page.select_option("#id_mode", "random")
    page.fill("#id_seed", "3")
    page.locator("#generate").click()
    page.wait_for_selector("#apply-plan", timeout=60_000)
    shot(page, "04-seating-plan")
    page.locator("#apply-plan").click()
    page.wait_for_selector("text=Seating applied")

    # 5. Start session 1: the console clock and the hall clock run.
    page.goto(f"{base}/t/hall-open/console/sessions/1/")
    page.locator("#start-session").click()
    page.wait_for_selector("#countdown")
    shot(page, "05-session-running")
    hall = chromium.new_context(viewport=DESKTOP).new_page()
    hall.goto(f"{base}/t/hall-open/clock/")
    expect(hall.locator("#hall-countdown")).to_have_text(re.compile(r"^\d+:\d\d$"))
    shot(hall, "06-hall-clock", full_page=False)

    # 6. The referee enters table 1 on a phone: eight rons, a chombo, then corrects hand 1.
    referee = StaffRole.objects.get(tournament=tournament, role=StaffRole.Role.REFEREE).user
    phone = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    phone.goto(f"{base}/games/referee/")
    phone.get_by_role("link", name="Table 1").first.click()
    phone.wait_for_selector("#hand-form")
    shot(phone, "07-referee-table-390", full_page=False)
    for number in range(8):
        dealer = number % 4
        ron(phone, winner=(dealer + 1) % 4, loser=(dealer + 2) % 4, han=2)
        if number == 3:  # EMA 2025: a chombo is paid after uma; the hand is replayed
            phone.locator("label.chip:has(input[name='outcome'][value='chombo'])").click()
            phone.locator("label.chip:has(input[name='offender'][value='2'])").click()
            phone.wait_for_selector("#preview table")
            phone.locator("#confirm-hand").click()
            phone.wait_for_selector(".messages li.success")
    phone.locator("a[aria-label='Correct hand 1']").click()
    phone.wait_for_selector("#save-correction")
    block = phone.locator(".winner-block[data-seat='1']")
    block.locator("label.chip:has(input[name='han_1'][value='3'])").click()
    phone.wait_for_selector("#preview table")
    phone.fill("#id_reason", "han misread")
    shot(phone, "08-referee-correct-hand-390")
    phone.locator("#save-correction").click()
    phone.wait_for_selector(".messages li.success")
    assert "Chombo" in phone.locator("#hands").inner_text()
    shot(phone, "09-referee-hands-390")
    phone.locator("#finalize").click()
    phone.wait_for_selector("text=This game is finalized.")

    # 7. The other tables played on paper.
    session1 = Session.objects.get(tournament=tournament, number=1)
    first_paper = Game.objects.filter(table__session=session1, table__number=2).get()
    phone.goto(f"{base}/games/{first_paper.pk}/entry/paper/")
    shot(phone, "10-paper-sheet-390")
    play_session_on_paper(phone, base, session1)

    # 8. Close session 1, re-seat session 2 by standings (Swiss), confirming the replacement.
    page.goto(f"{base}/t/hall-open/console/sessions/1/")
    close_session(page)
    page.goto(f"{base}/t/hall-open/console/seating/")
    page.select_option("#id_mode", "swiss")
    page.locator("#generate").click()
    page.wait_for_selector("#apply-plan", timeout=60_000)
    assert "Session 2" in page.locator("#plan-status").inner_text()
    page.locator("#apply-plan").click()
    page.wait_for_selector("#replace-warning")
    shot(page, "11-swiss-replace-confirmation")
    page.locator("#apply-plan").click()
    page.wait_for_selector("text=Seating applied")

    # 9. Session 2 on paper, closed; the results published and exported.
    page.goto(f"{base}/t/hall-open/console/sessions/2/")
    page.locator("#start-session").click()
    page.wait_for_selector("#countdown")
    play_session_on_paper(phone, base, Session.objects.get(tournament=tournament, number=2))
    page.goto(f"{base}/t/hall-open/console/sessions/2/")
    close_session(page)
    page.goto(f"{base}/t/hall-open/console/")
    page.locator("#publish").click()
    page.wait_for_selector("#published")
    shot(page, "12-console-published")
    page.goto(f"{base}/t/hall-open/standings/")
    page.wait_for_selector("table.standings")
    assert page.locator("#provisional").count() == 0
    shot(page, "13-standings")
    projector = chromium.new_context(viewport=DESKTOP).new_page()
    projector.goto(f"{base}/t/hall-open/standings/projector/")
    shot(projector, "14-projector-standings", full_page=False)
    page.goto(f"{base}/t/hall-open/console/results/")
    shot(page, "15-results-export")
    with page.expect_download() as download:
        page.get_by_role("link", name="Standings (CSV)").click()
    assert download.value.suggested_filename.endswith(".csv")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.PUBLISHED
