"""Public pages: tournament list and detail, live standings, player pages, seating, clubs."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.services import enter_hand, finalize_game
from tests.factories import (
    ClubFactory,
    ClubGameFactory,
    ClubNightFactory,
    LeagueFactory,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    non_dealer_rons,
    ron,
)
from tournaments.models import StandingRow, Tournament
from tournaments.views.charts import line_chart_svg

pytestmark = pytest.mark.django_db


def play_full_game(game: Game, user: Any) -> Game:
    hands = non_dealer_rons(8)
    hands[0] = ron(winner=1, loser=2, han=4, fu=30)  # Ben ends ahead
    for hand in hands:
        game = enter_hand(actor=user, game=game, hand=hand, expected_version=game.version).game
    return finalize_game(actor=user, game=game, expected_version=game.version)


def test_tournament_list_hides_drafts(client: Client, tournament: Tournament) -> None:
    TournamentFactory(name="Secret Draft", status=Tournament.Status.DRAFT)
    html = client.get(reverse("tournaments:list")).content.decode()
    assert "Hamburg Open" in html and "Secret Draft" not in html


def test_draft_detail_is_404_for_the_public(client: Client) -> None:
    draft: Any = TournamentFactory(status=Tournament.Status.DRAFT)
    assert client.get(reverse("tournaments:detail", args=[draft.slug])).status_code == 404


def test_detail_page(client: Client, tournament: Tournament, players: list[Any]) -> None:
    response = client.get(reverse("tournaments:detail", args=[tournament.slug]))
    assert response.status_code == 200
    assert "4 players" in response.content.decode()


def test_standings_poll_every_15_seconds(client: Client, tournament: Tournament) -> None:
    row_player: Any = PlayerFactory(first_name="Zoe", last_name="Zett")
    StandingRow.objects.create(tournament=tournament, player=row_player, rank=1, total=42000)
    response = client.get(reverse("tournaments:standings", args=[tournament.slug]))
    html = response.content.decode()
    assert 'hx-trigger="every 15s"' in html
    assert "Zoe Zett" in html and "42000" in html
    partial = client.get(
        reverse("tournaments:standings", args=[tournament.slug]), HTTP_HX_REQUEST="true"
    )
    assert "<html" not in partial.content.decode() and "Zoe Zett" in partial.content.decode()


def test_player_page_has_games_stats_and_svg_charts(
    client: Client, game: Game, referee: Any, tournament: Tournament, players: list[Any]
) -> None:
    play_full_game(game, referee)
    response = client.get(reverse("tournaments:player", args=[tournament.slug, players[1].pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<svg") == 2  # score through the game, tournament total
    assert "Hands played" in html and "Clara Claus" in html
    assert "place 1" in html


def test_player_not_registered_is_404(client: Client, tournament: Tournament) -> None:
    other: Any = PlayerFactory()
    url = reverse("tournaments:player", args=[tournament.slug, other.pk])
    assert client.get(url).status_code == 404


def test_seating_search_by_name(client: Client, game: Game, tournament: Tournament) -> None:
    url = reverse("tournaments:seating", args=[tournament.slug])
    html = client.get(url, {"q": "clara"}).content.decode()
    assert "Table 1" in html and "Clara Claus" in html
    html = client.get(url, {"q": "nobody-like-this"}).content.decode()
    assert "Nobody by that name" in html


def test_chart_svg_is_escaped_and_scaled() -> None:
    svg = str(line_chart_svg([30000, 38000, 22000], labels=["start", "<E1>", "E2"], title="a&b"))
    assert svg.startswith("<svg") and "viewBox" in svg
    assert "&lt;E1&gt;" in svg and "a&amp;b" in svg
    assert svg.count("<circle") == 3


def test_chart_with_one_flat_value() -> None:
    assert "<polyline" in str(line_chart_svg([0], baseline=0))


def test_club_pages_league_table_and_ratings(client: Client, referee: Any) -> None:
    from club.models import Rating

    club: Any = ClubFactory(name="Drachen", slug="drachen")
    league: Any = LeagueFactory(
        club=club, name="Spring league", starts_on=datetime.date(2026, 3, 1)
    )
    night: Any = ClubNightFactory(club=club, league=league)
    names = ["Ina", "Jan", "Kai", "Lea"]
    players: list[Any] = [PlayerFactory(first_name=n, last_name="Muster") for n in names]
    for p in players:
        MembershipFactory(club=club, player=p)
    game: Any = ClubGameFactory(club_night=night, players=players)
    user = referee
    user.is_superuser = True
    user.save()
    play_full_game(game, user)
    Rating.objects.create(player=players[0], mu=27.0, sigma=2.0, games=1)

    assert "Drachen" in client.get(reverse("club:list")).content.decode()
    detail = client.get(reverse("club:detail", args=["drachen"])).content.decode()
    assert "Spring league" in detail
    table = client.get(reverse("club:league", args=["drachen", league.pk])).content.decode()
    assert table.index("Jan Muster") < table.index("Kai Muster")  # Jan won 4 han first
    ratings = client.get(reverse("club:ratings", args=["drachen"])).content.decode()
    assert "Ina Muster" in ratings and "21.0" in ratings  # mu - 3 sigma


def test_language_switcher_and_german_page(client: Client, tournament: Tournament) -> None:
    html = client.get(reverse("tournaments:list")).content.decode()
    assert 'name="language"' in html
    response = client.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="de")
    assert "Turniere" in response.content.decode()
