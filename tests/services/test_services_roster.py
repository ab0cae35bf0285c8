"""Issue 31: one roster per session (tournaments.selectors.session_roster), registration roles
(player, fill-in, reserve), drops after later sessions were seated, and the substitute
picker. Each test names the rule it holds; EMA 2025 7.3 is the substitute rule ("As long as
the player cannot play, a substitute player will take their place")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.errors import StateConflict, ValidationFailed
from scoring.models import Game
from scoring.services import enter_hand
from tests.factories import non_dealer_rons
from tournaments.models import Registration, SeatingPlan, Session
from tournaments.selectors import planned_registrations, session_roster, substitute_candidates
from tournaments.services import (
    create_sessions,
    disqualify_player,
    drop_player,
    import_registrations_csv,
    register_player,
    reseat_from_session,
    seat_session,
    start_session,
    substitute_player,
    update_registration,
    upload_seating_plan,
)

pytestmark = pytest.mark.django_db


def _players(registrations):
    return [r.player for r in registrations]


@pytest.fixture
def seated(tournament, organiser, registrations):
    """Sessions 1-3 of 16 players, all seated before the day (a random plan would)."""
    players = _players(registrations)
    sessions = create_sessions(actor=organiser, tournament=tournament, count=3)
    for s in sessions:
        seat_session(actor=organiser, session=s, tables=[players[i : i + 4] for i in (0, 4, 8, 12)])
    return sessions


def _game(session, table):
    return Game.objects.get(table__session=session, table__number=table)


def test_roster_names_who_sits_where(seated, registrations):
    s1 = seated[0]
    roster = session_roster(s1)
    assert [t.number for t in roster.tables] == [1, 2, 3, 4]
    east = roster.tables[2].seats[0]
    assert (east.table, east.wind_name, east.player.id) == (3, "East", registrations[8].player_id)
    assert east.state == "seated" and not east.substituted and not east.flagged
    assert roster.as_dict()["tables"][2]["seats"][1]["player"]["id"] == registrations[9].player_id
    # Five queries however many tables (the readers call it per page).
    with CaptureQueriesContext(connection) as queries:
        session_roster(s1)
    assert len(queries) <= 5


def test_a_reserve_replacing_from_the_start_is_on_the_roster(tournament, organiser, seated):
    """EMA 2025 7.3: the reserve takes the seat; the roster names both and whom they replace."""
    reserve = register_player(
        actor=organiser, tournament=tournament, first_name="Rita", last_name="Reserve",
        role="reserve",
    )  # fmt: skip
    absent = _game(seated[0], 3).seats.get(seat=1).player
    substitute_player(actor=organiser, game=_game(seated[0], 3), seat=1,
                      substitute=reserve.player, reason="ill")  # fmt: skip
    roster = session_roster(seated[0])
    seat = roster.tables[2].seats[1]
    assert seat.player.id == reserve.player_id and seat.player.role == "reserve"
    assert seat.registered.id == absent.pk and seat.state == "absent"
    assert seat.substitute_from == "start" and seat.as_dict()["replaces"]["id"] == absent.pk
    assert roster.seat_of(reserve.player_id) is seat
    assert roster.replaced(absent.pk) is seat and roster.seat_of(absent.pk) is None
    # Other sessions are untouched: the absent player keeps their planned seats.
    assert session_roster(seated[1]).seat_of(absent.pk) is not None


def test_a_substitute_during_the_game_is_from_hand_n(tournament, organiser, referee, seated):
    """EMA 2025 7.3 ("during"): the roster says from which hand the substitute plays."""
    start_session(actor=organiser, session=seated[0])
    game = _game(seated[0], 1)
    for hand in non_dealer_rons(2):
        game = enter_hand(actor=referee, game=game, hand=hand, expected_version=game.version).game
    reserve = register_player(actor=organiser, tournament=tournament, first_name="R",
                              last_name="Two", role="reserve")  # fmt: skip
    substitute_player(actor=referee, game=game, seat=2, substitute=reserve.player,
                      reason="ill", from_="during", expected_version=game.version)  # fmt: skip
    seat = session_roster(seated[0]).tables[0].seats[2]
    assert (seat.substitute_from, seat.from_hand) == ("during", 3)


def test_drop_flags_seats_in_sessions_not_started_and_blocks_the_start(
    tournament, organiser, seated, registrations
):
    """Issue 31.3: a drop flags the player's seats in every session not yet started; such a
    session cannot start (409 on the API) until a reserve sits there or it is re-seated."""
    dropped = registrations[5]
    drop_player(actor=organiser, registration=dropped, reason="went home")
    for s in seated:
        flagged = session_roster(s).flagged
        assert [(f.registered.id, f.state) for f in flagged] == [(dropped.player_id, "dropped")]
    with pytest.raises(StateConflict) as err:
        start_session(actor=organiser, session=seated[1])
    error = err.value
    assert error.field == "tables" and "table 2 South" in error.message
    assert error.errors[0]["table"] == 2 and error.errors[0]["wind"] == "South"
    assert {f["fix"] for f in error.fixes} == {"substitute", "reseat"}
    assert Session.objects.get(pk=seated[1].pk).status == Session.Status.SEATED  # nothing saved
    # A reserve in the seat: the session starts.
    reserve = register_player(actor=organiser, tournament=tournament, first_name="R",
                              last_name="Three", role="reserve")  # fmt: skip
    substitute_player(actor=organiser, game=_game(seated[1], 2), seat=1,
                      substitute=reserve.player, reason="dropped")  # fmt: skip
    assert session_roster(seated[1]).flagged == []
    start_session(actor=organiser, session=seated[1])


def test_disqualification_blocks_the_start_citing_6_12(
    tournament, organiser, seated, registrations
):
    disqualify_player(actor=organiser, registration=registrations[0], reason="cheating")
    with pytest.raises(StateConflict) as err:
        start_session(actor=organiser, session=seated[0])
    assert "6.12" in err.value.message and err.value.errors[0]["state"] == "disqualified"


def test_a_late_arrival_without_a_seat_blocks_the_start(tournament, organiser, seated):
    """Issue 31.3: a player registered after the session was seated has no seat in it."""
    late = register_player(actor=organiser, tournament=tournament, first_name="Lou",
                           last_name="Late")  # fmt: skip
    roster = session_roster(seated[2])
    assert [p.id for p in roster.unseated] == [late.player_id]
    with pytest.raises(StateConflict) as err:
        start_session(actor=organiser, session=seated[2])
    assert "Lou Late" in err.value.message and err.value.errors[0]["state"] == "unseated"
    assert err.value.fixes == [{"fix": "reseat", "from_session": 3}]
    # A reserve registered late is on standby, not missing a seat.
    register_player(actor=organiser, tournament=tournament, first_name="Sam", last_name="Standby",
                    role="reserve")  # fmt: skip
    assert [p.id for p in session_roster(seated[2]).unseated] == [late.player_id]


def test_picker_offers_reserves_first_and_nobody_seated_dropped_or_disqualified(
    tournament, organiser, seated, registrations
):
    """Issue 31.2: the substitute picker."""
    fill_in = register_player(actor=organiser, tournament=tournament, first_name="Fia",
                              last_name="Fill", role="fill-in")  # fmt: skip
    reserve = register_player(actor=organiser, tournament=tournament, first_name="Zed",
                              last_name="Zulu", role="reserve")  # fmt: skip
    gone = register_player(actor=organiser, tournament=tournament, first_name="Gus",
                           last_name="Gone", role="reserve")  # fmt: skip
    drop_player(actor=organiser, registration=gone, reason="left")
    offered = list(substitute_candidates(seated[0]))
    assert offered[0] == reserve.player  # reserves first
    assert fill_in.player in offered  # a fill-in without a seat in this session
    assert gone.player not in offered
    assert not {r.player for r in registrations} & set(offered)  # all seated in session 1
    # Once the reserve sits at a table of the session, it is not offered again there.
    substitute_player(actor=organiser, game=_game(seated[0], 1), seat=0,
                      substitute=reserve.player, reason="ill")  # fmt: skip
    assert reserve.player not in list(substitute_candidates(seated[0]))
    assert reserve.player in list(substitute_candidates(seated[1]))
    # ... and the service refuses them too.
    with pytest.raises(ValidationFailed) as err:
        substitute_player(actor=organiser, game=_game(seated[0], 2), seat=0,
                          substitute=reserve.player, reason="ill")  # fmt: skip
    assert err.value.field == "substitute" and "table 1" in err.value.message
    with pytest.raises(ValidationFailed) as err:
        substitute_player(actor=organiser, game=_game(seated[0], 2), seat=0,
                          substitute=gone.player, reason="ill")  # fmt: skip
    assert err.value.field == "substitute" and "dropped" in err.value.message


def test_roles_register_update_and_the_read_only_flag(tournament, organiser):
    """Issue 31.2: role player / fill-in / reserve; is_substitute = role == "fill-in"."""
    r = register_player(actor=organiser, tournament=tournament, first_name="A", last_name="B")
    assert (r.role, r.is_substitute) == ("player", False)
    r = update_registration(actor=organiser, registration=r, role="fill-in")
    assert Registration.objects.get(pk=r.pk).is_substitute and r.is_substitute
    r = update_registration(actor=organiser, registration=r, role="reserve")
    assert not Registration.objects.get(pk=r.pk).is_substitute
    old = register_player(actor=organiser, tournament=tournament, first_name="C",
                          last_name="D", is_substitute=True)  # fmt: skip
    assert old.role == "fill-in"
    with pytest.raises(ValidationFailed) as err:
        update_registration(actor=organiser, registration=r, role="captain")
    assert err.value.field == "role"
    assert Registration.objects.get(pk=r.pk).role == "reserve"  # nothing half-saved


def test_csv_role_column_and_the_old_substitute_column(tournament, organiser):
    """Issue 31.2: CSV column `role`; the old `substitute` column keeps meaning fill-in."""
    result = import_registrations_csv(
        actor=organiser,
        tournament=tournament,
        text="name,role,substitute\nAnn Able,player,\nBob Best,fill-in,\nCid Cole,reserve,\n"
        "Dan Dorn,,yes\n",
    )
    assert [r.role for r in result.registrations] == ["player", "fill-in", "reserve", "fill-in"]
    with pytest.raises(ValidationFailed) as err:
        import_registrations_csv(actor=organiser, tournament=tournament,
                                 text="name,role\nEve Eck,captain\n")  # fmt: skip
    assert err.value.errors[0]["field"] == "role" and err.value.errors[0]["row"] == 2
    assert not Registration.objects.filter(player__last_name="Eck").exists()


def test_plans_seat_players_and_fill_ins_only_and_say_how_many(
    tournament, organiser, registrations, django_capture_on_commit_callbacks
):
    """Issue 31.2: 8 players plus 2 reserves are seated as 8; the counts are in the message
    when the tables cannot hold the field."""
    from tournaments.services import request_seating_plan

    for r in registrations[8:]:
        r.delete()
    for name in ("Res One", "Res Two"):
        first, last = name.split()
        register_player(actor=organiser, tournament=tournament, first_name=first,
                        last_name=last, role="reserve")  # fmt: skip
    assert len(planned_registrations(tournament)) == 8
    with django_capture_on_commit_callbacks(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=tournament, mode="random",
                                    options={"rounds": 2})  # fmt: skip
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE, plan.error
    seated = {rid for rnd in plan.plan for table in rnd for rid in table}
    assert seated == {r.pk for r in planned_registrations(tournament)}
    assert plan.basis["field"] == {"players": 8, "fill_ins": 0, "reserves": 2}
    register_player(actor=organiser, tournament=tournament, first_name="Fil", last_name="In",
                    role="fill-in")  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=tournament, mode="random")
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.FAILED
    assert plan.error.startswith("8 players and 1 fill-in (2 reserves on standby")
    with pytest.raises(ValidationFailed) as err:
        upload_seating_plan(actor=organiser, tournament=tournament,
                            text="round,table,east,south,west,north\n1,1,1,2,3,4\n")  # fmt: skip
    assert err.value.field == "file" and "8 players and 1 fill-in" in err.value.message


def test_a_reserve_cannot_be_seated_by_hand(tournament, organiser, registrations):
    reserve = register_player(actor=organiser, tournament=tournament, first_name="R",
                              last_name="S", role="reserve")  # fmt: skip
    (s1,) = create_sessions(actor=organiser, tournament=tournament, count=1)
    players = _players(registrations)
    with pytest.raises(ValidationFailed) as err:
        seat_session(actor=organiser, session=s1,
                     tables=[[*players[:3], reserve.player]])  # fmt: skip
    assert err.value.field == "tables" and "reserve" in err.value.message


def test_reseat_from_a_session_keeps_earlier_ones_as_history(
    tournament, organiser, seated, registrations, django_capture_on_commit_callbacks
):
    """Issue 31.3: re-seating session 2 after a drop plans sessions 2-3 from 15 players + a
    fill-in, with session 1 as history; session 1 is not touched."""
    from tournaments.services import apply_seating_plan

    tournament.sessions_planned = 3
    tournament.save(update_fields=["sessions_planned"])
    start_session(actor=organiser, session=seated[0])
    drop_player(actor=organiser, registration=registrations[5], reason="went home")
    register_player(actor=organiser, tournament=tournament, first_name="Fia", last_name="Fill",
                    role="fill-in")  # fmt: skip
    before = [[s.player.id for s in t.seats] for t in session_roster(seated[0]).tables]
    with django_capture_on_commit_callbacks(execute=True):
        plan = reseat_from_session(actor=organiser, session=seated[1], seed=3)
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE and plan.options["from_session"] == 2
    assert len(plan.plan) == 2  # sessions 2 and 3
    apply_seating_plan(actor=organiser, plan=plan)
    assert [[s.player.id for s in t.seats] for t in session_roster(seated[0]).tables] == before
    for s in seated[1:]:
        roster = session_roster(s)
        assert roster.flagged == [] and not roster.unseated
        assert registrations[5].player_id not in {x.player.id for x in roster.seats()}
    with pytest.raises(ValidationFailed) as err:
        reseat_from_session(actor=organiser, session=seated[0])
    assert err.value.field == "session"


def _close_on_paper(organiser, session):
    from scoring.services import enter_final_scores, finalize_game
    from tournaments.services import close_session

    start_session(actor=organiser, session=session)
    for game in Game.objects.filter(table__session=session).order_by("table__number"):
        game = enter_final_scores(actor=organiser, game=game, expected_version=game.version,
                                  scores=[45000, 32000, 25000, 18000])  # fmt: skip
        finalize_game(actor=organiser, game=game, expected_version=game.version)
    close_session(actor=organiser, session=session)


def test_swiss_says_which_standings_it_used_and_keeps_the_ranks_then(
    tournament, organiser, seated, registrations, django_capture_on_commit_callbacks
):
    """Issue 31.4: Swiss seats from the closed sessions' standings, names them, and the plan
    keeps each player's rank and points at generation time (the plan page shows those)."""
    from tournaments.models import StandingRow
    from tournaments.selectors import plan_tables
    from tournaments.services import request_seating_plan
    from tournaments.standings.services import recompute_standings

    _close_on_paper(organiser, seated[0])
    start_session(actor=organiser, session=seated[1])  # session 2 is open while planning
    game = _game(seated[1], 1)
    from scoring.services import enter_final_scores, finalize_game

    game = enter_final_scores(actor=organiser, game=game, expected_version=game.version,
                              scores=[18000, 25000, 32000, 45000])  # fmt: skip
    finalize_game(actor=organiser, game=game, expected_version=game.version)
    recompute_standings(tournament_id=tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=tournament, mode="swiss",
                                    options={"from_session": 3})  # fmt: skip
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE, plan.error
    used = plan.basis["standings"]
    assert (used["closed_sessions"], used["open_sessions"]) == ([1], [2])
    # Session 1 alone: the four table winners (45,000 on the sheet) share rank 1 with +30,000
    # (15,000 over 30,000 and 15,000 uma); session 2's finished game is not counted.
    winners = {r.player_id for r in registrations[0::4]}
    top = [e for e in used["ranks"] if e["rank"] == 1]
    assert {e["player"] for e in top} == winners and {e["points"] for e in top} == {30000}
    # Later the standings change: the plan's names still carry the ranks it was made from.
    StandingRow.objects.filter(tournament=tournament).update(rank=99, total=-1)
    names = plan_tables(plan, "%(name)s (%(rank)s., %(points)s)")
    shown = " ".join(name for table in names[0] for name in table)
    assert "(1., 30000)" in shown and "(99., -1)" not in shown


