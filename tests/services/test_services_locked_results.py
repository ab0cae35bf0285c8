"""Issue 15: locked results and session states, through the services.

Once a session is closed, or the tournament finished or published, no game write and no
penalty is accepted (referee or organiser alike): an organiser reopens the session with a
reason, which is audited and makes published results provisional again. No scores enter a
session before its start signal (EMA 2025 7.4); "finalize on time" needs the time signal
(EMA 2025 7.4) unless an organiser overrides it, with a reason, in the audit trail.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.audit import audit_for_game, audit_for_tournament
from core.errors import ValidationFailed
from scoring.models import Game
from scoring.services import (
    correct_hand,
    delete_last_hand,
    enter_final_scores,
    enter_hand,
    finalize_game,
    reopen_game,
)
from tests.factories import PlayerFactory, draw, non_dealer_rons, ron
from tournaments.models import Penalty, Session, Tournament
from tournaments.services import (
    add_penalty,
    cancel_penalty,
    close_session,
    publish_results,
    reopen_session,
    seat_session,
    start_session,
    substitute_player,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(tournament, organiser, registrations):
    """Session 1 seated (one table), not started."""
    tournament.sessions.create(number=1)
    session = tournament.sessions.get(number=1)
    seat_session(actor=organiser, session=session, tables=[[r.player for r in registrations[:4]]])
    return Session.objects.get(pk=session.pk)


def _game(session):
    return Game.objects.select_related("table__session__tournament").get(table__session=session)


def _play_full(game, actor):
    for hand in non_dealer_rons(8):
        game = enter_hand(actor=actor, game=game, hand=hand, expected_version=game.version).game
    return finalize_game(actor=actor, game=game, expected_version=game.version)


def test_no_scores_before_the_start_signal(seated, referee, organiser):
    """EMA 2025 7.4: the session starts with the start signal; hands, final scores and
    finalize are refused before it, for an organiser too."""
    game = _game(seated)
    for actor in (referee, organiser):
        with pytest.raises(ValidationFailed) as err:
            enter_hand(actor=actor, game=game, hand=draw(), expected_version=0)
        assert err.value.field == "session" and "has not started yet" in err.value.message
    with pytest.raises(ValidationFailed) as err:
        enter_final_scores(
            actor=referee, game=game, scores=[40000, 30000, 30000, 20000], expected_version=0
        )
    assert err.value.field == "session"
    assert not game.hands.exists() and Game.objects.get(pk=game.pk).version == 0
    start_session(actor=organiser, session=seated)
    game = enter_hand(actor=referee, game=_game(seated), hand=draw(), expected_version=0).game
    assert game.hands.count() == 1


def test_substitute_from_the_start_before_the_start_signal(seated, referee, tournament):
    """EMA 2025 7.3: a substitution "before the beginning of the game" is allowed while the
    session is only seated."""
    sub = PlayerFactory()
    game = substitute_player(
        actor=referee, game=_game(seated), seat=1, substitute=sub, reason="ill", from_="start"
    )
    assert game.substitutes[0]["seat"] == 1


def test_closed_session_refuses_every_game_write_and_penalty(
    seated, referee, organiser, tournament, registrations
):
    start_session(actor=organiser, session=seated)
    game = _play_full(_game(seated), referee)
    penalty = add_penalty(
        actor=referee,
        tournament=tournament,
        player=registrations[0].player,
        kind="score_sheet",
        reason="unsigned",
        session=seated,
    )
    close_session(actor=organiser, session=seated)
    game = _game(seated)
    version = game.version
    last = game.hands.count() - 1
    attempts = {
        "correct": lambda a: correct_hand(
            actor=a,
            game=game,
            number=last,
            hand=ron(winner=1, loser=2, han=13),
            expected_version=version,
            reason="han 13",
        ),
        "reopen": lambda a: reopen_game(
            actor=a, game=game, expected_version=version, reason="again"
        ),
        "final scores": lambda a: enter_final_scores(
            actor=a, game=game, scores=[40000, 30000, 30000, 20000], expected_version=version
        ),
        "substitute": lambda a: substitute_player(
            actor=a,
            game=game,
            seat=0,
            substitute=PlayerFactory(),
            reason="x",
            from_="during",
            expected_version=version,
        ),
        "penalty": lambda a: add_penalty(
            actor=a,
            tournament=tournament,
            player=registrations[1].player,
            kind="obstruction",
            points=12000,
            reason="x",
            session=seated,
        ),
        "cancel penalty": lambda a: cancel_penalty(actor=a, penalty=penalty, reason="x"),
    }
    for name, attempt in attempts.items():
        for actor in (referee, organiser):
            with pytest.raises(ValidationFailed) as err:
                attempt(actor)
            assert err.value.field == "session", name
            assert "closed" in err.value.message and "reopens the session" in err.value.message
    assert Game.objects.get(pk=game.pk).version == version
    assert Penalty.objects.filter(tournament=tournament).count() == 1
    assert Penalty.objects.get(pk=penalty.pk).cancelled_at is None


def test_published_results_are_locked_until_an_organiser_reopens_the_session(
    seated, referee, organiser, tournament
):
    start_session(actor=organiser, session=seated)
    _play_full(_game(seated), referee)
    close_session(actor=organiser, session=seated)
    publish_results(actor=organiser, tournament=tournament)
    game = _game(seated)
    with pytest.raises(ValidationFailed) as err:
        delete_last_hand(actor=referee, game=game, expected_version=game.version, reason="x")
    assert "published" in err.value.message and err.value.field == "session"
    with pytest.raises(ValidationFailed) as err:
        add_penalty(
            actor=referee,
            tournament=tournament,
            player=game.seats.get(seat=0).player,
            kind="obstruction",
            points=12000,
            reason="x",
        )
    assert "published" in err.value.message

    with pytest.raises(ValidationFailed) as err:
        reopen_session(actor=organiser, session=seated, reason=" ")
    assert err.value.field == "reason"
    reopen_session(actor=organiser, session=seated, reason="score sheet of table 1 was wrong")
    tournament.refresh_from_db()
    # Provisional again until re-published.
    assert tournament.status == Tournament.Status.RUNNING and tournament.published_at is None
    entry = audit_for_tournament(tournament.pk).filter(action="session.reopen").get()
    assert entry.reason == "score sheet of table 1 was wrong"
    assert entry.before["tournament_status"] == "published"
    assert entry.after["tournament_status"] == "running"
    game = reopen_game(actor=referee, game=game, expected_version=game.version, reason="fix")
    assert game.status == Game.Status.IN_PROGRESS


def test_finalize_on_time_needs_the_time_signal_or_an_organiser(seated, referee, organiser):
    """EMA 2025 7.4: "after the sound, the current hand is finished and one more hand is
    played": before the signal a referee cannot end a game on time."""
    start_session(actor=organiser, session=seated)
    game = enter_hand(actor=referee, game=_game(seated), hand=draw(), expected_version=0).game
    with pytest.raises(ValidationFailed) as err:
        finalize_game(actor=referee, game=game, expected_version=1, end="time")
    assert err.value.field == "end" and "It sounds at" in err.value.message
    with pytest.raises(ValidationFailed) as err:  # the organiser's override needs a reason
        finalize_game(actor=organiser, game=game, expected_version=1, end="time")
    assert err.value.field == "reason"
    game = finalize_game(
        actor=organiser, game=game, expected_version=1, end="time", reason="power cut"
    )
    assert game.status == Game.Status.FINISHED
    entry = audit_for_game(game.pk).filter(action="game.finalize").get()
    assert entry.after["override"] == "before_time_signal" and entry.reason == "power cut"

    # Undone by reopening (while the session runs), then after the signal a referee may.
    game = reopen_game(actor=referee, game=game, expected_version=game.version, reason="early")
    Session.objects.filter(pk=seated.pk).update(
        started_at=timezone.now() - timedelta(minutes=seated.duration_minutes - 15)
    )
    game = finalize_game(
        actor=referee, game=_game(seated), expected_version=game.version, end="time"
    )
    assert game.status == Game.Status.FINISHED and game.end == "time"
    last = audit_for_game(game.pk).filter(action="game.finalize").last()
    assert last is not None and "override" not in (last.after or {})


def test_no_lateness_penalty_for_a_substituted_player(
    seated, referee, organiser, tournament, registrations
):
    """EMA 2025 7.3: "A player who is late by more than 10 minutes is replaced with a
    substitute player and no lateness penalty is deducted": one given before the substitution
    is cancelled by it, and none is accepted after it."""
    late = registrations[1].player
    penalty = add_penalty(
        actor=referee,
        tournament=tournament,
        player=late,
        kind="lateness",
        minutes_late=5,
        reason="late",
        session=seated,
    )
    substitute_player(
        actor=referee,
        game=_game(seated),
        seat=1,
        substitute=PlayerFactory(),
        reason="more than 10 minutes late",
        from_="start",
    )
    penalty.refresh_from_db()
    assert penalty.cancelled_at is not None and "7.3" in penalty.cancel_reason
    with pytest.raises(ValidationFailed) as err:
        add_penalty(
            actor=referee,
            tournament=tournament,
            player=late,
            kind="lateness",
            minutes_late=3,
            reason="late",
            session=seated,
        )
    assert err.value.field == "player" and "EMA 2025 7.3" in err.value.message
