"""Cells for CSV and XLSX exports that a spreadsheet cannot run as formulas (issue 16.1).

A player named ``=HYPERLINK(...)`` must stay a name when the organiser opens the EMA file or
the standings in Excel or LibreOffice. Every text cell starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return (OWASP "CSV injection") is neutralised:

- CSV: a leading apostrophe (``'=HYPERLINK(...)``), which spreadsheets show as text;
- XLSX: the cell is written as a text cell (never a formula) with Excel's quote prefix.

Numbers stay numbers: ints and floats are left alone, and so is text that is just a number
("-12.5", "+3"), which is how the exports write points in thousands.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def is_formula_like(value: str) -> bool:
    """Text a spreadsheet could read as a formula (or a DDE call)."""
    return value.startswith(FORMULA_PREFIXES) and not PLAIN_NUMBER.fullmatch(value)


def csv_cell(value: Any) -> Any:
    """A CSV cell: formula-like text gets a leading apostrophe; everything else as it is."""
    if isinstance(value, str) and is_formula_like(value):
        return "'" + value
    return value


def csv_row(row: Iterable[Any]) -> list[Any]:
    return [csv_cell(value) for value in row]


class SafeCsvWriter:
    """``csv.writer`` whose rows go through :func:`csv_cell`: use it for every CSV export."""

    def __init__(self, out: io.StringIO, **options: Any) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow(csv_row(row))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def append_xlsx_row(ws: Any, row: Iterable[Any]) -> None:
    """Append a row to an openpyxl sheet; no text cell of it is ever a formula.

    openpyxl writes any string starting with ``=`` as a formula; here every str is forced to a
    text cell, and formula-like text also gets Excel's quote prefix (so editing the cell in
    Excel keeps it text). Numbers, dates and None are appended as they are.
    """
    values = list(row)
    ws.append(values)
    if not values:
        return
    r = ws.max_row
    for column, value in enumerate(values, start=1):
        if isinstance(value, str):
            cell = ws.cell(row=r, column=column)
            cell.value = value
            cell.data_type = "s"
            if is_formula_like(value):
                cell.quotePrefix = True


def csv_read_error(error: csv.Error, line: int, column: str | None = None) -> str:
    """What an uploaded CSV file that the csv module cannot read says (issue 30.4: a cell over
    its 131,072-character limit was a 500): the line, the column when known, and why."""
    where = f"Row {line}" + (f", column {column!r}" if column else "")
    if "field larger than field limit" in str(error):
        return f"{where}: a cell is longer than {csv.field_size_limit():,} characters."
    return f"{where}: the file cannot be read as CSV ({error})."
