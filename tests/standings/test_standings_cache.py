"""Cached standings answers (tournaments/standings/cache.py): built once per change of the
rows, never stale after one, revalidated by ETag."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from standings_builders import make_players, make_tournament, register, ron, scores_game, set_scores

from club.services import update_player
from tournaments.models import Tournament
from tournaments.standings.services import recompute_standings, update_game_standings

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/spring-open/standings/"


def open_with_one_game() -> tuple[Tournament, list, object]:
    tournament = make_tournament(status=Tournament.Status.RUNNING)
    players = make_players(4)
    register(tournament, players)
    game = scores_game(tournament, 1, 1, players, [45000, 35000, 25000, 15000])
    recompute_standings(tournament_id=tournament.pk)
    return tournament, players, game


def totals(response) -> dict[str, int]:
    return {row["player"]["name"]: row["total"] for row in response.json()}


def test_a_repeated_read_does_not_read_the_rows_again() -> None:
    open_with_one_game()
    client = Client()
    first = client.get(URL)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(URL)
    assert second.content == first.content
    assert not any("standingrow" in q["sql"] for q in queries.captured_queries)


def test_a_finished_game_shows_at_once_after_the_one_game_update() -> None:
    tournament, players, game = open_with_one_game()
    client = Client()
    before = totals(client.get(URL))
    set_scores(game, [15000, 25000, 35000, 45000])
    update_game_standings(tournament_id=tournament.pk, game_id=game.pk)
    after = totals(client.get(URL))
    assert after != before
    assert after[str(players[3])] > after[str(players[0])]


def test_a_renamed_player_shows_under_the_new_name() -> None:
    _, players, _ = open_with_one_game()
    client = Client()
    client.get(URL)
    update_player(actor=None, player=players[0], last_name="Renamed")
    names = set(totals(client.get(URL)))
    assert f"{players[0].first_name} Renamed" in names


def test_etag_answers_304_until_the_standings_change() -> None:
    tournament, _, game = open_with_one_game()
    client = Client()
    first = client.get(URL)
    tag = first["ETag"]
    assert first["Cache-Control"] == "no-cache"
    unchanged = client.get(URL, HTTP_IF_NONE_MATCH=tag)
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    set_scores(game, [30000] * 4)
    recompute_standings(tournament_id=tournament.pk)
    changed = client.get(URL, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag


def test_the_web_table_follows_a_recompute() -> None:
    tournament, players, game = open_with_one_game()
    client = Client()
    page = client.get("/t/spring-open/standings/").content.decode()
    assert str(players[0]) in page
    before = client.get("/t/spring-open/standings/", HTTP_HX_REQUEST="true").content
    set_scores(game, [15000, 25000, 35000, 45000])
    recompute_standings(tournament_id=tournament.pk)
    after = client.get("/t/spring-open/standings/", HTTP_HX_REQUEST="true").content
    assert after != before
    assert str(players[0]).encode() in after


def test_a_revalidation_is_one_query_and_answers_as_a_full_read_does() -> None:
    """Issue 14.7 (bench/load.py): a phone revalidating its ETag is the most frequent request of
    a tournament; it reads the tournament's standings version and nothing else."""
    tournament, _, _ = open_with_one_game()
    client = Client()
    tag = client.get(URL)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        unchanged = client.get(URL, HTTP_IF_NONE_MATCH=tag)
    assert unchanged.status_code == 304
    tournament.refresh_from_db()  # the recompute renewed the version
    assert unchanged["ETag"] == tag == f'"standings-{tournament.standings_version}"'
    assert len(queries.captured_queries) == 1
    assert client.get(URL.replace("spring-open", "spring-opens")).status_code == 404
    assert client.get(URL.replace("spring-open", "Spring-Open")).status_code == 404
    # With a query string the same table and tag come back; the tournament list's filters
    # are the list's, not this object route's (core.api.filters): ignored here.
    for query in ("?format=json&year=2026", "?year=2025", "?year=2147483648.0"):
        again = client.get(f"{URL}{query}")
        assert again.status_code == 200, query
        assert again["ETag"] == tag
        assert again.content == client.get(URL).content


