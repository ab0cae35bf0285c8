"""Evaluate a hand from its tiles with the ``mahjong`` package, under one of our rulesets.

The library finds every decomposition of the hand, scores each and keeps the best. This
module maps a ruleset to the library's options and corrects, for the rulesets that need it,
what the library cannot express:

- A pair of a wind that is both seat and round wind is 2 fu, not 4, where the ruleset says
  so (``double_wind_pair_fu == 2``, EMA 2025 4.1.1). Such a wind occurs in the hand only as
  that pair (two tiles always form the pair, in every decomposition), so the round wind can
  give nothing else: no round-wind triplet exists. The library is therefore run with no
  round wind, which counts the pair once, and picks the best decomposition itself with the
  corrected fu, instead of us taking 2 fu off the one decomposition it chose for 4.
- Blessing of Man as a 5 han hand that combines with no other yaku and no dora
  (``renhou == "mangan"``, EMA 2025 4.2.4). The hand is evaluated again without renhou
  (every decomposition, as usual); the player scores the higher of that and a bare 5 han,
  since a hand is scored to the maximum points (EMA 2025 4.1). A yakuman hand stays yakuman.
- Yakuman are not cumulative (``double_yakuman`` false, EMA 2025 4.2): the library adds
  two yakuman up to a double; here they count as one. Capping cannot change which
  decomposition is best: any yakuman decomposition still beats every counted hand (at most
  sanbaiman or a single counted yakuman, which the library ranks below a real one).

No more than sanbaiman from counted han (EMA 2025 4.1.2 and 4.2) is a library option
(``kazoe_limit``), mapped from ``han_limit``; payments come from the engine's
``hand_payment`` so they agree with score entry.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.hand_calculating.yaku_list import AkaDora, Chinitsu, Dora, UraDora
from mahjong.meld import Meld as LibMeld

from scoring.engine.points import HandPayment, hand_payment
from scoring.engine.rules import Ruleset

from .errors import TileError
from .names import ema_name
from .notation import WINDS, Hand, TileSpec, indicator_ids, parse_hand, parse_tiles

RENHOU_YAKU = "Renhou"
RENHOU_HAN = 5  # EMA 2025 4.2.4
_DORA_TYPES = (Dora, AkaDora, UraDora)
_CHINITSU = Chinitsu().name
_MAX_INDICATORS = 5  # one, plus one for each of at most four quads (EMA 2025 2.7)

# Library error codes in a referee's words: (field, message).
_LIBRARY_ERRORS: dict[str, tuple[str, str]] = {
    HandCalculator.ERR_HAND_NOT_WINNING: (
        "tiles",
        "not a complete hand: the tiles form neither four sets and a pair, "
        "nor seven pairs, nor thirteen orphans",
    ),
    HandCalculator.ERR_NO_YAKU: (
        "tiles",
        "no yaku: the hand is complete but has no yaku (dora alone do not count)",
    ),
    HandCalculator.ERR_OPEN_HAND_RIICHI: (
        "riichi",
        "riichi needs a concealed hand, and this hand has open melds",
    ),
    HandCalculator.ERR_OPEN_HAND_DABURI: (
        "double_riichi",
        "double riichi needs a concealed hand, and this hand has open melds",
    ),
    HandCalculator.ERR_IPPATSU_WITHOUT_RIICHI: ("ippatsu", "ippatsu needs riichi or double riichi"),
    HandCalculator.ERR_CHANKAN_WITH_TSUMO: (
        "chankan",
        "robbing a quad is a win on another player's tile, not tsumo",
    ),
    HandCalculator.ERR_RINSHAN_WITHOUT_TSUMO: (
        "rinshan",
        "winning after a quad is a self-draw: set tsumo",
    ),
    HandCalculator.ERR_HAITEI_WITHOUT_TSUMO: (
        "haitei",
        "under the sea is a self-draw on the last tile: set tsumo "
        "(a win on the last discard is houtei)",
    ),
    HandCalculator.ERR_HOUTEI_WITH_TSUMO: (
        "houtei",
        "under the river is a win on the last discard, not tsumo",
    ),
    HandCalculator.ERR_HAITEI_WITH_RINSHAN: (
        "haitei",
        "under the sea does not combine with after a quad (EMA 2025 4.2.1)",
    ),
    HandCalculator.ERR_HOUTEI_WITH_CHANKAN: (
        "houtei",
        "under the river does not combine with robbing a quad",
    ),
    HandCalculator.ERR_TENHOU_NOT_AS_DEALER: (
        "tenhou",
        "blessing of heaven is East's win: the seat wind must be E",
    ),
    HandCalculator.ERR_TENHOU_WITHOUT_TSUMO: (
        "tenhou",
        "blessing of heaven is a self-draw: set tsumo",
    ),
    HandCalculator.ERR_TENHOU_WITH_MELD: (
        "tenhou",
        "blessing of heaven allows no melds, not even a concealed quad",
    ),
    HandCalculator.ERR_CHIIHOU_AS_DEALER: (
        "chiihou",
        "blessing of earth is a non-dealer's win: East has blessing of heaven",
    ),
    HandCalculator.ERR_CHIIHOU_WITHOUT_TSUMO: (
        "chiihou",
        "blessing of earth is a self-draw: set tsumo",
    ),
    HandCalculator.ERR_CHIIHOU_WITH_MELD: (
        "chiihou",
        "blessing of earth allows no melds, not even a concealed quad",
    ),
    HandCalculator.ERR_RENHOU_AS_DEALER: ("renhou", "blessing of man is a non-dealer's win"),
    HandCalculator.ERR_RENHOU_WITH_TSUMO: (
        "renhou",
        "blessing of man is a win by discard, not tsumo",
    ),
    HandCalculator.ERR_RENHOU_WITH_MELD: ("renhou", "blessing of man allows no melds"),
}


@dataclass(frozen=True)
class Situation:
    """How the hand was won, besides its tiles. Indicators are tiles in the same notation."""

    tsumo: bool = False
    riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    double_riichi: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[str, ...] = ()
    ura_indicators: tuple[str, ...] = ()
    seat_wind: str = "E"
    round_wind: str = "E"

    @property
    def dealer(self) -> bool:
        return _wind_letter(self.seat_wind) == "E"


@dataclass(frozen=True)
class Evaluation:
    """What the tiles are worth. ``han`` includes dora and is 0 for a yakuman hand;
    ``fu`` is None where no fu are counted (yakuman, a bare blessing of man). ``yaku`` names
    are the library's (romaji); ``yaku_entries()`` adds the EMA 2025 names."""

    han: int
    fu: int | None
    yakuman: int
    yaku: tuple[tuple[str, int], ...]
    dora: int
    payment: HandPayment
    fu_details: tuple[tuple[str, int], ...] = ()
    dealer: bool = False
    tsumo: bool = False
    rules: Ruleset | None = field(default=None, repr=False, compare=False)

    @property
    def points(self) -> int:
        """What this win takes from the other players, before counters and sticks."""
        return self.payment.total_tsumo if self.tsumo else self.payment.total_ron

    def yaku_entries(self) -> list[dict[str, object]]:
        """``[{"name", "ema_name", "han"}]``: ``name`` is the library's romaji name, as it
        always was; ``ema_name`` the English name of the EMA 2025 rule book (section 4.2)."""
        return [{"name": name, "ema_name": ema_name(name), "han": han} for name, han in self.yaku]

    def to_dict(self) -> dict[str, object]:
        p = self.payment
        return {
            "han": self.han,
            "fu": self.fu,
            "yakuman": self.yakuman,
            "yaku": self.yaku_entries(),
            "dora": self.dora,
            "fu_details": [{"reason": reason, "fu": fu} for reason, fu in self.fu_details],
            "dealer": self.dealer,
            "tsumo": self.tsumo,
            "limit": p.limit,
            "payment": {
                "base": p.base,
                "ron": p.ron,
                "tsumo_dealer": p.tsumo_dealer,
                "tsumo_non_dealer": p.tsumo_non_dealer,
                "total": self.points,
            },
        }


