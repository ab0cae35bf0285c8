"""Issue 32.2: a 32-player event cut to 16 after session 2, then to 4 after session 3, with the
points carried over and with a restart from zero; standings, EMA places, the finals' seating
and the cut API's errors.

Every game is a paper sheet under EMA 2025 rules: result = score - 30,000 + uma (EMA 2025 3.7:
+15,000 / +5,000 / -5,000 / -15,000). With the scores [45000, 32000, 25000, 18000] in seat
order the seats get +30,000 / +7,000 / -10,000 / -27,000.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from core.models import AuditEntry
from scoring.models import Game
from tests.factories import StaffRoleFactory, UserFactory
from tests.standings.standings_builders import make_players, make_tournament, register, scores_game
from tournaments.ema.export import result_lines
from tournaments.models import Cut, Seat, Session, StaffRole, StandingRow
from tournaments.standings.exports import standings_csv
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

STANDARD = [45000, 32000, 25000, 18000]  # +30,000 / +7,000 / -10,000 / -27,000
SECONDS = [38000, 32000, 31000, 19000]  # +23,000 / +7,000 / -4,000 / -26,000


def _organiser(tournament: Any) -> APIClient:
    user = UserFactory()
    StaffRoleFactory(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER)
    client = APIClient()
    client.force_authenticate(user)
    return client


def _fields(answer: Any) -> set[str]:
    """The fields a 400 names: a service's `field`, or DRF's keys."""
    body = answer.json()
    return {body["field"]} if "field" in body else set(body)


def _close(tournament: Any, number: int) -> None:
    Session.objects.filter(tournament=tournament, number=number).update(
        status=Session.Status.CLOSED
    )


def _first_two_sessions() -> tuple[Any, list[Any]]:
    """Session 1: table t seats players 4t..4t+3 (STANDARD). Session 2 seats the winners of
    session 1 together (tables 1-2), the seconds (3-4, SECONDS), thirds (5-6), fourths (7-8).

    Totals after session 2 (player: session 1 + session 2):
      0, 16: 30000 + 30000 = 60000    4, 20: 37000    8, 24: 20000    12, 28: 3000
      1, 17: 7000 + 23000 = 30000     5, 21: 14000    9, 25: 3000     13, 29: -19000
      2, 18: -10000 + 30000 = 20000   6, 22: -3000    10, 26: -20000  14, 30: -37000
      3, 19: -27000 + 30000 = 3000    7, 23: -20000   11, 27: -37000  15, 31: -54000
    """
    tournament = make_tournament(slug="cut-open", sessions_planned=5, status="running")
    players = make_players(32)
    register(tournament, players)
    for t in range(8):
        scores_game(tournament, 1, t + 1, players[4 * t : 4 * t + 4], STANDARD)
    groups = [[4 * t + place for t in range(8)] for place in range(4)]
    for place, group in enumerate(groups):
        for half in range(2):
            seated = [players[i] for i in group[4 * half : 4 * half + 4]]
            scores = SECONDS if place == 1 else STANDARD
            scores_game(tournament, 2, 2 * place + half + 1, seated, scores)
    _close(tournament, 1)
    _close(tournament, 2)
    recompute_standings(tournament_id=tournament.pk)
    return tournament, players


def _tables(tournament: Any, number: int, players: list[Any]) -> list[list[int]]:
    """The session's tables as player indices, East first."""
    index = {p.pk: i for i, p in enumerate(players)}
    tables: dict[int, list[int]] = {}
    for table, player_id in Seat.objects.filter(
        table__session__tournament=tournament, table__session__number=number
    ).values_list("table__number", "player_id"):
        tables.setdefault(table, []).append(index[player_id])
    return [tables[n] for n in sorted(tables)]


def _play(tournament: Any, number: int) -> None:
    """Every table of the session: STANDARD in seat order (East wins); then closed."""
    for game in Game.objects.filter(
        table__session__tournament=tournament, table__session__number=number
    ):
        game.entry = Game.Entry.FINAL_SCORES
        game.final_scores = STANDARD
        game.status = Game.Status.FINISHED
        game.summary = None
        game.save()
    _close(tournament, number)
    recompute_standings(tournament_id=tournament.pk)


