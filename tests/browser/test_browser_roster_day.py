"""Issue 31.6 in Chromium: a 16-player, 3-session day through the organiser's console, every
view of who sits where compared with the session roster after each step by one helper
(tests/roster_views.py: the API's tables and session, the console's session page, the public
seating page and its search, the table-card PDF's text, the projector's marks), fetched by
the browser itself. Steps: a reserve replaces a player from the start in session 1; a player
drops after session 1 with sessions 2-3 pre-planned (session 2 cannot start until the reserve
takes the seat); a late arrival before session 3 (re-seated from session 3)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Game
from scoring.services import enter_final_scores, finalize_game
from tests.browser.pages import logged_in_page
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.roster_views import assert_views_match_roster
from tests.web.test_web_pdf import pdf_text
from tournaments.models import Registration, SeatingPlan, Session, StaffRole
from tournaments.selectors import session_roster
from tournaments.services import request_seating_plan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.pdftotext]

DESKTOP = {"width": 1280, "height": 800}
PAPER = [45000, 32000, 25000, 18000]


def _paper(organiser: Any, session: Session) -> None:
    for game in Game.objects.filter(table__session=session):
        game = enter_final_scores(
            actor=organiser, game=game, scores=PAPER, expected_version=game.version
        )
        finalize_game(actor=organiser, game=game, expected_version=game.version)


def test_roster_day_in_the_browser(chromium: Any, live_server: Any, tmp_path: Any) -> None:
    organiser = UserFactory(username="roster-org")
    tournament = TournamentFactory(
        status="registration", slug="roster-day", sessions_planned=3, name="Roster Day"
    )
    tournament.staff.create(user=organiser, role=StaffRole.Role.ORGANISER)
    for i in range(16):
        RegistrationFactory(
            tournament=tournament,
            player=PlayerFactory(first_name=f"Pia{i:02d}", last_name=f"Platz{i:02d}"),
        )
    page = logged_in_page(chromium, live_server, organiser, viewport=DESKTOP)
    base = f"{live_server.url}/t/{tournament.slug}/console"

    def get(url: str) -> tuple[int, bytes]:
        response = page.request.get(f"{live_server.url}{url}")
        return response.status, response.body()

    def check(session: Session) -> None:
        session.refresh_from_db()
        assert_views_match_roster(get, session, lambda pdf: pdf_text(pdf, tmp_path))

    def session_form(number: int, table: int, seat: int, who: Any, reason: str) -> None:
        page.goto(f"{base}/sessions/{number}/")
        page.select_option("#id_table", str(table)) if page.locator(
            "select#id_table"
        ).count() else page.fill("#id_table", str(table))
        page.select_option("#id_seat", str(seat))
        page.select_option("#id_substitute", str(who.player_id))
        page.select_option("#id_from_", "start")
        page.fill("#id_reason", reason)
        page.locator("#substitute-form button[type=submit]").click()
        page.wait_for_selector(".messages li.success")

    # A reserve through the registrations page's role control.
    page.goto(f"{base}/registrations/")
    page.locator("details:has(#id_add-first_name) summary").click()
    page.fill("#id_add-first_name", "Rita")
    page.fill("#id_add-last_name", "Reserve")
    page.select_option("#id_add-role", "reserve")
    page.locator("form:has(#id_add-first_name) button[type=submit]").click()
    page.wait_for_selector(".messages li.success")
    reserve = Registration.objects.get(player__last_name="Reserve")
    assert reserve.role == "reserve"

    # A random plan for all three sessions at the start (the worker runs in-process here).
    plan = request_seating_plan(actor=organiser, tournament=tournament, mode="random", seed=2)
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE
    page.goto(f"{base}/seating/{plan.pk}/")
    assert "1 reserves on standby" in page.locator("#plan-field").inner_text()
    page.locator("#apply-plan").click()
    page.wait_for_selector(".messages li.success")
    s1, s2, s3 = Session.objects.filter(tournament=tournament).order_by("number")
    check(s1)

    # Step 1: the reserve replaces table 3 South from the start in session 1.
    session_form(1, 3, 1, reserve, "ill")
    assert session_roster(s1).tables[2].seats[1].player.id == reserve.player_id
    check(s1)
    page.locator("#start-session").click()
    page.wait_for_selector(".messages li.success")
    _paper(organiser, s1)
    page.goto(f"{base}/sessions/1/")
    page.locator("#close-session summary").click()  # the close asks again
    page.locator("#close-session-confirm").click()
    page.wait_for_selector(".messages li.success")
    check(s1)

    # Step 2: a player drops after session 1; sessions 2 and 3 were seated at the start.
    absent = session_roster(s1).tables[2].seats[1].registered.id
    leaver = next(s.registered for s in session_roster(s2).seats() if s.registered.id != absent)
    page.goto(f"{base}/registrations/")
    page.locator("details:has(#id_drop-registration) summary").click()
    page.select_option(
        "#id_drop-registration",
        str(Registration.objects.get(tournament=tournament, player_id=leaver.id).pk),
    )
    page.fill("#id_drop-reason", "went home")
    page.locator("form:has(#id_drop-registration) button[type=submit]").click()
    page.wait_for_selector(".messages li.warning")
    check(s2)
    check(s3)
    page.goto(f"{base}/sessions/2/")
    page.locator("#start-session").click()
    page.wait_for_selector(".messages li.error")
    assert "cannot start" in page.locator(".messages").inner_text()
    flagged = session_roster(s2).flagged[0]
    # The panel's link fills in the table and seat; the picker offers the reserve first.
    page.locator("#session-blocked a").first.click()
    assert page.input_value("#id_seat") == str(flagged.wind)
    session_form(2, flagged.table, flagged.wind, reserve, "dropped")
    page.locator("#start-session").click()
    page.wait_for_selector(".messages li.success")
    check(s2)
    _paper(organiser, s2)
    page.goto(f"{base}/sessions/2/")
    page.locator("#close-session summary").click()  # the close asks again
    page.locator("#close-session-confirm").click()
    page.wait_for_selector(".messages li.success")

    # Step 3: a late arrival before session 3; it is re-seated from session 3.
    page.goto(f"{base}/registrations/")
    page.locator("details:has(#id_add-first_name) summary").click()
    page.fill("#id_add-first_name", "Lou")
    page.fill("#id_add-last_name", "Late")
    page.locator("form:has(#id_add-first_name) button[type=submit]").click()
    page.wait_for_selector(".messages li.success")
    check(s3)
    page.goto(f"{base}/sessions/3/")
    assert "Lou Late" in page.locator("#session-blocked").inner_text()
    page.locator("#reseat-session").click()
    page.wait_for_selector("#apply-plan")
    page.locator("#apply-plan").click()  # asks again: session 3 is replaced
    page.wait_for_selector("#replace-quality")
    cells = page.locator("#replace-quality td").all_inner_texts()
    assert "\u2013" not in cells  # "Now" and "After applying" both filled
    page.locator("#apply-plan").click()
    page.wait_for_selector(".messages li.success")
    page.goto(f"{base}/sessions/3/")
    page.locator("#start-session").click()
    page.wait_for_selector(".messages li.success")
    s3.refresh_from_db()
    assert s3.status == Session.Status.RUNNING
    check(s3)
    check(s1)