@functools.lru_cache(maxsize=64)
def library_options(rules: Ruleset) -> OptionalRules:
    """The library's options for a ruleset (rulesets are frozen, so cached)."""
    return OptionalRules(
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.aka_dora > 0,
        has_double_yakuman=rules.double_yakuman,
        kazoe_limit=(
            HandConstants.KAZOE_SANBAIMAN
            if rules.han_limit == "sanbaiman"
            else HandConstants.KAZOE_LIMITED
        ),
        kiriage=rules.kiriage,
        # EMA 2025 4.1.1: an open hand of exactly 20 fu gets 2; pinfu tsumo gets none.
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=rules.renhou == "yakuman",
        # The library's three-player mode is the Japanese set without 2m-8m (a 1m indicator
        # makes 9m the dora). WDMC 2019 5.2 removes the honours instead and keeps the suits
        # whole, so dora follow the 4-player order; 3-player payments are ours (5.4).
        is_three_player=False,
    )


def _wind_letter(value: str) -> str:
    """``E`` for "E", "e" or "East": winds are read by their first letter."""
    return value.strip()[:1].upper()


def _wind(value: str, name: str, rules: Ruleset) -> int:
    wind = WINDS.get(_wind_letter(value))
    if wind is None:
        raise TileError(name, f"{value!r} is not a wind: use E, S, W or N")
    if rules.players == 3 and name == "seat_wind" and wind == WINDS["N"]:
        raise TileError(name, "there is no North seat in a three-player game")
    return wind


