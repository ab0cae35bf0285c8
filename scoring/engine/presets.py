"""The presets: each key's value with the rule section it comes from (or why it was chosen).

Ids and sources: ``ema-2025`` (rules/001), ``wdmc-2019`` / ``wdmc-2019-3p`` (rules/000),
``ari-ari`` (rules/002), ``san-diego`` (rules/004), ``wrc-2025`` and ``tenhou`` (common online
settings named in formats/game-record.md).
"""

from __future__ import annotations

Entry = tuple[object, str]

EMA = "EMA 2025"

_EMA: dict[str, Entry] = {
    "players": (4, f"{EMA} 2.3: four players at the table"),
    "start_points": (30000, f"{EMA} 3.7: players subtract 30,000 from their count"),
    "return_points": (30000, f"{EMA} 3.7: no oka, the 30,000 start is subtracted"),
    "uma": ((15000, 5000, -5000, -15000), f"{EMA} 3.7.1"),
    "tie_break": ("split", f"{EMA} 3.7.1 examples 1 and 2"),
    "result_rounding": ("none", f"{EMA} 3.7: the final score is exact (may be shown /1000)"),
    "riichi_stick": (1000, f"{EMA} 3.3.10 step 3"),
    "honba_ron": (300, f"{EMA} 3.4.4"),
    "honba_tsumo": (100, f"{EMA} 3.4.4"),
    "noten_total": (3000, f"{EMA} 3.4.2"),
    "kiriage": (True, f"{EMA} 4.1.2/4.1.3: a base above 1,900 becomes 2,000"),
    "han_limit": ("sanbaiman", f"{EMA} 4.1.2: 11 or more han is sanbaiman"),
    "double_yakuman": (False, f"{EMA} 4.2.6: yakuman are not cumulative"),
    "multiple_ron": ("all", f"{EMA} 3.4.3: the discarder pays each winner"),
    "multi_ron_honba": ("each", f"{EMA} 3.4.4"),
    "multi_ron_riichi": ("own_back", f"{EMA} 3.3.10"),
    "leftover_riichi": ("first_place", f"{EMA} 3.7: split on a tie, decimals rounded down"),
    "bust": (False, f"{EMA} 4.1.4: no bankruptcy rule"),
    "west_round": (False, f"{EMA} 3.5: the game ends after the south round"),
    "dealer_stays_on_draw": ("tenpai", f"{EMA} 3.4.5"),
    "chombo": ({"mode": "penalty", "points": 20000}, f"{EMA} 3.4.6 (tournament)"),
    "nagashi_mangan": (False, f"{EMA} 4.2: not in the yaku list"),
    "aka_dora": (0, f"{EMA} 1.3: red fives are not used"),
    "open_tanyao": (True, f"{EMA} 4.2.1 All Simples may be open"),
    "renhou": ("mangan", f"{EMA} 4.2.4: Blessing of Man, 5 han, combines with nothing"),
    "double_wind_pair_fu": (2, f"{EMA} 4.1.1: a seat-and-round wind pair is worth 2"),
    "lateness_per_minute": (1000, f"{EMA} 7.2"),
    "lateness_max_minutes": (10, f"{EMA} 7.2/7.3: later than 10 minutes means a substitute"),
    "score_sheet_penalty": (2000, f"{EMA} 7.5"),
    "all_last_sheet_penalty": (8000, f"{EMA} 6.10"),
    "substitute_rule": ("ema", f"{EMA} 7.3"),
    "substitute_points": (-15000, f"{EMA} 7.3"),
    "substitute_uma": (-15000, f"{EMA} 7.3"),
    "abortive_draws": ("none", f"{EMA} 3.4: a hand ends only by a win or an exhaustive draw"),
    "agari_yame": ("none", f"{EMA} 3.5: the game ends when the south round ends"),
    "time_limit": ("ema", f"{EMA} 7.4: after the 15-minute signal, this hand and one more"),
    "west_sudden_death": ("none", f"{EMA} 3.5: the game ends when the south round ends"),
    "pao_ron_honba": ("discarder", f"{EMA} 3.3.7: only the discarder pays the counters"),
    "east_only": (False, f"{EMA} 3.5: a game has an east and a south round"),
}


def _derive(base: dict[str, Entry], **changes: Entry) -> dict[str, Entry]:
    out = dict(base)
    out.update(changes)
    return out


