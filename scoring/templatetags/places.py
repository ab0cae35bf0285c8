"""`{% load places %}{% game_place game as place %}`: what pages call where a game is played
(`place.title`, `place.heading`, `place.line`, `place.detail`), as the app owning the game
says (scoring.places.GamePlace.labels): scoring's templates name no field of tournaments or
clubs (issue 14)."""

from __future__ import annotations

from django import template

from scoring.models import Game
from scoring.places import PlaceLabels, place_of

register = template.Library()


@register.simple_tag
def game_place(game: Game) -> PlaceLabels:
    return place_of(game).labels(game)
