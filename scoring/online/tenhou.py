"""Tenhou logs: the mjlog XML and the tenhou.net/6 JSON, as game records (ruleset ``tenhou``).

mjlog: ``<GO type lobby>`` (rule bits: 0x01 human players, 0x02 no red fives, 0x04 no open
all simples, 0x08 a south game (else east only: ``east_only``), 0x10 three players, 0x20/0x80
the ranked rooms, 0x40 fast; ``lobby`` 0 for the ranked lobby, else the private lobby's),
``<UN n0..n3>`` (URL-encoded names), ``<INIT ten>`` (scores in hundreds at the start of each
hand: the first one gives the start points, 250 in the ranked lobby, 300 in a private lobby
that starts at 30,000), ``<REACH who step="2">`` (an accepted riichi),
``<AGARI who fromWho ten="fu,points,limit" yaku="id,han,..." yakuman="id,..." paoWho
sc="before,delta,...">`` (one per winner; two for a double ron), ``<RYUUKYOKU type sc
haiN>`` (no type: exhaustive draw, the shown hands are tenpai; ``nm``: nagashi mangan;
``yao9 reach4 ron3 kan4 kaze4``: abortive), and ``owari="score,result,..."`` on the last one.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import unquote

from scoring.engine import RecordError, replay

from .common import LogError, OnlineGame

FORMAT = "riichi-game-record/1"

# Tenhou's yaku ids (mjlog ``yaku``/``yakuman`` attributes), in its order.
YAKU_NAMES = (
    "menzen tsumo", "riichi", "ippatsu", "chankan", "rinshan kaihou", "haitei", "houtei",
    "pinfu", "tanyao", "iipeikou", "seat wind east", "seat wind south", "seat wind west",
    "seat wind north", "round wind east", "round wind south", "round wind west",
    "round wind north", "haku", "hatsu", "chun", "double riichi", "chiitoitsu", "chanta",
    "ittsu", "sanshoku doujun", "sanshoku doukou", "sankantsu", "toitoi", "sanankou",
    "shousangen", "honroutou", "ryanpeikou", "junchan", "honitsu", "chinitsu", "renhou",
    "tenhou", "chiihou", "daisangen", "suuankou", "suuankou tanki", "tsuuiisou", "ryuuiisou",
    "chinroutou", "chuuren poutou", "junsei chuuren poutou", "kokushi musou",
    "kokushi musou 13-wait", "daisuushii", "shousuushii", "suukantsu", "dora", "ura dora",
    "aka dora",
)  # fmt: skip
_DORA_IDS = {52, 53, 54}
_ABORTIVE_TYPES = {"yao9", "reach4", "ron3", "kan4", "kaze4"}
# A limit hand the tenhou.net/6 JSON gives without fu: the fewest fu that make it a mangan.
_MANGAN_FU = {4: 40, 3: 70}


def _ints(value: str | None, what: str, hand: int | None) -> list[int]:
    try:
        return [int(float(x)) for x in (value or "").split(",") if x != ""]
    except ValueError as exc:
        raise LogError(f"{what} is not a list of numbers: {value!r}", hand=hand) from exc


def _rules_from_go(go_type: int) -> dict[str, Any]:
    """The rule overrides the GO type states; the flags that are no rule (human players,
    room level, fast) are ignored, the games our rules cannot play are refused by name."""
    if go_type & 0x10:
        raise LogError(
            f"three-player Tenhou games (sanma, GO type {go_type} has bit 0x10) are not supported"
        )
    rules: dict[str, Any] = {}
    if not go_type & 0x08:
        rules["east_only"] = True  # tonpuusen: the east round, extended into the south
    if go_type & 0x02:
        rules["aka_dora"] = 0
    if go_type & 0x04:
        rules["open_tanyao"] = False
    return rules


TENHOU_START = 25000  # the tenhou preset's start points (the ranked lobby's)
# Return points and uma a lobby with other start points may use, most likely first: the
# tenhou preset's (30,000, +20/+10), the start points themselves (no oka), start + 5,000.
_UMAS = (
    (20000, 10000, -10000, -20000),
    (30000, 10000, -10000, -30000),
    (15000, 5000, -5000, -15000),
    (10000, 5000, -5000, -10000),
    (10000, 0, 0, -10000),
    (0, 0, 0, 0),
)


# How results round and ties share: the preset's (Tenhou's ranked lobby), then exact results
# with tied players sharing (a private lobby's custom rules, e.g. owari "...,-10.7,307,10.7").
_RESULTS = (("tenhou", "seat"), ("none", "split"), ("none", "seat"), ("tenhou", "split"))


def _log_rules(
    rules: dict[str, Any],
    start: list[int],
    hands: list[dict[str, Any]],
    names: list[str],
    result: list[int] | None,
) -> dict[str, Any]:
    """``rules`` plus what the log states beyond the GO type: its start points (the first
    hand's scores, when they are not the preset's 25,000), and the return points, uma,
    rounding and ties that give the log's own final results (``owari``), tried from
    ``_RESULTS`` x ``_UMAS`` x the usual return points, the preset's first (so a log the
    preset explains gets no override); when none does, the comparison shows the difference."""
    if len(set(start)) == 1 and start[0] != TENHOU_START:
        rules = {**rules, "start_points": start[0]}
    if result is None:
        return rules
    start_points = rules.get("start_points", TENHOU_START)
    returns = dict.fromkeys((30000, start_points, start_points + 5000, start_points + 10000))
    for rounding, ties in _RESULTS:
        for uma in _UMAS:
            for back in returns:
                tried = {
                    **rules,
                    "return_points": back,
                    "uma": list(uma),
                    "result_rounding": rounding,
                    "tie_break": ties,
                }
                try:
                    out = replay(_record(names, tried, hands))
                except RecordError:
                    continue
                final = out.get("final")
                if isinstance(final, dict) and list(final["result"]) == list(result):
                    return {**rules, **_changed(tried, rules)}
    return rules


def _changed(tried: dict[str, Any], rules: dict[str, Any]) -> dict[str, Any]:
    """The fitted keys whose value is not the tenhou preset's (only those are overrides)."""
    preset = {
        "return_points": 30000,
        "uma": list(_UMAS[0]),
        "result_rounding": "tenhou",
        "tie_break": "seat",
    }
    return {k: v for k, v in tried.items() if k in preset and v != preset[k]}


