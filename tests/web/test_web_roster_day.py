"""Issue 31.6: a 16-player, 3-session day through the organiser's console, every view of who
sits where compared with the session roster after each step (tests/roster_views.py): a
reserve replacing a player from the start in session 1, a drop after session 1 with sessions
2-3 pre-planned, a late arrival before session 3. The browser test
(tests/browser/test_browser_roster_day.py) plays the same day in Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scoring.models import Game
from scoring.services import enter_final_scores, finalize_game
from tests.factories import PlayerFactory, RegistrationFactory
from tests.roster_views import assert_views_match_roster, client_get
from tests.web.test_web_pdf import pdf_text
from tournaments.models import Registration, SeatingPlan, Session, Tournament
from tournaments.selectors import session_roster
from tournaments.services import request_seating_plan

pytestmark = [pytest.mark.django_db, pytest.mark.pdftotext]

PAPER = [45000, 32000, 25000, 18000]


def _play_on_paper(organiser: Any, session: Session) -> None:
    for game in Game.objects.filter(table__session=session):
        game = enter_final_scores(
            actor=organiser, game=game, scores=PAPER, expected_version=game.version
        )
        finalize_game(actor=organiser, game=game, expected_version=game.version)


def test_a_day_with_a_reserve_a_drop_and_a_late_arrival(
    organiser: Any,
    organiser_client: Client,
    tournament: Tournament,
    tmp_path: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament.status = Tournament.Status.REGISTRATION
    tournament.sessions_planned = 3
    tournament.save()
    base = f"/t/{tournament.slug}/console"
    get = client_get(organiser_client)

    def check(session: Session) -> None:
        session.refresh_from_db()
        assert_views_match_roster(get, session, lambda pdf: pdf_text(pdf, tmp_path))

    def post(url: str, data: dict[str, Any]) -> Any:
        response = organiser_client.post(url, data, follow=True)
        assert response.status_code == 200, response.content[:2000]
        return response

    for i in range(16):
        RegistrationFactory(
            tournament=tournament,
            player=PlayerFactory(first_name=f"P{i:02d}", last_name=f"Pl{i:02d}"),
        )
    # A reserve, registered through the console's role control (issue 31.2).
    post(f"{base}/registrations/", {"action": "add", "add-first_name": "Rita",
         "add-last_name": "Reserve", "add-role": "reserve"})  # fmt: skip
    reserve = Registration.objects.get(player__last_name="Reserve")
    assert reserve.role == "reserve" and not reserve.is_substitute
    # A random plan for all three sessions at the start; the reserve is not in it.
    with django_capture_on_commit_callbacks(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=tournament, mode="random", seed=5)
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE and plan.basis["field"]["reserves"] == 1
    post(f"{base}/seating/{plan.pk}/", {"from_session": "1"})
    s1, s2, s3 = Session.objects.filter(tournament=tournament).order_by("number")
    assert reserve.player_id not in {s.player.id for s in session_roster(s1).seats()}
    check(s1)

    # Step 1: the reserve replaces table 3 South from the start in session 1 (EMA 2025 7.3).
    absent = session_roster(s1).tables[2].seats[1].registered
    post(f"{base}/sessions/1/", {"table": "3", "seat": "1", "substitute": str(reserve.player_id),
         "from_": "start", "reason": "ill"})  # fmt: skip
    seat = session_roster(s1).tables[2].seats[1]
    assert seat.player.id == reserve.player_id and seat.registered == absent
    check(s1)
    post(f"{base}/sessions/1/start/", {})
    _play_on_paper(organiser, s1)
    post(f"{base}/sessions/1/close/", {})
    check(s1)

    # Step 2: a player drops after session 1; sessions 2 and 3 were seated before the day.
    leaver = next(s.registered for s in session_roster(s2).seats() if s.registered != absent)
    leaver_reg = Registration.objects.get(tournament=tournament, player_id=leaver.id)
    post(f"{base}/registrations/", {"action": "drop", "drop-registration": str(leaver_reg.pk),
         "drop-reason": "went home"})  # fmt: skip
    flagged = session_roster(s2).flagged
    assert [f.registered.id for f in flagged] == [leaver.id]
    check(s2)
    check(s3)
    # Session 2 cannot start: the console names table and seat; nothing changes.
    page = post(f"{base}/sessions/2/start/", {}).content.decode()
    where = f"table {flagged[0].table} {flagged[0].wind_name}"
    assert where in page and "cannot start" in page
    s2.refresh_from_db()
    assert s2.status == Session.Status.SEATED
    # The fix: the reserve takes the seat (the picker offers them: not seated in session 2).
    post(f"{base}/sessions/2/", {"table": str(flagged[0].table), "seat": str(flagged[0].wind),
         "substitute": str(reserve.player_id), "from_": "start", "reason": "dropped"})  # fmt: skip
    assert session_roster(s2).flagged == []
    post(f"{base}/sessions/2/start/", {})
    s2.refresh_from_db()
    assert s2.status == Session.Status.RUNNING
    check(s2)
    _play_on_paper(organiser, s2)
    post(f"{base}/sessions/2/close/", {})

    # Step 3: a late arrival before session 3 (registered after it was seated).
    post(f"{base}/registrations/", {"action": "add", "add-first_name": "Lou",
         "add-last_name": "Late", "add-role": "player"})  # fmt: skip
    late = Registration.objects.get(player__last_name="Late")
    roster = session_roster(s3)
    assert [p.id for p in roster.unseated] == [late.player_id] and roster.flagged
    check(s3)
    page = post(f"{base}/sessions/3/start/", {}).content.decode()
    assert "Lou Late" in page and "cannot start" in page
    # The fix: re-seat session 3, sessions 1-2 kept as history.
    with django_capture_on_commit_callbacks(execute=True):
        post(f"{base}/sessions/3/reseat/", {})
    replan = SeatingPlan.objects.latest("pk")
    assert replan.status == SeatingPlan.Status.DONE and replan.options["from_session"] == 3
    page = post(f"{base}/seating/{replan.pk}/", {"from_session": "3"}).content.decode()
    assert "replaces the seating of session 3" in page
    quality = page[page.index("replace-quality") :][:1500]
    assert "\u2013" not in quality  # both columns filled: no dash for a missing figure
    post(f"{base}/seating/{replan.pk}/", {"from_session": "3", "confirm": "1"})
    roster = session_roster(s3)
    assert not roster.blocked and late.player_id in {s.player.id for s in roster.seats()}
    assert leaver.id not in {s.player.id for s in roster.seats()}
    post(f"{base}/sessions/3/start/", {})
    s3.refresh_from_db()
    assert s3.status == Session.Status.RUNNING
    check(s3)
    check(s1)  # earlier sessions are history: as they were
