"""Lossless game records (issue 20): every game of a finished tournament (hands, a paper score
sheet, a substitute, game and tournament penalties) exported, imported into a copy with the
same registrations and seating, gives identical standings and an identical EMA file."""

import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from openpyxl import load_workbook
from standings_builders import make_players, make_tournament, register

from scoring.engine import replay
from scoring.models import Game, GamePenalty
from scoring.services import enter_final_scores, enter_hand, finalize_game
from tests.factories import non_dealer_rons
from tournaments.ema.export import ema_csv, ema_xlsx
from tournaments.models import Registration, Seat, Session, StaffRole, StandingRow
from tournaments.services import add_penalty, substitute_player
from tournaments.services.sessions import replace_tables
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

SEATING = [[[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 4, 1, 5], [2, 6, 3, 7]]]


def _seated(slug, players, substitute):
    t = make_tournament(slug=slug)
    referee = get_user_model().objects.get_or_create(username="ref")[0]
    StaffRole.objects.create(tournament=t, user=referee, role="referee")
    register(t, players)
    register(t, [substitute], is_substitute=True)
    for number, tables in enumerate(SEATING, start=1):
        # Running since two hours: scores enter running sessions only, and the time signal
        # has sounded (issue 15; EMA 2025 7.4).
        session = Session.objects.create(
            tournament=t,
            number=number,
            status=Session.Status.RUNNING,
            started_at=timezone.now() - timedelta(hours=2),
        )
        replace_tables(
            actor=None, session=session, tables=[[players[i] for i in tbl] for tbl in tables]
        )
    return t, referee


def _game(t, session, table):
    return Game.objects.get(table__session__tournament=t, table__session__number=session,
                            table__number=table)  # fmt: skip


def _play(game, referee, hands, end=None):
    for hand in hands:
        game = enter_hand(actor=referee, game=game, hand=hand, expected_version=game.version).game
    return finalize_game(actor=referee, game=game, expected_version=game.version, end=end)


def _standings(t):
    return [
        (
            r.player_id,
            r.rank,
            r.total,
            r.penalties,
            r.games,
            r.is_substitute,
            [{k: v for k, v in entry.items() if k != "game"} for entry in r.per_session],
        )
        for r in StandingRow.objects.filter(tournament=t).order_by("player_id")
    ]


def _xlsx_cells(t):
    ws = load_workbook(io.BytesIO(ema_xlsx(t)))["Results"]
    return [[c.value for c in row] for row in ws.iter_rows()]


