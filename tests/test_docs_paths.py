"""Docs name files that exist (issue 29.6): every repository path named in docs/*.md, README.md,
tests/README.md, and in the docstrings and comments of the Python code.

A path is a word like `tournaments/services/seating.py` or `docs/`: segments joined by "/",
starting with a top-level folder of the repository (tournaments, docs, tests, ...). It is looked
for from the repository's root, from templates/ and static/ (a template or static file named as
Django names it), and from the folders above the file that names it (`standings/cache.py` in
tournaments/ names tournaments/standings/cache.py). A bare `name.md` in docs/ or README.md must
be a page of docs/ or of the root. Paths with a placeholder (`<app>/tasks.py`) are not checked;
words that name files outside this repository are listed below with the reason.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED_DIRS = {".git", ".venv", "node_modules", "vendor", "__pycache__", "hanchan.egg-info"}

# Written when the tests or benchmarks run, not kept in the repository.
GENERATED = ("tests/artifacts/",)
# The project's shared texts beside the repository (the rule texts, the game-record format,
# the benchmark anchors), named as the team names them.
SHARED = {"ANCHORS.md", "DESIGN.md", "game-record.md"}

EXTENSIONS = (
    "py|md|html|txt|json|toml|yml|yaml|js|css|csv|sh|cfg|ini|po|mo|xlsx|xls|pdf|svg|png|ico"
    "|mjlog|sql|webmanifest"
)
PATH = re.compile(
    r"(?<![\w./<>{}*$~:@-])"  # not the tail of a longer word, a URL or a placeholder
    rf"((?:[\w-][\w.-]*/)+(?:[\w.-]*\w\.(?:{EXTENSIONS}))?)"
    r"(?![\w/<>{}*])"
)
PAGE = re.compile(r"(?<![\w./-])([\w-]+\.md)\b")


def top_level() -> set[str]:
    return {p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in SKIPPED_DIRS}


def sources() -> Iterator[Path]:
    yield ROOT / "README.md"
    yield ROOT / "tests" / "README.md"
    yield from sorted((ROOT / "docs").glob("*.md"))
    for path in sorted(ROOT.rglob("*.py")):
        if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts):
            yield path


def texts(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of a Markdown page, or of a Python file's comments and docstrings."""
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        yield from enumerate(source.splitlines(), start=1)
        return
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT or (
            token.type == tokenize.STRING and token.string.lstrip("rbuRBU").startswith('"""')
        ):
            yield token.start[0], token.string


def exists(reference: str, named_in: Path) -> bool:
    bases = [ROOT, ROOT / "templates", ROOT / "static"]
    bases += [p for p in named_in.parents if p == ROOT or ROOT in p.parents]
    return any((base / reference).exists() for base in bases)


def missing_paths() -> list[str]:
    folders = top_level()
    missing = []
    for path in sources():
        where = path.relative_to(ROOT)
        for line, text in texts(path):
            for match in PATH.finditer(text):
                reference = match.group(1)
                if reference.split("/", 1)[0] not in folders or reference.startswith(GENERATED):
                    continue
                if not exists(reference, path):
                    missing.append(f"{where}:{line}: {reference}")
            if path.suffix == ".md":
                for match in PAGE.finditer(text):
                    page = match.group(1)
                    if page in SHARED or "/" in text[max(0, match.start() - 1) : match.start()]:
                        continue
                    if not ((ROOT / "docs" / page).exists() or (ROOT / page).exists()):
                        missing.append(f"{where}:{line}: {page}")
    return missing


def test_every_path_the_docs_and_docstrings_name_exists() -> None:
    assert missing_paths() == []


def test_the_check_sees_a_missing_file() -> None:
    """The pattern finds paths in prose and code comments, and leaves URLs and placeholders."""
    found = [
        m.group(1)
        for m in PATH.finditer(
            "see docs/TEAM.md, `tournaments/seating/` and (config/celery.py); not "
            "https://example.org/docs/x.md, /static/js/app.js, <app>/tasks.py or 15/5/-5/"
        )
    ]
    # 15/5/-5/ (points) is found but not checked: "15" is no folder of the repository.
    assert found == ["docs/TEAM.md", "tournaments/seating/", "config/celery.py", "15/5/-5/"]
    assert not exists("docs/TEAM.md", ROOT / "core" / "errors.py")
    assert exists("tournaments/seating/", ROOT / "core" / "errors.py")
    assert exists("standings/cache.py", ROOT / "tournaments" / "standings" / "tasks.py")