WD = "WDMC 2019"
_SILENT_PENALTY = "chosen: the text has no tournament penalties; the EMA 2025 7.x values apply"

_WDMC: dict[str, Entry] = _derive(
    _EMA,
    start_points=(30000, f"{WD} 2.1"),
    return_points=(30000, f"{WD} 4.3.4: final score = (end - start) / 1000, no oka"),
    uma=((0, 0, 0, 0), f"{WD} 1.7 (Uma): used only in tournaments, none in club play"),
    tie_break=("split", "chosen: the text is silent; EMA 3.7.1 splitting is the fairest"),
    result_rounding=("none", f"{WD} 4.3.4: exact to the 100"),
    riichi_stick=(1000, f"{WD} 3.5.1"),
    honba_ron=(300, f"{WD} 3.7.1 / 4.3.3"),
    honba_tsumo=(100, f"{WD} 4.3.3"),
    noten_total=(3000, f"{WD} 3.6"),
    kiriage=(False, f"{WD} 8.2 tables: 4 han 30 fu is 7,700 / 11,600"),
    han_limit=("kazoe_yakuman", f"{WD} 4.3.2: 13+ han is a kazoe yakuman"),
    double_yakuman=(False, f"{WD} 4.1.7: double yakuman score as a single yakuman"),
    multiple_ron=("all", f"{WD} 3.5.3.1-3.5.3.2: double and triple ron are paid"),
    multi_ron_honba=("each", f"{WD} 3.7.1: each winner is paid the bonus sticks"),
    multi_ron_riichi=("own_back", f"{WD} 3.5.3.1: losers' sticks to the nearest winner"),
    leftover_riichi=("first_place", "chosen: the text is silent; as EMA 3.7"),
    bust=(True, f"{WD} 3.0 and 1.7 (Bust): the game ends below zero"),
    west_round=(
        False,
        f"{WD} 3.0: the game ends after South 4 (the 3.7.1 West 1 is west_sudden_death)",
    ),
    dealer_stays_on_draw=("tenpai", f"{WD} 3.0 / 3.6"),
    chombo=(
        {"mode": "reverse_mangan", "points": 8000},
        f"{WD} 3.10: a non-dealer pays 4,000 to the dealer, 2,000 to others; the dealer 4,000"
        " to all (three players too: 5.4 changes only wins)",
    ),
    nagashi_mangan=(True, f"{WD} 4.1.6.2: scored as a tsumo mangan"),
    aka_dora=(1, f"{WD} 1.3.1: three red fives, one per suit"),
    open_tanyao=(True, "chosen: WDMC 4.1 does not restrict All Simples to closed hands"),
    renhou=("yakuman", f"{WD} 4.1.7.14"),
    double_wind_pair_fu=(2, f"{WD} 4.2: a value pair is 2 fu"),
    lateness_per_minute=(1000, _SILENT_PENALTY),
    lateness_max_minutes=(10, _SILENT_PENALTY),
    score_sheet_penalty=(2000, _SILENT_PENALTY),
    all_last_sheet_penalty=(8000, _SILENT_PENALTY),
    substitute_rule=("ema", _SILENT_PENALTY),
    substitute_points=(-15000, _SILENT_PENALTY),
    substitute_uma=(-15000, _SILENT_PENALTY),
    abortive_draws=("repeat", f"{WD} 3.8: a null hand keeps round, hand and bonus number"),
    agari_yame=("optional", f"{WD} 3.7.2: a top dealer after South 4 may end the game"),
    time_limit=("none", "chosen: club rules, the text has no time-limited sessions"),
    west_sudden_death=(
        "wdmc",
        f"{WD} 3.7.1 (printed in 3.7.2): an S4 draw with the dealer noten goes into West 1;"
        " the game then ends when a non-dealer wins (several winners with the dealer among"
        " them count; a nagashi is a draw), dealer wins and draws go on as usual, and"
        " chosen: the game ends after West 4 (the text names only a west round); the"
        " 3-player rules (5.1) keep it",
    ),
)

