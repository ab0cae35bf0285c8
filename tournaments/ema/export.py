"""The EMA results file: the CSV report grid and the results workbook, as BIFF8 ``.xls`` (what
the EMA's importer opens) or ``.xlsx`` (docs/ema-export.md).

``validate_for_export`` checks the tournament first and returns an ``ExportReport``; the
exports refuse (``ExportBlocked``) while it has blocking problems, unless ``force=True``;
players without an EMA number block until the organiser confirms them
(``confirm_unknown=True``), who are then written with ``UNKNOWN_EMA_NUMBER``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, Sum

from core.errors import ValidationFailed
from scoring.engine import RulesError, load_ruleset
from scoring.models import Game, GameSeat
from scoring.records import check_game_points, game_final
from scoring.selectors import game_chombos
from scoring.summary import GameSummary
from tournaments.models import Penalty, StandingRow, Table, Tournament
from tournaments.roles import table_of
from tournaments.spreadsheet import SafeCsvWriter, append_xlsx_row, is_formula_like
from tournaments.standings.exports import thousands
from tournaments.standings.services import compute_standings

from .countries import ema_country
from .mers import MersWeight, tournament_days, tournament_mers

BOM = "\ufeff"
CSV_HEADER = [
    "Place",
    "First name",
    "Last name",
    "EMA number",
    "Table points",
    "Score",
    "EMA member",
    "Country",
]
# The EMA results workbook as the EMA's own tooling reads it (Jesterboxboy/ema_scraper,
# calculators/get_results.py; 0-based columns there): row 1 the header, one player per row from
# row 2 in columns C-J, the tournament's details in row 3, columns A, B and L-R.
XLSX_HEADER = [
    "Tournament",  # A: title (row 3)
    "Players",  # B: player count (row 3)
    "Place",  # C
    "First name",  # D
    "Last name",  # E
    "EMA number",  # F: a number (read as str(int(cell))), shown with 8 digits
    "Table points",  # G
    "Score",  # H: an integer (read as int(cell))
    "EMA member",  # I: TRUE/FALSE (read as a truth value)
    "Country",  # J: three letters
    "",  # K
    "Country",  # L: the tournament's, three letters (row 3)
    "City",  # M
    "MERS",  # N
    "Countries",  # O: not read by the tool; the number of countries (a MERS input)
    "Rules",  # P: "Riichi"
    "Dates",  # Q: e.g. "14-15 March 2026"
    "Days",  # R
]
POINTS_FORMAT = "0"  # every point cell is an integer number of points: one number format
EMA_NUMBER_FORMAT = "00000000"
MERS_FORMAT = "0.0"
# The EMA number written for a confirmed player without one. The importer reads
# str(int(cell)), so the cell must be a number. The EMA's results pages show "-" for a player
# without an EMA number, which its own scraper (utils/scrapers.py, dash_to_0) reads as "0"
# ("not an EMA-registered player"); with "EMA member" FALSE the importer files the player
# under its own id "-1" (a new player each time). -1 itself would match the first such player
# already on file, so 0 it is (docs/ema-export.md).
UNKNOWN_EMA_NUMBER = 0
# The sheet name: the EMA keeps one sheet per tournament, named by ruleset and its own
# tournament number (the importer's author: results_to_db(db, 'fake-tourney.xls', 'rcr220');
# the site's page TR_RCR_220.html). We do not know the EMA's number: "rcr" unless the
# organiser gives the full name (export_ema --sheet rcr220).
DEFAULT_SHEET = "rcr"
# Excel's rules for a sheet name (both formats): 1-31 characters, none of these.
_SHEET_FORBIDDEN = set("[]:*?/\\")


@dataclass
class Problem:
    code: str
    message: str
    blocking: bool
    game_id: int | None = None
    player_id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "blocking": self.blocking,
            "game_id": self.game_id,
            "player_id": self.player_id,
        }


@dataclass
class ExportReport:
    """What an organiser checks before sending the file to the EMA."""

    problems: list[Problem] = field(default_factory=list)
    penalties: list[dict[str, Any]] = field(default_factory=list)
    penalty_total: int = 0
    players_without_ema: list[str] = field(default_factory=list)
    ties: list[dict[str, Any]] = field(default_factory=list)  # {"place": n, "players": [...]}
    mers: MersWeight | None = None

    @property
    def blocking(self) -> list[Problem]:
        return [p for p in self.problems if p.blocking]

    @property
    def ok(self) -> bool:
        return not self.blocking

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "problems": [p.to_dict() for p in self.problems],
            "penalties": self.penalties,
            "penalty_total": self.penalty_total,
            "players_without_ema": self.players_without_ema,
            "ties": self.ties,
            "mers": self.mers.to_dict() if self.mers else None,
        }


class ExportBlocked(ValidationFailed):
    """The tournament is not ready for the EMA file; ``report`` says why."""

    def __init__(self, report: ExportReport) -> None:
        first = report.blocking[0].message if report.blocking else "not ready"
        super().__init__(
            f"the EMA file cannot be exported yet: {first}",
            field=None,
            errors=[p.to_dict() for p in report.blocking],
        )
        self.report = report


def _ranked_rows(tournament: Tournament) -> list[StandingRow]:
    return list(
        StandingRow.objects.filter(tournament=tournament)
        .filter(~Q(rank=None))
        .select_related("player")
        .order_by("rank", "player__last_name", "player__first_name", "player_id")
    )


def _where(game: Game) -> str:
    table = table_of(game)
    if table is None:
        return f"game {game.pk}"
    return f"session {table.session.number} table {table.number}"


def _chombo_lines(game: Game) -> list[dict[str, Any]]:
    """The report's lines for a finished game's chombos (deducted after uma; a chombo paid at
    the table under other rules is in the table scores and not listed)."""

    found = [c for c in game_chombos(game) if c["points"]]
    if not found:
        return []
    players = {
        gs.seat: gs.player for gs in GameSeat.objects.filter(game=game).select_related("player")
    }
    hands = GameSummary.of(game.summary).hands
    table = table_of(game)
    lines = []
    for c in found:
        player = players.get(c["seat"])
        if c["hand"] is None:
            where = "paper score sheet"
        elif c["hand"] < len(hands):
            out = hands[c["hand"]]
            where = f"hand {out['round']}" + (f"-{out['honba']}" if out.get("honba") else "")
        else:
            where = f"hand {c['hand'] + 1}"
        lines.append(
            {
                "player": str(player) if player else f"seat {c['seat']}",
                "player_id": player.pk if player else None,
                "kind": "chombo",
                "points": c["points"],
                "session": table.session.number if table else None,
                "reason": f"{_where(game)}, {where}",
                "game_id": game.pk,
            }
        )
    return lines


def validate_for_export(tournament: Tournament) -> ExportReport:
    """Every game finalized, every game's points add up, standings current; penalties,
    players without an EMA number and ties listed (not blocking)."""
    report = ExportReport(mers=tournament_mers(tournament))
    if _three_players(tournament):
        report.problems.append(Problem("three_players", THREE_PLAYER_REASON, True))
    games = list(
        Game.objects.filter(table__session__tournament=tournament)
        .select_related("table__session")
        .order_by("table__session__number", "table__number")
    )
    chombos: list[dict[str, Any]] = []
    for game in games:
        if game.status == Game.Status.FINISHED:
            chombos += _chombo_lines(game)
        if game.status != Game.Status.FINISHED:
            report.problems.append(
                Problem(
                    "game_unfinished",
                    f"{_where(game)}: the game is not finalized",
                    True,
                    game_id=game.pk,
                )
            )
            continue
        issue = check_game_points(game)
        if issue is None and game_final(game) is None:
            issue = "no final result"
        if issue:
            report.problems.append(
                Problem("game_points", f"{_where(game)}: {issue}", True, game_id=game.pk)
            )
    for table in Table.objects.filter(
        session__tournament=tournament, game__isnull=True
    ).select_related("session"):
        report.problems.append(
            Problem(
                "table_without_game",
                f"session {table.session.number} table {table.number} has no game",
                True,
            )
        )

    stored = {
        r.player_id: (r.rank, r.total) for r in StandingRow.objects.filter(tournament=tournament)
    }
    fresh = {r.player_id: (r.rank, r.total) for r in compute_standings(tournament)}
    if stored != fresh:
        report.problems.append(
            Problem(
                "standings_stale",
                "the standings are out of date: rebuild them first (manage.py rebuild_standings)",
                True,
            )
        )
    rows = _ranked_rows(tournament)
    if not rows:
        report.problems.append(Problem("no_players", "no ranked players", True))

    for p in Penalty.objects.filter(
        tournament=tournament, cancelled_at__isnull=True
    ).select_related("player", "session"):
        report.penalties.append(
            {
                "player": str(p.player),
                "player_id": p.player_id,
                "kind": p.kind,
                "points": p.points,
                "session": p.session.number if p.session else None,
                "reason": p.reason,
            }
        )
        report.penalty_total += p.points
    # Every chombo of a finished game, entered hand by hand or on a paper sheet (EMA 2025
    # 3.4.6: 20,000 after uma; already in the game's result, so in "Table points").
    report.penalties += chombos
    report.penalty_total += sum(c["points"] for c in chombos)
    by_place: dict[int, list[str]] = {}
    for row in rows:
        if not row.player.ema_number:
            report.players_without_ema.append(str(row.player))
            # Blocking (issue 36): the importer's str(int(cell)) fails on an empty cell;
            # the organiser confirms (confirm_unknown) and the cell gets UNKNOWN_EMA_NUMBER.
            report.problems.append(
                Problem(
                    "no_ema_number",
                    f"{row.player} has no EMA number (confirm to export with"
                    f" {UNKNOWN_EMA_NUMBER}, the EMA's number for an unknown player)",
                    True,
                    player_id=row.player_id,
                )
            )
        by_place.setdefault(row.rank or 0, []).append(str(row.player))
    report.ties = [
        {"place": place, "players": names}
        for place, names in sorted(by_place.items())
        if len(names) > 1
    ]
    for tie in report.ties:
        report.problems.append(
            Problem("tie", f"shared place {tie['place']}: {', '.join(tie['players'])}", False)
        )
    return report


@dataclass(frozen=True)
class ResultLine:
    place: int
    first_name: str
    last_name: str
    ema_number: str
    table_points: int  # sum of every game result in the event, before tournament penalties
    score: int  # table points minus every tournament penalty
    member: bool
    country: str


def _event_points(row: StandingRow) -> int:
    """The player's table points over the whole event: every game they played (their
    per-session entries; a session substituted for them counts for nothing, EMA 2025 7.3)."""
    return sum(int(e["result"]) for e in row.per_session if not e.get("as_substitute"))


def result_lines(tournament: Tournament) -> list[ResultLine]:
    """One line per ranked player, by place. The place is the standings rank (after a cut,
    the order of docs/finals.md); the points are the player's whole event, every game and
    every tournament penalty, whatever window the standings rank a stage on: under a
    restart (`carry_over: false`) a finalist's place comes from the final alone, but the
    file still reports all they scored (docs/ema-export.md, "Finals and cuts")."""
    penalties = dict(
        Penalty.objects.filter(tournament=tournament, cancelled_at__isnull=True)
        .values("player_id")
        .annotate(points=Sum("points"))
        .values_list("player_id", "points")
    )
    lines = []
    for row in _ranked_rows(tournament):
        table_points = _event_points(row)
        lines.append(
            ResultLine(
                place=row.rank or 0,
                first_name=row.player.first_name,
                last_name=row.player.last_name,
                ema_number=(row.player.ema_number or "").zfill(8) if row.player.ema_number else "",
                table_points=table_points,
                score=table_points - int(penalties.get(row.player_id) or 0),
                # An EMA number is issued through an EMA member association.
                member=bool(row.player.ema_number),
                country=row.player.country,
            )
        )
    return lines


def _checked(tournament: Tournament, force: bool, confirm_unknown: bool = False) -> ExportReport:
    report = validate_for_export(tournament)
    unrankable = any(p.code == "three_players" for p in report.blocking)
    # Players without an EMA number need the organiser's confirmation (or force); every other
    # blocking problem needs force; nothing makes sanma rankable.
    waived = confirm_unknown or force
    left = [p for p in report.blocking if not (p.code == "no_ema_number" and waived)]
    if left and (not force or unrankable):
        raise ExportBlocked(report)
    return report


def sheet_name(name: str | None) -> str:
    """A valid sheet name (Excel: 1-31 characters, none of [ ] : * ? / \\), or
    ValidationFailed naming the field ``sheet``."""
    name = DEFAULT_SHEET if name is None else name
    if not 1 <= len(name) <= 31 or set(name) & _SHEET_FORBIDDEN or name != name.strip("'"):
        raise ValidationFailed(
            "a sheet name has 1-31 characters, none of [ ] : * ? / \\ and no leading or"
            " trailing apostrophe",
            field="sheet",
        )
    return name


THREE_PLAYER_REASON = (
    "the EMA ranks four-player riichi only: its rules are written for four players (EMA 2025"
    " 2.1 'Mahjong is played by four players', 7.3 substitutes 'as mahjong is played with"
    " four players'), so a three-player event has no place in the EMA results file"
)


def _three_players(tournament: Tournament) -> bool:

    try:
        rules = load_ruleset(tournament.ruleset, tournament.rule_overrides or None)
    except RulesError:
        return False
    return rules.players == 3


def ema_csv(tournament: Tournament, *, force: bool = False, confirm_unknown: bool = False) -> str:
    """The report grid: exactly ``CSV_HEADER``, one quoted row per ranked player (UTF-8)."""
    _checked(tournament, force, confirm_unknown)
    out = io.StringIO()
    out.write(BOM)  # Excel reads the file as UTF-8 only with it: accents stay accents
    writer = SafeCsvWriter(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")  # issue 16.1
    writer.writerow(CSV_HEADER)
    for line in result_lines(tournament):
        writer.writerow(
            [
                line.place,
                line.first_name,
                line.last_name,
                line.ema_number,
                thousands(line.table_points),
                thousands(line.score),
                "yes" if line.member else "no",
                ema_country(line.country),
            ]
        )
    return out.getvalue()


def _dates(tournament: Tournament) -> str:
    """The event's dates as the EMA writes them ("14 March 2026", "14-15 March 2026",
    "31 March - 2 April 2026"), month names in English whatever the language."""
    a, b = tournament.starts_on, tournament.ends_on
    month = "January February March April May June July August September October November December"
    names = month.split()
    if a == b:
        return f"{a.day} {names[a.month - 1]} {a.year}"
    if (a.year, a.month) == (b.year, b.month):
        return f"{a.day}-{b.day} {names[a.month - 1]} {a.year}"
    if a.year == b.year:
        return f"{a.day} {names[a.month - 1]} - {b.day} {names[b.month - 1]} {b.year}"
    return f"{a.day} {names[a.month - 1]} {a.year} - {b.day} {names[b.month - 1]} {b.year}"


def _player_cells(line: ResultLine) -> list[Any]:
    """Columns A-J of a player's row (both workbook formats)."""
    return [
        None,
        None,
        line.place,
        line.first_name,
        line.last_name,
        int(line.ema_number) if line.ema_number else UNKNOWN_EMA_NUMBER,
        line.table_points,
        line.score,
        line.member,
        ema_country(line.country),
    ]