@pytest.mark.parametrize("query", ["", "?format=json"])
def test_a_draft_tournaments_standings_are_its_staffs_only(query: str) -> None:
    """The one draft-visibility rule (tournaments.selectors) on both ways a standings read looks
    the tournament up: anonymous and a stranger get 404, its referee the table."""
    from django.contrib.auth import get_user_model

    from tournaments.models import StaffRole

    tournament, _, _ = open_with_one_game()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.DRAFT)
    users = get_user_model().objects
    referee = users.create_user("draft-referee", password="x")
    StaffRole.objects.create(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    stranger = users.create_user("stranger", password="x")

    assert Client().get(URL + query).status_code == 404
    as_stranger = Client()
    as_stranger.force_login(stranger)
    assert as_stranger.get(URL + query).status_code == 404
    as_referee = Client()
    as_referee.force_login(referee)
    answer = as_referee.get(URL + query)
    assert answer.status_code == 200
    assert len(answer.json()) == 4


def test_the_api_answer_is_the_serializers_byte_for_byte() -> None:
    """Issue 14.7: the standings JSON is built from the rows read as tuples, each row's JSON
    after its rank kept per process (tournaments.api.serializers.standings_json), not through
    StandingRowSerializer; both give the same bytes on every kind of row: ranked and unranked
    (a substitute, EMA 2025 7.3), dropped, disqualified (EMA 2025 6.12), a chombo (EMA 2025
    3.4.6) and a tournament penalty (EMA 2025 7.2), no EMA number, a name beyond ASCII, a
    player without games; and again after rows changed only in rank, in a total, or in a name
    (the kept row JSON must not hide any of it)."""
    from rest_framework.renderers import JSONRenderer
    from standings_builders import hands_game

    from tournaments.api.serializers import StandingRowSerializer, standings_json
    from tournaments.models import Penalty, Registration, StandingRow
    from tournaments.standings.selectors import standings_for

    def serializer_bytes() -> bytes:
        rows = standings_for(tournament)
        return JSONRenderer().render(StandingRowSerializer(rows, many=True).data)

    tournament = make_tournament(status=Tournament.Status.RUNNING)
    a, b, c, d, sub = make_players(5)
    e, f = make_players(2, prefix="Ł", ema=False, start=5)
    f.first_name = ""
    f.save()
    register(tournament, [a, b, c, d, e, f])
    register(tournament, [sub], is_substitute=True)
    Registration.objects.filter(tournament=tournament, player=e).update(dropped_at=timezone.now())
    Registration.objects.filter(tournament=tournament, player=f).update(
        disqualified_at=timezone.now()
    )
    chombo = {"outcome": "chombo", "offender": 2, "riichi": []}
    hands_game(tournament, 1, 1, [a, b, c, d], [chombo, ron(0, 1, 3)])
    scores_game(tournament, 2, 1, [a, b, c, sub], [50500, 30000, 25000, 14500])
    Penalty.objects.create(
        tournament=tournament, player=b, kind="lateness", points=3000, minutes_late=3, reason="x"
    )
    recompute_standings(tournament_id=tournament.pk)

    rows = standings_for(tournament)
    assert {r.rank for r in rows} >= {None, 1}
    assert any(r.average_placement is None for r in rows)
    expected = serializer_bytes()
    assert standings_json(tournament) == expected
    assert standings_json(tournament) == expected  # the second time from the kept rows
    assert Client().get(URL).content == expected

    # Only the ranks move (as the one-game update shifts a band of rows), then a total, then
    # a name: each time the same bytes as the serializer's, not the kept rows of before.
    rows = StandingRow.objects.filter(tournament=tournament, rank__isnull=False)
    for row in rows:
        row.rank = 10 + (row.rank or 0)
    StandingRow.objects.bulk_update(rows, ["rank"])
    assert standings_json(tournament) == serializer_bytes() != expected
    StandingRow.objects.filter(tournament=tournament, player=a).update(total=123456)
    assert b"123456" in standings_json(tournament) == serializer_bytes()
    Player = type(a)
    Player.objects.filter(pk=c.pk).update(last_name="Żółw", ema_number="12345678")
    assert "Żółw".encode() in standings_json(tournament) == serializer_bytes()


def test_the_task_renders_the_new_table_for_its_first_readers() -> None:
    """Issue 14.7: the standings services render the API's JSON of the table they wrote, under
    the new version, so no reader (of four web processes at once) builds it: the first read of
    the new version reads no standings row."""
    tournament, players, game = open_with_one_game()
    set_scores(game, [15000, 25000, 35000, 45000])
    update_game_standings(tournament_id=tournament.pk, game_id=game.pk)
    with CaptureQueriesContext(connection) as queries:
        answer = Client().get(URL)
    assert not any("standingrow" in q["sql"] for q in queries.captured_queries)
    assert totals(answer)[str(players[3])] > totals(answer)[str(players[0])]
    recompute_standings(tournament_id=tournament.pk)  # the full rebuild renders it too
    with CaptureQueriesContext(connection) as queries:
        assert totals(Client().get(URL)) == totals(answer)
    assert not any("standingrow" in q["sql"] for q in queries.captured_queries)
