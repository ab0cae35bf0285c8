"""The EMA results file, its validation, and the ranking preview (docs/ema-export.md)."""

import csv
import io

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook
from standings_builders import make_players, make_tournament, register, scores_game

from tournaments.ema.export import (
    CSV_HEADER,
    XLSX_HEADER,
    ExportBlocked,
    _dates,
    ema_csv,
    ema_xlsx,
    validate_for_export,
)
from tournaments.ema.mers import base_rank, base_ranks, mers_weight, ranking_preview
from tournaments.models import Penalty
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("days", "players", "subs", "countries", "qual", "total"),
    [
        (1, 40, 0, 5, False, 1.0),
        (2, 40, 1, 6, False, 3.0),  # 41 counted with the substitute: +0.5; 6 countries +0.5
        (2, 78, 5, 9, False, 3.5),  # 3 of 5 substitutes count: 81 > 80 -> +1; 9 countries +0.5
        (3, 120, 0, 10, True, 6.0),
        (5, 20, 0, 2, False, 3.0),  # days count at most 3
    ],
)
def test_mers_weight_examples(days, players, subs, countries, qual, total):
    weight = mers_weight(
        days=days, players=players, substitutes=subs, countries=countries, qualification_only=qual
    )
    assert weight.total == total
    parts = weight.to_dict()
    assert parts["total"] == (
        parts["days_weight"]
        + parts["players_weight"]
        + parts["countries_weight"]
        + parts["qualification_weight"]
    )


def test_base_rank_and_shared_places():
    assert base_rank(1, 16) == 1000
    assert base_rank(16, 16) == 0
    assert round(base_rank(3, 16), 2) == 866.67
    # Places 2 and 2 (a tie), then 4: the tied players share the base rank of place 2.
    assert base_ranks([1, 2, 2, 4]) == [1000.0, 666.67, 666.67, 0.0]


def _finished_tournament(ema=True):
    t = make_tournament(country="DE", city="Berlin")
    players = make_players(8, countries=("DE", "FR"), ema=ema)
    register(t, players)
    a, b, c, d, e, f, g, h = players
    scores_game(t, 1, 1, [a, b, c, d], [45300, 30000, 25000, 19700])
    scores_game(t, 1, 2, [e, f, g, h], [40000, 30000, 30000, 20000])
    Penalty.objects.create(
        tournament=t, player=b, kind="lateness", points=2000, minutes_late=2, reason="late"
    )
    recompute_standings(tournament_id=t.pk)
    return t, players


def test_csv_header_is_exact_and_rows_are_quoted():
    t, _ = _finished_tournament()
    raw = ema_csv(t)
    assert raw.startswith("\ufeff")  # UTF-8 BOM: Excel then shows accents (issue 20)
    text = raw.removeprefix("\ufeff")
    lines = text.splitlines()
    assert lines[0] == ",".join(f'"{h}"' for h in CSV_HEADER)
    assert CSV_HEADER == [
        "Place",
        "First name",
        "Last name",
        "EMA number",
        "Table points",
        "Score",
        "EMA member",
        "Country",
    ]
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 9
    # GER: the EMA ranking site's code for Germany (issue 36), not ISO's DEU
    assert rows[1] == ["1", "P0", "Player000", "04000000", "30.3", "30.3", "yes", "GER"]
    late = next(r for r in rows if r[1] == "P1")
    assert (late[4], late[5]) == ("5", "3")  # table points before, score after the penalty
    assert all(line.startswith('"') for line in lines)


def _read_like_ema_scraper(data: bytes) -> tuple[dict, list[dict]]:
    """Read the workbook as the EMA's results tool does (Jesterboxboy/ema_scraper,
    calculators/get_results.py): the same 0-based cells and the same conversions."""
    ws = load_workbook(io.BytesIO(data))["Results"]

    def cell_value(rowx: int, colx: int):
        value = ws.cell(row=rowx + 1, column=colx + 1).value
        return "" if value is None else value

    tournament = {
        "title": cell_value(2, 0),
        "place": cell_value(2, 12),
        "player_count": int(cell_value(2, 1)),
        "mers": cell_value(2, 13),
        "raw_date": cell_value(2, 16),
        "riichi": cell_value(2, 15).lower() == "riichi",
        "day_count": cell_value(2, 17),
        "country3": cell_value(2, 11),
    }
    players = []
    for rx in range(1, tournament["player_count"] + 1):
        ema_id = str(int(cell_value(rx, 5)))
        if len(ema_id) == 7:
            ema_id = f"0{ema_id}"
        players.append(
            {
                "position": int(cell_value(rx, 2)),
                "first_name": cell_value(rx, 3),
                "last_name": cell_value(rx, 4),
                "ema_id": ema_id,
                "is_ema": bool(cell_value(rx, 8)),
                "country3": cell_value(rx, 9),
                "table_points": cell_value(rx, 6),
                "score": int(cell_value(rx, 7)),
            }
        )
    return tournament, players


