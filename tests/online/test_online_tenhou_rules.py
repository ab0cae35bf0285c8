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


@pytest.mark.parametrize(
    ("go_type", "words"),
    [(1, "east-only"), (25, "three-player"), (17, "three-player"), (97, "east-only")],
)
def test_games_our_rules_cannot_play_are_refused_by_name(go_type, words):
    with pytest.raises(LogError, match=words) as refused:
        parse_log(PRIVATE.replace('<GO type="9"', f'<GO type="{go_type}"'))
    assert f"GO type {go_type}" in str(refused.value)


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
