"""Ending a game: the paper score sheet, finalize (on time: EMA 2025 7.4), reopen."""

from __future__ import annotations

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
from scoring.engine import RecordError
from scoring.forms import (
    PaperSheetForm,
    ReasonForm,
    VersionForm,
)
from scoring.selectors import (
    paper_sheet_initial,
    table_state,
)
from scoring.services import (
    enter_final_scores,
    finalize_game,
    reopen_game,
)

from .common import _game_for_editing, time_signal_state


@login_required
def game_paper_sheet(request: HttpRequest, game_id: int) -> HttpResponse:
    """A table that played on paper: enter the final scores from its score sheet (EMA 2025
    7.5), the riichi sticks left and the chombos; the engine checks the scores add up and
    applies uma, oka and the sticks (EMA 2025 3.7)."""
    game = _game_for_editing(request, game_id)
    state = table_state(game)
    rules = state.rules
    chombo_points = rules.chombo.points if rules.chombo.mode == "penalty" else None
    initial = paper_sheet_initial(game)
    form = PaperSheetForm(
        request.POST or None,
        players=state.players,
        chombo_points=chombo_points,
        initial=initial,
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                enter_final_scores(
                    actor=request.user,
                    game=game,
                    scores=form.scores(),
                    riichi_sticks_left=form.cleaned_data["riichi_sticks_left"],
                    chombos=form.chombos(),
                    expected_version=form.cleaned_data["expected_version"],
                )
            except ConflictError:
                form.add_error(None, _("The game changed meanwhile; check the table and retry."))
                status = 409
            except ServicePermissionDenied as exc:
                raise PermissionDenied(exc.message) from exc
            except (ServiceError, RecordError) as exc:
                field = getattr(exc, "field", None) or ""
                message = getattr(exc, "message", None) or str(exc)
                target = "riichi_sticks_left" if "riichi" in field else None
                form.add_error(target, message)
            else:
                messages.success(
                    request, _("Final scores saved. Check the result, then finalize the game.")
                )
                return redirect("scoring:entry", game_id=game.pk)
    context = {
        "game": game,
        "state": state,
        "form": form,
        "chombo_points": chombo_points,
        "total": rules.start_points * len(state.players),
    }
    return render(request, "scoring/paper_sheet.html", context, status=status)


def _game_action_with_reason(
    request: HttpRequest, game_id: int, action: Any, *, missing: str, done: str
) -> HttpResponse:
    """Run a game write that takes a reason and the version the page showed (audited by the
    service); its refusals become messages on the entry page."""
    game = _game_for_editing(request, game_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, missing)
        return redirect("scoring:entry", game_id=game.pk)
    try:
        action(
            actor=request.user,
            game=game,
            expected_version=form.cleaned_data["expected_version"],
            reason=form.cleaned_data["reason"],
        )
    except ConflictError:
        messages.error(request, _("The game changed meanwhile; check the table and retry."))
    except ServicePermissionDenied as exc:
        raise PermissionDenied(exc.message) from exc
    except (ServiceError, RecordError) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
    else:
        messages.success(request, done)
    return redirect("scoring:entry", game_id=game.pk)


@login_required
@require_POST
def game_finalize(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_for_editing(request, game_id)
    form = VersionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Reload the page and try again."))
        return redirect("scoring:entry", game_id=game.pk)

    # "time": the session stopped before the rules ended the game (EMA 2025 7.4).
    end = "time" if request.POST.get("end") == "time" else None
    reason = (request.POST.get("reason") or "").strip()
    if end == "time":
        on_time = time_signal_state(request.user, game)
        # Issue 33: an organiser ending a game before the signal with no reason saw the page
        # again with no word of why: say it next to the field.
        missing = (
            request.POST.get("confirm") == "yes"
            and on_time is not None
            and on_time.override
            and not reason
        )
        if request.POST.get("confirm") != "yes" or missing:
            # Ending a game on time cannot be taken back by the referee: a confirmation first.
            context = {
                "game": game,
                "state": table_state(game),
                "expected_version": form.cleaned_data["expected_version"],
                "on_time": on_time,
                "reason_error": _("Give a reason to end the game before the time signal.")
                if missing
                else None,
            }
            return render(
                request, "scoring/confirm_finalize.html", context, status=400 if missing else 200
            )
    try:
        finalize_game(
            actor=request.user,
            game=game,
            expected_version=form.cleaned_data["expected_version"],
            end=end,
            reason=reason,
        )
    except ConflictError:
        messages.error(request, _("The game changed meanwhile; check the table and retry."))
    except ServicePermissionDenied as exc:
        raise PermissionDenied(exc.message) from exc
    except (ServiceError, RecordError) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
    else:
        game.refresh_from_db(fields=["confirmed"])
        if game.confirmed:
            messages.success(request, _("Game finalized: the result counts for the standings."))
        else:
            messages.success(
                request, _("Game finalized: it counts once the other players confirm it.")
            )
    return redirect("scoring:entry", game_id=game.pk)


@login_required
@require_POST
def game_reopen(request: HttpRequest, game_id: int) -> HttpResponse:
    """Reopen a finalized game (with a reason, audited), e.g. one finalized on time by mistake;
    refused once the session is closed (issue 15: an organiser reopens the session first)."""

    return _game_action_with_reason(
        request,
        game_id,
        reopen_game,
        missing=_("Give a reason to reopen the game."),
        done=_("Game reopened: its result does not count until finalized."),
    )