def test_xlsx_reads_back_as_the_ema_results_tool_reads_it():
    """Issue 20: players from row 2 in C-J, details in row 3 (A, B, L-R), 3-letter countries,
    an integer score, typed cells with one number format for the points."""
    t, _ = _finished_tournament()
    data = ema_xlsx(t)
    tournament, players = _read_like_ema_scraper(data)
    assert tournament == {
        "title": "Spring Open",
        "place": "Berlin",
        "player_count": 8,
        "mers": 2.0,
        "raw_date": tournament["raw_date"],
        "riichi": True,
        "day_count": 2,
        "country3": "GER",  # the EMA site's code (issue 36)
    }
    assert tournament["raw_date"] == _dates(t) and "-" in tournament["raw_date"]
    first = players[0]
    assert first == {
        "position": 1,
        "first_name": "P0",
        "last_name": "Player000",
        "ema_id": "04000000",
        "is_ema": True,
        "country3": "GER",
        "table_points": 30300,
        "score": 30300,
    }
    late = next(p for p in players if p["first_name"] == "P1")
    assert (late["table_points"], late["score"]) == (5000, 3000)  # before / after penalty
    assert {p["country3"] for p in players} == {"GER", "FRA"}
    ws = load_workbook(io.BytesIO(data))["Results"]
    assert [c.value for c in ws[1]][:10] == ["Tournament", "Players", *XLSX_HEADER[2:10]]
    assert ws["F2"].number_format == "00000000" and ws["F2"].data_type == "n"
    formats = {ws.cell(row=r, column=c).number_format for r in range(2, 10) for c in (7, 8)}
    assert formats == {"0"}
    assert all(ws.cell(row=r, column=9).data_type == "b" for r in range(2, 10))


def test_ema_numbers_are_zero_padded_to_8_digits():
    t, _ = _finished_tournament()
    rows = list(csv.reader(io.StringIO(ema_csv(t))))
    assert {r[3] for r in rows[1:]} == {f"{4000000 + i:08d}" for i in range(8)}
    assert all(len(r[3]) == 8 and r[3].startswith("0") for r in rows[1:])


def test_validation_lists_penalties_missing_ema_numbers_and_ties():
    t, _ = _finished_tournament(ema=False)
    report = validate_for_export(t)
    # Issue 36: players without an EMA number block (the importer's str(int(cell)) fails on
    # an empty cell) until the organiser confirms them.
    assert {p.code for p in report.blocking} == {"no_ema_number"}
    assert report.penalty_total == 2000 and report.penalties[0]["kind"] == "lateness"
    assert len(report.players_without_ema) == 8
    assert report.ties  # f and g tie for 2nd at table 2 and c/... share totals
    assert report.mers is not None and report.mers.total == 2.0
    with pytest.raises(ExportBlocked):
        ema_csv(t)
    assert ema_csv(t, confirm_unknown=True).splitlines()[1].split(",")[3] == '""'


def test_export_refuses_unfinished_games_unless_forced():
    t, players = _finished_tournament()
    game = scores_game(t, 2, 1, players[:4], [30000] * 4, finished=False)
    recompute_standings(tournament_id=t.pk)
    report = validate_for_export(t)
    assert [p.code for p in report.blocking] == ["game_unfinished"]
    assert report.blocking[0].game_id == game.pk
    with pytest.raises(ExportBlocked) as exc:
        ema_csv(t)
    assert exc.value.errors[0]["code"] == "game_unfinished"
    assert ema_csv(t, force=True).startswith('\ufeff"Place"')


def test_export_refuses_points_that_do_not_add_up_and_stale_standings():
    t, players = _finished_tournament()
    game = scores_game(t, 2, 1, players[:4], [30000, 30000, 30000, 20000])
    blocking = validate_for_export(t).blocking
    assert [(p.code, p.game_id) for p in blocking] == [("game_points", game.pk)]
    assert "110000" in blocking[0].message
    game.final_scores = [40000, 30000, 30000, 20000]
    game.save()
    assert [p.code for p in validate_for_export(t).blocking] == ["standings_stale"]
    recompute_standings(tournament_id=t.pk)
    assert validate_for_export(t).ok


def test_export_ema_command(tmp_path):
    t, _ = _finished_tournament()
    out = tmp_path / "ema.csv"
    call_command(
        "export_ema",
        t.slug,
        "--format",
        "csv",
        "--output",
        str(out),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert out.read_text(encoding="utf-8-sig").startswith('"Place","First name"')
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")
    xlsx = tmp_path / "ema.xlsx"
    call_command(
        "export_ema",
        t.slug,
        "--format",
        "xlsx",
        "--output",
        str(xlsx),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert load_workbook(xlsx).active.cell(row=2, column=6).value == 4000000
    scores_game(t, 2, 1, _[:4], [30000] * 4, finished=False)
    with pytest.raises(CommandError, match="--force"):
        call_command(
            "export_ema", t.slug, "--output", str(out), stdout=io.StringIO(), stderr=io.StringIO()
        )


def test_ranking_preview_gives_base_ranks():
    t, _ = _finished_tournament()
    preview = ranking_preview(t)
    assert preview["mers"]["total"] == 2.0
    places = [p["place"] for p in preview["players"]]
    assert places == sorted(places) and preview["players"][0]["base_rank"] == 1000.0
    assert preview["players"][-1]["base_rank"] == 0.0


def test_a_three_player_event_is_refused_with_the_reason_even_when_forced():
    """EMA 2025 2.1 and 7.3: the EMA rules (and so its ranking) are for four players; a
    WDMC 2019 section 5 (three-player) event has no EMA results file."""
    t = make_tournament(slug="sanma-open", ruleset="wdmc-2019-3p")
    report = validate_for_export(t)
    assert "three_players" in [p.code for p in report.blocking]
    for export in (ema_csv, ema_xlsx):
        with pytest.raises(ExportBlocked) as exc:
            export(t, force=True)
        assert exc.value.errors[0]["code"] == "three_players"
        assert "four-player" in str(exc.value) and "EMA 2025 2.1" in str(exc.value)
