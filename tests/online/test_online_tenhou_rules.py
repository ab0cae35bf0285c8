"""Issue 36 item 5: a Tenhou log's own rules (start points, GO type flags, the return points
and uma its final results imply) go into the record as rule overrides, and the comparison
shows them. tests/online/data/README.md says where each log comes from."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from scoring.online import LogError, compare, parse_log

DATA = Path(__file__).parent / "data"
PRIVATE = (DATA / "constructed" / "tenhou-private-30000.mjlog").read_text(encoding="utf-8")


def test_a_ranked_lobby_log_starts_at_the_presets_25000_and_says_so():
    """A real phoenix-room game (GO type 169, lobby 0, INIT ten="250,..."): no override."""
    game = parse_log((DATA / "tenhou-west4.mjlog").read_bytes())
    assert "rules" not in game.record
    comparison = compare(game)
    assert comparison["ok"] and comparison["rules"] == {}
    assert comparison["matching"] == comparison["hands"] == len(game.record["hands"])


def test_a_private_lobby_log_at_30000_carries_its_start_points_and_matches_hand_by_hand():
    """INIT ten="300,300,300,300": start_points 30,000. The fourth player is left at exactly
    0 after hand 5 (Tenhou: 0 is not out) and the game ends in the next hand when they go
    below zero; from the preset's 25,000 our replay would end it far earlier (bust)."""
    game = parse_log(PRIVATE)
    assert game.record["rules"] == {"start_points": 30000}
    comparison = compare(game)
    assert comparison["ok"], comparison["mismatches"]
    assert comparison["hands"] == comparison["matching"] == 6
    assert comparison["rules"] == {"start_points": 30000}  # shown with the comparison
    assert game.site_scores[4] == [47700, 38600, 33700, 0]
    assert comparison["final"] == {
        "scores": [49000, 38600, 33700, -1300],
        "result": [38000, 19000, -6000, -51000],  # owari="490,38.0,386,19.0,337,-6.0,..."
    }
    # Without the log's start points the record is the one the issue saw refused.
    as_before = copy.deepcopy(game)
    as_before.record.pop("rules")
    refused = compare(as_before)
    assert not refused["ok"] and "(bust)" in refused["mismatches"][0]["error"]


def test_return_points_and_uma_follow_the_logs_own_final_results():
    """A lobby that returns at 35,000 (start + 5,000): the owari says so, and the record
    carries it; the preset's uma stays, as the owari agrees with it."""
    text = PRIVATE.replace(
        'owari="490,38.0,386,19.0,337,-6.0,-13,-51.0"',
        'owari="490,53.0,386,14.0,337,-11.0,-13,-56.0"',
    )
    game = parse_log(text)
    assert game.record["rules"] == {"start_points": 30000, "return_points": 35000}
    comparison = compare(game)
    assert comparison["ok"], comparison["mismatches"]
    assert comparison["final"]["result"] == [53000, 14000, -11000, -56000]


def test_final_results_no_rule_explains_are_shown_not_hidden():
    text = PRIVATE.replace('owari="490,38.0,', 'owari="490,37.0,').replace("-13,-51.0", "-13,-50.0")
    game = parse_log(text)
    assert game.record["rules"] == {"start_points": 30000}  # nothing fitted: preset kept
    comparison = compare(game)
    assert not comparison["ok"]
    assert comparison["mismatches"] == [
        {
            "hand": None,
            "what": "final result",
            "ours": [38000, 19000, -6000, -51000],
            "site": [37000, 19000, -6000, -50000],
        }
    ]


@pytest.mark.parametrize(
    ("go_type", "rules"),
    [
        (9, {}),  # human players, south game: the preset's rules
        (11, {"aka_dora": 0}),  # 0x02: no red fives
        (13, {"open_tanyao": False}),  # 0x04: no open all simples
        (15, {"aka_dora": 0, "open_tanyao": False}),
        (169, {}),  # 0x20 + 0x80: the phoenix room; a room level is no rule
        (233, {}),  # 0x40: fast; no rule either
        (8, {}),  # 0x01 off: against the computer
    ],
)
def test_go_type_flags_become_rule_overrides(go_type, rules):
    game = parse_log(PRIVATE.replace('<GO type="9"', f'<GO type="{go_type}"'))
    assert game.record["rules"] == {**rules, "start_points": 30000}


@pytest.mark.parametrize("go_type", [25, 17, 185])
def test_three_player_games_are_refused_by_name(go_type):
    with pytest.raises(LogError, match="three-player") as refused:
        parse_log(PRIVATE.replace('<GO type="9"', f'<GO type="{go_type}"'))
    assert f"GO type {go_type}" in str(refused.value)


@pytest.mark.parametrize("go_type", [1, 97, 161])
def test_a_go_type_without_0x08_is_an_east_only_game(go_type):
    game = parse_log(PRIVATE.replace('<GO type="9"', f'<GO type="{go_type}"'))
    assert game.record["rules"]["east_only"] is True