_WDMC_3P: dict[str, Entry] = _derive(
    _WDMC,
    players=(3, f"{WD} 5.1"),
    uma=((0, 0, 0), f"{WD} 1.7 (Uma): used only in tournaments"),
    honba_ron=(200, f"{WD} 5.4: 200 per bonus stick"),
    honba_tsumo=(100, f"{WD} 5.4: 200 per bonus stick, 100 from each of two"),
    noten_total=(2000, f"{WD} 5.4"),
    kiriage=(False, f"{WD} 8.3 tables: 4 han 30 fu is 7,700"),
    nagashi_mangan=(True, f"{WD} 5.5: nagashi mangan scores as a yakuman with 3 players"),
    open_tanyao=(True, "chosen: as the 4-player WDMC rules (5.1)"),
)

AA = "Ari-Ari"
_ARI_ARI: dict[str, Entry] = _derive(
    _EMA,
    start_points=(25000, f"{AA} 4.2"),
    return_points=(30000, f"{AA} 9.2 step 1"),
    uma=((30000, 10000, -10000, -30000), f"{AA} 9.2 step 3"),
    tie_break=("seat", "chosen: the text is silent; Japanese practice ranks by seat"),
    result_rounding=("none", f"{AA} 9.2 example: 61.3 / 4.9 / -18.2 / -48.0"),
    riichi_stick=(1000, f"{AA} 8.1"),
    honba_ron=(300, f"{AA} 11.2 and 9.1"),
    honba_tsumo=(100, f"{AA} 11.2"),
    noten_total=(3000, f"{AA} 6.6"),
    kiriage=(False, f"{AA} 9.1 table: 4 han 30 fu is 7,700"),
    han_limit=("kazoe_yakuman", f"{AA} 9.1 table: Yakuman 13"),
    double_yakuman=(True, f"{AA} 10.7"),
    multiple_ron=("headbump", f"{AA} 6.4: atamahane"),
    multi_ron_honba=("first", f"{AA} 6.4: only one winner"),
    multi_ron_riichi=("first", f"{AA} 6.4: only one winner"),
    leftover_riichi=("first_place", "chosen: the text is silent; as EMA 3.7"),
    bust=(False, "chosen: the text is silent; as EMA 4.1.4"),
    west_round=(False, "chosen: the text is silent; the game ends after South 4"),
    west_sudden_death=("none", "chosen: the text is silent; the game ends after South 4"),
    dealer_stays_on_draw=("tenpai", f"{AA} 11.2: a counter after a draw or dealer repeat"),
    chombo=(
        {"mode": "reverse_mangan", "points": 8000},
        "chosen: the text is silent; club play, so EMA 3.4.6 outside tournaments",
    ),
    nagashi_mangan=(False, f"{AA} 10: not in the yaku list"),
    aka_dora=(1, f"{AA} 1.3: one red five per suit"),
    open_tanyao=(True, f"{AA} 10.1: Tanyao is not marked closed only"),
    renhou=("none", f"{AA} 10: not in the yaku list"),
    double_wind_pair_fu=(4, f"{AA} 12.2: Renfuu Jantou is 4 fu"),
    abortive_draws=("none", f"{AA} 6: a hand ends by a win or an exhaustive draw"),
    time_limit=("none", "chosen: club rules, the text has no time-limited sessions"),
)

SD = "San Diego 2026.06"
_SAN_DIEGO: dict[str, Entry] = _derive(
    _EMA,
    start_points=(25000, "chosen: the pamphlet is silent; 25,000 as in common club play"),
    return_points=(25000, "chosen: the pamphlet has no oka"),
    uma=((0, 0, 0, 0), "chosen: the pamphlet has no end-of-game bonus"),
    tie_break=("split", "chosen: the pamphlet is silent; as EMA 3.7.1"),
    honba_ron=(300, f"{SD} Continuity Rounds"),
    honba_tsumo=(100, f"{SD} Continuity Rounds"),
    noten_total=(3000, "chosen: the pamphlet's table is an image; 3,000 as usual"),
    kiriage=(False, f"{SD} Scoring Table: 4 han 30 fu is 7,700"),
    han_limit=("kazoe_yakuman", f"{SD} Scoring Table: Yakuman 13+ Fan"),
    double_yakuman=(False, "chosen: the pamphlet lists no double yakuman"),
    multiple_ron=("all", "chosen: the pamphlet is silent; as EMA 3.4.3"),
    leftover_riichi=("first_place", "chosen: the pamphlet is silent; as EMA 3.7"),
    bust=(False, "chosen: the pamphlet is silent; as EMA 4.1.4"),
    west_round=(False, "chosen: the pamphlet is silent"),
    west_sudden_death=("none", "chosen: the pamphlet is silent"),
    dealer_stays_on_draw=("tenpai", f"{SD} Continuity Rounds"),
    chombo=(
        {"mode": "reverse_mangan", "points": 8000},
        "chosen: the pamphlet is silent; club play, so EMA 3.4.6 outside tournaments",
    ),
    nagashi_mangan=(True, f"{SD} 5-Han Patterns: Nagashi Mangan"),
    aka_dora=(0, "chosen: the pamphlet mentions no red fives"),
    open_tanyao=(True, f"{SD} 1-Han Patterns: All Simples is not marked concealed"),
    renhou=("yakuman", f"{SD} Yakuman: Blessing of Man"),
    abortive_draws=("none", "chosen: the pamphlet lists no abortive draws"),
    time_limit=("none", "chosen: club rules, the pamphlet has no time-limited sessions"),
)

