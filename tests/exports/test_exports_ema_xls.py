"""Issue 36: the EMA results workbook as BIFF8 .xls, read exactly as the EMA ranking tool's
importer reads it (Jesterboxboy/ema_scraper, calculators/get_results.py ``results_to_db``,
which opens the file with xlrd 2.x and dates it with utils/scrapers.py ``parse_dates``).

The reading code below follows that importer cell by cell: the same 0-based cells, the same
conversions (``int()`` where it uses ``int()``, ``str(int())`` and the leading 0 for the EMA
number, the truth value of "EMA member", ``.lower() == "riichi"``), the same date parsers in
the same order (daterangeparser, then dateutil, then dateparser). Every value is compared with
the stored standings.
"""

from __future__ import annotations

import datetime
import io
from datetime import timedelta
from typing import Any

import pytest
import xlrd
from dateparser import parse as dp_parse
from daterangeparser import parse as dr_parse
from dateutil.parser import parse as du_parse
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient
from standings_builders import make_players, make_tournament, register, scores_game

from core.errors import ValidationFailed
from tests.factories import StaffRoleFactory, UserFactory
from tournaments.ema.countries import EMA_CODES, ema_country
from tournaments.ema.export import (
    UNKNOWN_EMA_NUMBER,
    ExportBlocked,
    _dates,
    ema_file,
    ema_xls,
    validate_for_export,
)
from tournaments.ema.mers import tournament_days, tournament_mers
from tournaments.models import Registration, StaffRole, StandingRow, Tournament
from tournaments.standings.services import recompute_standings