def _record(names: list[str], rules: dict[str, Any], hands: list[dict[str, Any]]) -> dict[str, Any]:
    record: dict[str, Any] = {"format": FORMAT, "ruleset": "tenhou", "players": names}
    if rules:
        record["rules"] = rules
    record["hands"] = hands
    return record


class _Hand:
    def __init__(self, index: int, start: list[int]) -> None:
        self.index = index
        self.start = start
        self.riichi: list[int] = []
        self.data: dict[str, Any] | None = None
        self.deltas = [0, 0, 0, 0]
        self.before: list[int] | None = None

    def settle(self, sc: list[int]) -> None:
        # 8 numbers (score, change per seat); a chip lobby adds 8 for the chips, not points
        if len(sc) < 8:
            raise LogError("sc needs 8 numbers", hand=self.index)
        if self.before is None:
            self.before = [sc[i] * 100 for i in range(0, 8, 2)]
        for seat in range(4):
            self.deltas[seat] += sc[2 * seat + 1] * 100

    def after(self) -> list[int]:
        assert self.before is not None
        return [b + d for b, d in zip(self.before, self.deltas, strict=True)]


def _agari_win(el: ET.Element, hand: _Hand, dealer: int) -> dict[str, Any]:
    who = int(el.get("who", "-1"))
    ten = _ints(el.get("ten"), "ten", hand.index)
    if not 0 <= who < 4 or len(ten) < 2:
        raise LogError("AGARI needs who and ten", hand=hand.index)
    win: dict[str, Any] = {"winner": who}
    yakuman_ids = _ints(el.get("yakuman"), "yakuman", hand.index)
    pairs = _ints(el.get("yaku"), "yaku", hand.index)
    if yakuman_ids:
        # Tenhou pays each yakuman of the hand: the points say how many (32,000 / 48,000).
        win["yakuman"] = max(1, ten[1] // (48000 if who == dealer else 32000))
        pao = el.get("paoWho")
        if pao is not None and int(pao) != who:
            win["pao"] = int(pao)
        win["yaku"] = [YAKU_NAMES[i] for i in yakuman_ids if 0 <= i < len(YAKU_NAMES)]
        return win
    han = sum(pairs[1::2])
    dora = sum(h for i, h in zip(pairs[0::2], pairs[1::2], strict=False) if i in _DORA_IDS)
    win["han"] = han
    if han < 5:
        win["fu"] = ten[0]
    names = [YAKU_NAMES[i] for i, h in zip(pairs[0::2], pairs[1::2], strict=False)
             if 0 <= i < len(YAKU_NAMES) and i not in _DORA_IDS and h]  # fmt: skip
    win["yaku"] = names
    if dora:
        win["dora"] = dora
    return win


def parse_mjlog(text: str) -> OnlineGame:
    """A Tenhou mjlog (XML) as an OnlineGame."""
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise LogError("an mjlog has no DOCTYPE or entities")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise LogError(f"broken XML: {exc}") from exc
    if root.tag != "mjloggm":
        raise LogError("not a Tenhou mjlog: the root element is not <mjloggm>")
    names: list[str] | None = None
    rules: dict[str, Any] = {}
    hands: list[_Hand] = []
    final: list[int] | None = None
    result: list[int] | None = None
    log_id = ""
    kiriage: set[bool] = set()  # what 4 han 30 fu and 3 han 60 fu hands were paid
    for el in root:
        tag = el.tag
        if tag == "GO":
            rules = _rules_from_go(int(el.get("type", "0") or 0))
        elif tag == "SHUFFLE":
            log_id = el.get("ref", "") or ""
        elif tag == "UN" and names is None and el.get("n0") is not None:
            names = [unquote(el.get(f"n{i}", "") or "") for i in range(4)]
            if not names[3]:
                raise LogError("three-player Tenhou games (sanma) are not supported")
        elif tag == "INIT":
            if final is not None:
                raise LogError("a hand after the end of the game", hand=len(hands))
            if hands and hands[-1].data is None:
                raise LogError("a hand without a result", hand=len(hands) - 1)
            start = [x * 100 for x in _ints(el.get("ten"), "ten", len(hands))]
            if len(start) != 4:
                raise LogError("INIT ten needs 4 scores", hand=len(hands))
            hands.append(_Hand(len(hands), start))
        elif tag in ("REACH", "AGARI", "RYUUKYOKU") and not hands:
            raise LogError(f"<{tag}> before the first hand")
        elif tag == "REACH" and el.get("step") == "2":
            hands[-1].riichi.append(int(el.get("who", "0")))
        elif tag == "AGARI":
            hand = hands[-1]
            seed_dealer = _dealer_of(root, hand.index)
            win = _agari_win(el, hand, seed_dealer)
            if (win.get("han"), win.get("fu")) in ((4, 30), (3, 60)):
                # 7,700 / 11,600 or a mangan: the log says whether the lobby rounds up
                paid = _ints(el.get("ten"), "ten", hand.index)[1]
                kiriage.add(paid == (12000 if win["winner"] == seed_dealer else 8000))
            who, loser = win["winner"], int(el.get("fromWho", "-1"))
            if hand.data is None:
                outcome = "tsumo" if loser == who else "ron"
                hand.data = {"outcome": outcome, "riichi": hand.riichi, "wins": [win]}
                if outcome == "ron":
                    hand.data["loser"] = loser
            elif hand.data["outcome"] == "ron" and hand.data["loser"] == loser:
                hand.data["wins"].append(win)  # double ron: a second AGARI
            else:
                raise LogError("two results for one hand", hand=hand.index)
            hand.settle(_ints(el.get("sc"), "sc", hand.index))
        elif tag == "RYUUKYOKU":
            hand = hands[-1]
            if hand.data is not None:
                raise LogError("two results for one hand", hand=hand.index)
            kind = el.get("type")
            sc = _ints(el.get("sc"), "sc", hand.index)
            hand.settle(sc)
            tenpai = [s for s in range(4) if el.get(f"hai{s}") is not None]
            if kind in _ABORTIVE_TYPES:
                hand.data = {"outcome": "abortive", "riichi": hand.riichi}
            elif kind == "nm":
                nagashi = [s for s in range(4) if sc[2 * s + 1] > 0]
                hand.data = {
                    "outcome": "nagashi",
                    "riichi": hand.riichi,
                    "nagashi": nagashi,
                    "tenpai": tenpai,
                }
            elif kind is None:
                hand.data = {"outcome": "draw", "riichi": hand.riichi, "tenpai": tenpai}
            else:
                raise LogError(f"unknown draw type {kind!r}", hand=hand.index)
        if tag in ("AGARI", "RYUUKYOKU") and el.get("owari"):
            owari = el.get("owari", "").split(",")
            try:
                final = [int(owari[i]) * 100 for i in range(0, 8, 2)]
                result = [round(float(owari[i]) * 1000) for i in range(1, 8, 2)]
            except (ValueError, IndexError) as exc:
                raise LogError("owari is broken", hand=len(hands) - 1) from exc
    if names is None:
        raise LogError("no players (<UN n0=...>) in the log")
    if not hands:
        raise LogError("the log has no hands")
    start = hands[0].start
    if hands[-1].data is None:
        hands = hands[:-1]  # the log stops inside a hand: keep the finished ones
    site_scores = [hands[i + 1].start for i in range(len(hands) - 1)]
    if hands:
        site_scores.append(hands[-1].after())
    data = [h.data for h in hands if h.data is not None]
    if kiriage == {True}:
        rules["kiriage"] = True  # kiriage mangan (e.g. a chip lobby); the preset has none
    rules = _log_rules(rules, start, data, names, result)
    return OnlineGame(
        site="tenhou",
        names=names,
        record=_record(names, rules, data),
        site_scores=site_scores,
        site_final=final,
        site_result=result,
        log_id=log_id,
    )


def _dealer_of(root: ET.Element, index: int) -> int:
    """The dealer of hand ``index`` (its INIT ``oya``)."""
    inits = [el for el in root if el.tag == "INIT"]
    return int(inits[index].get("oya", "0"))


# --- tenhou.net/6 JSON -----------------------------------------------------------------

_HAN = re.compile(r"\((\d+)飜\)")
_FU = re.compile(r"(\d+)符")
_ABORTIVE_JA = {"九種九牌", "四家立直", "三家和了", "四槓散了", "四風連打"}


def _json_win(info: list[Any], index: int) -> tuple[dict[str, Any], int]:
    if len(info) < 4:
        raise LogError("a win needs [who, from, pao, text, yaku...]", hand=index)
    who, source, pao = int(info[0]), int(info[1]), int(info[2])
    yaku = [str(y) for y in info[4:]]
    win: dict[str, Any] = {"winner": who}
    yakuman = sum(1 for y in yaku if "役満" in y)
    if yakuman:
        win["yakuman"] = yakuman
        if pao != who:  # the log gives the winner's own seat when no one is liable
            win["pao"] = pao
        win["yaku"] = [y.split("(")[0] for y in yaku]
        return win, source
    han = sum(int(m.group(1)) for y in yaku for m in [_HAN.search(y)] if m)
    if han < 1:
        raise LogError(f"no han in the yaku {yaku!r}", hand=index)
    win["han"] = han
    if han < 5:
        fu = _FU.search(str(info[3]))
        win["fu"] = int(fu.group(1)) if fu else _MANGAN_FU.get(han, 30)
    win["yaku"] = [y.split("(")[0] for y in yaku if not y.startswith(("ドラ", "赤ドラ", "裏ドラ"))]
    return win, source


def parse_tenhou6(doc: dict[str, Any]) -> OnlineGame:
    """A tenhou.net/6 JSON log as an OnlineGame."""
    names = doc.get("name")
    log = doc.get("log")
    if not isinstance(names, list) or not isinstance(log, list) or not log:
        raise LogError('a tenhou.net/6 log needs "name" (4 players) and a non-empty "log"')
    if len(names) != 4 or not all(isinstance(n, str) for n in names):
        raise LogError("three-player Tenhou games (sanma) are not supported")
    rule: dict[str, Any] = doc["rule"] if isinstance(doc.get("rule"), dict) else {}
    disp = str(rule.get("disp", ""))
    if "三" in disp:
        raise LogError("three-player Tenhou games (sanma) are not supported")
    rules: dict[str, Any] = {}
    if "東" in disp and "南" not in disp:
        rules["east_only"] = True  # tonpuusen
    aka = rule.get("aka", rule.get("aka51", 1))
    if aka == 0:
        rules["aka_dora"] = 0
    if "喰" not in disp and disp.startswith(("般", "上", "特", "鳳")):
        rules["open_tanyao"] = False
    hands: list[dict[str, Any]] = []
    starts: list[list[int]] = []
    for index, entry in enumerate(log):
        if not isinstance(entry, list) or len(entry) < 17:
            raise LogError(
                "a hand needs 17 entries (round, scores, tiles x 12, result)", hand=index
            )
        try:
            kyoku = int(entry[0][0])
            starts.append([int(x) for x in entry[1]])
        except (TypeError, ValueError, IndexError) as exc:
            raise LogError("round or scores are broken", hand=index) from exc
        dealer = kyoku % 4
        result = entry[16]
        if not isinstance(result, list) or not result:
            raise LogError("the hand has no result", hand=index)
        declared = {}
        for seat in range(4):
            discards = entry[6 + 3 * seat]
            for pos, tile in enumerate(discards if isinstance(discards, list) else []):
                if isinstance(tile, str) and tile.startswith("r"):
                    declared[seat] = pos == len(discards) - 1
        kind = result[0]
        if kind == "和了":
            wins: list[dict[str, Any]] = []
            sources = set()
            for k in range(2, len(result), 2):
                win, source = _json_win(result[k], index)
                wins.append(win)
                sources.add(source)
            tsumo = len(wins) == 1 and next(iter(sources)) == wins[0]["winner"]
            loser = next(iter(sources))
            riichi = [
                s for s, last in sorted(declared.items()) if not (last and not tsumo and s == loser)
            ]
            if tsumo:
                hands.append({"outcome": "tsumo", "riichi": riichi, "wins": wins})
            else:
                hands.append({"outcome": "ron", "riichi": riichi, "loser": loser, "wins": wins})
            continue
        riichi = sorted(declared)
        if kind in _ABORTIVE_JA:
            hands.append({"outcome": "abortive", "riichi": riichi})
        elif kind in ("流局", "全員聴牌", "全員不聴"):
            deltas = result[1] if len(result) > 1 and isinstance(result[1], list) else [0] * 4
            everyone = kind == "全員聴牌"
            tenpai = [0, 1, 2, 3] if everyone else [s for s in range(4) if deltas[s] > 0]
            hands.append({"outcome": "draw", "riichi": riichi, "tenpai": tenpai})
        elif kind == "流し満貫":
            deltas = result[1] if len(result) > 1 else [0] * 4
            nagashi = [s for s in range(4) if deltas[s] > 0]
            nxt = log[index + 1][0][0] if index + 1 < len(log) else None
            tenpai = [dealer] if nxt == kyoku else []  # the dealer kept the deal
            hands.append(
                {"outcome": "nagashi", "riichi": riichi, "nagashi": nagashi, "tenpai": tenpai}
            )
        else:
            raise LogError(f"unknown result {kind!r}", hand=index)
    final: list[int] | None = None
    result_points: list[int] | None = None
    sc = doc.get("sc")
    if isinstance(sc, list) and len(sc) == 8:
        scores = [int(sc[i]) for i in range(0, 8, 2)]
        final = [s * 100 for s in scores] if abs(sum(scores)) <= 2000 else scores
        result_points = [round(float(sc[i]) * 1000) for i in range(1, 8, 2)]
    rules = _log_rules(rules, starts[0], hands, list(names), result_points)
    return OnlineGame(
        site="tenhou",
        names=list(names),
        record=_record(list(names), rules, hands),
        site_scores=starts[1:],
        site_final=final,
        site_result=result_points,
        log_id=str(doc.get("ref", "")),
    )
