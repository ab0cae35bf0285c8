"""Parse the compact tile notation (see docs/tile-notation.md) into 136-format tile ids.

Tiles are written as digits followed by their suit letter: ``m`` characters, ``p`` circles,
``s`` bamboo, ``z`` honours (1-4 east, south, west, north; 5 white, 6 green, 7 red dragon).
``0`` is a red five. A hand is the concealed tiles, ``+`` and the winning tile, then the
melds, separated by spaces or commas::

    234567m234p2355s+1s          closed hand, winning on 1s
    5z+5z 123m 789p 666z [1111s]  open chi 123m, 789p, pon of green, concealed quad

Every copy of a tile gets its own 136-format id (``34-index * 4 + copy``). With red fives in
play a red five takes copy 0, the id the ``mahjong`` package treats as red, and plain fives
take copies 1-3.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import TileError

SUITS = "mpsz"
WINDS = {"E": 27, "S": 28, "W": 29, "N": 30}
# WDMC 2019 5.2: in a three-player game all wind and dragon tiles are taken out of the set
# (108 tiles: three walls of 18 x 2); the three suits stay whole. There is no North tile,
# so there is no north-tile (kita) bonus either.
_SANMA_REMOVED = frozenset(range(27, 34))
_FIVES = frozenset((4, 13, 22))

_TOKEN_SPLIT = re.compile(r"[\s,]+")
_GROUP = re.compile(r"([0-9]+)([mpszMPSZ])")

MeldKind = Literal["chi", "pon", "kan"]


@dataclass(frozen=True)
class TileSpec:
    """One written tile: its 34-format index and whether it was written as a red five."""

    index: int
    red: bool = False


@dataclass(frozen=True)
class Meld:
    kind: MeldKind
    opened: bool
    tiles: tuple[int, ...]  # 136-format


@dataclass(frozen=True)
class Hand:
    concealed: tuple[int, ...]  # 136-format, without the winning tile
    win_tile: int  # 136-format
    melds: tuple[Meld, ...]

    @property
    def all_tiles(self) -> list[int]:
        """Every tile of the hand, winning tile and meld tiles included (the library's input)."""
        out = [*self.concealed, self.win_tile]
        for meld in self.melds:
            out.extend(meld.tiles)
        return out


def tile_name(index: int) -> str:
    """``5p``, ``3z`` for a 34-format index."""
    return f"{index % 9 + 1}{SUITS[index // 9]}"


def parse_tiles(text: str, field: str = "tiles") -> list[TileSpec]:
    """Tiles of one compact group such as ``123m406p77z``; TileError names what is wrong."""
    specs: list[TileSpec] = []
    pos = 0
    for group in _GROUP.finditer(text):
        if group.start() != pos:
            break
        pos = group.end()
        suit = group[2].lower()
        for digit in group[1]:
            spec = _SPECS.get(digit + suit)
            if spec is None:
                raise TileError(
                    field,
                    f"{digit}z in {text!r} does not exist: honours are 1z-7z "
                    "(east, south, west, north, white, green, red)",
                )
            specs.append(spec)
    if pos != len(text):
        _explain(text, pos, field)
    return specs


def _explain(text: str, pos: int, field: str) -> None:
    """Raise the TileError for the first character of ``text`` at ``pos`` that is no tile."""
    rest = text[pos:]
    body = rest.lstrip("0123456789")
    if not body:
        raise TileError(
            field,
            f"{rest!r} in {text!r} has no suit letter: write e.g. {rest}m, {rest}p or {rest}s",
        )
    char = body[0]
    if char.lower() in SUITS:
        raise TileError(field, f"suit letter {char!r} in {text!r} has no digits before it")
    raise TileError(
        field,
        f"{char!r} in {text!r} is not a tile: write digits and then "
        "their suit letter m, p, s or z, e.g. 123m",
    )


def _build_specs() -> dict[str, TileSpec]:
    """Every written tile -> its spec ("0m" is the red five); shared, since specs are frozen."""
    specs = {tile_name(index): TileSpec(index) for index in range(34)}
    for offset, suit in ((0, "m"), (9, "p"), (18, "s")):
        specs[f"0{suit}"] = TileSpec(offset + 4, red=True)
    return specs


_SPECS = _build_specs()


class _Allocator:
    """Hands out 136-format ids; a fifth copy of a tile is the referee's "five of a tile".

    With red fives in play, copy 0 of a five is the red one (the library's convention), so
    plain fives take copies 1-3.
    """

    def __init__(self, red_fives: int) -> None:
        self.red_fives = red_fives
        self.counts = [0] * 34
        self.plain_fives = [0, 0, 0]  # per suit
        self.red_taken = [False, False, False]

    def take(self, spec: TileSpec, field: str) -> int:
        index = spec.index
        n = self.counts[index]
        if n >= 4:
            raise TileError(
                field,
                f"five of a tile: {tile_name(index)} is written "
                "more than four times (hand, melds and indicators together)",
            )
        self.counts[index] = n + 1
        if spec.red or (self.red_fives and index in _FIVES):
            return self._take_five(spec, field)
        return index * 4 + n

    def _take_five(self, spec: TileSpec, field: str) -> int:
        name = tile_name(spec.index)
        suit = spec.index // 9
        if spec.red:
            if self.red_fives == 0:
                raise TileError(
                    field, f"this ruleset has no red fives: write 5{name[1]}, not 0{name[1]}"
                )
            if self.red_taken[suit]:
                raise TileError(
                    field,
                    f"more than one red {name} is written; only one per suit can be evaluated",
                )
            self.red_taken[suit] = True
            return spec.index * 4
        plain = self.plain_fives[suit]
        if plain >= 4 - self.red_fives:
            raise TileError(
                field,
                f"five of a tile: with {self.red_fives} red {name} in the "
                f"set there are only {4 - self.red_fives} plain {name}; "
                f"write the red one as 0{name[1]}",
            )
        self.plain_fives[suit] = plain + 1
        return spec.index * 4 + 1 + plain


def _check_sanma(specs: Iterable[TileSpec], field: str) -> None:
    for spec in specs:
        if spec.index in _SANMA_REMOVED:
            raise TileError(
                field,
                f"{tile_name(spec.index)} is not used in three-player games: wind and dragon"
                " tiles are taken out of the set (WDMC 2019 5.2), so there is no north-tile"
                " bonus either",
            )


def _meld(token: str, alloc: _Allocator, three_player: bool) -> Meld:
    closed = token.startswith("[") and token.endswith("]")
    body = token[1:-1] if closed else token
    if "[" in body or "]" in body:
        raise TileError(
            "tiles",
            f"invalid meld {token!r}: a concealed quad is written in brackets, e.g. [1111m]",
        )
    specs = parse_tiles(body)
    if three_player:
        _check_sanma(specs, "tiles")
    indices = sorted(s.index for s in specs)
    same = len(set(indices)) == 1
    kind: MeldKind
    if closed:
        if len(indices) != 4 or not same:
            raise TileError(
                "tiles",
                f"invalid meld {token!r}: brackets mark a concealed quad, "
                "four identical tiles such as [2222p]",
            )
        kind = "kan"
    elif len(indices) == 4 and same:
        kind = "kan"
    elif len(indices) == 3 and same:
        kind = "pon"
    elif len(indices) == 3 and _is_sequence(indices):
        if three_player:
            raise TileError(
                "tiles", f"invalid meld {token!r}: there is no chi in three-player games"
            )
        kind = "chi"
    else:
        raise TileError(
            "tiles",
            f"invalid meld {token!r}: a meld is a sequence (123m), "
            "a triplet (555p) or a quad (7777z)",
        )
    tiles = tuple([alloc.take(spec, "tiles") for spec in specs])
    return Meld(kind=kind, opened=not closed, tiles=tiles)


def _is_sequence(indices: Sequence[int]) -> bool:
    first = indices[0]
    # Honours never form sequences, and 8-9-1 is not a sequence (EMA 2025 3.2).
    return first < 27 and first % 9 <= 6 and list(indices) == [first, first + 1, first + 2]


def parse_hand(
    notation: str,
    *,
    red_fives: int = 0,
    three_player: bool = False,
    indicators: Sequence[tuple[str, Sequence[TileSpec]]] = (),
) -> Hand:
    """Parse a whole hand. ``indicators`` are (field, tiles) pairs counted against the hand
    for "five of a tile" (an indicator is one of the four copies too)."""
    tokens = [t for t in _TOKEN_SPLIT.split(notation.strip()) if t]
    if not tokens:
        raise TileError("tiles", "no tiles given")

    concealed_text: str | None = None
    win_text: str | None = None
    meld_tokens: list[str] = []
    for token in tokens:
        head, plus, tail = token.partition("+")
        if plus:
            if win_text is not None or "+" in tail:
                raise TileError("tiles", "mark only one winning tile with +")
            win_text = tail
            if head:
                if concealed_text is not None:
                    raise TileError(
                        "tiles",
                        "write the winning tile right after the "
                        "concealed tiles, e.g. 123m456p789s1z+1z",
                    )
                concealed_text = head
        elif concealed_text is None and not meld_tokens and not token.startswith("["):
            concealed_text = token
        else:
            meld_tokens.append(token)

    if win_text is None:
        raise TileError("tiles", "mark the winning tile with +, e.g. 123m456p789s1z+1z")
    if concealed_text is None:
        raise TileError("tiles", "no concealed tiles before the winning tile")
    win_specs = parse_tiles(win_text)
    if len(win_specs) != 1:
        raise TileError("tiles", f"after + write exactly one winning tile, not {win_text!r}")
    concealed_specs = parse_tiles(concealed_text)
    if three_player:
        _check_sanma([*concealed_specs, *win_specs], "tiles")

    alloc = _Allocator(red_fives)
    melds = tuple(_meld(token, alloc, three_player) for token in meld_tokens)
    if len(melds) > 4:
        raise TileError("tiles", f"wrong tile count: {len(melds)} melds; a hand has at most 4")
    needed = 13 - 3 * len(melds)
    if len(concealed_specs) != needed:
        melds_words = f"{len(melds)} meld" + ("" if len(melds) == 1 else "s")
        raise TileError(
            "tiles",
            f"wrong tile count: {len(concealed_specs)} concealed tiles "
            f"before the winning tile; with {melds_words} a hand needs "
            f"{needed} (13, less 3 per meld)",
        )
    concealed = tuple([alloc.take(spec, "tiles") for spec in concealed_specs])
    win_tile = alloc.take(win_specs[0], "tiles")
    for field, specs in indicators:
        if three_player:
            _check_sanma(specs, field)
        for spec in specs:
            alloc.take(spec, field)
    return Hand(concealed=concealed, win_tile=win_tile, melds=melds)


def indicator_ids(specs: Sequence[TileSpec]) -> list[int]:
    """136-format ids for indicators; only the tile kind matters for dora."""
    return [spec.index * 4 for spec in specs]
