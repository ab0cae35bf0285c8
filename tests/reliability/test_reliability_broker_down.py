"""Asking for worker-built work (a seating plan) while the Celery broker is unreachable.

docs/reliability.md (Faults; open defect 6): with Redis down, requesting a seating plan
committed a "pending" plan no task would ever build and answered 500. Now the request is
refused with 503 and saves nothing; if the broker goes away between that check and the enqueue
after commit, the plan is marked failed. The broker is a real one: a closed loopback port, or
a private redis-server stopped mid-request; no code of ours is mocked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.places import NightPlace
from config.celery import app as celery_app
from core.models import AuditEntry
from tests.reliability.reliability_support import Event, RedisServer
from tournaments.models import SeatingPlan
from tournaments.services import request_seating_plan
from tournaments.services._common import QUEUE_UNREACHABLE
from tournaments.services.seating import NOT_QUEUED

pytestmark = pytest.mark.django_db

CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connections are refused


@contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """Send tasks to `url` for real (not eagerly), failing fast; everything restored after."""
    conf = celery_app.conf
    wanted: dict[str, Any] = {
        # broker_url alone would lose to a CELERY_BROKER_URL in the environment (CI sets one);
        # the read/write URLs are what connections use, and they take the setting first.
        "broker_url": url,
        "broker_read_url": url,
        "broker_write_url": url,
        "task_always_eager": False,
        "broker_connection_timeout": 1,
        "broker_connection_max_retries": 0,
        "task_publish_retry": False,
    }
    previous = {key: conf[key] for key in wanted}
    # The producer pool keeps connections to the URL it was built with: start without one and
    # drop the one built here, so other tests (and broker tests) get theirs back.
    pools = (celery_app._pool, celery_app.amqp._producer_pool)
    celery_app._pool = celery_app.amqp._producer_pool = None
    conf.update(wanted)
    try:
        yield
    finally:
        if celery_app._pool is not None:
            celery_app._pool.force_close_all()
        celery_app._pool, celery_app.amqp._producer_pool = pools
        conf.update(previous)


def plan_request_audit(event: Event) -> list[str]:
    return list(
        AuditEntry.objects.filter(tournament_id=event.tournament.pk, action__startswith="seating.")
        .order_by("id")
        .values_list("action", flat=True)
    )


def test_api_seating_request_with_broker_down_answers_503_and_saves_nothing(
    event: Event, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    url = f"/api/v1/tournaments/{event.tournament.slug}/seating-plans/"
    body = {"mode": "random", "seed": 3, "options": {"rounds": 1}}
    client = event.client("organiser")
    headers = {"HTTP_IDEMPOTENCY_KEY": "plan-1"}

    with celery_broker(CLOSED_PORT):
        refused = client.post(url, body, format="json", **headers)

    assert refused.status_code == 503, refused.content
    assert refused.json() == {"field": None, "message": QUEUE_UNREACHABLE, "errors": []}
    assert "background worker queue is unreachable" in QUEUE_UNREACHABLE
    assert not SeatingPlan.objects.filter(tournament=event.tournament).exists()
    assert plan_request_audit(event) == []  # no entry claims a request that was not taken
    # Nothing was stored under the Idempotency-Key either: the retry runs (tasks in-process).
    with django_capture_on_commit_callbacks(execute=True):
        retried = client.post(url, body, format="json", **headers)
    assert retried.status_code == 202, retried.content
    assert "Idempotent-Replayed" not in retried
    assert SeatingPlan.objects.get(pk=retried.json()["id"]).status == SeatingPlan.Status.DONE
    assert plan_request_audit(event) == ["seating.request"]


def test_console_seating_request_with_broker_down_flashes_the_message(event: Event) -> None:
    client = Client()
    client.force_login(event.organiser)
    url = reverse("tournaments:seating_console", kwargs={"slug": event.tournament.slug})

    with celery_broker(CLOSED_PORT):
        page = client.post(url, {"mode": "random", "seed": "3", "separate_by": ""})

    assert page.status_code == 503
    assert f'<li class="error">{QUEUE_UNREACHABLE}</li>' in page.content.decode()
    assert not SeatingPlan.objects.filter(tournament=event.tournament).exists()
    assert plan_request_audit(event) == []


def test_broker_lost_between_request_and_enqueue_marks_the_plan_failed(
    event: Event,
    private_redis: RedisServer,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with celery_broker(private_redis.url):
        with django_capture_on_commit_callbacks(execute=False) as after_commit:
            plan = request_seating_plan(actor=event.organiser, tournament=event.tournament)
        private_redis.stop()  # gone after the check, before the enqueue that follows the commit
        for callback in after_commit:
            callback()

    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.FAILED  # not "pending" forever
    assert plan.error == NOT_QUEUED
    assert plan_request_audit(event) == ["seating.request", "seating.fail"]


def test_penalty_entered_with_broker_down_marks_standings_stale_and_catch_up_repairs_them(
    event: Event, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """Issue 14.4: a 7,000-point penalty entered while the broker was down was committed, but
    its standings update was lost and nothing marked the standings stale, so the periodic
    catch-up never repaired them (the standings showed 1,000 while the database held 8,000).
    Now every writer queues through core.enqueue: a failed send marks the standings stale.
    EMA 2025 7.2: penalty points are deducted from the tournament total after uma."""
    from tournaments.models import StandingRow, Tournament
    from tournaments.services import add_penalty
    from tournaments.standings.tasks import rebuild_stale_standings

    tournament, player = event.tournament, event.players[0]
    with django_capture_on_commit_callbacks(execute=True):  # broker up (eager tasks)
        add_penalty(
            actor=event.referee,
            tournament=tournament,
            player=player,
            kind="other",
            points=1000,
            reason="mobile phone rang",
        )
    row = StandingRow.objects.get(tournament=tournament, player=player)
    assert row.penalties == 1000
    assert not Tournament.objects.get(pk=tournament.pk).standings_stale

    with celery_broker(CLOSED_PORT), django_capture_on_commit_callbacks(execute=True):
        add_penalty(
            actor=event.referee,
            tournament=tournament,
            player=player,
            kind="other",
            points=7000,
            reason="unsporting behaviour",
        )
    # Committed, not yet in the standings, and marked so: nothing is lost.
    assert sum(p.points for p in tournament.penalties.all()) == 8000
    assert StandingRow.objects.get(tournament=tournament, player=player).penalties == 1000
    assert Tournament.objects.get(pk=tournament.pk).standings_stale

    # The broker is back: the periodic catch-up rebuilds the stale standings.
    assert rebuild_stale_standings.delay().get() == 1
    row = StandingRow.objects.get(tournament=tournament, player=player)
    assert row.penalties == 8000
    assert not Tournament.objects.get(pk=tournament.pk).standings_stale


def test_club_game_finalized_with_broker_down_marks_ratings_stale_and_catch_up_rates_it(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """Issue 14.4, the ratings' side: a club game finished while the broker was down was
    committed, but its rating update was lost and nothing said so; the ratings stayed without
    it until someone rebuilt them by hand. Now the failed send marks the ratings stale
    (club.RatingsState) and the periodic catch-up rebuilds them. The broker is a real closed
    port; the game is played through the services as a club admin enters it (WDMC 2019: a
    club admin's hands need no confirmation, so the finished game counts at once)."""
    from club.models import Membership, Rating, RatingChange, RatingsState
    from club.ratings.tasks import rebuild_stale_ratings
    from scoring.models import Game
    from scoring.services import create_game, enter_hand, finalize_game
    from tests.factories import (
        ClubFactory,
        ClubNightFactory,
        MembershipFactory,
        PlayerFactory,
        UserFactory,
        non_dealer_rons,
    )

    club = ClubFactory(ruleset="wdmc-2019")
    night = ClubNightFactory(club=club)
    admin = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=admin), role=Membership.Role.ADMIN)
    players = PlayerFactory.create_batch(4)
    for player in players:
        MembershipFactory(club=club, player=player)

    def play_and_finish() -> Game:
        game = create_game(
            actor=admin, players=players, ruleset="wdmc-2019", place=NightPlace(night)
        )
        for hand in non_dealer_rons(8):
            game = enter_hand(actor=admin, game=game, hand=hand, expected_version=game.version).game
        return finalize_game(actor=admin, game=game, expected_version=game.version)

    def stale() -> bool:
        return RatingsState.objects.filter(stale=True).exists()

    with django_capture_on_commit_callbacks(execute=True):  # broker up (eager tasks)
        first = play_and_finish()
    assert RatingChange.objects.filter(game=first).count() == 4
    assert not stale()

    with celery_broker(CLOSED_PORT), django_capture_on_commit_callbacks(execute=True):
        second = play_and_finish()
    # Committed and counting, not yet rated, and marked so: nothing is lost.
    second.refresh_from_db()
    assert second.status == Game.Status.FINISHED and second.confirmed
    assert not RatingChange.objects.filter(game=second).exists()
    assert set(Rating.objects.filter(player__in=players).values_list("games", flat=True)) == {1}
    assert stale()

    # The broker is back: the periodic catch-up rebuilds the ratings with the second game.
    assert rebuild_stale_ratings.delay().get() == 1
    assert RatingChange.objects.filter(game=second).count() == 4
    assert set(Rating.objects.filter(player__in=players).values_list("games", flat=True)) == {2}
    assert not stale()
    assert rebuild_stale_ratings.delay().get() == 0  # nothing stale: nothing rebuilt
