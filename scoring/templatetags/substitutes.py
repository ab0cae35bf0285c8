"""`{% load substitutes %}{% game_substitutes game as notes %}`: whom each substitute at a
game replaces, from hand n or from the start (EMA 2025 7.3; scoring.substitutions)."""

from __future__ import annotations

from django import template

from scoring.models import Game
from scoring.substitutions import SubstituteNote, substitute_notes

register = template.Library()


@register.simple_tag
def game_substitutes(game: Game) -> list[SubstituteNote]:
    return substitute_notes(game)
