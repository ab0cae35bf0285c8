"""The referee start page and a table's entry page; club play's confirmations of a hand or of
the game's paper sheet or finish."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ConflictError, ServiceError
from core.errors import PermissionDenied as ServicePermissionDenied
from scoring.forms import (
    HandEntryForm,
    ReasonForm,
)
from scoring.models import Game
from scoring.selectors import (
    offers_time_signal,
    table_state,
    waiting_entry,
    waiting_hands,
)
from scoring.services import (
    confirm_game,
    confirm_hand,
)

from .common import _game_for_editing, locked_message, time_signal_state


@login_required
def referee_home(request: HttpRequest) -> HttpResponse:
    # Each app lists its own games (config.places: tournament tables, club games).
    return render(request, "scoring/referee_home.html")


def _entry_context(
    game: Game, form: HandEntryForm | None = None, *, user: Any = None, **extra: Any
) -> dict[str, Any]:
    state = table_state(game)
    if form is None:
        form = HandEntryForm(
            players=state.players,
            rules=state.rules,
            initial={"expected_version": game.version},
            offer_time_signal=offers_time_signal(state),
        )
    return {
        "game": game,
        "state": state,
        "form": form,
        "seat_blocks": form.seat_blocks(),
        "reason_form": ReasonForm(initial={"expected_version": game.version}),
        "last_hand": state.hands[-1] if state.hands else None,
        "locked": locked_message(user, game) if user is not None else None,
        "on_time": time_signal_state(user, game) if user is not None else None,
        **extra,
    }


@login_required
def game_entry(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_for_editing(request, game_id)
    context = _entry_context(game, user=request.user)
    context["waiting"] = waiting_hands(request.user, game, context["state"])
    context["waiting_entry"] = waiting_entry(request.user, game)
    return render(request, "scoring/entry.html", context)


def _confirmed(
    request: HttpRequest,
    game: Game,
    confirm: Callable[[int], object],
    *,
    changed: str,
    done: str,
) -> HttpResponse:
    """Run a seated player's confirmation against the posted version and say how it went."""
    try:
        version = int(request.POST.get("expected_version", ""))
    except ValueError:
        version = -1
    try:
        confirm(version)
    except ServicePermissionDenied as exc:
        raise PermissionDenied(exc.message) from exc
    except ConflictError:
        messages.error(request, changed)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect("scoring:entry", game_id=game.pk)


@login_required
@require_POST
def game_confirm(request: HttpRequest, game_id: int) -> HttpResponse:
    """A seated player confirms the paper score sheet or finish another player entered."""
    game = _game_for_editing(request, game_id)
    return _confirmed(
        request,
        game,
        lambda version: confirm_game(actor=request.user, game=game, expected_version=version),
        changed=_("The game changed meanwhile: check it and confirm again."),
        done=_("Game confirmed."),
    )


@login_required
@require_POST
def game_confirm_hand(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """A seated player confirms a hand another player entered (club play without a referee)."""
    game = _game_for_editing(request, game_id)
    return _confirmed(
        request,
        game,
        lambda version: confirm_hand(
            actor=request.user, game=game, number=number, expected_version=version
        ),
        changed=_("The game changed meanwhile: check the hand and confirm again."),
        done=_("Hand confirmed."),
    )
