"""Tournament penalties (EMA 2025 6.12, 7.2, 7.5), chombo policy, substitutes (EMA 2025 7.3)."""

from __future__ import annotations

import pytest

from core.audit import audit_for_game, audit_for_tournament
from core.errors import PermissionDenied, ValidationFailed
from core.models import Player
from scoring.models import Game
from scoring.records import player_label
from scoring.services import enter_hand, finalize_game, game_record
from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    TableFactory,
    UserFactory,
    non_dealer_rons,
    ron,
)
from tournaments.models import Penalty, Registration
from tournaments.services import cancel_penalty, substitute_player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("minutes", "points"),
    [(1, 1000), (0.5, 1000), (9.5, 10000), (3, 3000), (10, 10000)],
)
def test_lateness_is_1000_per_started_minute(penalise, session, minutes, points):
    """EMA 2025 7.2: 1,000 points per minute late, rounded up; 9 min 30 s is 10,000."""
    p = penalise(
        kind="lateness", minutes_late=minutes, session=session, reason="late for session 1"
    )
    assert p.points == points
    assert p.minutes_late == -(-minutes // 1)


def test_lateness_over_10_minutes_means_a_substitute(penalise, session):
    """EMA 2025 7.3: later than 10 minutes is replaced by a substitute, no lateness penalty."""
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="lateness", minutes_late=10.5, session=session, reason="late")
    assert err.value.field == "minutes_late" and "substitute" in err.value.message
    assert "7.3" in err.value.message
    assert not Penalty.objects.exists()


def test_lateness_input_checks(penalise, session):
    """EMA 2025 7.2: lateness is per session, in minutes, its points follow from them."""
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="lateness", minutes_late=3, reason="late")
    assert err.value.field == "session"
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="lateness", minutes_late=3, points=2000, session=session, reason="late")
    assert err.value.field == "points"
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="lateness", minutes_late=0, session=session, reason="late")
    assert err.value.field == "minutes_late"
    penalise(kind="lateness", minutes_late=2, session=session, reason="late")
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="lateness", minutes_late=4, session=session, reason="late")
    assert err.value.field == "kind"  # one lateness per session; cancel to change it
    assert Penalty.objects.count() == 1


def test_score_sheet_penalties_default_from_the_ruleset(penalise):
    """EMA 2025 7.5: 2,000 for an unfixable score sheet; all-last sheet 8,000 (ruleset)."""
    sheet = penalise(kind="score_sheet", reason="unsigned")
    all_last = penalise(kind="all_last_sheet", reason="misfilled")
    assert (sheet.points, all_last.points) == (2000, 8000)


def test_obstruction_range(penalise):
    """EMA 2025 6.12: obstruction is 8,000 or 12,000, up to 48,000 in serious cases; the
    9,900 of issue 15 is refused."""
    for bad in (1000, 9900, 11900, 50000):
        with pytest.raises(ValidationFailed) as err:
            penalise(kind="obstruction", points=bad, reason="x")
        assert err.value.field == "points"
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="obstruction", reason="x")
    assert err.value.field == "points"
    p = penalise(kind="obstruction", points=12000, reason="x")
    assert p.points == 12000


def test_score_sheet_penalty_is_2000_each(penalise):
    """EMA 2025 7.5: "a 2,000-point penalty for each of the players"."""
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="score_sheet", points=5000, reason="x")
    assert err.value.field == "points" and "7.5" in err.value.message
    for ok in (8000, 48000):
        p = penalise(kind="obstruction", points=ok, reason="x")
        assert p.points == ok


def test_chombo_is_refused_as_penalty(penalise):
    """Chombo policy: a chombo is a hand of the game record, deducted in the game's result."""
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="chombo", points=20000, reason="x")
    assert err.value.field == "kind" and "hand" in err.value.message
    assert not Penalty.objects.exists()


def test_penalty_needs_registration_reason_and_referee(penalise):
    with pytest.raises(ValidationFailed) as err:
        penalise(player=PlayerFactory(), kind="other", points=1000, reason="x")
    assert err.value.field == "player"
    with pytest.raises(ValidationFailed) as err:
        penalise(kind="other", points=1000, reason=" ")
    assert err.value.field == "reason"
    with pytest.raises(PermissionDenied):
        penalise(actor=UserFactory(), kind="other", points=1000, reason="x")


