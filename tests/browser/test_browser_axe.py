"""Issue 22 (5): axe-core on the ten key pages, light and dark, English and German; and
reflow (WCAG 2.2 1.4.10) of those pages and the hall screens at 390, 640 and 320 px.

axe-core 4.14.1 is vendored in tests/browser/vendor/axe-core/ (MPL-2.0, its licence beside it)
and used only here. Each page must have 0 violations of axe's default rule set plus the
WCAG 2.2 target-size rule (2.5.8, off by default in axe). The count per page, scheme and
language is recorded as a test property; tests/conftest.py prints the table at the end of
every run (so it shows in CI output without `-s`).

The pages run under their real Content-Security-Policy (no `bypass_csp`): axe is loaded as a
`<script src>` from the page's own origin, at a path that only this test's browser context
answers (a Playwright route, never the Django app), so `script-src 'self'` allows it and the
production policy stays as it is. Any refusal fails the test (tests/browser/conftest.py).

One browser, one context per scheme and language, one tournament for all 40 page visits.
"""

from __future__ import annotations

import datetime
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from club.services import register_player as new_player
from demo.management.commands.seed_demo import play_game
from scoring.models import Game
from scoring.services import enter_hand
from tests.browser.pages import PHONE
from tests.factories import UserFactory, ron
from tournaments.my_seat import player_token
from tournaments.services import (
    add_staff,
    close_session,
    create_sessions,
    create_tournament,
    seat_session,
    start_session,
    update_tournament,
)
from tournaments.services import register_player as register

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
# Answered by the browser context's route (below), not by the app: the same origin as the page.
AXE_PATH = "/__browser-tests__/axe.min.js"
# HANCHAN_AXE_SHOTS=<folder>: a full-page screenshot of each page in each scheme and language.
SHOTS = Path(os.environ["HANCHAN_AXE_SHOTS"]) if os.environ.get("HANCHAN_AXE_SHOTS") else None
DESKTOP = {"width": 1280, "height": 800}
SCHEMES = ("light", "dark")
# The page background of each scheme (static/css/hanchan.css --paper): dark mode follows
# prefers-color-scheme, which Playwright's color_scheme sets.
PAPER = {"light": "rgb(251, 250, 246)", "dark": "rgb(17, 22, 20)"}
LANGUAGES = ("en", "de")
NAMES = [
    ("Jonas", "Wagner"),
    ("Anna", "Becker"),
    ("Marie", "Dubois"),
    ("Lucas", "Martin"),
    ("Sofia", "Rossi"),
    ("Emma", "Jansen"),
    ("Piotr", "Kowalski"),
    ("Zoë", "Müller"),
]
# axe's default rules plus WCAG 2.2 target size (2.5.8, 24x24 CSS px), which axe leaves off.
RUN_AXE = """async () => {
  const r = await axe.run(document, {rules: {"target-size": {enabled: true}},
                                     resultTypes: ["violations"]});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.join(" "),
                                          summary: n.failureSummary}))}));
}"""