def _ranks(tournament: Any, players: list[Any]) -> dict[int, tuple[int | None, int]]:
    index = {p.pk: i for i, p in enumerate(players)}
    return {
        index[pid]: (rank, total)
        for pid, rank, total in StandingRow.objects.filter(tournament=tournament).values_list(
            "player_id", "rank", "total"
        )
    }


# Out at the first cut (after session 2), in their order at it, the same whatever the later
# cuts carry: 9 and 25 (3000; best game 7000 lost the tie-break to the 30,000 of 12, 28, 3,
# 19), then -3000 (6, 22), -19000 (13, 29), -20000 (7, 23: best game 7000 before 10, 26:
# -10000), -37000 (14, 30, 11, 27: equal on every tie-break), -54000 (15, 31). Players level
# after every tie-break (they never met) share the place.
OUT_AT_FIRST_CUT = {
    9: (17, 3000), 25: (17, 3000),
    6: (19, -3000), 22: (19, -3000),
    13: (21, -19000), 29: (21, -19000),
    7: (23, -20000), 23: (23, -20000), 10: (25, -20000), 26: (25, -20000),
    14: (27, -37000), 30: (27, -37000), 11: (27, -37000), 27: (27, -37000),
    15: (31, -54000), 31: (31, -54000),
}  # fmt: skip

QUALIFIED_FIRST = {0, 16, 4, 20, 1, 17, 8, 24, 2, 18, 5, 21, 12, 28, 3, 19}