def test_cancel_penalty_audits_before_after(penalise, tournament, referee):
    p = penalise(kind="other", points=4000, reason="phone rang")
    p = cancel_penalty(actor=referee, penalty=p, reason="it was someone else's phone")
    assert p.cancelled_at and p.cancelled_by == referee
    entry = audit_for_tournament(tournament.pk).get(action="penalty.cancel")
    assert entry.before["cancelled_at"] is None and entry.after["cancelled_at"]
    assert entry.after["cancel_reason"] == "it was someone else's phone"
    with pytest.raises(ValidationFailed):
        cancel_penalty(actor=referee, penalty=p, reason="twice")


@pytest.fixture
def game(tournament, session):
    return GameFactory(table=TableFactory(session=session))


def test_substitute_from_start(tournament, referee, game):
    """EMA 2025 7.3: the substituted player scores -15,000 and -15,000 uma."""
    sub = PlayerFactory()
    absent = game.seats.get(seat=2).player_id
    game = substitute_player(actor=referee, game=game, seat=2, substitute=sub, reason="ill")
    assert game.substitutes == [
        {"seat": 2, "from": "start", "player_id": sub.pk, "replaced_player_id": absent}
    ]
    assert game.seats.get(seat=2).player == sub  # who plays; the Seat keeps the registered one
    assert game.table.seats.get(wind=2).player_id == absent
    # Issue 20: the record says whom the substitute (the player at seat 2) replaced.
    absent_player = Player.objects.get(pk=absent)
    assert game_record(game)["substitutes"] == [
        {"seat": 2, "from": "start", "replaces": player_label(absent_player)}
    ]
    # Issue 31: someone brought in on the day is registered as a reserve (never seated by a
    # plan, never ranked); before roles this was the substitute flag, which now means fill-in.
    assert Registration.objects.get(tournament=tournament, player=sub).role == "reserve"
    for v, hand in enumerate(non_dealer_rons(8), start=game.version):
        game = enter_hand(actor=referee, game=game, hand=hand, expected_version=v).game
    game = finalize_game(actor=referee, game=game, expected_version=game.version)
    assert game.summary["final"]["result"][2] == -30000
    entry = audit_for_game(game.pk).get(action="game.substitute")
    assert entry.after["substituted"] == absent and entry.after["substitute"] == sub.pk


def test_substitute_during_game(referee, game):
    game = enter_hand(
        actor=referee, game=game, hand=ron(winner=0, loser=1, han=3, fu=30), expected_version=0
    ).game
    with pytest.raises(ValidationFailed) as err:
        substitute_player(
            actor=referee, game=game, seat=1, substitute=PlayerFactory(), reason="ill"
        )
    assert err.value.field == "from"
    game = substitute_player(
        actor=referee,
        game=game,
        seat=1,
        substitute=PlayerFactory(),
        reason="ill",
        from_="during",
        expected_version=1,
    )
    assert game.version == 2


def test_substitute_bad_input(referee, game, tournament):
    seated = game.seats.get(seat=0).player
    with pytest.raises(ValidationFailed) as err:
        substitute_player(actor=referee, game=game, seat=1, substitute=seated, reason="x")
    assert err.value.field == "substitute"
    with pytest.raises(ValidationFailed) as err:
        substitute_player(actor=referee, game=game, seat=7, substitute=PlayerFactory(), reason="x")
    assert err.value.field == "seat"
    regular = RegistrationFactory(tournament=tournament).player
    with pytest.raises(ValidationFailed) as err:
        substitute_player(actor=referee, game=game, seat=1, substitute=regular, reason="x")
    assert err.value.field == "substitute"
    with pytest.raises(ValidationFailed) as err:
        substitute_player(
            actor=referee,
            game=game,
            seat=1,
            substitute=PlayerFactory(),
            reason="",
        )
    assert err.value.field == "reason"
    assert Game.objects.get(pk=game.pk).substitutes == []