def test_export_import_round_trip_gives_identical_standings_and_ema_file(tmp_path):
    players = make_players(8, countries=("DE", "NL", "FR"))
    substitute = make_players(1, prefix="S", start=50)[0]
    t, referee = _seated("original", players, substitute)
    # Session 1: two games by hands, one with a game penalty (EMA 2025 6.1.4, after uma).
    _play(_game(t, 1, 1), referee, non_dealer_rons(8))
    g = _game(t, 1, 2)
    # 8,000: an obstruction amount EMA 2025 6.12 allows (an import refuses 5,000, issue 15).
    GamePenalty.objects.create(game=g, seat=1, kind="obstruction", points=8000, note="talk")
    hands = [*non_dealer_rons(5), {"outcome": "draw", "riichi": [], "tenpai": [0]}]
    _play(g, referee, hands, end="time")  # the session stopped on time (EMA 2025 7.4)
    # Session 2, table 1: a substitute from the start for seat 2 (EMA 2025 7.3), by hands.
    g = _game(t, 2, 1)
    g = substitute_player(actor=referee, game=g, seat=2, substitute=substitute, reason="ill")
    _play(g, referee, non_dealer_rons(8))
    # Session 2, table 2: a paper score sheet with a riichi stick left (EMA 2025 3.7).
    g = _game(t, 2, 2)
    g = enter_final_scores(actor=referee, game=g, scores=[41000, 30300, 27700, 20000],
                           riichi_sticks_left=1, expected_version=g.version)  # fmt: skip
    finalize_game(actor=referee, game=g, expected_version=g.version)
    # Tournament penalties: lateness in session 1 (EMA 2025 7.2), one for the whole event.
    s1 = Session.objects.get(tournament=t, number=1)
    add_penalty(actor=referee, tournament=t, player=players[3], kind="lateness",
                minutes_late=3, reason="late", session=s1)  # fmt: skip
    add_penalty(actor=referee, tournament=t, player=players[6], kind="other", points=4000,
                reason="misconduct")  # fmt: skip
    recompute_standings(tournament_id=t.pk)
    assert StandingRow.objects.filter(tournament=t, penalties__gt=0).count() == 2

    out = tmp_path / "games.json"
    err = io.StringIO()
    call_command("export_games", t.slug, "--output", str(out), stdout=io.StringIO(), stderr=err)
    records = json.loads(out.read_text(encoding="utf-8"))
    assert len(records) == 4 and err.getvalue() == ""
    by_shape = {("final_scores" in r, bool(r.get("substitutes"))): r for r in records}
    sheet = by_shape[(True, False)]
    assert sheet["final_scores"] == {
        "scores": [41000, 30300, 27700, 20000],
        "riichi_sticks_left": 1,
    }
    subbed = by_shape[(False, True)]
    assert subbed["substitutes"][0]["replaces"] == "P1 Player001 [04000001]"  # seat 2 of [0,4,1,5]
    assert subbed["players"][2].startswith("S50")  # the substitute played at seat 2
    late = [r for r in records if r.get("tournament_penalties")]
    kinds = sorted(p["kind"] for r in late for p in r["tournament_penalties"])
    assert kinds == ["lateness", "other"]
    assert all(replay(r)["final"] is not None for r in records)  # every record replays

    # A copy with the same registrations and seating, its games still empty.
    copy, _ = _seated("copy", players, substitute)
    assert not Game.objects.filter(table__session__tournament=copy, status="finished").exists()
    call_command("import_games", str(out), "--tournament", "copy", stdout=io.StringIO())
    recompute_standings(tournament_id=copy.pk)

    assert _standings(copy) == _standings(t)
    assert ema_csv(copy) == ema_csv(t)
    assert _xlsx_cells(copy) == _xlsx_cells(t)
    # The seated games were filled, not duplicated; the Seat keeps the registered player.
    assert Game.objects.filter(table__session__tournament=copy).count() == 4
    assert Seat.objects.get(table__session__tournament=copy, table__session__number=2,
                            table__number=1, wind=2).player == players[1]  # fmt: skip
    assert Registration.objects.get(tournament=copy, player=substitute).is_substitute
    # Exporting the copy gives the same records.
    again = tmp_path / "again.json"
    call_command("export_games", "copy", "--output", str(again), stdout=io.StringIO())
    assert json.loads(again.read_text(encoding="utf-8")) == records


def test_records_go_only_to_their_seated_empty_table(tmp_path):
    players = make_players(8)
    substitute = make_players(1, prefix="S", start=50)[0]
    t, referee = _seated("original", players, substitute)
    _play(_game(t, 1, 1), referee, non_dealer_rons(8))
    out = tmp_path / "games.json"
    call_command("export_games", t.slug, "--output", str(out), stdout=io.StringIO())
    records = [r for r in json.loads(out.read_text(encoding="utf-8")) if r["hands"]]
    # Into the same tournament: its table already has a game with hands.
    from core.errors import ValidationFailed
    from scoring.services.imports import import_game_records
    from tournaments.services.game_imports import seated_tables

    with pytest.raises(ValidationFailed, match="already has a game"):
        import_game_records(actor=None, records=records, target=seated_tables(t))
    # Into a tournament seated otherwise: no table has these players.
    other = make_tournament(slug="other")
    register(other, players)
    session = Session.objects.create(tournament=other, number=1)
    replace_tables(actor=None, session=session, tables=[players[4:], players[:4][::-1]])
    with pytest.raises(ValidationFailed, match="no table of this tournament"):
        import_game_records(actor=None, records=records, target=seated_tables(other))
    assert not Game.objects.filter(table__session__tournament=other, status="finished").exists()
