"""Standings kept up to date through the real services (hands entered, corrected, finalized)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    non_dealer_rons,
    ron,
)

from scoring.services import correct_hand, enter_hand, finalize_game
from tournaments.models import StandingRow
from tournaments.standings.services import compute_standings

pytestmark = pytest.mark.django_db

FIELDS = ["player_id", "rank", "total", "per_session", "tie_break_values"]


def _stored(t):
    return sorted(StandingRow.objects.filter(tournament=t).values_list(*FIELDS))


def _fresh(t):
    return sorted(tuple(getattr(r, f) for f in FIELDS) for r in compute_standings(t))


def test_hands_and_corrections_update_standings_on_commit(django_capture_on_commit_callbacks):
    t = TournamentFactory()
    referee = StaffRoleFactory(tournament=t).user
    players = PlayerFactory.create_batch(8)
    for p in players:
        RegistrationFactory(tournament=t, player=p)
    session = SessionFactory(tournament=t, number=1)
    games = [
        GameFactory(
            table=TableFactory(session=session, number=n + 1), players=players[4 * n : 4 * n + 4]
        )
        for n in range(2)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for game in games:
            for hand in non_dealer_rons(8):
                game = enter_hand(
                    actor=referee, game=game, hand=hand, expected_version=game.version
                ).game
            finalize_game(actor=referee, game=game, expected_version=game.version)
    assert StandingRow.objects.filter(tournament=t).count() == 8
    assert _stored(t) == _fresh(t)
    game = games[0]
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        correct_hand(
            actor=referee,
            game=game,
            number=0,
            hand=ron(winner=1, loser=2, han=5, fu=None),
            expected_version=game.version,
            reason="mangan, not 2 han",
        )
    assert callbacks  # the standings task (and ratings) ran after the commit
    assert _stored(t) == _fresh(t)
    leader = StandingRow.objects.get(tournament=t, rank=1)
    assert leader.games == 1 and leader.per_session[0]["session"] == 1


def test_a_running_game_queues_no_standings_update_until_it_finishes(
    django_capture_on_commit_callbacks,
):
    # Only finished games count (EMA 2025 7.4: a game scores when it ends), so a hand entered
    # in a running game has nothing to update: the worker is spared one task per hand.
    t = TournamentFactory()
    referee = StaffRoleFactory(tournament=t).user
    players = PlayerFactory.create_batch(4)
    # Started 90 minutes ago: the time signal (EMA 2025 7.4) has sounded, the game may end on time.
    started = timezone.now() - timedelta(minutes=90)
    game = GameFactory(
        table=TableFactory(session=SessionFactory(tournament=t, number=1, started_at=started)),
        players=players,
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        for hand in non_dealer_rons(4):
            game = enter_hand(
                actor=referee, game=game, hand=hand, expected_version=game.version
            ).game
    assert callbacks == []
    assert not StandingRow.objects.filter(tournament=t).exists()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        finalize_game(actor=referee, game=game, expected_version=game.version, end="time")
    assert callbacks
    assert _stored(t) == _fresh(t)
    assert StandingRow.objects.filter(tournament=t).count() == 4
