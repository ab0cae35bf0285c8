"""Ratings (openskill), league standings and player statistics (docs/ratings.md)."""

import datetime

import pytest
from django.utils import timezone
from factories import ClubNightFactory, LeagueFactory, PlayerFactory, game_at_night
from openskill.models import PlackettLuce

from club.models import League, Rating, RatingChange
from club.ratings.league import league_standings, league_value
from club.ratings.services import leaderboard, ordinal, rate_game, rebuild_ratings
from club.ratings.tasks import enqueue_ratings
from scoring.engine import replay
from scoring.models import Game, GameSeat, Hand
from scoring.records import game_record
from scoring.stats import player_stats

pytestmark = pytest.mark.django_db

T0 = timezone.make_aware(datetime.datetime(2026, 3, 1, 19, 0))


def club_game(players, hands=None, *, scores=None, night=None, minutes=0, ruleset="ema-2025"):
    game = game_at_night(
        night or ClubNightFactory(),
        ruleset=ruleset,
        status=Game.Status.FINISHED,
        finished_at=T0 + datetime.timedelta(minutes=minutes),
        end="time",
        entry=Game.Entry.FINAL_SCORES if scores else Game.Entry.HANDS,
        final_scores=scores,
    )
    for seat, p in enumerate(players):
        GameSeat.objects.create(game=game, seat=seat, player=p)
    for i, h in enumerate(hands or []):
        Hand.objects.create(game=game, number=i, data=h)
    if hands:
        game.summary = replay(game_record(game))
        game.save()
    return game


def test_ratings_follow_plackett_luce_over_games_in_order():
    a, b, c, d = PlayerFactory.create_batch(4)
    g1 = club_game([a, b, c, d], scores=[40000, 30000, 30000, 20000], minutes=0)
    club_game([d, c, b, a], scores=[45000, 35000, 25000, 15000], minutes=60)
    assert rebuild_ratings() == 2
    model = PlackettLuce()
    r = [[model.rating()] for _ in range(4)]
    r = model.rate(r, ranks=[1, 2, 2, 4])  # ties share a place
    r2 = model.rate([r[3], r[2], r[1], r[0]], ranks=[1, 2, 3, 4])
    assert Rating.objects.get(player=a).mu == pytest.approx(r2[3][0].mu)
    assert Rating.objects.get(player=d).games == 2
    assert RatingChange.objects.filter(game=g1).count() == 4
    top = leaderboard()
    expected = {a: r2[3][0], b: r2[2][0], c: r2[1][0], d: r2[0][0]}
    best = max(expected, key=lambda p: expected[p].mu - 3 * expected[p].sigma)
    assert top[0].player == best  # ordinal = mu - 3 sigma
    values = [ordinal(r.mu, r.sigma) for r in top]
    assert values == sorted(values, reverse=True)


