"""Issue 15 over the API: a referee cannot change published results (the reported reopen,
delete-last-hand, refinalize and 10,000-point penalty), nor score a session not started."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring.models import Game
from scoring.services import enter_hand, finalize_game
from tests.api.conftest import World
from tests.factories import non_dealer_rons
from tournaments.models import Penalty, Session, Tournament

pytestmark = pytest.mark.django_db
G = "/api/v1/games"


def _publish(world: World) -> Game:
    game = world.game
    referee = world.user("referee")
    for hand in non_dealer_rons(8):
        game = enter_hand(actor=referee, game=game, hand=hand, expected_version=game.version).game
    game = finalize_game(actor=referee, game=game, expected_version=game.version)
    Session.objects.filter(pk=world.session.pk).update(
        status=Session.Status.CLOSED, closed_at=timezone.now()
    )
    Tournament.objects.filter(pk=world.tournament.pk).update(
        status=Tournament.Status.PUBLISHED, published_at=timezone.now()
    )
    return game


def test_referee_cannot_reopen_delete_refinalize_or_penalise_published_results(world):
    game = _publish(world)
    client = world.client("referee")
    version = game.version
    for method, url, body in [
        ("post", f"{G}/{game.pk}/reopen/", {"version": version, "reason": "again"}),
        ("delete", f"{G}/{game.pk}/hands/7/", {"version": version, "reason": "x"}),
        ("post", f"{G}/{game.pk}/finalize/", {"version": version}),
        (
            "put",
            f"{G}/{game.pk}/hands/7/",
            {"version": version, "reason": "x", "hand": {"outcome": "draw", "tenpai": []}},
        ),
    ]:
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 400, (url, response.json())
        assert response.json()["field"] == "session"
        assert "published" in response.json()["message"]
    response = client.post(
        f"/api/v1/tournaments/{world.tournament.slug}/penalties/",
        {
            "player": world.players[0].pk,
            "kind": "other",
            "points": 10000,
            "reason": "x",
        },
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "session"
    assert Game.objects.get(pk=game.pk).version == version
    assert not Penalty.objects.exists()


def test_no_hand_before_the_start_signal(world):
    Session.objects.filter(pk=world.session.pk).update(status=Session.Status.SEATED)
    response = world.client("referee").post(
        f"{G}/{world.game.pk}/hands/",
        {"version": 0, "hand": non_dealer_rons(1)[0]},
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "session"
    assert "has not started yet" in response.json()["message"]


def test_finalize_on_time_before_the_signal_is_an_organiser_override(world):
    """EMA 2025 7.4: the referee is refused before the time signal; the organiser may, with a
    reason."""
    Session.objects.filter(pk=world.session.pk).update(started_at=timezone.now())
    game = enter_hand(
        actor=world.user("referee"), game=world.game, hand=non_dealer_rons(1)[0], expected_version=0
    ).game
    url = f"{G}/{game.pk}/finalize/"
    response = world.client("referee").post(url, {"version": 1, "end": "time"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "end"
    response = world.client("organiser").post(
        url, {"version": 1, "end": "time", "reason": "evacuation"}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "finished"


def test_paper_sheet_chombo_over_the_api(world):
    """Issue 15 / EMA 2025 3.4.6: `"chombo": [seat, ...]` on final-scores, a seat may appear
    more than once; each is 20,000 deducted after uma."""
    response = world.client("referee").post(
        f"{G}/{world.game.pk}/final-scores/",
        {"version": 0, "scores": [40000, 30000, 30000, 20000], "chombo": [1, 1, 3]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    final = response.json()["summary"]["final"]
    assert final["penalties"] == [0, 40000, 0, 20000]
    # seat 1: 30,000 - 30,000 + tie 2nd/3rd uma 0 - 40,000; seat 3: -10,000 - 15,000 - 20,000
    assert final["result"] == [25000, -40000, 0, -45000]
    bad = world.client("referee").post(
        f"{G}/{world.game.pk}/final-scores/",
        {"version": 1, "scores": [40000, 30000, 30000, 20000], "chombo": [4]},
        format="json",
    )
    assert bad.status_code == 400 and "chombo" in str(bad.json())


def test_tie_breaks_and_qualification_only_over_the_api(world, django_capture_on_commit_callbacks):
    """Issue 15: organisers set the tie-breaks and qualification-only; the standings are
    recomputed at once; an unknown tie-break is refused naming the field."""
    from tournaments.models import StandingRow

    url = f"/api/v1/tournaments/{world.tournament.slug}/"
    body = {"tie_breaks": ["most_firsts", "head_to_head"], "qualification_only": True}
    assert world.client("referee").patch(url, body, format="json").status_code == 403
    with django_capture_on_commit_callbacks(execute=True) as queued:
        response = world.client("organiser").patch(url, body, format="json")
    assert response.status_code == 200, response.json()
    assert queued  # the standings recompute
    assert response.json()["tie_breaks"] == ["most_firsts", "head_to_head"]
    assert response.json()["qualification_only"] is True
    # Recomputed (eager tasks in tests): every registered player has a row with two values.
    rows = StandingRow.objects.filter(tournament=world.tournament)
    assert rows.count() == 4 and all(len(r.tie_break_values) == 2 for r in rows)
    bad = world.client("organiser").patch(url, {"tie_breaks": ["luck"]}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "tie_breaks"
