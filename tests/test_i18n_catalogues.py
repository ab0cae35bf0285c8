"""Translation catalogues are complete (issue 22): every configured language has a .po file
with no untranslated and no fuzzy entry, every msgstr keeps the msgid's placeholders, and
the compiled .mo holds exactly what the .po says (compilemessages was run)."""

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

LOCALE = Path(settings.LOCALE_PATHS[0])
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]

# %(name)s, %(n)d, %s ... (printf style as gettext's python-format flag means it); %% is a literal.
PRINTF = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([sdifr])")
BRACE = re.compile(r"\{(\w*)\}")


@dataclass
class Entry:
    line: int
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: str = ""
    msgstr_plural: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def forms(self) -> list[str]:
        if self.msgid_plural is None:
            return [self.msgstr]
        return [self.msgstr_plural[i] for i in sorted(self.msgstr_plural)]


def parse_po(path: Path) -> list[Entry]:
    """A small PO reader (no extra dependency): active entries only, obsolete `#~` skipped."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: str | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line and current is not None:
                entries.append(current)
                current, target = None, None
            continue
        if current is None:
            current = Entry(line=number)
        if line.startswith("#,"):
            current.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            keyword, rest = target or "", line
        else:
            target = keyword
        text = ast.literal_eval(rest)
        if keyword == "msgctxt":
            current.msgctxt = (current.msgctxt or "") + text
        elif keyword == "msgid":
            current.msgid += text
        elif keyword == "msgid_plural":
            current.msgid_plural = (current.msgid_plural or "") + text
        elif keyword == "msgstr":
            current.msgstr += text
        elif keyword.startswith("msgstr["):
            index = int(keyword[7:-1])
            current.msgstr_plural[index] = current.msgstr_plural.get(index, "") + text
        else:
            raise AssertionError(f"{path}:{number}: unexpected line {raw!r}")
    if current is not None:
        entries.append(current)
    return [entry for entry in entries if entry.msgid]  # the header has an empty msgid


def placeholders(text: str, entry: Entry) -> set[str]:
    found = {named or f"%{conv}" for named, conv in PRINTF.findall(text.replace("%%", ""))}
    if "python-brace-format" in entry.flags:
        found |= {"{" + name + "}" for name in BRACE.findall(text)}
    return found


def nplurals(path: Path) -> int:
    match = re.search(r"nplurals=(\d+)", path.read_text(encoding="utf-8"))
    assert match, f"{path}: no Plural-Forms header"
    return int(match.group(1))


def po_path(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / "django.po"


def test_every_non_english_language_is_translated() -> None:
    assert len(TRANSLATED) >= 2
    for code in TRANSLATED:
        assert po_path(code).is_file(), f"{code} is in LANGUAGES but has no catalogue"


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalogue_has_no_untranslated_or_fuzzy_entry(code: str) -> None:
    path = po_path(code)
    entries = parse_po(path)
    assert len(entries) > 100
    forms = nplurals(path)
    problems = []
    for entry in entries:
        where = f"{path.name}:{entry.line} {entry.msgid[:60]!r}"
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {where}")
        if any(not text for text in entry.forms):
            problems.append(f"untranslated: {where}")
        if entry.msgid_plural is not None and len(entry.forms) != forms:
            problems.append(f"{len(entry.forms)} plural forms, not {forms}: {where}")
    assert problems == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders(code: str) -> None:
    """A missing %(name)s hides a value; an extra or misspelt one raises KeyError at runtime."""
    problems = []
    for entry in parse_po(po_path(code)):
        if not all(entry.forms):
            continue  # reported by the completeness test
        singular = placeholders(entry.msgid, entry)
        expected, allowed = [singular], singular
        if entry.msgid_plural is not None:
            plural = placeholders(entry.msgid_plural, entry)
            # Form 0 may spell out "one" where English does; every other form is a plural.
            expected = [singular] + [plural] * (len(entry.forms) - 1)
            allowed = singular | plural
        for text, want in zip(entry.forms, expected, strict=True):
            got = placeholders(text, entry)
            ok = got == want if entry.msgid_plural is None else want <= got <= allowed
            if not ok:
                problems.append(f"{code}:{entry.line} {entry.msgid[:50]!r}: {sorted(got)}")
    assert problems == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_compiled_catalogue_matches_the_po_file(code: str) -> None:
    """Run `manage.py compilemessages` after editing a .po file: the app reads the .mo."""
    path = po_path(code)
    with path.with_suffix(".mo").open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    stale = []
    for entry in parse_po(path):
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            if catalog.get(key) != entry.msgstr:
                stale.append(entry.msgid[:60])
        elif [catalog.get((key, i)) for i in range(len(entry.forms))] != entry.forms:
            stale.append(entry.msgid[:60])
    assert stale == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("code", "word"),
    [
        ("de", "Turniere"),
        ("fr", "Tournois"),
        ("nl", "Toernooien"),
        ("it", "Tornei"),
        ("es", "Torneos"),
        ("pl", "Turnieje"),
    ],
)
def test_accept_language_picks_each_translated_language(
    client: Client, code: str, word: str
) -> None:
    try:
        page = client.get("/", HTTP_ACCEPT_LANGUAGE=f"{code},en;q=0.5").content.decode()
    finally:
        translation.activate(settings.LANGUAGE_CODE)  # the middleware leaves it active
    assert f'lang="{code}"' in page
    assert word in page
