"""A three-player (WDMC 2019 section 5) tournament: a plan of tables of 3 is uploaded with
three seat columns, applied, played, finalized and ranked (issue 19)."""

from __future__ import annotations

import pytest

from core.errors import ValidationFailed
from scoring.models import Game
from scoring.services import enter_hand, finalize_game
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, ron
from tournaments.models import StaffRole, StandingRow
from tournaments.services import apply_seating_plan, start_session, upload_seating_plan
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

# Six players, two rounds of two tables of three (seat columns East, South, West).
PLAN = "round,table,east,south,west\n1,1,1,2,3\n1,2,4,5,6\n2,1,5,3,1\n2,2,2,6,4\n"


def _sanma():
    t = TournamentFactory(ruleset="wdmc-2019-3p")
    organiser = UserFactory()
    StaffRole.objects.create(tournament=t, user=organiser, role=StaffRole.Role.ORGANISER)
    for _ in range(6):
        RegistrationFactory(tournament=t)
    return t, organiser


def test_a_three_column_plan_is_uploaded_applied_played_and_ranked():
    t, organiser = _sanma()
    plan = upload_seating_plan(actor=organiser, tournament=t, text=PLAN)
    assert [len(table) for rnd in plan.plan for table in rnd] == [3, 3, 3, 3]
    sessions = apply_seating_plan(actor=organiser, plan=plan)
    games = list(Game.objects.filter(table__session__in=sessions).order_by("pk"))
    assert len(games) == 4 and {g.ruleset for g in games} == {"wdmc-2019-3p"}
    assert {g.seats.count() for g in games} == {3}
    start_session(actor=organiser, session=sessions[0])  # no scores before the start (issue 15)
    for game in games[:2]:  # session 1: East and South rounds of three hands each (5.2)
        for i in range(6):
            dealer = i % 3
            game = enter_hand(
                actor=organiser,
                game=game,
                hand=ron(winner=(dealer + 1) % 3, loser=(dealer + 2) % 3, han=2, fu=30),
                expected_version=game.version,
            ).game
        assert game.summary["ended_by"] == "south3"
        finalize_game(actor=organiser, game=game, expected_version=game.version)
    recompute_standings(tournament_id=t.pk)
    rows = StandingRow.objects.filter(tournament=t)
    assert rows.count() == 6 and sum(r.total for r in rows) == 0

    # Exports: each game record has three players and replays; the tournament backup holds
    # the tables of three (the EMA file is refused: tests/exports).
    from scoring.engine import replay
    from scoring.records import game_record
    from tournaments.backup import export_tournament

    record = game_record(games[0])
    assert len(record["players"]) == 3 and replay(record)["ended_by"] == "south3"
    backup = export_tournament(t)
    assert "wdmc-2019-3p" in str(backup)


def test_a_four_column_plan_is_refused_for_three_player_rules_naming_the_columns():
    t, organiser = _sanma()
    four = "round,table,east,south,west,north\n1,1,1,2,3,4\n"
    with pytest.raises(ValidationFailed) as err:
        upload_seating_plan(actor=organiser, tournament=t, text=four)
    assert err.value.field == "file" and "expected 5 (round,table,east,south,west)" in str(
        err.value
    )


@pytest.mark.parametrize("template", ["pdf/table_cards.html", "pdf/score_sheets.html"])
def test_table_cards_and_score_sheets_have_three_seats(template):
    """WDMC 2019 5.2: East, South and West; no North seat on the cards or sheets."""
    from tests.web.test_web_pdf import layout_text
    from tournaments.models import Seat
    from tournaments.pdf import _tables, render_document

    t, organiser = _sanma()
    (session, _) = apply_seating_plan(
        actor=organiser, plan=upload_seating_plan(actor=organiser, tournament=t, text=PLAN)
    )
    tables = _tables(session)
    assert [len(x["seats"]) for x in tables] == [3, 3]
    context = {
        "session": session,
        "tournament": t,
        "tables": tables,
        "winds": Seat.WINDS,
        "rows": range(16),
    }
    text = layout_text(render_document(template, context))
    assert "West" in text and "North" not in text
    assert str(tables[0]["seats"][2].player) in text


@pytest.mark.parametrize("mode", ["random", "swiss"])
def test_a_sanma_tournament_gets_a_generated_plan_of_tables_of_three_that_applies(
    mode, django_capture_on_commit_callbacks
):
    """WDMC 2019 5.1: random and Swiss plans seat tables of 3 under three-player rules (the
    refusal pointing to the upload is gone; the upload still works, tests above)."""
    from tournaments.models import SeatingPlan, Session
    from tournaments.services import request_seating_plan

    t, organiser = _sanma()
    t.sessions_planned = 2
    t.save(update_fields=["sessions_planned"])
    with django_capture_on_commit_callbacks(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=t, mode=mode, seed=3)
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE, plan.error
    registrations = set(t.registrations.values_list("pk", flat=True))
    assert len(plan.plan) == (2 if mode == "random" else 1)
    for rnd in plan.plan:
        assert all(len(table) == 3 for table in rnd)
        assert sorted(p for table in rnd for p in table) == sorted(registrations)
    sessions = apply_seating_plan(actor=organiser, plan=plan)
    assert sessions[0].status == Session.Status.SEATED
    seats = [[s.wind for s in table.seats.all()] for table in sessions[0].tables.all()]
    assert seats == [[0, 1, 2], [0, 1, 2]]  # East, South, West
    assert Game.objects.filter(table__session__in=sessions).count() == 2 * len(sessions)
