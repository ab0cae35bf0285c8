"""Game and hand writes: version checks, audit, engine replay, nothing saved half-way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from club.places import NightPlace
from core.audit import audit_for_game, audit_for_tournament
from core.errors import ConflictError, PermissionDenied, ValidationFailed
from scoring.models import Game, Hand
from scoring.services import (
    correct_hand,
    create_game,
    delete_last_hand,
    enter_final_scores,
    enter_hand,
    finalize_game,
    game_record,
    import_game_record,
    preview,
    reopen_game,
)
from tests.factories import (
    ClubNightFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    StaffRoleFactory,
    TableFactory,
    UserFactory,
    chombo,
    draw,
    non_dealer_rons,
    ron,
    tsumo,
)
from tournaments.models import StaffRole
from tournaments.places import TablePlace

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(referee):
    table = TableFactory()
    StaffRoleFactory(tournament=table.session.tournament, user=referee, role="referee")
    return GameFactory(table=table)


def test_create_game_seats_players_and_audits(referee):
    table = TableFactory()
    StaffRoleFactory(tournament=table.session.tournament, user=referee)
    players = PlayerFactory.create_batch(4)
    game = create_game(actor=referee, players=players, ruleset="ema-2025", place=TablePlace(table))
    assert [s.player for s in game.seats.order_by("seat")] == players
    assert game.summary["next"]["round"] == "E1"
    entry = audit_for_game(game.pk).get()
    assert entry.action == "game.create" and entry.before is None
    assert entry.tournament_id == table.session.tournament_id


def test_create_game_bad_input_names_field_and_saves_nothing(referee):
    table = TableFactory()
    StaffRoleFactory(tournament=table.session.tournament, user=referee)
    with pytest.raises(ValidationFailed) as err:
        create_game(
            actor=referee,
            players=PlayerFactory.create_batch(3),
            ruleset="ema-2025",
            place=TablePlace(table),
        )
    assert err.value.field == "players"
    with pytest.raises(ValidationFailed) as err:
        create_game(
            actor=referee,
            players=PlayerFactory.create_batch(4),
            ruleset="ema-2025",
            rule_overrides={"uma": [1, 2]},
            place=TablePlace(table),
        )
    assert err.value.field == "rules.uma"
    with pytest.raises(ValidationFailed) as err:
        create_game(
            actor=referee,
            players=PlayerFactory.create_batch(4),
            ruleset="nope",
            place=TablePlace(table),
        )
    assert err.value.field == "ruleset"
    assert not Game.objects.exists()


def test_add_hand_replays_bumps_version_and_audits(game, referee):
    game = enter_hand(
        actor=referee, game=game, hand=ron(winner=1, loser=2, han=3, fu=30), expected_version=0
    ).game
    assert game.version == 1
    assert game.summary["hands"][0]["deltas"] == [0, 3900, -3900, 0]
    assert game.summary["next"]["dealer"] == 1
    entry = audit_for_game(game.pk).get(action="hand.add")
    assert entry.actor == referee
    assert entry.before["hands"] == 0 and entry.after["hands"] == 1
    assert entry.after["hand"]["data"]["wins"][0]["han"] == 3
    assert entry.tournament_id == game.table.session.tournament_id
    assert audit_for_tournament(entry.tournament_id).filter(action="hand.add").count() == 1


def test_invalid_hand_names_the_field_and_saves_nothing(game, referee):
    with pytest.raises(ValidationFailed) as err:
        enter_hand(
            actor=referee, game=game, hand=ron(winner=1, loser=2, han=1, fu=20), expected_version=0
        )
    assert err.value.field == "wins[0].fu"
    assert err.value.errors[0]["hand"] == 0
    game.refresh_from_db()
    assert game.version == 0 and not game.hands.exists()
    assert not audit_for_game(game.pk).filter(action="hand.add").exists()


def test_hand_must_be_an_object_with_outcome(game, referee):
    with pytest.raises(ValidationFailed) as err:
        enter_hand(actor=referee, game=game, hand={"riichi": []}, expected_version=0)
    assert err.value.field == "outcome"


def test_stale_version_is_a_conflict_with_current_version(game, referee):
    enter_hand(actor=referee, game=game, hand=draw(tenpai=[0]), expected_version=0)
    with pytest.raises(ConflictError) as err:
        enter_hand(actor=referee, game=game, hand=draw(tenpai=[0]), expected_version=0)
    assert err.value.current_version == 1
    assert Hand.objects.filter(game=game).count() == 1


def test_two_writers_on_the_same_version_exactly_one_wins(game, referee):
    """Two referees read version 0 and both submit: one hand is stored, the other conflicts."""
    writer_a = Game.objects.get(pk=game.pk)
    writer_b = Game.objects.get(pk=game.pk)
    outcomes = []
    for stale, hand in (
        (writer_a, ron(winner=1, loser=0, han=2, fu=30)),
        (writer_b, tsumo(winner=3, han=1, fu=30)),
    ):
        try:
            enter_hand(actor=referee, game=stale, hand=hand, expected_version=0)
            outcomes.append("saved")
        except ConflictError as err:
            assert err.current_version == 1
            outcomes.append("conflict")
    assert outcomes == ["saved", "conflict"]
    stored = Hand.objects.get(game=game)
    assert stored.data["outcome"] == "ron"
    assert Game.objects.get(pk=game.pk).version == 1


def test_correct_hand_replays_later_hands_and_audits_before_after(game, referee):
    g = enter_hand(
        actor=referee, game=game, hand=ron(winner=1, loser=2, han=1, fu=30), expected_version=0
    ).game
    g = enter_hand(
        actor=referee, game=g, hand=ron(winner=2, loser=3, han=1, fu=30), expected_version=1
    ).game
    g = correct_hand(
        actor=referee,
        game=g,
        number=0,
        hand=ron(winner=1, loser=2, han=4, fu=30),
        expected_version=2,
        reason="wrong han on the sheet",
    )
    assert g.version == 3
    assert g.summary["hands"][0]["deltas"] == [0, 8000, -8000, 0]  # kiriage mangan (EMA)
    assert g.summary["hands"][1]["scores"][2] == 22000 + 1000
    entry = audit_for_game(g.pk).get(action="hand.correct")
    assert entry.before["hand"]["data"]["wins"][0]["han"] == 1
    assert entry.after["hand"]["data"]["wins"][0]["han"] == 4
    assert entry.reason == "wrong han on the sheet"


def test_invalid_correction_is_refused_whole(game, referee):
    g = game
    for v, hand in enumerate(non_dealer_rons(7)):
        g = enter_hand(actor=referee, game=g, hand=hand, expected_version=v).game
    before = [h.data for h in g.hands.order_by("number")]
    with pytest.raises(ValidationFailed) as err:
        correct_hand(
            actor=referee,
            game=g,
            number=0,
            hand=ron(winner=1, loser=1, han=2, fu=30),
            expected_version=7,
            reason="typo",
        )
    assert err.value.errors[0]["hand"] == 0
    g.refresh_from_db()
    assert g.version == 7
    assert [h.data for h in g.hands.order_by("number")] == before
    assert not audit_for_game(g.pk).filter(action="hand.correct").exists()


def test_correction_that_would_unfinish_a_finished_game_is_refused(game, referee):
    g = game
    for v, hand in enumerate(non_dealer_rons(8)):
        g = enter_hand(actor=referee, game=g, hand=hand, expected_version=v).game
    g = finalize_game(actor=referee, game=g, expected_version=8)
    # A dealer win in hand 0 keeps East dealing, so 8 hands no longer end the game.
    with pytest.raises(ValidationFailed) as err:
        correct_hand(
            actor=referee,
            game=g,
            number=0,
            hand=ron(winner=0, loser=2, han=2, fu=30),
            expected_version=9,
            reason="dealer won",
        )
    assert err.value.field == "hand"
    g.refresh_from_db()
    assert g.version == 9 and g.hands.get(number=0).data["wins"][0]["winner"] == 1
    # A correction that keeps the game complete is fine on a finished game.
    g = correct_hand(
        actor=referee,
        game=g,
        number=0,
        hand=ron(winner=1, loser=3, han=2, fu=30),
        expected_version=9,
        reason="other loser",
    )
    assert g.status == Game.Status.FINISHED and g.version == 10


def test_correct_needs_reason_and_existing_number(game, referee):
    g = enter_hand(actor=referee, game=game, hand=draw(), expected_version=0).game
    with pytest.raises(ValidationFailed) as err:
        correct_hand(actor=referee, game=g, number=0, hand=draw(), expected_version=1, reason=" ")
    assert err.value.field == "reason"
    with pytest.raises(ValidationFailed) as err:
        correct_hand(actor=referee, game=g, number=5, hand=draw(), expected_version=1, reason="r")
    assert err.value.field == "number"


def test_delete_last_hand(game, referee):
    g = enter_hand(actor=referee, game=game, hand=draw(tenpai=[1]), expected_version=0).game
    g = enter_hand(
        actor=referee, game=g, hand=ron(winner=2, loser=1, han=2, fu=30), expected_version=1
    ).game
    g = delete_last_hand(actor=referee, game=g, expected_version=2, reason="entered twice")
    assert g.version == 3 and g.hands.count() == 1
    assert len(g.summary["hands"]) == 1
    entry = audit_for_game(g.pk).get(action="hand.delete")
    assert entry.before["hand"]["data"]["outcome"] == "ron"
    assert entry.after["hands"] == 1


def test_chombo_hand_is_deducted_by_the_engine(game, referee):
    """Chombo policy: a chombo is a hand of the record; the engine deducts it (EMA 2025 3.4.6)."""
    g = enter_hand(actor=referee, game=game, hand=chombo(offender=2), expected_version=0).game
    for v, hand in enumerate(non_dealer_rons(8), start=1):
        g = enter_hand(actor=referee, game=g, hand=hand, expected_version=v).game
    g = finalize_game(actor=referee, game=g, expected_version=9)
    assert g.summary["final"]["penalties"][2] == 20000


def test_finalize_requires_end_of_game_or_time(game, referee):
    g = enter_hand(actor=referee, game=game, hand=draw(), expected_version=0).game
    with pytest.raises(ValidationFailed) as err:
        finalize_game(actor=referee, game=g, expected_version=1)
    assert err.value.field == "end"
    # EMA 2025 7.4 (issue 15): before the time signal a referee cannot end the game on time.
    with pytest.raises(ValidationFailed) as err:
        finalize_game(actor=referee, game=g, expected_version=1, end="time")
    assert err.value.field == "end" and "time signal has not sounded" in err.value.message
    session = g.table.session
    session.started_at = timezone.now() - timedelta(minutes=session.duration_minutes - 14)
    session.save(update_fields=["started_at"])  # 14 minutes left: the signal has sounded
    g = finalize_game(actor=referee, game=g, expected_version=1, end="time")  # EMA 2025 7.4
    assert g.status == Game.Status.FINISHED and g.summary["ended_by"] == "time"
    assert sum(g.summary["final"]["result"]) == 0
    with pytest.raises(ValidationFailed) as err:
        enter_hand(actor=referee, game=g, hand=draw(), expected_version=2)
    assert err.value.field == "status"
    g = reopen_game(actor=referee, game=g, expected_version=2, reason="one more hand was played")
    assert g.status == Game.Status.IN_PROGRESS and g.summary["final"] is None


def test_full_game_finalizes(game, referee):
    g = game
    for v, hand in enumerate(non_dealer_rons(8)):
        g = enter_hand(actor=referee, game=g, hand=hand, expected_version=v).game
    assert g.summary["next"] is None
    with pytest.raises(ValidationFailed):
        enter_hand(actor=referee, game=g, hand=draw(), expected_version=8)
    g = finalize_game(actor=referee, game=g, expected_version=8)
    assert g.summary["final"]["rank"] and g.finished_at is not None


def test_preview_writes_nothing(game):
    out = preview(game=game, hand=ron(winner=0, loser=1, han=1, fu=30))
    assert out["deltas"] == [1500, -1500, 0, 0]
    game.refresh_from_db()
    assert game.version == 0 and not game.hands.exists()
    with pytest.raises(ValidationFailed) as err:
        preview(game=game, hand=ron(winner=0, loser=0, han=1, fu=30))
    assert err.value.field


def test_final_scores_entry(game, referee):
    with pytest.raises(ValidationFailed) as err:
        enter_final_scores(
            actor=referee, game=game, scores=[30000, 30000, 30000, 20000], expected_version=0
        )
    assert err.value.field == "scores"
    g = enter_final_scores(
        actor=referee,
        game=game,
        scores=[45000, 32000, 24000, 18000],
        riichi_sticks_left=1,
        expected_version=0,
    )
    assert g.entry == Game.Entry.FINAL_SCORES
    final = g.summary["final"]
    assert final["scores"][0] == 46000  # EMA 2025 3.7: leftover stick to first place
    assert final["result"][0] == 46000 - 30000 + 15000
    g = finalize_game(actor=referee, game=g, expected_version=1)
    assert g.status == Game.Status.FINISHED


def test_outsider_may_not_write(game):
    with pytest.raises(PermissionDenied):
        enter_hand(actor=UserFactory(), game=game, hand=draw(), expected_version=0)


def test_organiser_counts_as_referee(game):
    organiser = UserFactory()
    StaffRoleFactory(
        tournament=game.table.session.tournament, user=organiser, role=StaffRole.Role.ORGANISER
    )
    assert enter_hand(actor=organiser, game=game, hand=draw(), expected_version=0).game.version == 1


def test_club_game_written_by_seated_member():
    night = ClubNightFactory()
    players = PlayerFactory.create_batch(4)
    user = UserFactory()
    players[0].user = user
    players[0].save()
    for p in players:
        MembershipFactory(club=night.club, player=p)
    g = create_game(actor=user, players=players, ruleset="wdmc-2019", place=NightPlace(night))
    g = enter_hand(actor=user, game=g, hand=draw(), expected_version=0).game
    assert audit_for_game(g.pk).filter(club_id=night.club_id).count() == 2
    with pytest.raises(PermissionDenied):
        enter_hand(actor=UserFactory(), game=g, hand=draw(), expected_version=1)


def test_game_record_round_trip(game, referee):
    g = enter_hand(
        actor=referee, game=game, hand=ron(winner=1, loser=2, han=2, fu=30), expected_version=0
    ).game
    record = game_record(g)
    assert record["format"] == "riichi-game-record/1" and len(record["hands"]) == 1
    table = TableFactory()
    players = PlayerFactory.create_batch(4)
    record["hands"] = non_dealer_rons(8)
    imported = import_game_record(
        actor=None, record=record, players=players, place=TablePlace(table)
    )
    assert imported.status == Game.Status.FINISHED and imported.hands.count() == 8
    assert imported.summary["ended_by"]
    bad = {**record, "hands": [ron(winner=1, loser=1, han=1, fu=30)]}
    with pytest.raises(ValidationFailed):
        import_game_record(
            actor=None, record=bad, players=players, place=TablePlace(TableFactory())
        )
    assert Game.objects.count() == 2


def test_writer_slipping_past_the_lock_still_loses(game, referee, monkeypatch):
    """Where row locks are a no-op (SQLite), the conditional version UPDATE still refuses a
    write whose version moved between the check and the save; nothing is kept."""
    import scoring.services.hands as hands_module

    original = hands_module.replay_record

    # The hand-entry path replays once (issue 14), between the version check and the save.
    def racing_run_engine(record):
        Game.objects.filter(pk=game.pk).update(version=1)  # another referee's commit
        return original(record)

    monkeypatch.setattr(hands_module, "replay_record", racing_run_engine)
    with pytest.raises(ConflictError) as err:
        enter_hand(actor=referee, game=game, hand=draw(), expected_version=0)
    assert err.value.current_version == 1
    assert not Hand.objects.filter(game=game).exists()
    assert not audit_for_game(game.pk).filter(action="hand.add").exists()
