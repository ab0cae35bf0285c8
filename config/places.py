"""`{% load places %}` on scoring's pages: what a page calls where a game is played, whether
its entry page offers to reopen it, and which games a user's start page lists, as the apps
owning the games say them (tournaments.places, club.places).

Scoring's templates load this library by name and name no field of those apps (issue 14);
scoring's code imports neither. The layer above both composes them here, and only here:
settings.TEMPLATES registers the library.
"""

from __future__ import annotations

from typing import Any

from django import template

from club.places import night_labels, playing_club_games
from scoring.models import Game
from scoring.selectors import PlaceLabels
from tournaments import places as tables

register = template.Library()


@register.simple_tag
def game_place(game: Game) -> PlaceLabels:
    """`{% game_place game as place %}`: `place.title`, `.heading`, `.line`, `.detail`."""
    return night_labels(game) or tables.table_labels(game) or PlaceLabels()


@register.simple_tag
def offers_reopen(game: Game) -> bool:
    """`{% offers_reopen game as reopen %}`: a finished tournament table's game is reopened
    from its entry page (a club game is not)."""
    return tables.offers_reopen(game)


@register.simple_tag(takes_context=True)
def home_games(context: template.Context) -> dict[str, list[Game]]:
    """`{% home_games as lists %}`: the referee start page's lists: `games`, the tournament
    tables the user referees; `club_games`, the club games where the user sits."""
    user: Any = context["request"].user
    return {"games": tables.refereed_games(user), "club_games": playing_club_games(user)}