ONLINE = "game-record.md presets (common online settings)"
# Tenhou (tenhou.net): each value with the evidence from real Tenhou game logs or from a
# documented Tenhou behaviour; tests/engine/test_engine_tenhou.py replays the real figures.
TH = "Tenhou"
_OWARI = 'real owari "203,-20.0,344,45.0,192,-31.0,261,6.0"'
_TENHOU: dict[str, Entry] = _derive(
    _EMA,
    players=(4, f"{TH}: four-player tables (the 4-player lobby; sanma is another game)"),
    start_points=(25000, f'{TH}: every log starts at ten="250,250,250,250"'),
    riichi_stick=(1000, f'{TH}: REACH step 2 takes 1,000 (ten="250,240,250,250")'),
    honba_ron=(
        300,
        f'{TH}: real AGARI ba="1,2" ten="30,3900,0" sc="...,215,62,280,-42": 3,900 + 300'
        " from the discarder, + 2 sticks",
    ),
    honba_tsumo=(
        100,
        f'{TH}: real AGARI ba="1,2" ten="30,12000,2" sc="245,-31,260,-61,252,143,223,-31"',
    ),
    noten_total=(
        3000,
        f'{TH}: real RYUUKYOKU sc="250,-10,240,30,250,-10,250,-10": one tenpai, +3,000',
    ),
    dealer_stays_on_draw=(
        "tenpai",
        f"{TH}: a noten dealer passes the deal (the next INIT seed has the next dealer)",
    ),
    open_tanyao=(True, f"{TH}: kuitan (open all simples) is played"),
    lateness_per_minute=(1000, "chosen: online play has no tournament penalties; EMA 7.2"),
    lateness_max_minutes=(10, "chosen: online play has no tournament penalties; EMA 7.2"),
    score_sheet_penalty=(2000, "chosen: online play has no score sheets; EMA 7.5"),
    all_last_sheet_penalty=(8000, "chosen: online play has no score sheets; EMA 6.10"),
    substitute_points=(-15000, "chosen: online play has no substitutes; EMA 7.3"),
    substitute_uma=(-15000, "chosen: online play has no substitutes; EMA 7.3"),
    return_points=(30000, f"{TH}: results count from 30,000 ({_OWARI}: 26,100 -> -4 + 10)"),
    uma=((20000, 10000, -10000, -20000), f"{TH}: +20/+10/-10/-20 ({_OWARI})"),
    tie_break=("seat", f"{TH}: equal scores rank by the seat nearer the starting East"),
    result_rounding=(
        "tenhou",
        f"{TH}: score - 30,000 rounded first (500 toward zero), uma after, top takes the"
        ' balance (real owari "225,-17.0,230,3.0,388,48.0,157,-34.0": 22,500 -> -7 - 10;'
        " a 25,500 second scores +6, issue 20)",
    ),
    kiriage=(False, f'{TH}: 4 han 30 fu pays 7,700 (ten="30,7700,0" in real logs)'),
    han_limit=("kazoe_yakuman", f"{TH}: 13 han and more count as a yakuman"),
    double_yakuman=(True, f"{TH}: yakuman combine and are paid as double"),
    multiple_ron=(
        "triple_abortive",
        f"{TH}: a double ron is paid to both, a triple ron is an abortive draw",
    ),
    multi_ron_honba=(
        "first",
        f"{TH}: on a double ron only the first winner after the discarder takes the counters"
        " (real double-ron logs: 1 counter, 8,000 each -> -16,300 / +8,300 / +8,000)",
    ),
    multi_ron_riichi=(
        "first",
        f"{TH}: on a double ron every riichi stick goes to the first winner (atamahane)",
    ),
    leftover_riichi=("first_place", f"{TH}: sticks left at the end go to the top"),
    bust=(True, f"{TH}: the game ends when a player goes below zero (0 is not out)"),
    west_round=(
        True,
        f"{TH}: west round while no one has 30,000 after South 4; it ends when a hand ends"
        " with someone at 30,000 unless the dealer keeps the deal without being top; West 4"
        " is the last hand (no north round)",
    ),
    west_sudden_death=("none", f"{TH}: its west round is west_round, not WDMC 3.7.1"),
    east_only=(
        False,
        f"{TH}: the ranked lobby's south game (GO type bit 0x08); a log without it is east-only"
        " (scoring/online/tenhou.py sets east_only)",
    ),
    chombo=(
        {"mode": "reverse_mangan", "points": 8000},
        "chosen: the Tenhou client allows no false win; a recorded chombo is paid at the"
        " table as EMA 3.4.6 outside tournaments",
    ),
    nagashi_mangan=(
        True,
        f"{TH}: nagashi mangan is paid as a tsumo mangan instead of the noten payments",
    ),
    aka_dora=(1, f"{TH}: one red five per suit"),
    renhou=("none", f"{TH}: no renhou"),
    double_wind_pair_fu=(4, f"{TH}: a double wind pair is 4 fu"),
    substitute_rule=("none", "chosen: online play has no substitutes"),
    abortive_draws=(
        "counter",
        f"{TH}: an abortive draw (nine terminals, four winds, four riichi, four quads, triple"
        " ron) keeps the dealer and adds a counter",
    ),
    agari_yame=(
        "auto",
        f"{TH}: the all-last dealer who is top with 30,000 after a win or a tenpai draw ends"
        " the game",
    ),
    time_limit=("none", "chosen: online games have no session signal"),
    pao_ron_honba=(
        "liable",
        f"{TH}: when a liable player shares a ron with the discarder, the liable player pays"
        " the counters",
    ),
)