def test_marks_on_the_standings_csv_and_rows(tournament, organiser, seated, registrations):
    """Issue 31.5: dropped, substituted, fill-in and reserve marks in the standings rows and
    the CSV (the pages read StandingRow.marks)."""
    import csv
    import io

    from tournaments.models import StandingRow
    from tournaments.standings.exports import standings_csv
    from tournaments.standings.services import recompute_standings

    reserve = register_player(actor=organiser, tournament=tournament, first_name="Rae",
                              last_name="Reserve", role="reserve")  # fmt: skip
    substitute_player(actor=organiser, game=_game(seated[0], 1), seat=0,
                      substitute=reserve.player, reason="ill")  # fmt: skip
    _close_on_paper(organiser, seated[0])
    drop_player(actor=organiser, registration=registrations[5], reason="left")
    recompute_standings(tournament_id=tournament.pk)
    rows = {r.player_id: r for r in StandingRow.objects.filter(tournament=tournament)}
    assert rows[registrations[0].player_id].marks == ["substituted"]
    assert rows[registrations[5].player_id].marks == ["dropped"]
    assert rows[reserve.player_id].marks == ["reserve"] and rows[reserve.player_id].rank is None
    table = list(csv.reader(io.StringIO(standings_csv(tournament))))
    header = table[0]
    by_name = {(r[1], r[2]): dict(zip(header, r, strict=True)) for r in table[1:]}
    first = registrations[0].player
    assert by_name[(first.first_name, first.last_name)]["Substituted"] == "yes"
    assert by_name[("Rae", "Reserve")]["Role"] == "reserve"