def _indicators(values: Sequence[str], name: str) -> list[TileSpec]:
    specs = [spec for value in values for spec in parse_tiles(value, name)]
    if len(specs) > _MAX_INDICATORS:
        raise TileError(
            name,
            f"{len(specs)} indicators: there are at most {_MAX_INDICATORS} "
            "(one, plus one per quad)",
        )
    return specs


def _check_situation(hand: Hand, s: Situation, rules: Ruleset) -> None:
    """What the library does not check itself."""
    if s.ura_indicators and not (s.riichi or s.double_riichi):
        raise TileError("ura_indicators", "ura-dora count only for a riichi hand (EMA 2025 4.1)")
    if s.rinshan and not any(m.kind == "kan" for m in hand.melds):
        raise TileError("rinshan", "winning after a quad needs a quad among the melds")
    if s.renhou:
        if rules.renhou == "none":
            raise TileError("renhou", f"blessing of man is not a yaku under {rules.id}")
        # The library checks these only when it is given renhou; the EMA path runs it without.
        for broken, code in (
            (s.dealer, HandCalculator.ERR_RENHOU_AS_DEALER),
            (s.tsumo, HandCalculator.ERR_RENHOU_WITH_TSUMO),
            (bool(hand.melds), HandCalculator.ERR_RENHOU_WITH_MELD),
        ):
            if broken:
                raise TileError(*_LIBRARY_ERRORS[code])


_MELD_TYPES = {"chi": LibMeld.CHI, "pon": LibMeld.PON, "kan": LibMeld.KAN}


def _library_melds(hand: Hand) -> list[LibMeld]:
    return [
        LibMeld(meld_type=_MELD_TYPES[m.kind], tiles=m.tiles, opened=m.opened) for m in hand.melds
    ]


