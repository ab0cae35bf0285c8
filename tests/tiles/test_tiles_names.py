"""EMA 2025 names of the yaku (scoring/tiles/names.py): every yaku the adapter can report has
one, the names are the rule book's, and an unknown name falls back to the library's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.yaku import Yaku
from mahjong.hand_calculating.yaku_config import YakuConfig

from scoring.engine.rules import PRESETS, load_ruleset
from scoring.tiles import ema_name
from scoring.tiles.adapter import RENHOU_YAKU, library_options
from scoring.tiles.cli import run
from scoring.tiles.names import EMA_NAMES, EMA_NAMES_BY_CLASS, NOT_REPORTED

# The rule texts sit beside the repository (../shared/rules), as in CI's checkout.
RULE_BOOK = Path(__file__).resolve().parents[3] / "shared/rules/001_4d8886c2218fc64c.txt"

# EMA 2025 4.2.1-4.2.6: the 41 English names of the rule book's yaku list.
EMA_2025_YAKU = {
    # 4.2.1
    "Riichi",
    "Ippatsu",
    "Fully Concealed Hand",
    "Pinfu",
    "Pure Double Sequence",
    "All Simple",
    "Dragon Triplet",
    "Seat Wind Triplet",
    "Round Wind Triplet",
    "After a Quad",
    "Robbing a Quad",
    "Under the Sea",
    "Under the River",
    # 4.2.2
    "Double Riichi",
    "Seven Pairs",
    "Mixed Triple Sequence",
    "Pure Straight",
    "Half Outside Hand",
    "Triple Triplet",
    "Three Concealed Triplets",
    "Three Quads",
    "All Triplets",
    "Little Three Dragons",
    "All Terminals and Honours",
    # 4.2.3
    "Twice Pure Double Sequence",
    "Half Flush",
    "Full Outside Hand",
    # 4.2.4
    "Blessing of Man",
    # 4.2.5
    "Full Flush",
    # 4.2.6
    "Thirteen Orphans",
    "Nine Gates",
    "Blessing of Heaven",
    "Blessing of Earth",
    "Four Concealed Triplets",
    "Four Quads",
    "All Green",
    "All Terminals",
    "All Honours",
    "Big Three Dragons",
    "Little Four Winds",
    "Big Four Winds",
}


def library_yaku() -> list[Yaku]:
    """Every yaku and yakuman the library knows (it instantiates each in YakuConfig)."""
    return [y for y in vars(YakuConfig()).values() if isinstance(y, Yaku)]


@pytest.mark.parametrize("yaku", library_yaku(), ids=lambda y: type(y).__name__)
def test_every_library_yaku_has_an_ema_name_or_is_never_reported(yaku):
    # A yaku a new library version adds fails here until it is mapped or shown unreachable.
    cls = type(yaku)
    assert (cls in EMA_NAMES_BY_CLASS) != (cls in NOT_REPORTED), cls.__name__
    if cls in EMA_NAMES_BY_CLASS:
        assert ema_name(yaku.name) == EMA_NAMES_BY_CLASS[cls]


def test_yakuman_are_mapped_too():
    yakuman = [y for y in library_yaku() if y.is_yakuman and type(y) not in NOT_REPORTED]
    # 13 of EMA 2025 4.2.6, the double-yakuman waits of three of them, renhou as a yakuman.
    assert len(yakuman) == 16
    assert all(y.name in EMA_NAMES for y in yakuman)


def test_the_names_are_exactly_the_rule_books_list():
    assert len(EMA_2025_YAKU) == 41
    assert set(EMA_NAMES_BY_CLASS.values()) == EMA_2025_YAKU


@pytest.mark.skipif(not RULE_BOOK.exists(), reason="the EMA 2025 rule text is not on this machine")
def test_each_name_is_in_the_rule_text():
    text = RULE_BOOK.read_text(encoding="utf-8")
    section = text[text.index("4.2.1 One han yaku\n") : text.index("4.3 Scoring examples\n")]
    for name in EMA_2025_YAKU:
        assert re.search(rf"^{re.escape(name)} ", section, re.MULTILINE), name


def test_unreported_yaku_stay_unreachable():
    # The options that would let the library report a yaku of NOT_REPORTED are never set.
    for rules in PRESETS.values():
        options = library_options(rules)
        assert not options.has_daisharin and not options.has_daichisei
        assert not options.has_sashikomi_yakuman


def test_the_adapter_never_asks_for_open_riichi_nagashi_or_paarenchan(score, monkeypatch):
    seen = []
    real = HandCalculator.estimate_hand_value

    def spy(*args, **kwargs):
        seen.append(kwargs["config"])
        return real(*args, **kwargs)

    monkeypatch.setattr(HandCalculator, "estimate_hand_value", staticmethod(spy))
    score("123m456p789s23s99p+1s", riichi=True, ippatsu=True, tsumo=True, seat_wind="S")
    score("123m456p79s11p999m+8s", renhou=True, seat_wind="W")
    assert seen
    for config in seen:
        assert not config.is_open_riichi and not config.is_nagashi_mangan
        assert config.paarenchan == 0


def test_unknown_name_falls_back_to_the_library_name():
    assert ema_name("Daisuurin") == "Daisuurin"  # Daisharin renames itself; never reported
    assert ema_name("") == ""


def test_bare_blessing_of_man_has_its_ema_name(score, ema):
    ev = score("123m456p79s11p999m+8s", rules=ema, renhou=True, seat_wind="W")
    assert ev.yaku_entries() == [{"name": RENHOU_YAKU, "ema_name": "Blessing of Man", "han": 5}]


@pytest.mark.parametrize("preset", ["wdmc-2019", "san-diego"])
def test_blessing_of_man_as_a_yakuman_has_its_ema_name(score, preset):
    rules = load_ruleset(preset)
    assert rules.renhou == "yakuman"
    ev = score("123m456p79s11p999m+8s", rules=rules, renhou=True, seat_wind="W")
    assert ev.yakuman == 1
    assert {e["ema_name"] for e in ev.yaku_entries()} == {"Blessing of Man"}


def test_to_dict_keeps_name_and_han_and_adds_ema_name(score):
    # Backwards compatible: "name" is still the library's name, "han" unchanged.
    ev = score("123m456p79s11p555z+8s")
    assert ev.to_dict()["yaku"] == [
        {"name": "Yakuhai (haku)", "ema_name": "Dragon Triplet", "han": 1}
    ]
    assert [(e["name"], e["han"]) for e in ev.to_dict()["yaku"]] == list(ev.yaku)


def test_two_dragon_triplets_are_two_dragon_triplets(score):
    # EMA 2025 4.2.1: "Two dragon triplets are worth a total of two han."
    entries = score("123m45p55566677z+6p").to_dict()["yaku"]
    assert sorted((e["ema_name"], e["han"]) for e in entries) == [
        ("Dragon Triplet", 1),
        ("Dragon Triplet", 1),
        ("Little Three Dragons", 2),
    ]


def test_double_yakuman_waits_take_the_single_yakuman_name(score):
    assert [e["ema_name"] for e in score("19m19p19s1234567z+1m").yaku_entries()] == [
        "Thirteen Orphans"
    ]
    assert [e["ema_name"] for e in score("111m999p222s888s1z+1z").yaku_entries()] == [
        "Four Concealed Triplets"
    ]


def test_command_line_prints_the_ema_names(capsys):
    code = run(["12345678s234m55p+9s", "--riichi", "--tsumo", "--seat", "S"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {(y["name"], y["ema_name"]) for y in out["yaku"]} == {
        ("Riichi", "Riichi"),
        ("Menzen Tsumo", "Fully Concealed Hand"),
        ("Pinfu", "Pinfu"),
        ("Ittsu", "Pure Straight"),
    }