def build_tournament() -> dict[str, Any]:
    """A running 8-player EMA 2025 tournament: session 1 played and closed (standings with
    tie-breaks), session 2 running with two hands entered at table 1."""
    organiser: Any = UserFactory(username="org")
    referee: Any = UserFactory(username="ref")
    tournament = create_tournament(
        actor=organiser,
        name="Axe Open",
        slug="axe-open",
        starts_on=datetime.date(2026, 3, 14),
        sessions_planned=2,
        city="Berlin",
        country="DE",
    )
    update_tournament(actor=organiser, tournament=tournament, teams_enabled=True)
    tournament.refresh_from_db()
    add_staff(actor=organiser, tournament=tournament, user=referee, role="referee")
    players = []
    for i, (first, last) in enumerate(NAMES):
        player = new_player(
            actor=None, first_name=first, last_name=last, ema_number=f"{980000 + i:08d}"
        )
        # A team event (issue 32.1): its tab, team page and console fields are checked too.
        register(
            actor=organiser,
            tournament=tournament,
            player=player,
            club_name="Riichi Club",
            team=f"Team {'North' if i % 2 else 'South'}",
        )
        players.append(player)
    sessions = create_sessions(actor=organiser, tournament=tournament) or list(
        tournament.sessions.order_by("number")
    )
    seat_session(actor=organiser, session=sessions[0], tables=[players[:4], players[4:]])
    seat_session(
        actor=organiser,
        session=sessions[1],
        tables=[players[::2], players[1::2]],
    )
    start_session(actor=organiser, session=sessions[0])
    rng = random.Random(22)
    for game in Game.objects.filter(table__session=sessions[0]).order_by("table__number"):
        play_game(game, rng, actor=referee)
    close_session(actor=organiser, session=sessions[0])
    start_session(actor=organiser, session=sessions[1])
    running = Game.objects.get(table__session=sessions[1], table__number=1)
    for hand in (ron(winner=1, loser=2, han=3, fu=30), ron(winner=0, loser=3, han=2, fu=40)):
        running.refresh_from_db()
        running = enter_hand(
            actor=referee, game=running, hand=hand, expected_version=running.version
        ).game
    finished = Game.objects.filter(table__session=sessions[0]).order_by("pk").first()
    assert finished is not None
    slug = tournament.slug
    pages = {
        "public home": "/",
        "standings": f"/t/{slug}/standings/",
        "team standings": f"/t/{slug}/standings/teams/",
        "team page": f"/t/{slug}/teams/team-north/",
        "player page": f"/t/{slug}/players/{players[0].pk}/",
        "game page": f"/games/{finished.pk}/",
        "where do I sit": f"/t/{slug}/seating/",
        "referee tables": "/games/referee/",
        "referee entry 390x844": f"/games/{running.pk}/entry/",
        "console home": f"/t/{slug}/console/",
        "seating console": f"/t/{slug}/console/seating/",
        "registrations": f"/t/{slug}/console/registrations/",
        # Issue 35: the privacy page and the player's own seat page.
        "privacy": "/privacy/",
        "my seat": f"/t/{slug}/me/{player_token(tournament, players[0])}/",
        # Issue 32.4.
        "awards": f"/t/{slug}/awards/",
    }
    # Reflow is also checked on the hall screens (a phone or a laptop shows them too) and on
    # the other pages of a running session.
    more_pages = {
        "hall clock": f"/t/{slug}/clock/",
        "projector standings": f"/t/{slug}/standings/projector/",
        "projector team standings": f"/t/{slug}/standings/teams/projector/",
        "tournament page": f"/t/{slug}/",
        "tournament list": "/t/",
        "session console": f"/t/{slug}/console/sessions/2/",
        "staff console": f"/t/{slug}/console/staff/",
        "penalties console": f"/t/{slug}/console/penalties/",
        "results console": f"/t/{slug}/console/results/",
        "correct last hand": f"/games/{running.pk}/entry/last/",
        "paper score sheet": f"/games/{running.pk}/entry/paper/",
        # Issue 35: the organisers' sign-ups.
        "sign-ups console": f"/t/{slug}/console/sign-ups/",
    }
    return {"organiser": organiser, "pages": pages, "more_pages": more_pages}


def _context(chromium: Any, live_server: Any, user: Any, *, scheme: str, language: str) -> Any:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context = chromium.new_context(
        viewport=DESKTOP,
        color_scheme=scheme,
        locale="de-DE" if language == "de" else "en-GB",
    )
    # axe from the page's own origin, which the policy's script-src 'self' allows.
    context.route(
        f"{live_server.url}{AXE_PATH}",
        lambda route: route.fulfill(path=AXE, content_type="text/javascript; charset=utf-8"),
    )
    context.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
        ]
    )
    return context


def _axe(page: Any, base: str) -> list[dict[str, Any]]:
    page.add_script_tag(url=f"{base}{AXE_PATH}")
    return list(page.evaluate(RUN_AXE))