def test_rate_game_appends_the_newest_and_rebuilds_on_corrections():
    players = PlayerFactory.create_batch(4)
    club_game(players, scores=[40000, 30000, 30000, 20000], minutes=0)
    rebuild_ratings()
    newest = club_game(players, scores=[20000, 30000, 30000, 40000], minutes=30)
    rate_game(game_id=newest.pk)
    appended = {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    rebuild_ratings()
    rebuilt = {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert appended == rebuilt  # same arithmetic in the same order
    newest.final_scores = [40000, 30000, 30000, 20000]
    newest.save()
    rate_game(game_id=newest.pk)  # already rated: the history is rebuilt
    assert RatingChange.objects.count() == 8
    assert Rating.objects.get(player=players[0]).games == 2


def test_enqueue_ratings_runs_after_commit(django_capture_on_commit_callbacks):
    players = PlayerFactory.create_batch(4)
    game = club_game(players, scores=[40000, 30000, 30000, 20000])
    with django_capture_on_commit_callbacks(execute=True):
        enqueue_ratings(game.pk)
    assert Rating.objects.count() == 4


@pytest.mark.parametrize(
    ("aggregate", "best_n", "expected"),
    [("sum", None, 30.0), ("average", None, 10.0), ("best_n", 2, 40.0)],
)
def test_league_value(aggregate, best_n, expected):
    assert league_value([25, 15, -10], aggregate=aggregate, best_n=best_n) == expected


def test_league_standings_with_min_games():
    league = LeagueFactory(aggregate=League.Aggregate.BEST_N, best_n=1, min_games=2)
    night = ClubNightFactory(club=league.club, league=league)
    a, b, c, d, e = PlayerFactory.create_batch(5)
    club_game([a, b, c, d], scores=[40000, 30000, 30000, 20000], night=night)
    club_game([b, a, c, e], scores=[40000, 30000, 30000, 20000], night=night, minutes=5)
    other = ClubNightFactory(club=league.club)  # not in the league
    club_game([a, b, c, d], scores=[60000, 30000, 30000, 0], night=other)
    rows = league_standings(league)
    ranked = [(r.player, r.rank, r.value) for r in rows if r.rank is not None]
    # a: +25 and 0 -> best 25; b: 0 and +25 -> 25 (shared first); c: 0, 0 -> 0
    assert sorted(ranked[:2], key=lambda r: r[0].pk) == [(a, 1, 25000.0), (b, 1, 25000.0)]
    assert ranked[2:] == [(c, 3, 0.0)]
    assert {r.player for r in rows if r.rank is None} == {d, e}


def test_player_stats_from_hands():
    a, b, c, d = PlayerFactory.create_batch(4)
    hands = [
        {"outcome": "ron", "loser": 1, "wins": [{"winner": 0, "han": 3, "fu": 30}], "riichi": [0]},
        {
            "outcome": "tsumo",
            "wins": [{"winner": 2, "yakuman": 1, "yaku": ["kokushi"]}],
            "riichi": [],
        },
        {"outcome": "ron", "loser": 0, "wins": [{"winner": 3, "han": 1, "fu": 30}], "riichi": [3]},
    ]
    club_game([a, b, c, d], hands)
    club_game([a, b, c, d], scores=[40000, 30000, 30000, 20000], minutes=10)
    sa, sc = player_stats(a), player_stats(c)
    assert sa.games == 2 and sa.hands == 3
    assert sa.wins == 1 and sa.deal_ins == 1 and sa.riichi == 1
    assert sa.win_rate == pytest.approx(1 / 3) and sa.deal_in_rate == pytest.approx(1 / 3)
    assert sa.average_hand_value == 5800  # dealer 3 han 30 fu ron; own stick paid and back
    assert sc.yakuman == [
        {
            "game": sc.yakuman[0]["game"],
            "hand": 1,
            "yakuman": 1,
            "yaku": ["kokushi"],
            "outcome": "tsumo",
        }
    ]
    assert sc.average_placement is not None and player_stats(d).to_dict()["hands"] == 3


def _ratings():
    return {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}


def _history():
    return list(
        RatingChange.objects.order_by("id").values_list(
            "id", "game_id", "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )


def test_rate_game_rewinds_only_what_changed_and_matches_the_rebuild():
    """Updates arriving out of the finishing order (two tables a moment apart), a correction,
    a reopened game: each rate_game rewinds to the first game out of place and replays from
    there; the ratings equal the full rebuild's exactly, and the games before the rewind point
    keep their history rows (a rebuild would have rewritten them all)."""
    players = PlayerFactory.create_batch(6)
    scores = [[40000, 30000, 30000, 20000], [45000, 35000, 25000, 15000]]
    games = [
        club_game([players[(i + s) % 6] for s in range(4)], scores=scores[i % 2], minutes=10 * i)
        for i in range(5)
    ]
    for game in games[:3]:
        rate_game(game_id=game.pk)
    first_rows = _history()[:8]  # games 0 and 1
    rate_game(game_id=games[4].pk)  # game 4's update arrives before game 3's
    rate_game(game_id=games[3].pk)
    assert _history()[:8] == first_rows  # rewound to game 3 only: 2 games replayed
    assert [g for _, g, *_ in _history()][-8:] == [games[3].pk] * 4 + [games[4].pk] * 4
    games[2].final_scores = [20000, 30000, 30000, 40000]  # a correction of a rated game
    games[2].save()
    rate_game(game_id=games[2].pk)
    games[1].status = Game.Status.IN_PROGRESS  # reopened
    games[1].save()
    rate_game(game_id=games[1].pk)
    assert _history()[:4] == first_rows[:4]
    incremental, applied = _ratings(), [g for _, g, *_ in _history()]
    assert applied[::4] == [games[0].pk, games[2].pk, games[3].pk, games[4].pk]
    rebuild_ratings()
    assert _ratings() == incremental  # float for float
    rate_game(game_id=games[0].pk)  # nothing out of place: nothing rewritten
    assert _ratings() == incremental
