"""Concurrent edits never silently overwrite; retried POSTs apply once.

On PostgreSQL the two requests really run at once (threads, each with its own connection and
transaction, released together by a barrier). On SQLite, whose in-memory test database cannot
take concurrent writers, they run one after the other: the version check must still let exactly
one through.
"""

from __future__ import annotations

import functools
import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from core.models import AuditEntry, IdempotencyRecord
from scoring.models import Game, Hand
from scoring.services import correct_hand, enter_hand
from tests.factories import ron, tsumo
from tests.reliability.reliability_support import Event, make_event, on_postgresql

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("reliability")]

# The test client's response (an HttpResponse with .json()); typed loosely on purpose.
Response = Any
Request = Callable[[], Response]


def run_together(*requests: Request) -> list[Response]:
    """Run the requests at the same moment (threads on PostgreSQL, in turn on SQLite)."""
    if not on_postgresql():
        return [request() for request in requests]
    barrier = threading.Barrier(len(requests))
    results: list[Any] = [None] * len(requests)

    def run(index: int, request: Request) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = request()
        except BaseException as error:  # surfaced below, in the test's thread
            results[index] = error
        finally:
            connection.close()  # this thread's own connection

    threads = [
        threading.Thread(target=run, args=(i, request)) for i, request in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def hands_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/hands/"


def enter(event: Event, game: Game, hand: dict[str, Any], version: int) -> Response:
    response = event.client().post(
        hands_url(game), {"version": version, "hand": hand}, format="json"
    )
    assert response.status_code == 201, response.content
    return response


@pytest.fixture
def event(db: None) -> Event:
    return make_event(tables=1, slug="concurrency-open")


def test_two_referees_correcting_the_same_hand_one_wins_one_gets_409(event: Event) -> None:
    game = event.games[0]
    enter(event, game, ron(winner=1, loser=2, han=1, fu=30), version=0)
    url = f"/api/v1/games/{game.pk}/hands/0/"
    first = ron(winner=1, loser=2, han=3, fu=30)
    second = ron(winner=1, loser=3, han=2, fu=40)
    organiser, referee = event.client("organiser"), event.client("referee")

    responses = run_together(
        lambda: organiser.put(
            url, {"version": 1, "hand": first, "reason": "han miscounted"}, format="json"
        ),
        lambda: referee.put(
            url, {"version": 1, "hand": second, "reason": "wrong loser"}, format="json"
        ),
    )

    codes = sorted(r.status_code for r in responses)
    assert codes == [200, 409], [r.content for r in responses]
    winner = next(r for r in responses if r.status_code == 200)
    loser = next(r for r in responses if r.status_code == 409)
    # The 409 carries the state the winner wrote, so the loser can reload and decide.
    assert loser.json()["current"]["version"] == 2
    assert loser.json()["current_version"] == 2
    game.refresh_from_db()
    assert game.version == 2
    stored = Hand.objects.get(game=game, number=0).data
    assert stored == winner.json()["hands"][0]["data"]
    assert stored in (first, second)
    assert AuditEntry.objects.filter(game_id=game.pk, action="hand.correct").count() == 1


def test_two_referees_entering_the_next_hand_at_once_only_one_is_stored(event: Event) -> None:
    game = event.games[0]
    url = hands_url(game)
    organiser, referee = event.client("organiser"), event.client("referee")

    responses = run_together(
        lambda: organiser.post(
            url, {"version": 0, "hand": ron(winner=1, loser=2, han=2)}, format="json"
        ),
        lambda: referee.post(url, {"version": 0, "hand": tsumo(winner=3, han=1)}, format="json"),
    )

    assert sorted(r.status_code for r in responses) == [201, 409], [r.content for r in responses]
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == 1
    assert AuditEntry.objects.filter(game_id=game.pk, action="hand.add").count() == 1


def test_retried_post_with_the_same_idempotency_key_applies_once(event: Event) -> None:
    game = event.games[0]
    client = event.client()
    key = str(uuid.uuid4())
    body = {"version": 0, "hand": ron(winner=2, loser=0, han=3, fu=30)}

    first = client.post(hands_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    retry = client.post(hands_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    assert first.status_code == 201, first.content
    assert retry.status_code == 201
    assert retry["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == 1
    assert IdempotencyRecord.objects.filter(key=key).count() == 1


def test_same_key_reused_for_another_body_is_refused_and_applies_nothing(event: Event) -> None:
    game = event.games[0]
    client = event.client()
    key = str(uuid.uuid4())
    client.post(
        hands_url(game),
        {"version": 0, "hand": ron(winner=2, loser=0, han=3)},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    other = client.post(
        hands_url(game),
        {"version": 1, "hand": ron(winner=3, loser=0, han=1)},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert other.status_code == 422
    assert other.json()["field"] == "Idempotency-Key"
    assert Hand.objects.filter(game=game).count() == 1


def test_the_same_retry_sent_twice_at_once_applies_once(event: Event) -> None:
    """A phone that times out and resends while the first request is still running."""
    game = event.games[0]
    key = str(uuid.uuid4())
    body = {"version": 0, "hand": ron(winner=1, loser=3, han=4, fu=30)}
    first, second = event.client(), event.client()

    responses = run_together(
        lambda: first.post(hands_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=key),
        lambda: second.post(hands_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=key),
    )

    codes = sorted(r.status_code for r in responses)
    # One applies; the other is either the replayed answer or a conflict to retry.
    assert codes in ([201, 201], [201, 409]), [r.content for r in responses]
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == 1
    assert AuditEntry.objects.filter(game_id=game.pk, action="hand.add").count() == 1


def test_many_referees_racing_on_one_game_lose_no_update(event: Event) -> None:
    """Eight clients each try to enter the next hand from the version they read; every
    accepted hand is stored, every refused one is a 409, and versions count the hands."""
    game = event.games[0]
    clients = [event.client() for _ in range(8)]
    accepted = 0
    for _round in range(3):
        version = Game.objects.get(pk=game.pk).version
        responses = run_together(
            *[
                functools.partial(
                    client.post,
                    hands_url(game),
                    {"version": version, "hand": ron(winner=(i % 3) + 1, loser=0, han=1)},
                    format="json",
                )
                for i, client in enumerate(clients)
            ]
        )
        codes = [r.status_code for r in responses]
        assert set(codes) <= {201, 409}, [r.content for r in responses if r.status_code >= 500]
        assert codes.count(201) == 1
        accepted += 1
    game.refresh_from_db()
    assert Hand.objects.filter(game=game).count() == accepted == game.version


def test_racing_on_two_versions_every_loser_gets_409_with_the_current_game(event: Event) -> None:
    """Issue 30.2: eight hand POSTs at once, half from version v and half from v + 1. A request
    for v + 1 that waited on the game's lock while a v request entered its hand must count the
    hands after the lock (not as its locking statement saw them before the wait): it enters the
    next hand, or is a 409; never a 500 on the hand number."""
    game = event.games[0]
    clients = [event.client() for _ in range(8)]
    for _round in range(4):
        version = Game.objects.get(pk=game.pk).version
        responses = run_together(
            *[
                functools.partial(
                    client.post,
                    hands_url(game),
                    {"version": version + i % 2, "hand": ron(winner=(i % 3) + 1, loser=0, han=1)},
                    format="json",
                )
                for i, client in enumerate(clients)
            ]
        )
        codes = [r.status_code for r in responses]
        assert set(codes) <= {201, 409}, [
            r.content[:300] for r in responses if r.status_code >= 500
        ]
        assert 1 <= codes.count(201) <= 2
        game.refresh_from_db()
        assert Hand.objects.filter(game=game).count() == game.version
        assert game.version == version + codes.count(201)
        for loser in (r for r in responses if r.status_code == 409):
            current = loser.json()["current"]
            assert loser.json()["current_version"] == current["version"]
            # The game as one write committed it: the answer reads it under the game's lock.
            assert len(current["hands"]) == current["version"]
            assert version <= current["version"] <= game.version


# --- the answer to a lost race is one committed state ----------------------------------------


class WriteWhileAnswering:
    """Lands `write` (another referee's entry, on its own thread and connection) at the worst
    moment of a request that lost a race: when, after the request's locking statement (its
    service's lock_game, which found the version stale), the request first reads the game's
    hands for its 409 answer. Installed on the test thread's connection as an execute wrapper.

    The write waits for the game's lock at most `lock_timeout`: while the answer holds the lock
    (the fix) the write is refused with the database's lock error and rolled back; without it
    the write commits between the answer's statements."""

    def __init__(self, write: Request) -> None:
        self.write = write
        self.hand_table = f'"{Hand._meta.db_table}"'
        self.locked = False
        self.fired = False
        self.outcome: Any = None

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if "FOR UPDATE" in sql:
            self.locked = True
        elif self.locked and not self.fired and self.hand_table in sql:
            self.fired = True
            thread = threading.Thread(target=self._run)
            thread.start()
            thread.join(timeout=60)
        return execute(sql, params, many, context)

    def _run(self) -> None:
        try:
            with connection.cursor() as cursor:  # this thread's own connection
                cursor.execute("SET lock_timeout = '200ms'")
            self.outcome = self.write()
        except BaseException as error:  # the lock refused: the write rolled back
            self.outcome = error
        finally:
            connection.close()


def enter_directly(event: Event, game: Game, hand: dict[str, Any], *, version: int) -> Game:
    """The organiser enters a hand through the service (not a request: the test client would
    take another thread's request error for its own)."""
    return enter_hand(
        actor=event.organiser,
        game=Game.objects.get(pk=game.pk),
        hand=hand,
        expected_version=version,
    ).game


@pytest.mark.skipif(not on_postgresql(), reason="needs a second connection (PostgreSQL)")
def test_the_409_answer_is_the_game_as_one_write_left_it(event: Event) -> None:
    """A referee loses the race for hand 0; while their 409 answer is read, a third referee
    enters hand 1. The answer is one committed state: the version, the hands and the summary
    agree (the phone rebases its queue on `current.version` and `len(current.hands)`,
    static/js/offline-queue.js), and `current_version` is that state's version."""
    game = event.games[0]
    first = ron(winner=1, loser=2, han=2)
    enter(event, game, first, version=0)
    writer = WriteWhileAnswering(lambda: enter_directly(event, game, tsumo(winner=3), version=1))

    with connection.execute_wrapper(writer):
        lost = event.client().post(
            hands_url(game), {"version": 0, "hand": tsumo(winner=2, han=3)}, format="json"
        )

    assert writer.fired
    assert lost.status_code == 409, lost.content
    current = lost.json()["current"]
    assert lost.json()["current_version"] == current["version"]
    assert len(current["hands"]) == current["version"] == len(current["summary"]["hands"])
    assert current["hands"][0]["data"] == first  # the winner's hand
    stored = Hand.objects.filter(game=game).count()
    # The third entry waited for the answer's lock and was refused (or it landed first, and
    # the answer shows it): never half of it.
    assert current["version"] == stored == Game.objects.get(pk=game.pk).version


@pytest.mark.skipif(not on_postgresql(), reason="needs a second connection (PostgreSQL)")
def test_the_409_page_shows_the_table_its_form_version_belongs_to(event: Event) -> None:
    """The entry page's answer to a lost race (scoring.views.hands._conflict): the table it
    shows and the expected_version its form carries are one committed state, so confirming
    again enters the hand after the table the referee sees."""
    game = event.games[0]
    enter(event, game, ron(winner=1, loser=2, han=2), version=0)
    writer = WriteWhileAnswering(lambda: enter_directly(event, game, tsumo(winner=3), version=1))
    page = Client()
    page.force_login(event.referee)
    stale = {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "3",
        "fu_1": "30",
        "expected_version": "0",
    }

    with connection.execute_wrapper(writer):
        response = page.post(reverse("scoring:add_hand", args=[game.pk]), stale)

    assert writer.fired
    assert response.status_code == 409
    shown = response.context["state"]
    version = int(response.context["form"]["expected_version"].value())
    assert len(shown.hands) == version == Hand.objects.filter(game=game).count()


@pytest.mark.skipif(not on_postgresql(), reason="needs a second connection (PostgreSQL)")
def test_the_409_correction_page_is_the_game_as_one_write_left_it(event: Event) -> None:
    """The hand-correction page's answer to a lost race (scoring.views.hands._edit_conflict)
    reads under the game's lock as the API's 409 does (settled_game): a referee's correction
    of hand 1 loses to another one; while the page is read, a third referee enters the next
    hand. The page shows the hand as the winner recorded it, and the version its form carries
    and the hands it counts are one committed state, so saving again corrects what it shows."""
    game = event.games[0]
    enter(event, game, ron(winner=1, loser=2, han=2), version=0)
    won = ron(winner=1, loser=3, han=3)
    correct_hand(
        actor=event.organiser,
        game=Game.objects.get(pk=game.pk),
        number=0,
        hand=won,
        expected_version=1,
        reason="wrong loser",
    )
    writer = WriteWhileAnswering(lambda: enter_directly(event, game, tsumo(winner=3), version=2))
    page = Client()
    page.force_login(event.referee)
    stale = {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "4",
        "fu_1": "30",
        "expected_version": "1",
        "reason": "han miscounted",
    }

    with connection.execute_wrapper(writer):
        response = page.post(reverse("scoring:edit_hand", args=[game.pk, 1]), stale)

    assert writer.fired
    assert response.status_code == 409
    assert response.context["editing"]["data"] == won  # the hand as it is recorded now
    version = int(response.context["form"]["expected_version"].value())
    hands = response.context["number"] + response.context["later"]
    stored = Game.objects.get(pk=game.pk)
    # The third entry waited for the page's lock and was refused (or it landed first, and the
    # page shows it): never the version of one state with the hands of another.
    assert (version, hands) == (stored.version, Hand.objects.filter(game=game).count())
