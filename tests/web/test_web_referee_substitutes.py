"""Issue 31: the referee's table list and the hand-entry header say whom a substitute
replaces, from the start or from hand n (EMA 2025 7.3: "As long as the player cannot play, a
substitute player will take their place"), read from the game's own `substitutes`."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import enter_hand
from tests.factories import PlayerFactory, non_dealer_rons
from tournaments.services import substitute_player

pytestmark = pytest.mark.django_db


def _table_item(html: str, game: Any) -> str:
    link = f'href="{reverse("scoring:entry", args=[game.pk])}"'
    return html.split(link)[1].split("</li>")[0]


def test_substitute_from_the_start_is_named_on_list_and_entry(
    referee: Any, referee_client: Client, game: Any
) -> None:
    sam = PlayerFactory(first_name="Sam", last_name="Stand-in")
    game = substitute_player(actor=referee, game=game, seat=1, substitute=sam,
                             reason="ill", from_="start")  # fmt: skip

    listed = _table_item(referee_client.get(reverse("scoring:referee")).content.decode(), game)
    assert "Sam Stand-in" in listed  # the game's seat: who plays there now
    assert "for Ben Berg, from the start" in listed.split('class="small substitutes"')[1]

    entry = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    header = entry.split('id="substitutes"')[1].split("</p>")[0]
    assert 'data-seat="1"' in header and "Sam Stand-in" in header
    assert "for Ben Berg, from the start" in header


def test_substitute_during_the_game_says_from_which_hand(
    referee: Any, referee_client: Client, game: Any
) -> None:
    for hand in non_dealer_rons(2):
        game = enter_hand(actor=referee, game=game, hand=hand, expected_version=game.version).game
    sam = PlayerFactory(first_name="Sam", last_name="Stand-in")
    game = substitute_player(actor=referee, game=game, seat=2, substitute=sam,
                             reason="ill", from_="during")  # fmt: skip

    listed = _table_item(referee_client.get(reverse("scoring:referee")).content.decode(), game)
    assert "Sam Stand-in" in listed and "for Clara Claus, from hand 3" in listed

    entry = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    header = entry.split('id="substitutes"')[1].split("</p>")[0]
    assert 'data-seat="2"' in header and "for Clara Claus, from hand 3" in header


def test_no_substitute_no_note(referee_client: Client, game: Any) -> None:
    listed = referee_client.get(reverse("scoring:referee")).content.decode()
    entry = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert "substitutes" not in _table_item(listed, game)
    assert 'id="substitutes"' not in entry