@pytest.mark.parametrize("carry_over", [True, False])
def test_cut_32_to_16_to_4(carry_over: bool) -> None:
    tournament, players = _first_two_sessions()
    client = _organiser(tournament)
    url = f"/api/v1/tournaments/{tournament.slug}/cut/"

    answer = client.post(
        url, {"after_session": 2, "top": 16, "carry_over": carry_over}, format="json"
    )
    assert answer.status_code == 201, answer.content
    cut = answer.json()
    index = {p.pk: i for i, p in enumerate(players)}
    assert {index[pid] for pid in cut["qualified"]} == QUALIFIED_FIRST
    # Six players on 3000 at places 13-18: the best game (30,000 against 7,000) decided.
    assert cut["line"]["decided_by"] == "best_game"
    assert index[cut["line"]["first_out"]["player"]] in (9, 25)
    assert len(cut["line"]["level_on_total"]) == 6
    assert AuditEntry.objects.filter(action="tournament.cut", tournament_id=tournament.pk).exists()

    # Session 3 seated at once, by standing: the order at the cut (rank, then player):
    # 0 16 | 4 20 | 1 17 | 2 8 18 24 (20000, level after every tie-break) | 5 21 | 3 12 19 28.
    assert _tables(tournament, 3, players) == [
        [0, 16, 4, 20],
        [1, 17, 2, 8],
        [18, 24, 5, 21],
        [3, 12, 19, 28],
    ]
    _play(tournament, 3)

    answer = client.post(
        url, {"after_session": 3, "top": 4, "carry_over": carry_over}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["line"]["decided_by"] == "total"
    finalists = {index[pid] for pid in answer.json()["qualified"]}

    if carry_over:
        # After session 3: 0 90000, 16 67000, 1 60000, 18 50000 | 17 37000, 3 33000, ...
        assert finalists == {0, 16, 1, 18}
        assert _tables(tournament, 4, players) == [[0, 16, 1, 18]]
        _play(tournament, 4)
        expected = {
            0: (1, 120000), 16: (2, 74000), 1: (3, 50000), 18: (4, 23000),
            # out at the second cut, in their order at it (totals after session 3)
            17: (5, 37000), 3: (6, 33000), 4: (7, 27000), 24: (7, 27000),
            20: (9, 10000), 2: (9, 10000), 12: (9, 10000), 5: (12, 4000),
            8: (13, -7000), 19: (13, -7000), 21: (15, -13000), 28: (16, -24000),
        }  # fmt: skip
    else:
        # Session 3 alone: the four table winners 0, 1, 18, 3 on 30000 (level on every
        # tie-break); the final table by their order at the cut, then player: 0, 1, 3, 18.
        assert finalists == {0, 1, 18, 3}
        assert _tables(tournament, 4, players) == [[0, 1, 3, 18]]
        _play(tournament, 4)
        expected = {
            0: (1, 30000), 1: (2, 7000), 3: (3, -10000), 18: (4, -27000),
            # out at the second cut: session 3 alone, each group level on every tie-break
            16: (5, 7000), 17: (5, 7000), 24: (5, 7000), 12: (5, 7000),
            4: (9, -10000), 2: (9, -10000), 5: (9, -10000), 19: (9, -10000),
            20: (13, -27000), 8: (13, -27000), 21: (13, -27000), 28: (13, -27000),
        }  # fmt: skip
    expected.update(OUT_AT_FIRST_CUT)
    assert _ranks(tournament, players) == expected

    rows = {index[r.player_id]: r for r in StandingRow.objects.filter(tournament=tournament)}
    assert {i for i, r in rows.items() if r.qualified} == finalists
    assert {i for i, r in rows.items() if r.out_after_session == 3} == QUALIFIED_FIRST - finalists
    assert {i for i, r in rows.items() if r.out_after_session == 2} == set(OUT_AT_FIRST_CUT)

    # The EMA results file ranks the whole field in the same order.
    by_name = {f"{p.first_name} {p.last_name}": i for i, p in enumerate(players)}
    places = {
        by_name[f"{line.first_name} {line.last_name}"]: line.place
        for line in result_lines(tournament)
    }
    assert places == {i: rank for i, (rank, _total) in expected.items()}

    # The standings API lists the finalists first, then the others in that order.
    listed = client.get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()
    rows_json = listed["results"] if isinstance(listed, dict) else listed
    assert [index[r["player"]["id"]] for r in rows_json[:4]] == sorted(
        finalists, key=lambda i: expected[i][0]
    )
    assert rows_json[0]["qualified"] is True and rows_json[4]["out_after_session"] == 3
    assert [r["rank"] for r in rows_json] == sorted(rank for rank, _ in expected.values())
    assert len(client.get(url).json()) == 2


def test_drawn_winds_keep_the_tables() -> None:
    tournament, players = _first_two_sessions()
    answer = _organiser(tournament).post(
        f"/api/v1/tournaments/{tournament.slug}/cut/",
        {"after_session": 2, "top": 16, "winds": "drawn", "seed": 7},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    drawn = _tables(tournament, 3, players)
    by_standing = [[0, 16, 4, 20], [1, 17, 2, 8], [18, 24, 5, 21], [3, 12, 19, 28]]
    assert [sorted(t) for t in drawn] == [sorted(t) for t in by_standing]
    assert drawn != by_standing  # seed 7 draws another East somewhere


def test_swiss_after_the_cut_seats_only_the_qualified() -> None:
    tournament, players = _first_two_sessions()
    answer = _organiser(tournament).post(
        f"/api/v1/tournaments/{tournament.slug}/cut/",
        {"after_session": 2, "top": 16, "seating": "swiss"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    tables = _tables(tournament, 3, players)
    assert len(tables) == 4
    assert {i for t in tables for i in t} == QUALIFIED_FIRST


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"after_session": 2, "top": 6}, "top"),  # not a multiple of 4
        ({"after_session": 2, "top": 32}, "top"),  # not smaller than the field
        ({"after_session": 2, "top": 36}, "top"),  # larger than the field
        ({"after_session": 2, "top": 0}, "top"),
        ({"after_session": 3, "top": 16}, "after_session"),  # no session 3
        ({"after_session": 2, "top": 16, "carry_over": "perhaps"}, "carry_over"),
        ({"after_session": 2, "top": 16, "winds": "north"}, "winds"),
        ({"top": 16}, "after_session"),
    ],
)
def test_cut_errors_name_the_field(body: dict, field: str) -> None:
    tournament, _players = _first_two_sessions()
    answer = _organiser(tournament).post(
        f"/api/v1/tournaments/{tournament.slug}/cut/", body, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert _fields(answer) == {field}, answer.json()
    assert not Cut.objects.filter(tournament=tournament).exists()


def test_unfinished_session_and_repeated_cut_are_refused() -> None:
    tournament, _players = _first_two_sessions()
    client = _organiser(tournament)
    url = f"/api/v1/tournaments/{tournament.slug}/cut/"
    Session.objects.filter(tournament=tournament, number=2).update(status=Session.Status.RUNNING)
    answer = client.post(url, {"after_session": 2, "top": 16}, format="json")
    assert answer.status_code == 400 and _fields(answer) == {"after_session"}
    assert "not finished" in answer.json()["message"]
    _close(tournament, 2)
    assert client.post(url, {"after_session": 2, "top": 16}, format="json").status_code == 201
    again = client.post(url, {"after_session": 2, "top": 8}, format="json")
    assert again.status_code == 400 and _fields(again) == {"after_session"}
    assert Cut.objects.filter(tournament=tournament).count() == 1


@pytest.mark.parametrize("role", ["anonymous", "player", "referee"])
def test_only_organisers_cut(role: str) -> None:
    tournament, _players = _first_two_sessions()
    client = APIClient()
    if role != "anonymous":
        user = UserFactory()
        if role == "referee":
            StaffRoleFactory(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
        client.force_authenticate(user)
    answer = client.post(
        f"/api/v1/tournaments/{tournament.slug}/cut/",
        {"after_session": 2, "top": 16},
        format="json",
    )
    assert answer.status_code in (401, 403)
    assert not Cut.objects.filter(tournament=tournament).exists()
    assert client.get(f"/api/v1/tournaments/{tournament.slug}/cut/").status_code == 200


def test_every_standings_view_shows_the_finalists_first() -> None:
    """Web page, projector and CSV read the same rows: the qualified first, marked, then the
    players out at the cut, marked with it."""
    tournament, _players = _first_two_sessions()
    client = _organiser(tournament)
    client.post(
        f"/api/v1/tournaments/{tournament.slug}/cut/",
        {"after_session": 2, "top": 16},
        format="json",
    )
    table = list(csv.reader(io.StringIO(standings_csv(tournament))))
    header = table[0]
    lines = [dict(zip(header, r, strict=True)) for r in table[1:]]
    assert [line["Qualified"] for line in lines] == ["yes"] * 16 + ["no"] * 16
    assert {line["Out after session"] for line in lines[16:]} == {"2"}
    assert [int(line["Rank"]) for line in lines[16:18]] == [17, 17]
    page = Client().get(f"/t/{tournament.slug}/standings/").content.decode()
    assert page.count("mark-qualified") == 16 and page.count("mark-cut") == 16
    projector = Client().get(f"/t/{tournament.slug}/standings/projector/").content.decode()
    assert "out at the cut after session 2" in projector


def test_console_cuts_the_field_and_names_the_field_at_fault() -> None:
    tournament, _players = _first_two_sessions()
    user = UserFactory()
    StaffRoleFactory(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER)
    web = Client()
    web.force_login(user)
    url = f"/t/{tournament.slug}/console/cuts/"
    form = {"after_session": 2, "top": 6, "seating": "standing", "winds": "standing", "seed": 0}
    refused = web.post(url, form)
    assert refused.status_code == 400 and "multiple of 4" in refused.content.decode()
    assert web.post(url, {**form, "top": 16, "carry_over": "on"}).status_code == 302
    cut = Cut.objects.get(tournament=tournament)
    assert cut.carry_over and len(cut.qualified_ids) == 16
    assert "best_game" in web.get(url).content.decode()
