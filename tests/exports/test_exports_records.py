"""Game-record export/import (formats/game-record.md) and the tournament backup round trip."""

import datetime
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from standings_builders import (
    hands_game,
    make_players,
    make_tournament,
    register,
    ron,
    scores_game,
    tsumo,
)

from club.models import Club, ClubNight
from club.places import NightPlace
from core.audit import record_audit
from core.errors import ValidationFailed
from core.models import AuditEntry, Player
from scoring.engine import replay
from scoring.models import Game, GamePenalty, Hand
from scoring.records import game_final, game_record, player_label
from scoring.services.imports import ImportTarget, import_game_records
from tournaments.backup import export_tournament, import_tournament
from tournaments.models import Penalty, SeatingPlan, StaffRole, Tournament
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

HANDS = [
    ron(0, 1, 3),
    tsumo(2, 2, 30, riichi=[2]),
    {"outcome": "draw", "tenpai": [0, 3], "riichi": []},
]


def test_game_record_is_the_exact_format_and_replays():
    t = make_tournament()
    players = make_players(4)
    game = hands_game(t, 1, 1, players, HANDS)
    GamePenalty.objects.create(game=game, seat=1, kind="score_sheet", points=2000)
    record = game_record(game)
    assert set(record) == {"format", "ruleset", "players", "hands", "end", "penalties"}
    assert record["format"] == "riichi-game-record/1"
    assert record["players"][0] == "P0 Player000 [04000000]"
    assert record["hands"] == HANDS and record["end"] == "time"
    assert record["penalties"] == [{"seat": 1, "points": 2000, "kind": "score_sheet"}]
    final = replay(record)["final"]
    assert final["penalties"][1] == 2000  # EMA 2025 7.5: score sheet penalty after uma


def test_game_final_uses_summary_or_computes_it():
    t = make_tournament()
    players = make_players(4)
    cached = hands_game(t, 1, 1, players, HANDS)
    uncached = hands_game(t, 1, 2, make_players(4, start=10), HANDS, cache_summary=False)
    assert game_final(cached) == game_final(uncached) == replay(game_record(cached))["final"]
    paper = scores_game(t, 2, 1, players, [40000, 30000, 30000, 20000])
    paper_final = game_final(paper)
    assert paper_final is not None and paper_final["result"] == [25000, 0, 0, -25000]
    # The services store paper scores with the sticks left on the table (EMA 2025 3.7).
    paper.final_scores = {"scores": [40000, 30000, 29000, 20000], "riichi_sticks_left": 1}
    paper_final = game_final(paper)
    assert paper_final is not None and paper_final["scores"][0] == 41000
    paper.status = Game.Status.IN_PROGRESS
    assert game_final(paper) is None


def test_import_creates_game_seats_and_hands():
    club = Club.objects.create(name="Riichi Berlin", slug="rb")
    night = ClubNight.objects.create(club=club, date=datetime.date(2026, 3, 5))
    known = make_players(1)[0]
    record = {
        "format": "riichi-game-record/1",
        "ruleset": "wdmc-2019",
        "players": [player_label(known), "Ann Lee", "Bo Chan", "Cy Dee"],
        "hands": HANDS,
        "end": "time",
    }
    [game] = import_game_records(
        actor=None, records=[record], target=ImportTarget(place=NightPlace(night))
    )
    assert game.seats.get(seat=0).player == known
    assert list(game.hands.order_by("number").values_list("data", flat=True)) == HANDS
    assert game.status == Game.Status.FINISHED
    assert game.summary is not None and game.summary["final"] is not None
    assert game_record(game)["hands"] == HANDS


def test_import_rejects_a_bad_record_naming_hand_and_field_and_imports_nothing(tmp_path):
    club = Club.objects.create(name="Riichi Berlin", slug="rb")
    good = {
        "format": "riichi-game-record/1",
        "ruleset": "ema-2025",
        "players": ["A A", "B B", "C C", "D D"],
        "hands": HANDS,
        "end": "time",
    }
    bad = {**good, "hands": [ron(0, 1, 1, fu=20)]}  # 1 han 20 fu by ron: no such hand
    (tmp_path / "good.json").write_text(json.dumps(good))
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    before = (Game.objects.count(), Hand.objects.count(), Player.objects.count())
    with pytest.raises(ValidationFailed) as exc:
        import_game_records(
            actor=None,
            records=[good, bad],
            target=ImportTarget(
                place=NightPlace(
                    ClubNight.objects.create(club=club, date=datetime.date(2026, 3, 5))
                )
            ),
        )
    assert exc.value.errors[0]["record"] == 1
    assert exc.value.errors[0]["hand"] == 0
    assert exc.value.errors[0]["field"].startswith("wins[0]")
    with pytest.raises(CommandError, match=r"bad\.json: hand 0, field 'wins\[0\]"):
        call_command(
            "import_games",
            str(tmp_path / "good.json"),
            str(tmp_path / "bad.json"),
            "--club",
            "rb",
            stdout=io.StringIO(),
        )
    assert (Game.objects.count(), Hand.objects.count(), Player.objects.count()) == before
    call_command("import_games", str(tmp_path / "good.json"), "--club", "rb", stdout=io.StringIO())
    assert Game.objects.count() == before[0] + 1