def test_key_pages_have_no_axe_violations(
    chromium: Any, live_server: Any, record_property: Any
) -> None:
    data = build_tournament()
    failures: dict[str, list[dict[str, Any]]] = {}
    for scheme in SCHEMES:
        for language in LANGUAGES:
            context = _context(
                chromium, live_server, data["organiser"], scheme=scheme, language=language
            )
            page = context.new_page()
            for name, path in data["pages"].items():
                phone = "390x844" in name
                page.set_viewport_size(PHONE if phone else DESKTOP)
                response = page.goto(f"{live_server.url}{path}")
                assert response is not None and response.status == 200, (name, path)
                # The page's real policy is in force (no bypass): axe runs under it.
                policy = response.headers.get("content-security-policy", "")
                assert "script-src 'self'" in policy and "unsafe-inline" not in policy, name
                assert page.locator("html").get_attribute("lang") == language, name
                background = page.evaluate("getComputedStyle(document.body).backgroundColor")
                assert background == PAPER[scheme], (name, scheme, background)
                if SHOTS:
                    shot = f"{name.replace(' ', '-')}-{scheme}-{language}.png"
                    page.screenshot(path=str(SHOTS / shot), full_page=True)
                views = [(name, _axe(page, live_server.url))]
                if phone:
                    # The win sections appear once an outcome and a winner are chosen.
                    page.locator("label.chip:has(input[name='outcome'][value='ron'])").click()
                    page.locator("label.chip:has(input[name='winners'][value='1'])").click()
                    page.wait_for_selector(".winner-block[data-seat='1']", state="visible")
                    # At any other scroll position the sticky confirm bar lies over some
                    # control, which axe counts as an obscured target; at the end of the page
                    # it covers nothing. (Focus never goes under it: test_browser_phone_entry.)
                    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
                    views.append((f"{name} (ron chosen)", _axe(page, live_server.url)))
                for label, violations in views:
                    key = f"{label} [{scheme}, {language}]"
                    nodes = sum(len(v["nodes"]) for v in violations)
                    record_property(
                        "axe",
                        {
                            "page": label,
                            "scheme": scheme,
                            "language": language,
                            "violations": len(violations),
                            "nodes": nodes,
                        },
                    )
                    if violations:
                        failures[key] = violations
            context.close()
    assert not failures, json.dumps(failures, indent=1, ensure_ascii=False)


# The page's width beyond the window, and the widest element not inside a scrolling box.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  let widest = "(text wider than its box)";
  let right = width;
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.right <= right + 0.5) continue;
    let box = el.parentElement;
    while (box && getComputedStyle(box).overflowX === "visible") box = box.parentElement;
    if (box) continue;
    right = r.right;
    widest = `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.className}`;
  }
  return {over: document.documentElement.scrollWidth - width, widest: widest};
}"""
# WCAG 2.2 1.4.10 reflow: 320 CSS px is a 1280 px screen at 400 % zoom, 640 px at 200 %.
REFLOW_VIEWPORTS = (PHONE, {"width": 640, "height": 400}, {"width": 320, "height": 256})


def test_pages_reflow_without_sideways_scrolling(chromium: Any, live_server: Any) -> None:
    """WCAG 2.2 1.4.10: no page scrolls sideways at 390 px (a phone), 640 px (200 % zoom) or
    320 px (400 % zoom), in each of the seven languages (their words differ in length). The
    hall clock's countdown was 5 px too wide at 390 px (17 px on a 1280 px projector), its
    buttons 24 px at 320 px in Spanish; the file fields of the seating and registrations
    consoles 70 px at 320 px, the paper score sheet 11 px, the staff table up to 35 px (Dutch)."""
    data = build_tournament()
    pages = {**data["pages"], **data["more_pages"]}
    too_wide: dict[str, dict[str, Any]] = {}
    for language, _name in settings.LANGUAGES:
        context = _context(
            chromium, live_server, data["organiser"], scheme="light", language=language
        )
        page = context.new_page()
        for name, path in pages.items():
            page.set_viewport_size(PHONE)
            response = page.goto(f"{live_server.url}{path}")
            assert response is not None and response.status == 200, (name, path)
            assert page.locator("html").get_attribute("lang") == language, name
            # Narrower after loading: the page's CSS applies again as a zoomed window would.
            for viewport in REFLOW_VIEWPORTS:
                page.set_viewport_size(viewport)
                found = page.evaluate(OVERFLOW)
                if found["over"] > 0:
                    too_wide[f"{name} at {viewport['width']} px [{language}]"] = found
        context.close()
    assert too_wide == {}, json.dumps(too_wide, indent=1)