def test_a_real_east_only_private_lobby_log_from_30000_matches_tenhou():
    """A real Tenhou game (2023) from a private lobby with custom rules: GO type 257 (east
    only), INIT ten="300,300,300,300", csrule "...,30000,30000,30000,...,5,-5,-15,...",
    owari "293,-10.7,307,10.7,293,-10.7,307,10.7" (exact results, tied players share the
    uma). The log's start points, its east-only game and the return/uma/ties its results
    imply go into the record; every hand and the final result match Tenhou's."""
    game = parse_log((DATA / "private" / "tenhou-private-30000-east.mjlog").read_bytes())
    assert game.names == ["ジェバンニ", "サモエド３", "龍聖矢", "ronchan4"]
    assert game.record["rules"] == {
        "east_only": True,
        "start_points": 30000,
        "uma": [15000, 5000, -5000, -15000],  # csrule "5,-5,-15" for 2nd-4th; 1st +15
        "result_rounding": "none",
        "tie_break": "split",
    }
    comparison = compare(game)
    assert comparison["ok"], comparison["mismatches"]
    assert comparison["hands"] == comparison["matching"] == 4
    assert comparison["rules"] == game.record["rules"]
    assert comparison["final"] == {
        "scores": [29300, 30700, 29300, 30700],
        "result": [-10700, 10700, -10700, 10700],
    }
    # The reconnection tag in the middle (<UN n0=...> alone) does not rename anyone.
    assert len(game.record["hands"]) == 4


def test_the_tenhou6_json_carries_its_start_points_too():
    import json

    doc = {
        "name": ["Anna", "Ben", "Clara", "David"],
        "rule": {"disp": "般南喰赤", "aka": 1},
        "log": [
            [
                [0, 0, 0],
                [30000, 30000, 30000, 30000],
                [19],
                [],
                *([[]] * 12),
                [
                    "和了",
                    [5800, 0, 0, -5800],
                    [0, 3, 0, "30符3飜5800点", "断幺九(1飜)", "中(1飜)", "ドラ(1飜)"],
                ],
            ],
            [
                [0, 1, 0],
                [35800, 30000, 30000, 24200],
                [19],
                [],
                *([[]] * 12),
                ["流局", [0, 0, 0, 0]],
            ],
        ],
    }
    game = parse_log(json.dumps(doc))
    assert game.record["rules"] == {"start_points": 30000}
    assert compare(game)["matching"] == 1


@pytest.mark.django_db
def test_the_import_keeps_the_start_points_and_shows_them(tmp_path, capsys):
    """The command, the API answer and the web page show the rules the log stated; the game
    is imported finished from 30,000 (it was refused before: "the game was over after hand
    5 (bust)" in the issue's real log)."""
    from django.core.management import call_command
    from django.test import Client

    from club.models import Membership
    from scoring.models import Game
    from scoring.records import game_record
    from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

    club = ClubFactory(slug="private")
    members = [MembershipFactory(club=club, player=PlayerFactory()).player for _ in range(4)]
    names = ["Anna", "Ben", "Clara", "David"]
    path = tmp_path / "private.mjlog"
    path.write_text(PRIVATE, encoding="utf-8")
    maps = [f"--map={name}={members[i].pk}" for i, name in enumerate(names)]
    call_command("import_online_logs", str(path), "--club", "private", *maps)
    out = capsys.readouterr().out
    assert "6/6 hands match the site" in out
    assert "rules stated by the log: {'start_points': 30000}" in out
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED
    assert game_record(game)["rules"]["start_points"] == 30000

    user = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=user), role=Membership.Role.ADMIN)
    web = Client()
    web.force_login(user)
    again = PRIVATE.replace("<GO ", '<SHUFFLE seed="x" ref="web-2"/><GO ')
    page = web.post(f"/clubs/{club.slug}/online-import/", {"log_text": again}).content.decode()
    assert 'id="online-rules"' in page and "start_points: 30000" in page


def _chip_lobby_hand(paid: int) -> str:
    """One real-shaped hand of a chip lobby (GO type 553: chips add 8 numbers to sc): a
    non-dealer ron of 4 han 30 fu, paid ``paid``."""
    change = paid // 100
    return (
        '<mjloggm ver="2.3"><GO type="553" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/>'
        '<INIT seed="0,0,0,1,1,1" ten="250,250,250,250" oya="0"/>'
        f'<AGARI ba="0,0" ten="30,{paid},0" yaku="1,1,8,1,54,2" who="1" fromWho="2"'
        f' sc="250,0,250,{change},250,-{change},250,0,0,0,0,2,0,-2,0,0" />'
        f'<INIT seed="1,0,0,1,1,1" ten="250,{250 + change},{250 - change},250" oya="1"/>'
        "</mjloggm>"
    )


@pytest.mark.parametrize(("paid", "rules"), [(8000, {"kiriage": True}), (7700, {})])
def test_a_4_han_30_fu_hand_paid_as_a_mangan_says_the_lobby_rounds_up(paid, rules):
    """Tenhou's chip lobbies pay 4 han 30 fu as a mangan (kiriage); the ranked lobby 7,700.
    The chips' extra sc numbers are no points."""
    game = parse_log(_chip_lobby_hand(paid))
    assert game.record.get("rules", {}) == rules
    comparison = compare(game)
    assert comparison["ok"] and comparison["matching"] == 1, comparison["mismatches"]
