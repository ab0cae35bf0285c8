"""Scoring knows nothing of where a game is played (docs/architecture.md, issue 14): besides
its imports (lint-imports), none of its code, templates or query paths names a field of
tournaments or club; the apps say it through scoring.policy. Docstrings and comments may."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Query paths (table__session, club_game__night) and attributes (game.table, night.club).
UPPER_FIELDS = re.compile(r"\btable__|\bclub_game\b|\.table\b(?!\()|\.night\b|\bnight\.club\b")


def without_docstrings(source: str) -> str:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        if docstring and isinstance(first.value.value, str):  # type: ignore[union-attr]
            body[0] = ast.Pass()  # type: ignore[index]
    return ast.unparse(tree)  # comments are gone too


def test_scoring_names_no_field_of_the_upper_apps() -> None:
    code = [p for p in (ROOT / "scoring").rglob("*.py") if "migrations" not in p.parts]
    texts = {p: without_docstrings(p.read_text()) for p in code}
    texts |= {p: p.read_text() for p in (ROOT / "templates" / "scoring").rglob("*.*")}
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path, text in texts.items()
        for line in text.splitlines()
        if UPPER_FIELDS.search(line)
    ]
    assert found == []
