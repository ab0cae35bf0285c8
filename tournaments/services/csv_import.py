"""Register players from a CSV file: every row is checked, and nothing is imported if any fails.

Header (case-insensitive, any order; `;` or `,` separated): either `name` ("First Last" or
"Last, First"; surname particles stay with the surname: "Jan de Vries" is Jan / de Vries) or
`first_name` and `last_name`; optional `ema_number`, `country`, `club`, `role` (`player`,
`fill-in` or `reserve`, issue 31; empty is `player`), `substitute` (yes/no: the column of
before roles, yes meaning `fill-in`, read when a row gives no role) and `team` (the team's
name, created on first use: issue 32.1).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from core.audit import audited
from core.errors import ServiceError, ValidationFailed
from core.models import Player
from core.names import fold, split_name
from core.players import clean_country, clean_ema_number, clean_name
from tournaments.models import Registration, Tournament
from tournaments.spreadsheet import csv_read_error
from tournaments.standings.cache import touch as touch_standings

from ._common import require_organiser
from .registration import (
    CLUB_NAME_MAX,
    check_open_for_registration,
    clean_role,
    find_or_create_player,
    registration_snapshot,
)
from .teams import clean_team_name, team_named

ALIASES = {
    "name": "name",
    "player": "name",
    "first_name": "first_name",
    "firstname": "first_name",
    "first name": "first_name",
    "last_name": "last_name",
    "lastname": "last_name",
    "last name": "last_name",
    "surname": "last_name",
    "ema_number": "ema_number",
    "ema": "ema_number",
    "ema number": "ema_number",
    "ema_id": "ema_number",
    "country": "country",
    "club": "club",
    "club_name": "club",
    "substitute": "substitute",
    "role": "role",
    "team": "team",
    "team_name": "team",
}
TRUE = {"1", "yes", "y", "true", "x"}
MAX_ROWS = 2000
MAX_BYTES = 2 * 1024 * 1024  # 2 MB: far above any real tournament's player list


def check_text(text: Any) -> str:
    """A CSV upload must be plain text of at most 2 MB (checked before parsing anything)."""
    if not isinstance(text, str):
        raise ValidationFailed("The file must be text (a CSV file).", field="file")
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ValidationFailed("The file is too large: at most 2 MB.", field="file")
    if any(ch in text for ch in ("\x00", "\ufffd")) or any(
        ord(ch) < 32 and ch not in "\t\r\n" for ch in text
    ):
        raise ValidationFailed(
            "The file is not a plain-text CSV file (it contains binary data); export it from "
            "your spreadsheet as CSV (UTF-8).",
            field="file",
        )
    return text


def _long_column(text: str, line: int, rows: list[tuple[int, list[str]]]) -> str | None:
    """The header's name of the over-long cell on `line`, when the line is plain enough to
    tell (no quotes; an unknown dialect's comma, semicolon or tab); else None."""
    lines = text.splitlines()
    if not rows or not 0 < line <= len(lines) or '"' in lines[line - 1]:
        return None
    physical = lines[line - 1]
    delimiter = max(",;\t", key=physical.count)
    cells = physical.split(delimiter)
    longest = max(range(len(cells)), key=lambda i: len(cells[i]))
    header = rows[0][1]
    return header[longest].strip() if longest < len(header) and rows[0][0] != line else None


def _read(text: str) -> tuple[list[str], list[dict[str, Any]]]:
    text = check_text(text).lstrip("\ufeff")
    if not text.strip():
        raise ValidationFailed("The file is empty.", field="file")
    try:
        dialect: Any = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    # (line number in the file, cells); blank lines are skipped but keep the numbering.
    rows: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            rows.append((reader.line_num, cells))
    except csv.Error as error:  # a cell over the csv module's limit, ... (issue 30.4)
        raise ValidationFailed(
            csv_read_error(error, reader.line_num, _long_column(text, reader.line_num, rows)),
            field="file",
        ) from error
    rows = [(n, r) for n, r in rows if any(cell.strip() for cell in r)]
    header = [ALIASES.get(h.strip().lower(), h.strip().lower()) for h in rows[0][1]]
    unknown = [h for h in header if h not in ALIASES.values()]
    if unknown:
        raise ValidationFailed(f"Unknown column {unknown[0]!r}.", field="header")
    if "name" not in header and not {"first_name", "last_name"} <= set(header):
        raise ValidationFailed(
            "The header needs a `name` column, or `first_name` and `last_name`.", field="header"
        )
    records: list[dict[str, Any]] = []
    for line, cells in rows[1:]:
        if len(cells) > len(header):
            records.append(
                {"__row__": line, "__error__": f"{len(cells)} cells, the header has {len(header)}"}
            )
            continue
        record: dict[str, Any] = {
            h: (cells[i].strip() if i < len(cells) else "") for i, h in enumerate(header)
        }
        record["__row__"] = line
        records.append(record)
    return header, records


@dataclass
class CsvImportResult:
    """What an import did: new registrations, rows skipped because the player is already
    registered, and rows not imported because they may be a player already on the list."""

    registrations: list[Registration] = field(default_factory=list)
    already_registered: list[dict[str, Any]] = field(default_factory=list)
    possible_duplicates: list[dict[str, Any]] = field(default_factory=list)

    def __iter__(self) -> Iterator[Registration]:
        return iter(self.registrations)

    def __len__(self) -> int:
        return len(self.registrations)

    def __getitem__(self, index: int) -> Registration:
        return self.registrations[index]


def _full_name(first: str, last: str) -> str:
    return fold(f"{first} {last}")


@transaction.atomic
def import_registrations_csv(*, actor: Any, tournament: Tournament, text: str) -> CsvImportResult:
    """Register every row, or nobody: all row errors come back together (row = file line).

    Importing the same file twice registers nobody twice: a row is matched to a registered
    player by EMA number, or (without one) by name, case and accents ignored, and skipped.
    A row that may be a registered player (same name, one of the two without EMA number) or
    several known players is not imported but reported, for the organiser to decide.
    A row without EMA number whose name is exactly one known player reuses that player.
    """
    require_organiser(actor, tournament)
    check_open_for_registration(tournament)
    _, records = _read(text)
    if not records:
        raise ValidationFailed("The file has a header but no players.", field="file")
    if len(records) > MAX_ROWS:
        raise ValidationFailed(f"At most {MAX_ROWS} players per file.", field="file")

    errors: list[dict[str, Any]] = []
    cleaned: list[dict[str, Any]] = []
    seen_ema: dict[str, int] = {}
    for rec in records:
        row = rec["__row__"]  # the line in the file; line 1 is the header
        if "__error__" in rec:
            errors.append({"row": row, "field": "row", "message": rec["__error__"]})
            continue
        try:
            if rec.get("name"):
                first, last = split_name(rec["name"])
                name_field = "name"
            else:
                first, last = rec.get("first_name", ""), rec.get("last_name", "")
                name_field = ""
            first = clean_name(first, field=name_field or "first_name")
            last = clean_name(last, field=name_field or "last_name")
            ema = clean_ema_number(rec.get("ema_number"))
            country = clean_country(rec.get("country"))
            if (rec.get("role") or "").strip():
                role = clean_role(rec["role"])
            else:
                substitute = (rec.get("substitute") or "").lower() in TRUE
                role = Registration.Role.FILL_IN if substitute else Registration.Role.PLAYER
            club = rec.get("club", "")
            if len(club) > CLUB_NAME_MAX:
                raise ValidationFailed(f"At most {CLUB_NAME_MAX} characters.", field="club")
            team = clean_team_name(rec.get("team"))
            if ema is not None:
                if ema in seen_ema:
                    raise ValidationFailed(
                        f"EMA number {ema} is also on row {seen_ema[ema]}.", field="ema_number"
                    )
                seen_ema[ema] = row
        except ServiceError as error:
            errors.append({"row": row, "field": error.field, "message": error.message})
            continue
        cleaned.append(
            {
                "row": row,
                "first_name": first,
                "last_name": last,
                "ema_number": ema,
                "country": country,
                "club": club,
                "role": role,
                "team": team,
            }
        )
    if errors:
        raise ValidationFailed(
            f"{len(errors)} row(s) have errors; nothing was imported.",
            field="file",
            errors=errors,
        )

    result = CsvImportResult()
    registered = list(
        Registration.objects.filter(tournament=tournament).select_related("player").order_by("id")
    )
    by_player = {r.player_id: r for r in registered}
    by_name: dict[str, list[Registration]] = {}
    for r in registered:
        by_name.setdefault(_full_name(r.player.first_name, r.player.last_name), []).append(r)
    known: dict[str, list[int]] | None = None  # every player by name, loaded when needed

    def report(kind: list[dict[str, Any]], item: dict[str, Any], reg: Registration | None) -> None:
        entry = {"row": item["row"], "name": f"{item['first_name']} {item['last_name']}"}
        if reg is not None:
            entry.update({"registration": reg.pk, "registered_as": str(reg.player)})
        kind.append(entry)

    with audited(
        actor=actor,
        action="registration.import_csv",
        object_type="tournaments.tournament",
        object_id=tournament.pk,
        tournament_id=tournament.pk,
    ) as audit:
        for item in cleaned:
            ema, key = item["ema_number"], _full_name(item["first_name"], item["last_name"])
            same_name = by_name.get(key, [])
            player: Player | None = None
            if ema is not None:
                player = Player.objects.filter(ema_number=ema).first()
                if player is not None and player.pk in by_player:
                    report(result.already_registered, item, by_player[player.pk])
                    continue
                if player is None:
                    blank = [r for r in same_name if not r.player.ema_number]
                    if blank:  # maybe the same person, registered before the number was known
                        report(result.possible_duplicates, item, blank[0])
                        continue
            else:
                if same_name:
                    report(result.already_registered, item, same_name[0])
                    continue
                if known is None:
                    known = {}
                    for pk, first, last in Player.objects.values_list(
                        "pk", "first_name", "last_name"
                    ):
                        known.setdefault(_full_name(first, last), []).append(pk)
                candidates = known.get(key, [])
                if len(candidates) > 1:
                    report(result.possible_duplicates, item, None)
                    continue
                if candidates:
                    player = Player.objects.get(pk=candidates[0])
            if player is None:
                player, _ = find_or_create_player(
                    first_name=item["first_name"],
                    last_name=item["last_name"],
                    ema_number=ema,
                    country=item["country"],
                )
            elif not player.country and item["country"]:
                player.country = item["country"]
                player.save(update_fields=["country"])
            registration = Registration.objects.create(
                tournament=tournament,
                player=player,
                club_name=item["club"],
                role=item["role"],
                team=team_named(tournament, item["team"]),
            )
            by_player[player.pk] = registration
            by_name.setdefault(key, []).append(registration)
            result.registrations.append(registration)
        audit.after = {
            "count": len(result.registrations),
            "registrations": [registration_snapshot(r) for r in result.registrations],
            "already_registered": result.already_registered,
            "possible_duplicates": result.possible_duplicates,
        }
    if any(item["team"] for item in cleaned):
        touch_standings(tournament.pk)  # the team standings list the new members
    return result
