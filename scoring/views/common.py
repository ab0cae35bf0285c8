"""What the referee pages share: the game read for editing, whether it takes scores now,
whether it may end on time, a service error shown on its form field."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from core.errors import ValidationFailed
from scoring.forms import (
    HandEntryForm,
    field_for_engine_error,
)
from scoring.models import Game
from scoring.policy import OnTime, can_edit_game, policy_for
from scoring.selectors import (
    game_for_answer,
    is_visible,
)
from scoring.services._common import require_open_session


def _game_for_editing(request: HttpRequest, game_id: int, *, rows: bool = False) -> Game:
    game = game_for_answer(game_id, rows=rows)
    if game is None:
        raise Http404("No such game.")
    if not can_edit_game(request.user, game):
        # Issue 16: a draft tournament's game is not found (404) by whoever may not see it.
        if not is_visible(request.user, game):
            raise Http404("No such game.")
        raise PermissionDenied(_("You are not a referee of this game."))
    return game


def locked_message(user: Any, game: Game) -> str | None:
    """Why this tournament game takes no scores now (session not started or closed, results
    final or published: issue 15), or None."""

    try:
        require_open_session(user, game)
    except ValidationFailed as exc:
        return exc.message
    return None


def time_signal_state(user: Any, game: Game) -> OnTime | None:
    """Whether "finalize on time" is offered (EMA 2025 7.4): the game's policy decides (for a
    tournament game: after the session's time signal, or to an organiser at any time); None
    while the game takes no change."""
    try:
        return policy_for(game)[0].check_open(user, game, on_time=True)
    except ValidationFailed:
        return None


def _apply_error(form: HandEntryForm, error: Exception) -> None:
    """Put a service/engine error next to the field it names (or at the top)."""
    path = getattr(error, "field", None) or ""
    message = getattr(error, "message", None) or str(error)
    # Typed tiles that are no hand: next to the tiles field, as the preview shows it.
    field = "tiles" if path == "tiles" else field_for_engine_error(str(path), form.hand)
    if field in form.fields:
        form.add_error(field, message)
    else:
        form.add_error(None, message)
