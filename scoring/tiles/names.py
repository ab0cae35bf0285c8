"""The EMA rule book's English names of the yaku the ``mahjong`` package reports.

The library names a yaku in romaji (``"Menzen Tsumo"``, ``"Yakuhai (haku)"``); referees and
players in Europe know the names of the EMA riichi rules 2025, section 4.2 (``"Fully
Concealed Hand"``, ``"Dragon Triplet"``). ``ema_name`` turns the one into the other. The API
keeps the library's name in ``name`` and adds the rule book's in ``ema_name``.

The table is keyed by the library's classes, so that a renamed yaku still finds its entry;
every class the adapter can report is here (tests/tiles/test_tiles_names.py checks that).
Where the library splits a yaku the rule book counts as one (three dragons, the winds, the
double-yakuman waits), each part takes the rule book's name.
"""

from __future__ import annotations

from mahjong.hand_calculating.yaku import Yaku
from mahjong.hand_calculating.yaku_list import (
    AkaDora,
    Chankan,
    Chantai,
    Chiitoitsu,
    Chinitsu,
    Chun,
    DaburuOpenRiichi,
    DaburuRiichi,
    Dora,
    Haitei,
    Haku,
    Hatsu,
    Honitsu,
    Honroto,
    Houtei,
    Iipeiko,
    Ippatsu,
    Ittsu,
    Junchan,
    NagashiMangan,
    OpenRiichi,
    Pinfu,
    Renhou,
    Riichi,
    Rinshan,
    RoundWindEast,
    RoundWindNorth,
    RoundWindSouth,
    RoundWindWest,
    Ryanpeikou,
    Sanankou,
    SanKantsu,
    Sanshoku,
    SanshokuDoukou,
    SeatWindEast,
    SeatWindNorth,
    SeatWindSouth,
    SeatWindWest,
    Shosangen,
    Tanyao,
    Toitoi,
    Tsumo,
    UraDora,
)
from mahjong.hand_calculating.yaku_list.yakuman import (
    Chiihou,
    Chinroutou,
    ChuurenPoutou,
    DaburuChuurenPoutou,
    DaburuKokushiMusou,
    Daichisei,
    Daisangen,
    Daisharin,
    DaiSuushii,
    KokushiMusou,
    Paarenchan,
    RenhouYakuman,
    Ryuuiisou,
    Sashikomi,
    Shousuushii,
    Suuankou,
    SuuankouTanki,
    Suukantsu,
    Tenhou,
    Tsuuiisou,
)

