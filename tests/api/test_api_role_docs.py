"""The docs say what the code does on who may do what (issue 30.6: docs/security.md said
penalties are organiser-only while docs/api.md and the API let referees add and cancel them).

docs/roles.md is generated from the permission matrix (tests/api/role_table.py), which
tests/api/test_api_permissions.py checks against the API. The summaries in docs/security.md and
docs/api.md are prose: for each group of actions below, the referee's and organiser's rows must
say what the matrix says (a referee's row names what referees may and nothing only organisers
may; an organiser's "plus" names only what referees may not).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from tests.api.conftest import ROLES
from tests.api.role_table import current, may
from tests.api.test_api_permissions import CASES

DOCS = Path(settings.BASE_DIR) / "docs"

# A word of the docs' rows -> the matrix's cases it stands for.
GROUPS = {
    "hands": ["add hand", "correct hand", "delete last hand"],
    "finalize": ["finalize"],
    "substitute": ["substitute"],
    "penalties": [
        "add penalty",
        "cancel penalty",
        "score-sheet penalty for a table (EMA 2025 7.5)",
    ],
    "registrations": ["register player", "import registrations", "drop player"],
    "seating": ["upload seating plan", "request seating plan", "apply seating plan"],
    "staff": ["add staff", "remove staff"],
    "sessions": ["create sessions", "start session", "close session"],
}


def role_may(case_name: str, role: str) -> bool:
    case = next(c for c in CASES if c.name == case_name)
    return may(case.expected[ROLES.index(role)])


def group_may(word: str, role: str) -> bool:
    answers = {role_may(name, role) for name in GROUPS[word]}
    assert len(answers) == 1, f"{word}: the matrix is mixed for {role}; split the group"
    return answers.pop()


def row(document: str, starts: str) -> str:
    """The "may" cell of the role table row that starts with `starts`, lower case."""
    for line in (DOCS / document).read_text(encoding="utf-8").splitlines():
        if line.startswith(f"| {starts}"):
            return line.split("|")[2].lower()
    raise AssertionError(f"{document} has no role row starting {starts!r}")


def test_docs_roles_md_is_the_matrix() -> None:
    assert (DOCS / "roles.md").read_text(encoding="utf-8") == current(), (
        "docs/roles.md differs from the permission matrix: regenerate it with "
        "`HANCHAN_TESTING=1 .venv/bin/python -m tests.api.role_table > docs/roles.md`"
    )


@pytest.mark.parametrize(
    ("document", "referee", "organiser"),
    [
        ("security.md", "referee (of a tournament)", "organiser (of a tournament)"),
        ("api.md", "referee of T", "organiser of T"),
    ],
)
@pytest.mark.parametrize("word", list(GROUPS))
def test_the_role_summaries_say_what_the_matrix_says(
    document: str, referee: str, organiser: str, word: str
) -> None:
    referee_row, organiser_row = row(document, referee), row(document, organiser)
    organiser_extra = organiser_row.split("plus", 1)[1] if "plus" in organiser_row else ""
    stem = word.rstrip("s")[:7]  # "penalties" -> "penalti", "registrations" -> "registr"
    if group_may(word, "referee"):
        assert stem in referee_row, f"{document}: referees may {word}; their row does not say so"
        assert stem not in organiser_extra, (
            f"{document}: the organiser row lists {word} as beyond a referee's rights"
        )
    else:
        assert stem not in referee_row, f"{document}: referees may not {word}; their row says so"
        assert group_may(word, "organiser"), word
        assert stem in organiser_row, f"{document}: organisers may {word}; their row omits it"
