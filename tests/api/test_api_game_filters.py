"""The game list's filters by place come from the apps owning the places (scoring.policy
`api_filters`: tournaments' `tournament` and `session`, club's `club_night` and `club`);
scoring names none of their fields (issue 14)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.api.views import game_filter

pytestmark = pytest.mark.django_db


def listed(world: Any, **query: Any) -> set[int]:
    response = world.client("admin").get("/api/v1/games/", query)
    assert response.status_code == 200, response.content
    body = response.json()
    rows = body["results"] if isinstance(body, dict) else body
    return {row["id"] for row in rows}


def test_each_place_filter_lists_the_games_played_there(world: Any) -> None:
    tournament_game, club_game = world.game.pk, world.club_game.pk
    assert {tournament_game, club_game} <= listed(world)
    assert listed(world, tournament=world.tournament.slug) == {tournament_game}
    assert listed(world, session=world.session.pk) == {tournament_game}
    assert listed(world, club_night=world.night.pk) == {club_game}
    assert listed(world, club=world.club.slug) == {club_game}
    assert listed(world, tournament="no-such-slug") == set()


def test_the_filter_set_has_the_apps_filters_and_its_own() -> None:
    names = set(game_filter().base_filters)
    assert names == {"tournament", "session", "club_night", "club", "player", "status"}