def _run_library(
    hand: Hand,
    s: Situation,
    rules: Ruleset,
    *,
    renhou: bool,
    dora: list[int],
    ura: list[int],
) -> HandResponse:
    tiles = hand.all_tiles
    seat = _wind(s.seat_wind, "seat_wind", rules)
    round_wind: int | None = _wind(s.round_wind, "round_wind", rules)
    if (
        rules.double_wind_pair_fu == 2
        and seat == round_wind
        and sum(1 for t in tiles if t // 4 == seat) == 2
    ):
        # EMA 2025 4.1.1: a seat-and-round wind pair is 2 fu. Two tiles of the wind can only be
        # the pair, so without a round wind nothing else changes (see the module docstring).
        round_wind = None
    config = HandConfig(
        is_tsumo=s.tsumo,
        is_riichi=s.riichi or s.double_riichi,
        is_ippatsu=s.ippatsu,
        is_rinshan=s.rinshan,
        is_chankan=s.chankan,
        is_haitei=s.haitei,
        is_houtei=s.houtei,
        is_daburu_riichi=s.double_riichi,
        is_tenhou=s.tenhou,
        is_chiihou=s.chiihou,
        is_renhou=renhou,
        player_wind=seat,
        round_wind=round_wind,
        options=library_options(rules),
    )
    return HandCalculator.estimate_hand_value(
        tiles,
        hand.win_tile,
        melds=_library_melds(hand),
        dora_indicators=dora,
        config=config,
        ura_dora_indicators=ura,
    )


def _evaluation(resp: HandResponse, s: Situation, rules: Ruleset) -> Evaluation:
    if resp.error:
        field_name, message = _LIBRARY_ERRORS.get(resp.error, ("tiles", resp.error))
        raise TileError(field_name, message)
    yaku: list[tuple[str, int]] = []
    dora = 0
    yakuman = 0
    for item in resp.yaku or ():
        han = item.han_open if resp.is_open_hand and item.han_open else item.han_closed
        if isinstance(item, _DORA_TYPES):
            dora += han
            continue
        yaku.append((item.name, han))
        if item.is_yakuman:
            yakuman += han // 13
    han_total = int(resp.han or 0)
    if rules.players == 3 and not yakuman:
        # WDMC 2019 5.5: with three players Full Flush is 4 han open, 5 closed (one less).
        for i, (name, value) in enumerate(yaku):
            if name == _CHINITSU:
                yaku[i] = (name, value - 1)
                han_total -= 1
    if yakuman and not rules.double_yakuman:
        yakuman = 1  # EMA 2025 4.2: yakuman are not cumulative
    han = 0 if yakuman else han_total
    fu = None if yakuman else resp.fu
    fu_details = tuple((d["reason"], d["fu"]) for d in resp.fu_details or ()) if fu else ()
    return Evaluation(
        han=han,
        fu=fu,
        yakuman=yakuman,
        yaku=tuple(yaku),
        dora=dora,
        payment=hand_payment(han=han, fu=fu, yakuman=yakuman, dealer=s.dealer, rules=rules),
        fu_details=fu_details,
        dealer=s.dealer,
        tsumo=s.tsumo,
        rules=rules,
    )


def _bare_renhou(s: Situation, rules: Ruleset) -> Evaluation:
    return Evaluation(
        han=RENHOU_HAN,
        fu=None,
        yakuman=0,
        yaku=((RENHOU_YAKU, RENHOU_HAN),),
        dora=0,
        payment=hand_payment(han=RENHOU_HAN, fu=None, dealer=s.dealer, rules=rules),
        dealer=s.dealer,
        tsumo=s.tsumo,
        rules=rules,
    )


def evaluate(notation: str, *, rules: Ruleset, situation: Situation) -> Evaluation:
    """Yaku, han, fu and payment of a winning hand written in the compact notation.

    Raises TileError(field, message) for a hand or situation that cannot be scored.
    """
    s = situation
    dora_specs = _indicators(s.dora_indicators, "dora_indicators")
    ura_specs = _indicators(s.ura_indicators, "ura_indicators")
    hand = parse_hand(
        notation,
        red_fives=rules.aka_dora,
        three_player=rules.players == 3,
        indicators=(("dora_indicators", dora_specs), ("ura_indicators", ura_specs)),
    )
    _check_situation(hand, s, rules)
    dora, ura = indicator_ids(dora_specs), indicator_ids(ura_specs)

    if not (s.renhou and rules.renhou == "mangan"):
        resp = _run_library(hand, s, rules, renhou=s.renhou, dora=dora, ura=ura)
        return _evaluation(resp, s, rules)

    # EMA 2025 4.2.4: blessing of man combines with no yaku and no dora; score the better of
    # the bare 5 han and the hand's own value without it (EMA 2025 4.1: the maximum points).
    resp = _run_library(hand, s, rules, renhou=False, dora=dora, ura=ura)
    bare = _bare_renhou(s, rules)
    if resp.error == HandCalculator.ERR_NO_YAKU:
        return bare
    own = _evaluation(resp, s, rules)
    return own if own.payment.base > bare.payment.base else bare
