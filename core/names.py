"""People's names as typed by organisers and players: split a full name, compare names.

Pure text helpers (no Django): used by the CSV import, the player searches and the
"where do I sit" page.
"""

from __future__ import annotations

import unicodedata

# Surname particles (Dutch, German, French, Italian, Spanish, Portuguese, Scandinavian,
# Arabic): in "Jan de Vries" the surname is "de Vries", not "Vries".
PARTICLES = frozenset(
    {
        "af",
        "al",
        "av",
        "bin",
        "da",
        "dal",
        "das",
        "de",
        "degli",
        "dei",
        "del",
        "della",
        "den",
        "der",
        "des",
        "di",
        "do",
        "dos",
        "du",
        "el",
        "ibn",
        "la",
        "le",
        "lo",
        "op",
        "san",
        "st",
        "st.",
        "te",
        "ten",
        "ter",
        "van",
        "vande",
        "vanden",
        "vander",
        "von",
        "zu",
        "zum",
        "zur",
    }
)
# Letters that do not decompose into a base letter and an accent.
_SPECIAL = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ø": "o",
        "Ø": "o",
        "đ": "d",
        "Đ": "d",
        "ð": "d",
        "Ð": "d",
        "ł": "l",
        "Ł": "l",
        "\u0131": "i",  # dotless i
        "þ": "th",
        "Þ": "th",
    }
)
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "ae", "Ö": "oe", "Ü": "ue"})


def _is_particle(word: str) -> bool:
    lower = word.casefold()
    return lower in PARTICLES or lower.replace("\u2019", "'").startswith(("d'", "l'"))


def split_name(name: str) -> tuple[str, str]:
    """(first name, last name) of a full name.

    "Last, First" is taken as written. Otherwise the last name is the last word, or everything
    from the first surname particle on: "Jan de Vries" -> ("Jan", "de Vries"), "Ludwig van der
    Berg" -> ("Ludwig", "van der Berg"), "Maria da Silva Santos" -> ("Maria", "da Silva
    Santos"). The first word is always a first name ("Van Morrison").
    A single word gives ("", word).
    """
    name = " ".join(name.split())
    if "," in name:
        last, _, first = name.partition(",")
        return first.strip(), last.strip()
    words = name.split(" ")
    if len(words) < 2:
        return "", name
    start = next((i for i in range(1, len(words) - 1) if _is_particle(words[i])), len(words) - 1)
    return " ".join(words[:start]), " ".join(words[start:])


def fold(text: str) -> str:
    """A name reduced for comparing: case, accents and spacing ignored ("Zoë  MÜLLER" ->
    "zoe muller")."""
    text = unicodedata.normalize("NFKD", str(text).translate(_SPECIAL))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.casefold().split())


def name_keys(text: str) -> set[str]:
    """The folded forms a name is found under: "Müller" also as "Mueller" (German spelling
    without umlauts)."""
    return {fold(text), fold(str(text).translate(_GERMAN))}


def matches(query: str, *names: str) -> bool:
    """Does every word of `query` occur in one of `names`? Case- and accent-insensitive."""
    words = fold(query).split()
    if not words:
        return True
    haystacks = [key for name in names for key in name_keys(name)]
    return all(any(word in hay for hay in haystacks) for word in words)
