"""Sessions: seating (by hand and by plan), swaps, start and close; tournament status."""

from __future__ import annotations

import itertools

import pytest

from core.audit import audit_for_tournament
from core.errors import PermissionDenied, ValidationFailed
from scoring.models import Game, GameSeat
from scoring.services import enter_hand, finalize_game
from tests.factories import HandFactory, non_dealer_rons
from tournaments.models import SeatingPlan, Session, Table
from tournaments.services import (
    apply_seating_plan,
    close_session,
    create_sessions,
    drop_player,
    publish_results,
    request_seating_plan,
    seat_session,
    set_status,
    start_session,
    swap_seats,
)

pytestmark = pytest.mark.django_db


def _tables(registrations, rotate=0):
    players = [r.player for r in registrations]
    players = players[rotate:] + players[:rotate]
    return [players[i : i + 4] for i in range(0, len(players), 4)]


def _finish(game, actor):
    for v, hand in enumerate(non_dealer_rons(8), start=game.version):
        game = enter_hand(actor=actor, game=game, hand=hand, expected_version=v).game
    return finalize_game(actor=actor, game=game, expected_version=game.version)


@pytest.fixture
def session(tournament, organiser, registrations):
    create_sessions(actor=organiser, tournament=tournament)
    s = tournament.sessions.get(number=1)
    seat_session(actor=organiser, session=s, tables=_tables(registrations))
    s.refresh_from_db()
    return s


def test_create_sessions_is_idempotent(tournament, organiser):
    assert len(create_sessions(actor=organiser, tournament=tournament)) == 4
    assert create_sessions(actor=organiser, tournament=tournament) == []
    assert tournament.sessions.count() == 4


def test_seat_session_creates_tables_seats_games(session, registrations):
    assert session.status == Session.Status.SEATED
    assert session.tables.count() == 4
    table = session.tables.get(number=1)
    assert [s.player for s in table.seats.all()] == [r.player for r in registrations[:4]]
    assert [gs.player for gs in table.game.seats.all()] == [r.player for r in registrations[:4]]
    assert table.game.ruleset == "ema-2025"
    entry = audit_for_tournament(session.tournament_id).filter(action="session.seat").get()
    assert entry.before["tables"] == [] and len(entry.after["tables"]) == 4


def test_seat_session_rejects_bad_tables(tournament, organiser, registrations, referee):
    create_sessions(actor=organiser, tournament=tournament, count=1)
    s = tournament.sessions.get()
    players = [r.player for r in registrations]
    for tables, needle in [
        ([players[:3]], "3 players"),
        ([players[:4], players[3:7]], "twice"),
    ]:
        with pytest.raises(ValidationFailed) as err:
            seat_session(actor=organiser, session=s, tables=tables)
        assert err.value.field == "tables" and needle in err.value.message
    drop_player(actor=organiser, registration=registrations[0], reason="left")
    with pytest.raises(ValidationFailed) as err:
        seat_session(actor=organiser, session=s, tables=[players[:4]])
    assert "dropped" in err.value.message
    with pytest.raises(PermissionDenied):
        seat_session(actor=referee, session=s, tables=[players[4:8]])
    assert not Table.objects.exists() and not Game.objects.exists()


def test_close_session_refuses_unfinished_games(session, organiser, referee):
    with pytest.raises(ValidationFailed):
        close_session(actor=organiser, session=session)  # not started
    session = start_session(actor=organiser, session=session)
    assert session.status == Session.Status.RUNNING
    assert session.tournament.status == "running"
    games = [t.game for t in session.tables.order_by("number")]
    _finish(games[0], referee)
    with pytest.raises(ValidationFailed) as err:
        close_session(actor=organiser, session=session)
    assert err.value.field == "games" and "2, 3, 4" in err.value.message
    assert [e["table"] for e in err.value.errors] == [2, 3, 4]
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING
    for g in games[1:]:
        _finish(g, referee)
    session = close_session(actor=organiser, session=session)
    assert session.status == Session.Status.CLOSED and session.closed_at
    with pytest.raises(ValidationFailed):
        seat_session(actor=organiser, session=session, tables=[])


def test_reseating_refused_after_hands(session, organiser, referee, registrations):
    game = session.tables.get(number=1).game
    # Issue 15: no hand enters a session that has not started (EMA 2025 7.4) ...
    with pytest.raises(ValidationFailed) as refused:
        enter_hand(actor=referee, game=game, hand=non_dealer_rons(1)[0], expected_version=0)
    assert refused.value.field == "session" and "has not started yet" in refused.value.message
    assert not game.hands.exists()
    # ... but a hand stored another way (an old backup) still blocks reseating.
    HandFactory(game=game, data=non_dealer_rons(1)[0])
    with pytest.raises(ValidationFailed) as err:
        seat_session(actor=organiser, session=session, tables=_tables(registrations, 1))
    assert err.value.field == "session"