# Library class -> the English name in the EMA riichi rules 2025.
EMA_NAMES_BY_CLASS: dict[type[Yaku], str] = {
    # One han yaku
    Riichi: "Riichi",  # EMA 2025 4.2.1
    Ippatsu: "Ippatsu",  # EMA 2025 4.2.1
    Tsumo: "Fully Concealed Hand",  # EMA 2025 4.2.1 (menzen tsumo)
    Pinfu: "Pinfu",  # EMA 2025 4.2.1
    Iipeiko: "Pure Double Sequence",  # EMA 2025 4.2.1 (iipeikou)
    Tanyao: "All Simple",  # EMA 2025 4.2.1 (tan'yao)
    Haku: "Dragon Triplet",  # EMA 2025 4.2.1 (fanpai/yakuhai)
    Hatsu: "Dragon Triplet",  # EMA 2025 4.2.1
    Chun: "Dragon Triplet",  # EMA 2025 4.2.1
    SeatWindEast: "Seat Wind Triplet",  # EMA 2025 4.2.1 (fanpai/yakuhai)
    SeatWindSouth: "Seat Wind Triplet",  # EMA 2025 4.2.1
    SeatWindWest: "Seat Wind Triplet",  # EMA 2025 4.2.1
    SeatWindNorth: "Seat Wind Triplet",  # EMA 2025 4.2.1
    RoundWindEast: "Round Wind Triplet",  # EMA 2025 4.2.1 (fanpai/yakuhai)
    RoundWindSouth: "Round Wind Triplet",  # EMA 2025 4.2.1
    RoundWindWest: "Round Wind Triplet",  # EMA 2025 4.2.1
    RoundWindNorth: "Round Wind Triplet",  # EMA 2025 4.2.1
    Rinshan: "After a Quad",  # EMA 2025 4.2.1 (rinshan kaihou)
    Chankan: "Robbing a Quad",  # EMA 2025 4.2.1 (chankan)
    Haitei: "Under the Sea",  # EMA 2025 4.2.1 (haitei)
    Houtei: "Under the River",  # EMA 2025 4.2.1 (houtei)
    # Two han yaku
    DaburuRiichi: "Double Riichi",  # EMA 2025 4.2.2 (daburu riichi)
    Chiitoitsu: "Seven Pairs",  # EMA 2025 4.2.2 (chiitoitsu)
    Sanshoku: "Mixed Triple Sequence",  # EMA 2025 4.2.2 (sanshoku doujun)
    Ittsu: "Pure Straight",  # EMA 2025 4.2.2 (ittsuu/ikkitsuukan)
    Chantai: "Half Outside Hand",  # EMA 2025 4.2.2 (chanta)
    SanshokuDoukou: "Triple Triplet",  # EMA 2025 4.2.2 (sanshoku doukou)
    Sanankou: "Three Concealed Triplets",  # EMA 2025 4.2.2 (san'ankou)
    SanKantsu: "Three Quads",  # EMA 2025 4.2.2 (sankantsu)
    Toitoi: "All Triplets",  # EMA 2025 4.2.2 (toitoi)
    Shosangen: "Little Three Dragons",  # EMA 2025 4.2.2 (shousangen)
    Honroto: "All Terminals and Honours",  # EMA 2025 4.2.2 (honroutou)
    # Three han yaku
    Ryanpeikou: "Twice Pure Double Sequence",  # EMA 2025 4.2.3 (ryanpeikou)
    Honitsu: "Half Flush",  # EMA 2025 4.2.3 (hon'itsu)
    Junchan: "Full Outside Hand",  # EMA 2025 4.2.3 (junchan)
    # Five han yaku
    Renhou: "Blessing of Man",  # EMA 2025 4.2.4 (renhou)
    # Six han yaku
    Chinitsu: "Full Flush",  # EMA 2025 4.2.5 (chin'itsu)
    # Yakuman
    KokushiMusou: "Thirteen Orphans",  # EMA 2025 4.2.6 (kokushi musou)
    DaburuKokushiMusou: "Thirteen Orphans",  # EMA 2025 4.2.6 (thirteen-sided wait)
    ChuurenPoutou: "Nine Gates",  # EMA 2025 4.2.6 (chuuren poutou)
    DaburuChuurenPoutou: "Nine Gates",  # EMA 2025 4.2.6 (nine-sided wait)
    Tenhou: "Blessing of Heaven",  # EMA 2025 4.2.6 (tenhou)
    Chiihou: "Blessing of Earth",  # EMA 2025 4.2.6 (chihou)
    RenhouYakuman: "Blessing of Man",  # EMA 2025 4.2.4 (a yakuman under other rulesets)
    Suuankou: "Four Concealed Triplets",  # EMA 2025 4.2.6 (suuankou)
    SuuankouTanki: "Four Concealed Triplets",  # EMA 2025 4.2.6 (pair wait)
    Suukantsu: "Four Quads",  # EMA 2025 4.2.6 (suukantsu)
    Ryuuiisou: "All Green",  # EMA 2025 4.2.6 (ryuuiisou)
    Chinroutou: "All Terminals",  # EMA 2025 4.2.6 (chinroutou)
    Tsuuiisou: "All Honours",  # EMA 2025 4.2.6 (tsuuiisou)
    Daisangen: "Big Three Dragons",  # EMA 2025 4.2.6 (daisangen)
    Shousuushii: "Little Four Winds",  # EMA 2025 4.2.6 (shousuushii)
    DaiSuushii: "Big Four Winds",  # EMA 2025 4.2.6 (daisuushii)
}

# Library classes the adapter never reports, so they need no EMA name (and the rule book has
# none): options it never sets (open riichi, nagashi mangan, which the game record scores as
# a draw, daisharin, daichisei, sashikomi, paarenchan), and dora, counted apart from yaku.
NOT_REPORTED: frozenset[type[Yaku]] = frozenset(
    {
        OpenRiichi,
        DaburuOpenRiichi,
        NagashiMangan,
        Daisharin,
        Daichisei,
        Sashikomi,
        Paarenchan,
        Dora,
        AkaDora,
        UraDora,
    }
)

# The library's name -> the EMA name. Yaku instances carry their name; ``Daisharin`` alone
# renames itself, and it is never reported.
EMA_NAMES: dict[str, str] = {cls().name: ema for cls, ema in EMA_NAMES_BY_CLASS.items()}


def ema_name(name: str) -> str:
    """The EMA 2025 name of a yaku given by its library name; an unknown name is kept."""
    return EMA_NAMES.get(name, name)
