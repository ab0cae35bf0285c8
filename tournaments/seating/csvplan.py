"""Predefined plans uploaded as CSV.

One row per table: ``round,table,east,south,west,north`` (``round,table,east,south,west``
for three-player rules, WDMC 2019 5.1). Rounds and tables are numbered from
1; players are numbered 1..N as on the registration list (returned 0-based). A header row is
optional; commas, semicolons or tabs separate the columns; blank lines are ignored.
"""

from __future__ import annotations

import csv
import io

from tournaments.spreadsheet import SafeCsvWriter, csv_read_error

from .core import Plan, SeatingError, check_player_count

COLUMNS = ["round", "table", "east", "south", "west", "north"]
MAX_ERRORS = 20


def plan_to_csv(plan: Plan) -> str:
    out = io.StringIO()
    writer = SafeCsvWriter(out, lineterminator="\n")  # numbers only; the one CSV writer
    size = len(plan[0][0]) if plan and plan[0] else 4
    writer.writerow(COLUMNS[: 2 + size])
    for r, rnd in enumerate(plan, start=1):
        for t, table in enumerate(rnd, start=1):
            writer.writerow([r, t, *(p + 1 for p in table)])
    return out.getvalue()


def parse_plan_csv(text: str, *, players: int | None = None, table_size: int = 4) -> Plan:
    """Parse and validate a predefined plan; SeatingError lists the offending rows."""
    columns = COLUMNS[: 2 + table_size]
    lines = text.splitlines()
    sample = next((line for line in lines if line.strip()), "")
    delimiter = max(",;\t", key=sample.count)
    errors: list[str] = []
    cells: dict[int, dict[int, tuple[int, list[int]]]] = {}
    reader = csv.reader(lines, delimiter=delimiter)
    try:
        rows = list(reader)
    except csv.Error as error:  # a cell over the csv module's limit, ... (issue 30.4)
        raise SeatingError(
            "the seating plan has errors:\n" + csv_read_error(error, reader.line_num)
        ) from error
    for number, row in enumerate(rows, start=1):
        row = [c.strip() for c in row]
        if not any(row):
            continue
        if number == 1 and row[0].lower() == "round":
            continue
        if len(row) != len(columns):
            errors.append(
                f"row {number}: {len(row)} columns, expected {len(columns)} ({','.join(columns)})"
            )
            continue
        try:
            values = [int(c) for c in row]
        except ValueError:
            errors.append(f"row {number}: every column must be a whole number")
            continue
        r, t, seats = values[0], values[1], values[2:]
        if r < 1 or t < 1:
            errors.append(f"row {number}: round and table are numbered from 1")
            continue
        if players is not None and any(not 1 <= p <= players for p in seats):
            errors.append(f"row {number}: players are numbered 1..{players}")
            continue
        if len(set(seats)) < table_size:
            errors.append(f"row {number}: a player is seated twice at the table")
            continue
        if t in cells.setdefault(r, {}):
            errors.append(f"row {number}: round {r} table {t} also on row {cells[r][t][0]}")
            continue
        cells[r][t] = (number, [p - 1 for p in seats])
    if not cells and not errors:
        errors.append("no tables found")
    if not errors:
        errors.extend(_check_rounds(cells, players, table_size))
    if errors:
        more = len(errors) - MAX_ERRORS
        shown = errors[:MAX_ERRORS] + ([f"... and {more} more"] if more > 0 else [])
        raise SeatingError("the seating plan has errors:\n" + "\n".join(shown))
    return [[cells[r][t][1] for t in sorted(cells[r])] for r in sorted(cells)]


def _check_rounds(
    cells: dict[int, dict[int, tuple[int, list[int]]]], players: int | None, table_size: int = 4
) -> list[str]:
    errors: list[str] = []
    rounds = sorted(cells)
    if rounds != list(range(1, len(rounds) + 1)):
        errors.append(f"rounds must be numbered 1..{len(rounds)} without gaps")
    n = players
    if n is None:
        n = 1 + max(p for rnd in cells.values() for _, seats in rnd.values() for p in seats)
    try:
        check_player_count(n, table_size)
    except SeatingError as exc:
        errors.append(str(exc))
        return errors
    for r in rounds:
        tables = cells[r]
        if sorted(tables) != list(range(1, len(tables) + 1)):
            errors.append(f"round {r}: tables must be numbered 1..{len(tables)} without gaps")
        seen: dict[int, int] = {}
        for number, seats in tables.values():
            for p in seats:
                if p in seen:
                    errors.append(
                        f"row {number}: player {p + 1} is already seated in round {r} "
                        f"(row {seen[p]})"
                    )
                seen[p] = number
        missing = sorted(set(range(n)) - set(seen))
        if missing:
            listed = ", ".join(str(p + 1) for p in missing[:10])
            errors.append(f"round {r}: {len(missing)} players not seated ({listed})")
    return errors