def _details(tournament: Tournament, lines: list[ResultLine], mers: MersWeight) -> dict[int, Any]:
    """Row 3's cells by 1-based column (both workbook formats)."""
    return {
        1: tournament.name,
        2: len(lines),
        12: ema_country(tournament.country),
        13: tournament.city,
        14: float(mers.total),
        15: mers.countries,
        16: "Riichi",
        17: _dates(tournament),
        18: tournament_days(tournament),
    }


def ema_xls(
    tournament: Tournament,
    *,
    force: bool = False,
    confirm_unknown: bool = False,
    sheet: str | None = None,
) -> bytes:
    """The EMA results workbook as BIFF8 ``.xls`` (what xlrd 2.x, the EMA importer's reader,
    opens): the cells of ``ema_xlsx``, numbers as numbers, TRUE/FALSE as booleans, text as
    text (a BIFF8 label is never a formula, issue 16.1), one sheet named ``sheet``."""
    import xlwt  # loaded for an .xls export only

    name = sheet_name(sheet)
    report = _checked(tournament, force, confirm_unknown)
    lines = result_lines(tournament)
    mers = report.mers or tournament_mers(tournament)
    wb = xlwt.Workbook(encoding="utf-8")
    ws = wb.add_sheet(name)
    plain = xlwt.easyxf("")
    points = xlwt.easyxf(num_format_str=POINTS_FORMAT)
    # One number format per column, as in the .xlsx (2, 15, 18 are row 3's counts).
    formats = {c: points for c in (2, 3, 7, 8, 15, 18)}
    formats[6] = xlwt.easyxf(num_format_str=EMA_NUMBER_FORMAT)
    formats[14] = xlwt.easyxf(num_format_str=MERS_FORMAT)
    cells: dict[tuple[int, int], Any] = {}
    for c, title in enumerate(XLSX_HEADER, start=1):
        cells[(1, c)] = title or None
    for r, line in enumerate(lines, start=2):
        for c, value in enumerate(_player_cells(line), start=1):
            cells[(r, c)] = value
    for c, value in _details(tournament, lines, mers).items():
        cells[(3, c)] = value
    for (r, c), value in sorted(cells.items()):
        if value is None:
            continue
        number = isinstance(value, int | float) and not isinstance(value, bool)
        ws.write(r - 1, c - 1, value, formats.get(c, plain) if number else plain)
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def ema_xlsx(
    tournament: Tournament,
    *,
    force: bool = False,
    confirm_unknown: bool = False,
    sheet: str | None = None,
) -> bytes:
    """The EMA results workbook (``XLSX_HEADER``): typed cells, never formulas (issue 16.1);
    the sheet is "Results" unless named."""
    # openpyxl is heavy: loaded for an XLSX export only.
    from openpyxl import Workbook

    name = "Results" if sheet is None else sheet_name(sheet)
    report = _checked(tournament, force, confirm_unknown)
    lines = result_lines(tournament)
    mers = report.mers or tournament_mers(tournament)
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = name
    append_xlsx_row(ws, XLSX_HEADER)
    for line in lines:
        append_xlsx_row(ws, _player_cells(line))
        r = ws.max_row
        ws.cell(row=r, column=3).number_format = POINTS_FORMAT
        ws.cell(row=r, column=6).number_format = EMA_NUMBER_FORMAT
        ws.cell(row=r, column=7).number_format = POINTS_FORMAT
        ws.cell(row=r, column=8).number_format = POINTS_FORMAT
    for column, value in _details(tournament, lines, mers).items():
        cell = ws.cell(row=3, column=column)
        cell.value = value
        if isinstance(value, str):
            cell.data_type = "s"  # text, never a formula (issue 16.1)
            if is_formula_like(value):
                cell.quotePrefix = True
        elif column == 14:
            cell.number_format = MERS_FORMAT
        else:
            cell.number_format = POINTS_FORMAT
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


XLS_TYPE = "application/vnd.ms-excel"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
EMA_FORMATS: dict[str, str] = {"csv": "text/csv; charset=utf-8", "xls": XLS_TYPE, "xlsx": XLSX_TYPE}


def ema_file(
    tournament: Tournament,
    file_format: str,
    *,
    force: bool = False,
    confirm_unknown: bool = False,
    sheet: str | None = None,
) -> tuple[bytes, str]:
    """The EMA file in ``file_format`` (a key of ``EMA_FORMATS``) and its content type: what
    the console and API downloads answer."""
    flags = {"force": force, "confirm_unknown": confirm_unknown}
    if file_format == "csv":
        return ema_csv(tournament, **flags).encode("utf-8"), EMA_FORMATS["csv"]
    if file_format == "xls":
        return ema_xls(tournament, sheet=sheet, **flags), XLS_TYPE
    if file_format == "xlsx":
        return ema_xlsx(tournament, sheet=sheet, **flags), XLSX_TYPE
    raise ValidationFailed(f"format must be one of: {', '.join(EMA_FORMATS)}.", field="format")
