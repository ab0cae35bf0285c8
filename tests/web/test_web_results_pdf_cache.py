"""The public results.pdf is built once per standings version (issue 14, item 7): a PDF of 400
players takes seconds, and six concurrent builds stalled the standings reads."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.test_health import closed_port, redis_at
from tournaments import pdf
from tournaments.models import StandingRow, Tournament
from tournaments.standings import cache as standings_cache
from tournaments.standings.cache import touch

pytestmark = pytest.mark.django_db


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = pdf.final_results_pdf

    def counting(tournament: Tournament) -> bytes:
        calls.append(tournament.pk)
        return original(tournament)

    monkeypatch.setattr(pdf, "final_results_pdf", counting)
    return calls


def test_results_pdf_is_built_once_per_standings_version(
    client: Client, tournament: Any, builds: list[int]
) -> None:
    StandingRow.objects.create(tournament=tournament, player=PlayerFactory(), rank=1, total=9)
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    url = reverse("tournaments:results_pdf", args=[tournament.slug])
    first, second = client.get(url), client.get(url)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content and first.content.startswith(b"%PDF")
    assert len(builds) == 1
    touch(tournament.pk)  # the standings changed: a new version, a new PDF
    assert client.get(url).status_code == 200
    assert len(builds) == 2
    tournament.refresh_from_db()
    tournament.name = "Hamburg Open 2026"  # the heading changed: built again
    tournament.save()
    client.get(url)
    assert len(builds) == 3


def test_results_pdf_is_served_with_the_cache_down(
    client: Client, tournament: Any, builds: list[int]
) -> None:
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    url = reverse("tournaments:results_pdf", args=[tournament.slug])
    with override_settings(CACHES=redis_at(closed_port())):
        response = client.get(url)
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert len(builds) == 1


def test_concurrent_misses_build_the_results_pdf_once(
    tournament: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six requests miss the cache at once: one builds the PDF under the cache lock, the other
    five wait for it and serve its bytes. The builder holds until all five are waiting, so the
    test proves they were refused the lock, not that they came late."""
    requests = 6
    waiting: set[int] = set()
    changed = threading.Condition()
    builds: list[int] = []
    real_pause = standings_cache._pause

    def noted_pause(seconds: float) -> None:
        with changed:
            waiting.add(threading.get_ident())
            changed.notify_all()
        real_pause(seconds)

    def build() -> bytes:
        builds.append(threading.get_ident())
        with changed:  # a bound, not a timing: without the lock the other builders never wait
            changed.wait_for(lambda: len(waiting) >= requests - 1, timeout=30)
        return b"%PDF-built-by-" + str(threading.get_ident()).encode()

    monkeypatch.setattr(standings_cache, "_pause", noted_pause)
    start = threading.Barrier(requests)
    answers: list[bytes] = []

    def request() -> None:
        start.wait()
        answers.append(standings_cache.cached_built_once(tournament, "results-pdf-race", build))

    threads = [threading.Thread(target=request) for _ in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(builds) == 1
    assert len(waiting) == requests - 1 and builds[0] not in waiting
    assert len(answers) == requests and len(set(answers)) == 1
    assert answers[0] == b"%PDF-built-by-" + str(builds[0]).encode()
    # Built and released: the next reader is served from the cache, with no lock left behind.
    assert standings_cache.cached_built_once(tournament, "results-pdf-race", build) == answers[0]
    assert len(builds) == 1


def test_a_failed_build_releases_the_lock_for_the_next_request(
    tournament: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing() -> bytes:
        raise RuntimeError("weasyprint fell over")

    def no_waiting(seconds: float) -> None:
        raise AssertionError("waited for a lock that a failed build should have released")

    monkeypatch.setattr(standings_cache, "_pause", no_waiting)
    with pytest.raises(RuntimeError):
        standings_cache.cached_built_once(tournament, "results-pdf-fail", failing)
    assert standings_cache.cached_built_once(tournament, "results-pdf-fail", lambda: b"%PDF") == (
        b"%PDF"
    )


def test_with_the_cache_down_every_request_builds_its_own_pdf(tournament: Any) -> None:
    calls: list[int] = []

    def build() -> bytes:
        calls.append(1)
        return b"%PDF"

    with override_settings(CACHES=redis_at(closed_port())):
        for _ in range(2):
            assert standings_cache.cached_built_once(tournament, "results-pdf-down", build) == (
                b"%PDF"
            )
    assert len(calls) == 2
