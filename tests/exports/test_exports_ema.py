"""The EMA results file, its validation, and the ranking preview (docs/ema-export.md)."""

import csv
import io

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook
from standings_builders import make_players, make_tournament, register, scores_game

from tournaments.ema.export import (
    CSV_HEADER,
    ExportBlocked,
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
    text = ema_csv(t)
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
    assert rows[1] == ["1", "P0", "Player000", "04000000", "30.3", "30.3", "yes", "DE"]
    late = next(r for r in rows if r[1] == "P1")
    assert (late[4], late[5]) == ("5", "3")  # table points before, score after the penalty
    assert all(line.startswith('"') for line in lines)


def test_xlsx_cells_read_back():
    t, _ = _finished_tournament()
    wb = load_workbook(io.BytesIO(ema_xlsx(t)))
    ws = wb.active
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    assert ws.max_column == 9  # the details row is the widest
    rows = [r[:9] if i < 2 else r[:8] for i, r in enumerate(rows)]
    assert rows[0][:5] == ["Tournament", "Players", "Country", "City", "MERS weight"]
    details = rows[1]
    assert details[0] == "Spring Open" and details[1] == 8 and details[2] == "DE"
    assert details[3] == "Berlin" and details[4] == 2.0 and details[8] == 2
    assert rows[3] == [
        "Position",
        "First name",
        "Last name",
        "EMA number",
        "Table points",
        "Score",
        "EMA member",
        "Country",
    ]
    first = rows[4]
    assert first == [1, "P0", "Player000", "04000000", 30.3, 30.3, "yes", "DE"]
    assert all(isinstance(r[3], str) and len(r[3]) == 8 for r in rows[4:])


def test_ema_numbers_are_zero_padded_to_8_digits():
    t, _ = _finished_tournament()
    rows = list(csv.reader(io.StringIO(ema_csv(t))))
    assert {r[3] for r in rows[1:]} == {f"{4000000 + i:08d}" for i in range(8)}
    assert all(len(r[3]) == 8 and r[3].startswith("0") for r in rows[1:])


def test_validation_lists_penalties_missing_ema_numbers_and_ties():
    t, _ = _finished_tournament(ema=False)
    report = validate_for_export(t)
    assert report.ok
    assert report.penalty_total == 2000 and report.penalties[0]["kind"] == "lateness"
    assert len(report.players_without_ema) == 8
    assert report.ties  # f and g tie for 2nd at table 2 and c/... share totals
    assert report.mers is not None and report.mers.total == 2.0
    assert ema_csv(t).splitlines()[1].split(",")[3] == '""'


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
    assert ema_csv(t, force=True).startswith('"Place"')


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
    assert out.read_text(encoding="utf-8").startswith('"Place","First name"')
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
    assert load_workbook(xlsx).active.cell(row=5, column=4).value == "04000000"
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