pytestmark = [
    pytest.mark.django_db,
    # daterangeparser (the importer's date parser) calls pyparsing's old names
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


# --- the importer's reading, re-written ------------------------------------------------------


def importer_parse_dates(raw_date: str) -> tuple[datetime.datetime, datetime.datetime]:
    """utils/scrapers.py Tournament_Scraper.parse_dates, its general branch (the one-off
    strings it special-cases are old EMA pages, never ours)."""
    start = end = None
    try:
        start, end = dr_parse(raw_date)
        if start is not None and end is None:
            end = start
    except Exception:
        pass
    if start is None:
        try:
            end = start = du_parse(raw_date)
        except Exception:
            start = end = None
    if start is None:
        try:
            end = start = dp_parse(raw_date)
        except Exception:
            start = end = None
    # "tournament dates don't have any time specified, so if we've got a time, we've
    # mis-parsed it"
    assert start is not None and end is not None, f"the importer cannot date {raw_date!r}"
    assert start.hour + start.minute == 0
    return start, end


def read_like_results_to_db(data: bytes, sheet: str) -> dict[str, Any]:
    """calculators/get_results.py results_to_db, with the database writes left out."""
    book = xlrd.open_workbook(file_contents=data)
    sh = book.sheet_by_name(sheet)
    t: dict[str, Any] = {}
    t["title"] = sh.cell_value(rowx=2, colx=0)
    t["place"] = sh.cell_value(rowx=2, colx=12)
    t["player_count"] = int(sh.cell_value(rowx=2, colx=1))
    t["mers"] = sh.cell_value(rowx=2, colx=13)
    t["raw_date"] = sh.cell_value(rowx=2, colx=16)
    rules = sh.cell_value(rowx=2, colx=15)
    t["ruleset"] = "riichi" if rules.lower() == "riichi" else "mcr"
    t["start_date"], t["end_date"] = importer_parse_dates(t["raw_date"])
    day_count = sh.cell_value(rowx=2, colx=17)
    t["day_count"] = day_count
    t["end_date2"] = t["start_date"] + timedelta(days=day_count)
    t["country3"] = sh.cell_value(rowx=2, colx=11)
    players = []
    for rx in range(1, t["player_count"] + 1):
        position = int(sh.cell_value(rowx=rx, colx=2))
        first_name = sh.cell_value(rowx=rx, colx=3)
        last_name = sh.cell_value(rowx=rx, colx=4)
        ema_id = str(int(sh.cell_value(rowx=rx, colx=5)))
        if len(ema_id) == 7:
            ema_id = f"0{ema_id}"
        is_ema = sh.cell_value(rowx=rx, colx=8)
        country3 = sh.cell_value(rowx=rx, colx=9)
        players.append(
            {
                "position": position,
                "first_name": first_name,
                "last_name": last_name,
                "ema_id": ema_id,
                # what the importer files a new player under
                "stored_ema_id": ema_id if is_ema else "-1",
                "is_ema": is_ema,
                "country3": country3,
                "table_points": sh.cell_value(rowx=rx, colx=6),
                "score": int(sh.cell_value(rowx=rx, colx=7)),
            }
        )
    t["players"] = players
    return t


# --- the tournament ---------------------------------------------------------------------------


def _finished_event() -> tuple[Tournament, dict[str, Any]]:
    """Two sessions, two tables: shared places, a substitute (EMA 2025 7.3) who is not
    ranked, a disqualified player (EMA 2025 6.12) who is not ranked, players from Switzerland
    (SUI, not CHE), Germany (GER, not DEU), the Netherlands and Denmark, accented names."""
    t = make_tournament(
        slug="zurich-riichi",
        name="Zürich Riichi Open",
        city="Zürich",
        country="CH",
        starts_on=datetime.date(2026, 5, 30),
        ends_on=datetime.date(2026, 5, 31),
        status=Tournament.Status.FINISHED,
    )
    players = make_players(8, countries=("CH", "DE", "NL", "DK"))
    names = [
        ("Zoë", "Müller"),
        ("José", "Núñez"),
        ("Søren", "Ærø"),
        ("Łukasz", "Żółw"),
        ("Anaïs", "Lefèvre"),
        ("Jürgen", "Groß"),
        ("Ines", "Sánchez"),
        ("Ólafur", "Þórsson"),
    ]
    for p, (first, last) in zip(players, names, strict=True):
        p.first_name, p.last_name = first, last
        p.save()
    (sub,) = make_players(1, prefix="Sub", start=90)
    register(t, players)
    register(t, [sub], is_substitute=True)
    a, b, c, d, e, f, g, h = players
    scores_game(t, 1, 1, [a, b, c, d], [45300, 30000, 25000, 19700])
    scores_game(t, 1, 2, [e, f, g, h], [40000, 30000, 30000, 20000])
    # Session 2: the substitute sits for d from the start (EMA 2025 7.3).
    scores_game(
        t,
        2,
        1,
        [a, b, c, d],
        [30000, 40000, 30000, 20000],
        substitutes=[{"seat": 3, "from": "start"}],
        sitters=[a, b, c, sub],
    )
    scores_game(t, 2, 2, [e, f, g, h], [25000, 30000, 30000, 35000])
    Registration.objects.filter(tournament=t, player=h).update(
        disqualified_at=timezone.now(), disqualification_reason="cheating"
    )
    recompute_standings(tournament_id=t.pk)
    return t, {"players": players, "substitute": sub, "disqualified": h}


def _ranked(t: Tournament) -> list[StandingRow]:
    return list(
        StandingRow.objects.filter(tournament=t, rank__isnull=False)
        .select_related("player")
        .order_by("rank", "player__last_name", "player__first_name", "player_id")
    )


def test_the_xls_reads_back_exactly_as_the_ema_importer_reads_it():
    t, who = _finished_event()
    rows = _ranked(t)
    assert len({r.rank for r in rows}) < len(rows), "the event must have a shared place"
    assert validate_for_export(t).ok
    read = read_like_results_to_db(ema_xls(t, sheet="rcr220"), "rcr220")

    mers = tournament_mers(t)
    assert read["title"] == "Zürich Riichi Open"
    assert read["place"] == "Zürich"
    assert read["player_count"] == len(rows) == 7  # no substitute, no disqualified player
    assert read["mers"] == float(mers.total)
    assert read["ruleset"] == "riichi"
    assert (read["start_date"].date(), read["end_date"].date()) == (t.starts_on, t.ends_on)
    assert read["day_count"] == tournament_days(t) == 2
    assert read["country3"] == "SUI"

    ranked_ids = {r.player_id for r in rows}
    assert who["substitute"].pk not in ranked_ids and who["disqualified"].pk not in ranked_ids
    expected = [
        {
            "position": r.rank,
            "first_name": r.player.first_name,
            "last_name": r.player.last_name,
            "ema_id": r.player.ema_number,
            "stored_ema_id": r.player.ema_number,
            "is_ema": 1,  # xlrd gives a boolean cell as 1 / 0
            "country3": ema_country(r.player.country),
            "table_points": float(r.total + r.penalties),
            "score": r.total,
        }
        for r in rows
    ]
    assert read["players"] == expected
    # The codes the EMA site uses, not ISO alpha-3.
    assert {p["country3"] for p in read["players"]} == {"SUI", "GER", "NED", "DEN"}
    shared = [p["position"] for p in read["players"]]
    assert len(set(shared)) < len(shared)


def test_the_xls_cells_are_typed_as_the_importer_needs():
    """Numbers are number cells (int() and timedelta() take them), "EMA member" a boolean
    cell, text is text (a BIFF8 label is never a formula)."""
    t, _ = _finished_event()
    book = xlrd.open_workbook(file_contents=ema_xls(t))
    assert book.sheet_names() == ["rcr"]  # the default sheet name
    sh = book.sheet_by_index(0)
    for rx in range(1, 8):
        for colx in (2, 5, 6, 7):
            assert sh.cell_type(rx, colx) == xlrd.XL_CELL_NUMBER
        assert sh.cell_type(rx, 8) == xlrd.XL_CELL_BOOLEAN
        for colx in (3, 4, 9):
            assert sh.cell_type(rx, colx) == xlrd.XL_CELL_TEXT
    for colx in (1, 13, 14, 17):
        assert sh.cell_type(2, colx) == xlrd.XL_CELL_NUMBER
    for colx in (0, 11, 12, 15, 16):
        assert sh.cell_type(2, colx) == xlrd.XL_CELL_TEXT
    assert sh.nrows == 8


def test_the_xls_has_the_same_cells_as_the_xlsx():
    from openpyxl import load_workbook

    t, _ = _finished_event()
    sh = xlrd.open_workbook(file_contents=ema_xls(t)).sheet_by_index(0)
    ws = load_workbook(io.BytesIO(ema_file(t, "xlsx")[0]))["Results"]
    xlsx = [[c.value for c in row] for row in ws.iter_rows()]
    width = max(len(r) for r in xlsx)
    for rx in range(sh.nrows):
        for colx in range(width):
            want = xlsx[rx][colx] if colx < len(xlsx[rx]) else None
            got = sh.cell_value(rx, colx) if colx < sh.ncols else ""
            if isinstance(want, bool):
                assert got == int(want), (rx, colx)
            else:
                assert got == ("" if want is None else want), (rx, colx)


@pytest.mark.parametrize(
    ("starts", "ends", "text"),
    [
        (datetime.date(2026, 5, 2), datetime.date(2026, 5, 2), "2 May 2026"),
        (datetime.date(2026, 5, 2), datetime.date(2026, 5, 3), "2-3 May 2026"),
        (datetime.date(2026, 5, 31), datetime.date(2026, 6, 1), "31 May - 1 June 2026"),
        (
            datetime.date(2026, 12, 31),
            datetime.date(2027, 1, 1),
            "31 December 2026 - 1 January 2027",
        ),
    ],
)
def test_the_date_text_parses_with_the_importers_own_parsers(starts, ends, text):
    t = make_tournament(starts_on=starts, ends_on=ends)
    assert _dates(t) == text
    start, end = importer_parse_dates(text)
    assert (start.date(), end.date()) == (starts, ends)
    # daterangeparser alone, the importer's first choice, already gets it right
    first, last = dr_parse(text)
    assert first.date() == starts and (last or first).date() == ends


# --- players without an EMA number ------------------------------------------------------------


def _with_unknown_players() -> tuple[Tournament, list[Any]]:
    t, who = _finished_event()
    a, b = who["players"][:2]
    for p in (a, b):
        p.ema_number = None
        p.save(update_fields=["ema_number"])
    return t, [a, b]


def test_players_without_an_ema_number_block_until_confirmed():
    t, unknown = _with_unknown_players()
    report = validate_for_export(t)
    blocking = report.blocking
    assert [p.code for p in blocking] == ["no_ema_number", "no_ema_number"]
    assert {p.player_id for p in blocking} == {u.pk for u in unknown}
    assert all(str(u) in " ".join(p.message for p in blocking) for u in unknown)
    with pytest.raises(ExportBlocked) as refused:
        ema_xls(t)
    assert {e["player_id"] for e in refused.value.errors} == {u.pk for u in unknown}

    read = read_like_results_to_db(ema_xls(t, confirm_unknown=True), "rcr")
    by_name = {p["first_name"]: p for p in read["players"]}
    for u in unknown:
        line = by_name[u.first_name]
        assert line["ema_id"] == str(UNKNOWN_EMA_NUMBER) == "0"
        assert line["is_ema"] == 0  # not an EMA member: the importer files it under "-1"
        assert line["stored_ema_id"] == "-1"
    # the others keep their numbers
    assert sum(p["ema_id"] == "0" for p in read["players"]) == 2


def test_the_api_answers_409_naming_them_and_exports_when_confirmed():
    t, unknown = _with_unknown_players()
    organiser = UserFactory()
    StaffRoleFactory(tournament=t, user=organiser, role=StaffRole.Role.ORGANISER)
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{t.slug}/ema-export/?format=xls"
    refused = api.get(url)
    assert refused.status_code == 409
    named = {e["player_id"]: e["message"] for e in refused.json()["errors"]}
    assert set(named) == {u.pk for u in unknown}
    assert all(str(u) in named[u.pk] for u in unknown)
    answer = api.get(url + "&confirm_unknown=1&sheet=rcr220")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/vnd.ms-excel"
    assert f'filename="{t.slug}-ema.xls"' in answer["Content-Disposition"]
    read = read_like_results_to_db(answer.content, "rcr220")
    assert sum(p["ema_id"] == "0" for p in read["players"]) == 2
    bad = api.get(url + "&confirm_unknown=1&sheet=a/b")
    assert bad.status_code == 400 and bad.json()["field"] == "sheet"


def test_the_console_refuses_then_downloads_when_the_organiser_confirms():
    t, unknown = _with_unknown_players()
    organiser = UserFactory()
    StaffRoleFactory(tournament=t, user=organiser, role=StaffRole.Role.ORGANISER)
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments:ema_download", args=[t.slug, "xls"])
    refused = client.get(url)
    assert refused.status_code == 409
    html = refused.content.decode()
    assert all(str(u) in html for u in unknown) and 'id="confirm-xls"' in html
    answer = client.post(url, {"confirm": "1"})
    assert answer.status_code == 200
    read = read_like_results_to_db(answer.content, "rcr")
    assert read["player_count"] == 7


def test_export_ema_command_writes_xls_with_a_sheet_name(tmp_path):
    t, _ = _finished_event()
    out = tmp_path / "ema.xls"
    args = [t.slug, "--format", "xls", "--output", str(out)]
    call_command(
        "export_ema", *args, "--sheet", "rcr220", stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert read_like_results_to_db(out.read_bytes(), "rcr220")["player_count"] == 7
    with pytest.raises(CommandError, match="sheet"):
        call_command("export_ema", *args, "--sheet", "x" * 32, stdout=io.StringIO())
    for p in _ranked(t)[:1]:
        p.player.ema_number = None
        p.player.save(update_fields=["ema_number"])
    with pytest.raises(CommandError, match="--confirm-unknown"):
        call_command("export_ema", *args, stdout=io.StringIO(), stderr=io.StringIO())
    call_command(
        "export_ema", *args, "--confirm-unknown", stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert read_like_results_to_db(out.read_bytes(), "rcr")["players"][0]["ema_id"] == "0"


@pytest.mark.parametrize("name", ["", "x" * 32, "a[b]", "a:b", "a*b", "a?b", "a/b", "a\\b", "'a"])
def test_a_bad_sheet_name_is_refused_naming_the_field(name):
    t, _ = _finished_event()
    with pytest.raises(ValidationFailed) as refused:
        ema_xls(t, sheet=name)
    assert refused.value.field == "sheet"


def test_country_codes_are_the_ema_sites():
    """docs/ema-export.md: the EMA ranking site's country pages are ranking/Country/GER_RCR.html,
    NED_RCR, SUI_RCR, DEN_RCR, POR_RCR (IOC codes); others are ISO alpha-3 as before."""
    assert [ema_country(c) for c in ("DE", "NL", "CH", "DK", "PT")] == [
        "GER",
        "NED",
        "SUI",
        "DEN",
        "POR",
    ]
    assert [ema_country(c) for c in ("AT", "FR", "IT", "GB", "se", "")] == [
        "AUT",
        "FRA",
        "ITA",
        "GBR",
        "SWE",
        "",
    ]
    assert all(len(code) == 3 and code.isupper() for code in EMA_CODES.values())
