"""A standings update lost while the broker was down is caught up by a full rebuild
(docs/reliability.md: "standings catch up when Redis returns")."""

import pytest
from standings_builders import make_players, make_tournament, register, scores_game, set_scores

from tournaments.models import StandingRow, Tournament
from tournaments.standings.services import recompute_standings
from tournaments.standings.tasks import rebuild_stale_standings
from tournaments.standings.tasks import recompute_standings as recompute_task

pytestmark = pytest.mark.django_db


def totals(tournament: Tournament) -> dict[int, int]:
    return dict(StandingRow.objects.filter(tournament=tournament).values_list("player", "total"))


def two_games_one_update_lost() -> tuple[Tournament, dict[int, int]]:
    """Game A's update ran, game B changed while its update could not be queued."""
    tournament = make_tournament()
    players = make_players(8)
    register(tournament, players)
    game_a = scores_game(tournament, 1, 1, players[:4], [30000] * 4)
    game_b = scores_game(tournament, 1, 2, players[4:], [30000] * 4)
    recompute_standings(tournament_id=tournament.pk)
    set_scores(game_b, [50000, 30000, 25000, 15000])  # no task ran for this change
    Tournament.objects.filter(pk=tournament.pk).update(standings_stale=True)
    before = totals(tournament)
    recompute_standings(tournament_id=tournament.pk)
    expected = totals(tournament)
    assert before != expected  # the lost update really is missing
    StandingRow.objects.filter(tournament=tournament).delete()
    StandingRow.objects.bulk_create(
        StandingRow(tournament=tournament, player_id=player, total=total, rank=None)
        for player, total in before.items()
    )
    assert game_a.pk != game_b.pk
    return tournament, expected


def test_next_one_game_update_rebuilds_a_stale_table_in_full() -> None:
    tournament, expected = two_games_one_update_lost()
    game_a = tournament.sessions.get(number=1).tables.get(number=1).game

    recompute_task.delay(tournament.pk, game_a.pk)  # the next entry, of another game

    assert totals(tournament) == expected
    assert not Tournament.objects.get(pk=tournament.pk).standings_stale


def test_periodic_task_catches_up_stale_tournaments_only() -> None:
    tournament, expected = two_games_one_update_lost()
    fresh_tournament = make_tournament(slug="fresh")

    assert rebuild_stale_standings.delay().get() == 1

    assert totals(tournament) == expected
    assert not Tournament.objects.filter(standings_stale=True).exists()
    assert fresh_tournament.standings_stale is False