_WRC: dict[str, Entry] = _derive(
    {
        k: (v, f"chosen: as online play ({src})" if src.startswith(TH) else src)
        for k, (v, src) in _TENHOU.items()
    },
    multi_ron_honba=("each", "chosen: as EMA 2025 3.4.4"),
    pao_ron_honba=("discarder", "chosen: as EMA 2025 3.3.7"),
    result_rounding=("none", "chosen: tournament results are kept exact"),
    kiriage=(True, "chosen: as EMA 2025 4.1.2 (tournament practice)"),
    double_yakuman=(False, "chosen: as EMA 2025 4.2.6 (tournament practice)"),
    multi_ron_riichi=("own_back", "chosen: as EMA 2025 3.3.10"),
    nagashi_mangan=(False, "chosen: as EMA 2025 (tournament practice)"),
    chombo=({"mode": "penalty", "points": 20000}, "chosen: a tournament, as EMA 2025 3.4.6"),
    double_wind_pair_fu=(2, "chosen: as EMA 2025 4.1.1"),
    substitute_rule=("ema", "chosen: a tournament, as EMA 2025 7.3"),
    agari_yame=("none", "chosen: a tournament game is played to its end"),
    time_limit=("none", "chosen: the WRC time rule is not among the rule texts; no signal"),
)

PRESET_TABLE: dict[str, dict[str, Entry]] = {
    "ema-2025": _EMA,
    "wdmc-2019": _WDMC,
    "wdmc-2019-3p": _WDMC_3P,
    "ari-ari": _ARI_ARI,
    "san-diego": _SAN_DIEGO,
    "wrc-2025": _WRC,
    "tenhou": _TENHOU,
}

PRESET_VALUES: dict[str, dict[str, object]] = {
    pid: {k: v for k, (v, _src) in table.items()} for pid, table in PRESET_TABLE.items()
}
PRESET_SOURCES: dict[str, dict[str, str]] = {
    pid: {k: src for k, (_v, src) in table.items()} for pid, table in PRESET_TABLE.items()
}