def test_export_games_command_writes_records(tmp_path):
    t = make_tournament()
    players = make_players(4)
    hands_game(t, 1, 1, players, HANDS)
    scores_game(t, 2, 1, players, [30000] * 4)
    err = io.StringIO()
    call_command(
        "export_games", t.slug, "--output", str(tmp_path), stdout=io.StringIO(), stderr=err
    )
    # Issue 20: the paper-sheet game is written too, as its final_scores.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s01-t001.json", "s02-t001.json"]
    assert err.getvalue() == ""
    record = json.loads((tmp_path / "s01-t001.json").read_text())
    assert replay(record)["final"] is not None
    sheet = json.loads((tmp_path / "s02-t001.json").read_text())
    assert sheet["hands"] == [] and sheet["final_scores"]["scores"] == [30000] * 4
    assert replay(sheet)["final"]["result"] == [0, 0, 0, 0]  # EMA 2025 3.7.1: a 4-way tie
    out = tmp_path / "all.json"
    call_command(
        "export_games", t.slug, "--output", str(out), stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert json.loads(out.read_text()) == [record, sheet]


def test_export_games_to_a_path_ending_in_a_slash_creates_that_directory(tmp_path):
    # README: `export_games demo-open-2026 --output games/` from a fresh clone.
    t = make_tournament()
    players = make_players(4)
    hands_game(t, 1, 1, players, HANDS)
    call_command("export_games", t.slug, "--output", f"{tmp_path / 'games'}/", stdout=io.StringIO())
    assert [p.name for p in (tmp_path / "games").iterdir()] == ["s01-t001.json"]


def _full_tournament():
    User = get_user_model()
    organiser = User.objects.create_user("orga", email="o@example.org", password="x")
    referee = User.objects.create_user("ref", password="x")
    t = make_tournament(tie_breaks=["most_firsts"], rule_overrides={})
    StaffRole.objects.create(tournament=t, user=organiser, role="organiser")
    StaffRole.objects.create(tournament=t, user=referee, role="referee")
    players = make_players(8, countries=("DE", "NL"))
    register(t, players[:7])
    register(t, players[7:], is_substitute=True)
    game = hands_game(t, 1, 1, players[:4], HANDS)
    Hand.objects.filter(game=game, number=0).update(entered_by=referee, tiles="123m")
    scores_game(t, 1, 2, players[4:], [35000, 30000, 30000, 25000])
    scores_game(t, 2, 1, players[:4], [30000] * 4, finished=False)
    Penalty.objects.create(
        tournament=t,
        player=players[1],
        kind="lateness",
        points=2000,
        minutes_late=2,
        reason="late",
        assigned_by=organiser,
    )
    SeatingPlan.objects.create(
        tournament=t, mode="random", plan=[[[1, 2, 3, 4]]], created_by=organiser, status="done"
    )
    record_audit(
        actor=referee,
        action="hand.add",
        obj=game,
        before=None,
        after={"hand": HANDS[0]},
        tournament_id=t.pk,
        game_id=game.pk,
    )
    recompute_standings(tournament_id=t.pk)
    return t


def _clear_database():
    AuditEntry.objects.all().delete()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()


def test_backup_round_trip_is_byte_identical(tmp_path):
    t = _full_tournament()
    first = json.dumps(export_tournament(t), sort_keys=True)
    document = json.loads(first)
    assert {
        "players",
        "registrations",
        "sessions",
        "tables",
        "seats",
        "games",
        "hands",
        "penalties",
        "staff",
        "audit",
        "users",
        "standings",
    } <= set(document)
    assert len(document["hands"]) == 3 and len(document["audit"]) == 1
    assert "password" not in first
    _clear_database()
    imported = import_tournament(json.loads(first))
    second = json.dumps(export_tournament(imported), sort_keys=True)
    assert second == first
    # The command pair does the same through files.
    path = tmp_path / "t.json"
    call_command("export_tournament", imported.slug, "--output", str(path), stdout=io.StringIO())
    _clear_database()
    call_command("import_tournament", str(path), stdout=io.StringIO())
    third = json.dumps(export_tournament(Tournament.objects.get()), sort_keys=True)
    assert third == first


def test_import_refuses_an_existing_tournament_and_writes_nothing():
    t = _full_tournament()
    document = export_tournament(t)
    counts = (Game.objects.count(), Player.objects.count())
    with pytest.raises(ValidationFailed, match="already exists"):
        import_tournament(document)
    assert (Game.objects.count(), Player.objects.count()) == counts
    with pytest.raises(CommandError):
        call_command("import_tournament", "/nonexistent.json", stdout=io.StringIO())
