"""Score entry over the API: hands, corrections, 409 on a stale version, idempotent retries."""

from __future__ import annotations

import pytest

from core.models import AuditEntry, IdempotencyRecord
from scoring.models import Game, Hand
from tests.api.conftest import client_for
from tests.factories import non_dealer_rons, ron

pytestmark = pytest.mark.django_db


def hands_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/hands/"


def test_add_hand_returns_game_with_summary_and_next_version(world):
    client = world.client("referee")
    response = client.post(
        hands_url(world.game),
        {"hand": ron(winner=1, loser=2, han=2, fu=30), "version": 0},
        format="json",
    )
    assert response.status_code == 201, response.data
    body = response.json()
    assert body["version"] == 1
    assert len(body["hands"]) == 1
    # 2 han 30 fu non-dealer ron = 2000 (game-record replay output).
    assert body["summary"]["hands"][0]["deltas"] == [0, 2000, -2000, 0]
    assert AuditEntry.objects.filter(game_id=world.game.pk, action__startswith="hand").exists()


def test_stale_version_is_409_with_the_current_game(world):
    client = world.client("referee")
    first = client.post(
        hands_url(world.game), {"hand": ron(winner=1, loser=2, han=2), "version": 0}, format="json"
    )
    assert first.status_code == 201
    # A second referee still on version 0 enters another hand: refused, not overwritten.
    stale = world.client("organiser").post(
        hands_url(world.game), {"hand": ron(winner=3, loser=0, han=1), "version": 0}, format="json"
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["current_version"] == 1
    assert body["current"]["version"] == 1
    assert len(body["current"]["hands"]) == 1
    assert body["current"]["summary"]["hands"][0]["deltas"] == [0, 2000, -2000, 0]
    assert "message" in body
    assert Hand.objects.filter(game=world.game).count() == 1


def test_idempotent_retry_applies_once_and_returns_the_same_answer(world):
    client = world.client("referee")
    payload = {"hand": ron(winner=1, loser=2, han=2), "version": 0}
    first = client.post(hands_url(world.game), payload, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    retry = client.post(hands_url(world.game), payload, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game=world.game).count() == 1
    assert Game.objects.get(pk=world.game.pk).version == 1
    assert IdempotencyRecord.objects.count() == 1


def test_idempotency_key_reused_with_another_body_is_422(world):
    client = world.client("referee")
    client.post(
        hands_url(world.game),
        {"hand": ron(winner=1, loser=2, han=2), "version": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-2",
    )
    other = client.post(
        hands_url(world.game),
        {"hand": ron(winner=3, loser=2, han=1), "version": 1},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-2",
    )
    assert other.status_code == 422
    assert other.json()["field"] == "Idempotency-Key"
    assert Hand.objects.filter(game=world.game).count() == 1


def test_idempotency_keys_are_per_user(world):
    payload = {"hand": ron(winner=1, loser=2, han=2), "version": 0}
    world.client("referee").post(
        hands_url(world.game), payload, format="json", HTTP_IDEMPOTENCY_KEY="same"
    )
    # Another user with the same key is a new request (here: stale version -> 409).
    answer = world.client("organiser").post(
        hands_url(world.game), payload, format="json", HTTP_IDEMPOTENCY_KEY="same"
    )
    assert answer.status_code == 409


def test_failed_request_is_not_stored_and_a_retry_runs_again(world):
    client = world.client("referee")
    bad = {
        "hand": {
            "outcome": "ron",
            "loser": 2,
            "wins": [{"winner": 1, "han": 1, "fu": 20}],
            "riichi": [],
        },
        "version": 0,
    }
    first = client.post(hands_url(world.game), bad, format="json", HTTP_IDEMPOTENCY_KEY="k-3")
    assert first.status_code == 400
    assert IdempotencyRecord.objects.count() == 0
    again = client.post(hands_url(world.game), bad, format="json", HTTP_IDEMPOTENCY_KEY="k-3")
    assert again.status_code == 400


def test_engine_error_names_the_field_and_saves_nothing(world):
    before = (Hand.objects.count(), AuditEntry.objects.count())
    # 1 han 20 fu by ron does not exist (game-record format: "Hands").
    response = world.client("referee").post(
        hands_url(world.game),
        {
            "hand": {
                "outcome": "ron",
                "loser": 2,
                "wins": [{"winner": 1, "han": 1, "fu": 20}],
                "riichi": [],
            },
            "version": 0,
        },
        format="json",
    )
    assert response.status_code == 400
    assert "fu" in response.json()["field"]
    assert (Hand.objects.count(), AuditEntry.objects.count()) == before
    assert Game.objects.get(pk=world.game.pk).version == 0


def test_correct_hand_needs_a_reason_and_audits_it(world):
    client = world.client("referee")
    client.post(
        hands_url(world.game), {"hand": ron(winner=1, loser=2), "version": 0}, format="json"
    )
    missing = client.put(
        f"{hands_url(world.game)}0/",
        {"hand": ron(winner=1, loser=2, han=3), "version": 1},
        format="json",
    )
    assert missing.status_code == 400
    assert "reason" in missing.json()
    fixed = client.put(
        f"{hands_url(world.game)}0/",
        {"hand": ron(winner=1, loser=2, han=3), "version": 1, "reason": "misread han"},
        format="json",
    )
    assert fixed.status_code == 200, fixed.data
    assert fixed.json()["hands"][0]["data"]["wins"][0]["han"] == 3
    assert AuditEntry.objects.filter(game_id=world.game.pk, reason="misread han").exists()


def test_delete_last_hand_only(world):
    client = world.client("referee")
    for version in (0, 1):
        client.post(
            hands_url(world.game),
            {"hand": ron(winner=1, loser=2), "version": version},
            format="json",
        )
    not_last = client.delete(
        f"{hands_url(world.game)}0/", {"version": 2, "reason": "typo"}, format="json"
    )
    assert not_last.status_code == 400
    assert not_last.json()["field"] == "number"
    deleted = client.delete(f"{hands_url(world.game)}1/?version=2&reason=typo")
    assert deleted.status_code == 200, deleted.data
    assert len(deleted.json()["hands"]) == 1


def test_preview_writes_nothing(world):
    response = world.client("referee").post(
        f"/api/v1/games/{world.game.pk}/preview/",
        {"hand": ron(winner=1, loser=2, han=2)},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["deltas"] == [0, 2000, -2000, 0]
    assert response.json()["scores"] == [30000, 32000, 28000, 30000]
    assert Hand.objects.count() == 0
    assert Game.objects.get(pk=world.game.pk).version == 0


def test_finalize_a_complete_game_then_record_export(world):
    client = world.client("referee")
    for version, hand in enumerate(non_dealer_rons(8)):
        answer = client.post(
            hands_url(world.game), {"hand": hand, "version": version}, format="json"
        )
        assert answer.status_code == 201, answer.data
    done = client.post(f"/api/v1/games/{world.game.pk}/finalize/", {"version": 8}, format="json")
    assert done.status_code == 200, done.data
    assert done.json()["status"] == "finished"
    record = world.client("anonymous").get(f"/api/v1/games/{world.game.pk}/record/")
    assert record.status_code == 200
    assert record.json()["format"] == "riichi-game-record/1"
    assert len(record.json()["hands"]) == 8


def test_final_scores_from_a_paper_sheet(world):
    response = world.client("referee").post(
        f"/api/v1/games/{world.game.pk}/final-scores/",
        {"scores": [40000, 30000, 25000, 25000], "version": 0},
        format="json",
    )
    assert response.status_code == 200, response.data
    assert response.json()["final_scores"] is not None


def test_final_scores_that_do_not_add_up_are_400(world):
    response = world.client("referee").post(
        f"/api/v1/games/{world.game.pk}/final-scores/",
        {"scores": [40000, 30000, 25000, 24000], "version": 0},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"]
    assert Game.objects.get(pk=world.game.pk).final_scores is None


def test_import_and_export_round_trip(world):
    record = {
        "format": "riichi-game-record/1",
        "ruleset": "wdmc-2019",
        "players": ["A", "B", "C", "D"],
        "hands": non_dealer_rons(8),
    }
    players = [seat.player_id for seat in world.club_game.seats.all()]
    response = client_for(world.club_member).post(
        "/api/v1/games/import/",
        {"record": record, "players": players, "club_night": world.night.pk},
        format="json",
    )
    assert response.status_code == 201, response.data
    exported = world.client("anonymous").get(f"/api/v1/games/{response.json()['id']}/record/")
    assert exported.json()["hands"] == record["hands"]


def test_only_an_organiser_or_a_seated_player_rates_a_club_game(world):
    """Issue 19: a member may not import a rated game for four other people; the refusal
    says why and writes nothing. A club organiser may."""
    from tests.factories import PlayerFactory

    record = {
        "format": "riichi-game-record/1",
        "ruleset": "wdmc-2019",
        "players": ["A", "B", "C", "D"],
        "hands": non_dealer_rons(8),
    }
    others = [PlayerFactory().pk for _ in range(4)]  # not seated, not even members
    games, audits = Game.objects.count(), AuditEntry.objects.count()
    body = {"record": record, "players": others, "club_night": world.night.pk, "finalize": True}
    refused = client_for(world.club_member).post("/api/v1/games/import/", body, format="json")
    assert refused.status_code == 403
    assert "seated at that game" in refused.json()["message"]
    created = client_for(world.club_member).post(
        "/api/v1/games/", {"club_night": world.night.pk, "players": others}, format="json"
    )
    assert created.status_code == 403
    assert (Game.objects.count(), AuditEntry.objects.count()) == (games, audits)
    allowed = client_for(world.club_admin).post("/api/v1/games/import/", body, format="json")
    assert allowed.status_code == 201, allowed.content
    assert allowed.json()["status"] == "finished"


def test_a_record_the_rules_have_not_ended_is_not_imported_as_finished(world):
    """A finished club game counts for ratings: only a record the rules ended (WDMC 2019
    3.0: after South 4) may be imported finished; nothing is written when refused."""
    record = {
        "format": "riichi-game-record/1",
        "ruleset": "wdmc-2019",
        "players": ["A", "B", "C", "D"],
        "hands": non_dealer_rons(3),
    }
    players = [seat.player_id for seat in world.club_game.seats.all()]
    games = Game.objects.count()
    body = {"record": record, "players": players, "club_night": world.night.pk}
    refused = client_for(world.club_member).post(
        "/api/v1/games/import/", {**body, "finalize": True}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["field"] == "finalize"
    assert "have not ended" in refused.json()["message"]
    assert Game.objects.count() == games
    kept_open = client_for(world.club_member).post(
        "/api/v1/games/import/", {**body, "finalize": False}, format="json"
    )
    assert kept_open.status_code == 201 and kept_open.json()["status"] != "finished"


def test_seated_players_confirm_club_hands_from_the_api(world):
    """Issue 19: a hand a seated member enters is marked unconfirmed until another player at
    the table confirms it (the club's setting: one)."""
    from tests.factories import UserFactory

    game = world.club_game
    entered = client_for(world.club_member).post(
        f"/api/v1/games/{game.pk}/hands/",
        {"hand": ron(winner=1, loser=2), "version": game.version},
        format="json",
    )
    assert entered.status_code == 201, entered.content
    body = entered.json()
    assert body["confirmed"] is False and body["hands"][0]["confirmed"] is False
    own = client_for(world.club_member).post(
        f"/api/v1/games/{game.pk}/hands/0/confirm/", {"version": body["version"]}, format="json"
    )
    assert own.status_code == 403 and "another player" in own.json()["message"]
    other = game.seats.get(seat=2).player
    other.user = UserFactory(username="seat-two")
    other.save()
    confirmed = client_for(other.user).post(
        f"/api/v1/games/{game.pk}/hands/0/confirm/", {"version": body["version"]}, format="json"
    )
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["confirmed"] is True
    assert confirmed.json()["hands"][0]["confirmed_by"] == [other.pk]


def _seated_user(game, seat: int, username: str):
    from tests.factories import UserFactory

    player = game.seats.get(seat=seat).player
    player.user = UserFactory(username=username)
    player.save()
    return player


def test_a_club_member_alone_cannot_confirm_paper_scores_or_a_finish_from_the_api(world):
    """Issue 30.3: paper final scores and the finish a seated member (no club admin) enters
    wait for another player at the table, as a hand does (issue 19); until then the game is
    unconfirmed and not rated. The member cannot confirm them himself."""
    game = world.club_game
    member = client_for(world.club_member)
    sheet = member.post(
        f"/api/v1/games/{game.pk}/final-scores/",
        {"version": game.version, "scores": [45000, 35000, 25000, 15000]},
        format="json",
    )
    assert sheet.status_code == 200, sheet.content
    assert sheet.json()["confirmed"] is False
    assert sheet.json()["entry_confirmed"] is False
    finished = member.post(
        f"/api/v1/games/{game.pk}/finalize/", {"version": sheet.json()["version"]}, format="json"
    )
    assert finished.status_code == 200, finished.content
    body = finished.json()
    assert body["status"] == "finished" and body["confirmed"] is False
    stored = Game.objects.get(pk=game.pk)
    assert (stored.confirmed, stored.entry_confirmed) == (False, False)
    assert stored.entered_by_id == world.club_member.pk
    own = member.post(f"/api/v1/games/{game.pk}/confirm/", {"version": body["version"]})
    assert own.status_code == 403 and "another player" in own.json()["message"]
    other = _seated_user(game, 2, "seat-two")
    confirmed = client_for(other.user).post(
        f"/api/v1/games/{game.pk}/confirm/", {"version": body["version"]}, format="json"
    )
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["confirmed"] is True and confirmed.json()["entry_confirmed"] is True
    assert confirmed.json()["confirmed_by"] == [other.pk]
    again = client_for(other.user).post(
        f"/api/v1/games/{game.pk}/confirm/", {"version": confirmed.json()["version"]}
    )
    assert again.status_code == 400 and again.json()["field"] == "game"


def test_a_club_member_finishing_a_hand_game_alone_waits_for_the_table(world):
    """Issue 30.3: the hands are confirmed by another player, then the member alone ends the
    game on time: that finish waits too; a club admin's finish needs no confirmation."""
    game = world.club_game
    member = client_for(world.club_member)
    other = _seated_user(game, 2, "seat-two")
    version = game.version
    for hand in non_dealer_rons(2):
        entered = member.post(
            f"/api/v1/games/{game.pk}/hands/", {"hand": hand, "version": version}, format="json"
        )
        assert entered.status_code == 201, entered.content
        version = entered.json()["version"]
    for number in range(2):
        confirmed = client_for(other.user).post(
            f"/api/v1/games/{game.pk}/hands/{number}/confirm/", {"version": version}
        )
        assert confirmed.status_code == 200, confirmed.content
        version = confirmed.json()["version"]
    assert confirmed.json()["confirmed"] is True
    finished = member.post(
        f"/api/v1/games/{game.pk}/finalize/", {"version": version, "end": "time"}, format="json"
    )
    assert finished.status_code == 200, finished.content
    assert finished.json()["confirmed"] is False
    reopened = client_for(world.club_admin).post(
        f"/api/v1/games/{game.pk}/reopen/",
        {"version": finished.json()["version"], "reason": "checking"},
        format="json",
    )
    assert reopened.status_code == 200, reopened.content
    by_admin = client_for(world.club_admin).post(
        f"/api/v1/games/{game.pk}/finalize/",
        {"version": reopened.json()["version"], "end": "time"},
        format="json",
    )
    assert by_admin.status_code == 200, by_admin.content
    assert by_admin.json()["confirmed"] is True and by_admin.json()["entry_confirmed"] is True
