"""A game for anyone: its public page and its record file."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.records import game_record as record_of
from scoring.records import stored_game_from
from scoring.selectors import (
    public_game,
    table_state,
    visible_games,
)


def game_public(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game hand by hand, for anyone (players look up their games); a draft tournament's
    games for its staff only (the one visibility rule, shared with the API)."""
    game = public_game(request.user, game_id)
    if game is None:
        raise Http404("No such game.")
    state = table_state(game, stored=stored_game_from(game))
    return render(request, "scoring/game.html", {"game": game, "state": state})


def game_record_download(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game as a riichi-game-record/1 JSON file (scoring.records.game_record)."""
    game = get_object_or_404(visible_games(request.user), pk=game_id)
    response = HttpResponse(
        json.dumps(record_of(game), ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response