def test_swap_seats_same_and_different_tables(session, organiser, registrations):
    p = [r.player for r in registrations]
    swap_seats(actor=organiser, session=session, a=p[0], b=p[5])  # tables 1 and 2
    t1, t2 = session.tables.get(number=1), session.tables.get(number=2)
    assert t1.seats.get(wind=0).player == p[5] and t2.seats.get(wind=1).player == p[0]
    assert GameSeat.objects.get(game=t1.game, seat=0).player == p[5]
    assert GameSeat.objects.get(game=t2.game, seat=1).player == p[0]
    swap_seats(actor=organiser, session=session, a=p[1], b=p[2])  # winds at table 1
    assert [gs.player for gs in t1.game.seats.order_by("seat")] == [p[5], p[2], p[1], p[3]]
    assert Game.objects.get(pk=t1.game.pk).version == 2  # clients holding seats must reload
    with pytest.raises(ValidationFailed) as err:
        swap_seats(actor=organiser, session=session, a=p[0], b=p[0])
    assert err.value.field == "b"
    assert audit_for_tournament(session.tournament_id).filter(action="session.swap").count() == 2


def test_seating_plan_request_runs_task_and_applies(
    tournament, organiser, registrations, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=tournament, mode="random", seed=7)
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE, plan.error
    assert plan.progress == 1.0 and len(plan.plan) == 4
    reg_ids = {r.pk for r in registrations}
    for rnd in plan.plan:
        assert sorted(itertools.chain.from_iterable(rnd)) == sorted(reg_ids)
    sessions = apply_seating_plan(actor=organiser, plan=plan)
    assert [s.number for s in sessions] == [1, 2, 3, 4]
    assert Game.objects.filter(table__session__tournament=tournament).count() == 16
    # EMA-style plan: no two players meet twice (16 players, 4 rounds is possible).
    pairs = []
    for s in sessions:
        for t in s.tables.all():
            ids = sorted(seat.player_id for seat in t.seats.all())
            pairs += list(itertools.combinations(ids, 2))
    assert len(pairs) == len(set(pairs))


def test_seating_plan_failure_is_recorded(
    tournament, organiser, registrations, django_capture_on_commit_callbacks
):
    drop_player(actor=organiser, registration=registrations[0], reason="ill")  # 15 players
    with django_capture_on_commit_callbacks(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=tournament, mode="random")
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.FAILED and "substitute" in plan.error
    with pytest.raises(ValidationFailed) as err:
        apply_seating_plan(actor=organiser, plan=plan)
    assert err.value.field == "plan"


def test_seating_plan_bad_options(tournament, organiser):
    with pytest.raises(ValidationFailed) as err:
        request_seating_plan(actor=organiser, tournament=tournament, mode="chaos")
    assert err.value.field == "mode"
    with pytest.raises(ValidationFailed) as err:
        request_seating_plan(actor=organiser, tournament=tournament, options={"separate_by": "age"})
    assert err.value.field == "options.separate_by"
    assert not SeatingPlan.objects.exists()


def test_swiss_plan_for_next_session(
    tournament, organiser, registrations, session, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        plan = request_seating_plan(
            actor=organiser, tournament=tournament, mode="swiss", options={"from_session": 2}
        )
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE, plan.error
    assert len(plan.plan) == 1
    (s2,) = apply_seating_plan(actor=organiser, plan=plan)
    assert s2.number == 2 and s2.tables.count() == 4


def test_tournament_status_and_publish(tournament, organiser, referee, session):
    with pytest.raises(ValidationFailed) as err:
        set_status(actor=organiser, tournament=tournament, status="published")
    assert err.value.field == "status"
    tournament = set_status(actor=organiser, tournament=tournament, status="running")
    with pytest.raises(ValidationFailed):
        publish_results(actor=organiser, tournament=tournament)  # sessions not closed
    session = start_session(actor=organiser, session=session)
    for t in session.tables.all():
        _finish(t.game, referee)
    close_session(actor=organiser, session=session)
    tournament.sessions.exclude(pk=session.pk).delete()
    with pytest.raises(PermissionDenied):
        publish_results(actor=referee, tournament=tournament)
    tournament = publish_results(actor=organiser, tournament=tournament)
    assert tournament.status == "published" and tournament.published_at
    actions = list(
        audit_for_tournament(tournament.pk)
        .filter(action="tournament.status")
        .values_list("after__status", flat=True)
    )
    assert actions == ["running", "finished", "published"]
