"""Hand by hand at the table: the live payment preview, entering a hand (the one hand write,
scoring.services.enter_hand), correcting one, deleting the last."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ConflictError, ServiceError
from core.errors import PermissionDenied as ServicePermissionDenied
from scoring.engine import RecordError
from scoring.forms import (
    HandEntryForm,
    ReasonForm,
)
from scoring.models import Game
from scoring.records import StoredGame, stored_game_from
from scoring.selectors import (
    TableState,
    chombo_points,
    hands_played,
    offers_time_signal,
    settled_game,
    table_state,
    tile_warnings,
    waiting_entry,
    waiting_hands,
)
from scoring.services import (
    correct_hand,
    delete_last_hand,
    enter_hand,
    preview,
)
from scoring.tiles import TileError

from .common import _apply_error, _game_for_editing, locked_message, time_signal_state
from .entry import _entry_context
from .finish import _game_action_with_reason


def _tile_warnings(form: HandEntryForm, state: TableState) -> list[str]:
    """The payment preview's cross-check of typed tiles against the entered han/fu (warnings;
    the referee decides). Saving a hand evaluates the tiles in the service instead."""
    try:
        return tile_warnings(state, form.hand, form.cleaned_data.get("tiles") or "")
    except TileError as exc:
        form.add_error("tiles", getattr(exc, "message", str(exc)))
        return []


@login_required
@require_POST
def game_preview(request: HttpRequest, game_id: int) -> HttpResponse:
    """htmx: what the entered hand pays, and the scores after it; nothing is saved."""
    game = _game_for_editing(request, game_id)
    state = table_state(game)
    form = HandEntryForm(
        request.POST,
        players=state.players,
        rules=state.rules,
        offer_time_signal=offers_time_signal(state),
    )
    return render(request, "scoring/_preview.html", _preview_context(game, state, form))


def _preview_context(
    game: Game, state: TableState, form: HandEntryForm, *, at: int | None = None
) -> dict[str, Any]:
    context: dict[str, Any] = {"game": game, "state": state, "form": form}
    if form.is_valid():
        context["warnings"] = _tile_warnings(form, state)

        try:
            result = preview(game=game, hand=form.hand, at=at)
        except (ServiceError, RecordError) as exc:
            _apply_error(form, exc)
        else:
            # preview_hand: the new hand's replay entry plus final / ended_by / next.
            after = result["hands"][-1] if "hands" in result else result
            context["after"] = [
                {"name": name, "delta": after["deltas"][i], "score": after["scores"][i]}
                for i, name in enumerate(state.players)
            ]
            context["changes"] = [row for row in context["after"] if row["delta"]]
            if form.hand.get("outcome") == "chombo":
                # EMA 2025 3.4.6: nothing is paid at the table (only returned riichi sticks);
                # the offender loses the chombo's points after uma. Say so, never just "No
                # points change hands".
                offender = form.hand.get("offender")
                context["chombo"] = {
                    "name": state.players[offender] if isinstance(offender, int) else "?",
                    "points": chombo_points(state.rules),
                }
            context["ends_game"] = result.get("next") is None
            context["ended_by"] = result.get("ended_by")
            context["final"] = result.get("final")
            # EMA 2025 7.4: marking this hand leaves exactly one more hand to play.
            context["one_more_hand"] = (
                form.hand.get("time_signal") is True
                and state.time_limit_ema
                and not context["ends_game"]
            )
    return context


@login_required
@require_POST
def game_add_hand(request: HttpRequest, game_id: int) -> HttpResponse:
    """Save a hand through the one hand-entry path (scoring.services.enter_hand): one replay,
    one evaluation of the typed tiles, whose mismatches come back as warnings."""
    # The seats and hands the form needs come with the game (one round trip, issue 33.4).
    game = _game_for_editing(request, game_id, rows=True)
    state = table_state(game, stored=stored_game_from(game))
    form = HandEntryForm(
        request.POST,
        players=state.players,
        rules=state.rules,
        offer_time_signal=offers_time_signal(state),
    )
    if not form.is_valid():
        return render(
            request, "scoring/entry.html", _entry_context(game, form, user=request.user), status=400
        )

    try:
        entry = enter_hand(
            actor=request.user,
            game=game,
            hand=form.hand,
            expected_version=form.cleaned_data["expected_version"],
            tiles=form.cleaned_data.get("tiles") or "",
        )
    except ConflictError:
        return _conflict(request, game, form)
    except ServicePermissionDenied as exc:
        raise PermissionDenied(exc.message) from exc
    except (ServiceError, RecordError) as exc:
        _apply_error(form, exc)
        return render(
            request, "scoring/entry.html", _entry_context(game, form, user=request.user), status=400
        )
    for warning in entry.mismatches:
        messages.warning(request, warning)
    messages.success(request, _("Hand saved."))
    if request.headers.get("X-Hanchan-Swap") == "1":
        # Issue 33: the phone swaps the saved table in (static/js/offline.js): one request,
        # no redirect and no whole page load.
        return _saved_swap(request, entry.game)
    return redirect("scoring:entry", game_id=game.pk)


def _saved_swap(request: HttpRequest, game: Game) -> HttpResponse:
    """Confirm's answer to the phone: while the game goes on, only what a saved hand changes
    (scoreboard, hand list, waiting hands, actions, the new expected_version: a small fragment,
    far less to render than the page and its form); once the game is over, finished or locked,
    the whole entry page as game_entry renders it (its shape changes).

    `game` is the one enter_hand wrote and answers with (its seats and hands loaded): nothing
    is read again but whether the session still takes scores (issue 33.4: the saved table
    was read twice per Confirm)."""
    stored = StoredGame(seats=list(game.seats.all()), hands=list(game.hands.all()), penalties=[])
    state = table_state(game, stored=stored)
    locked = locked_message(request.user, game)
    if (
        game.status == Game.Status.FINISHED
        or game.entry == Game.Entry.FINAL_SCORES
        or state.over
        or locked
    ):
        context = _entry_context(game, user=request.user)
        context["waiting"] = waiting_hands(request.user, game, context["state"])
        context["waiting_entry"] = waiting_entry(request.user, game)
        return render(request, "scoring/entry.html", context)
    context = {
        "game": game,
        "state": state,
        "offers_time_signal": offers_time_signal(state),
        "waiting": waiting_hands(request.user, game, state, hands=stored.hands),
        "last_hand": state.hands[-1] if state.hands else None,
        "locked": None,
        "on_time": time_signal_state(request.user, game),
    }
    return render(request, "scoring/_entry_swap.html", context)


def _conflict(request: HttpRequest, game: Game, form: HandEntryForm) -> HttpResponse:
    """Someone else wrote first: show the current table and let the referee confirm again.

    The table shown and the version the form carries are read, and the page rendered, under
    the game's lock (scoring.selectors.settled_game): one committed state, so confirming again
    enters the hand after the table the referee sees, never after a hand the page left out."""
    with settled_game(game.pk) as current:
        if current is None:
            raise Http404("No such game.")
        data = request.POST.copy()
        data["expected_version"] = str(current.version)
        state = table_state(current)
        fresh = HandEntryForm(
            data,
            players=state.players,
            rules=state.rules,
            offer_time_signal=offers_time_signal(state),
        )
        fresh.is_valid()
        return render(
            request,
            "scoring/entry.html",
            _entry_context(current, fresh, user=request.user, conflict=True),
            status=409,
        )


def _hand_initial(hand: dict[str, Any]) -> dict[str, Any]:
    """Form initial values from a stored hand (for editing the last hand)."""
    initial: dict[str, Any] = {
        "outcome": hand.get("outcome"),
        "riichi": [str(s) for s in hand.get("riichi", [])],
        "tenpai": [str(s) for s in hand.get("tenpai", [])],
        "nagashi": [str(s) for s in hand.get("nagashi", [])],
        "winners": [str(w["winner"]) for w in hand.get("wins", [])],
    }
    if "loser" in hand:
        initial["loser"] = str(hand["loser"])
    if "offender" in hand:
        initial["offender"] = str(hand["offender"])
    if hand.get("time_signal") is True:
        initial["time_signal"] = True  # EMA 2025 7.4
    for win in hand.get("wins", []):
        seat = win["winner"]
        for key in ("han", "fu", "yakuman", "pao"):
            if win.get(key) is not None:
                initial[f"{key}_{seat}"] = str(win[key])
    return initial


@login_required
def game_edit_last(request: HttpRequest, game_id: int) -> HttpResponse:
    """Correct the last hand (kept for old links): the page of any hand's correction."""
    game = _game_for_editing(request, game_id)
    count = hands_played(game)
    if not count:
        messages.error(request, _("There is no hand to edit yet."))
        return redirect("scoring:entry", game_id=game.pk)
    return game_edit_hand(request, game_id, count)


@login_required
def game_edit_hand(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """Correct hand `number` (1-based, as listed), with a reason kept in the audit trail. The
    scoreboard shows the table as it stood before that hand; the preview what it pays then;
    later hands are replayed on top of the correction when it is saved."""
    game = _game_for_editing(request, game_id)
    locked = locked_message(request.user, game)
    if locked:
        messages.error(request, locked)  # issue 15: no correction once the results are locked
        return redirect("scoring:entry", game_id=game.pk)
    full = table_state(game)
    if not 1 <= number <= len(full.hands):
        messages.error(request, _("There is no such hand to correct."))
        return redirect("scoring:entry", game_id=game.pk)
    index = number - 1
    editing = full.hands[index]
    state = table_state(game, upto=index)
    reason_form = ReasonForm(request.POST or None, initial={"expected_version": game.version})
    offer = offers_time_signal(full, editing=index)
    status = 200
    if request.method == "POST":
        form = HandEntryForm(
            request.POST, players=state.players, rules=state.rules, offer_time_signal=offer
        )
        if form.is_valid() and reason_form.is_valid():
            try:
                correct_hand(
                    actor=request.user,
                    game=game,
                    number=index,
                    hand=form.hand,
                    expected_version=form.cleaned_data["expected_version"],
                    reason=reason_form.cleaned_data["reason"],
                )
            except ConflictError:
                return _edit_conflict(request, game.pk, number, reason_form)
            except ServicePermissionDenied as exc:
                raise PermissionDenied(exc.message) from exc
            except (ServiceError, RecordError) as exc:
                _apply_error(form, exc)
                status = 400
            else:
                messages.success(request, _("Hand corrected."))
                return redirect("scoring:entry", game_id=game.pk)
        else:
            status = 400
    else:
        form = HandEntryForm(
            players=state.players,
            rules=state.rules,
            initial={**_hand_initial(editing["data"]), "expected_version": game.version},
            offer_time_signal=offer,
        )
    return _edit_page(request, game, full, state, form, reason_form, number, status=status)


def _edit_conflict(
    request: HttpRequest, game_id: int, number: int, reason_form: ReasonForm
) -> HttpResponse:
    """Someone else wrote first: the correction page again, with the current table, the hand
    as it is now recorded and the current version, so saving again corrects what the referee
    sees.

    As the entry page's and the API's answers to a lost race (_conflict,
    scoring.api.views.base): read, and the page rendered, under the game's lock
    (scoring.selectors.settled_game), one committed state. Read without it, a write committed
    between the game row and its hands gave a form version that did not belong to the hands
    shown."""
    index = number - 1
    with settled_game(game_id) as current:
        if current is None:
            raise Http404("No such game.")
        full = table_state(current)
        if not 1 <= number <= len(full.hands):
            messages.error(request, _("There is no such hand to correct."))
            return redirect("scoring:entry", game_id=current.pk)
        state = table_state(current, upto=index)
        data = request.POST.copy()
        data["expected_version"] = str(current.version)
        form = HandEntryForm(
            data,
            players=state.players,
            rules=state.rules,
            offer_time_signal=offers_time_signal(full, editing=index),
        )
        form.is_valid()
        form.add_error(None, _("The game changed meanwhile; check the table and retry."))
        return _edit_page(request, current, full, state, form, reason_form, number, status=409)


def _edit_page(
    request: HttpRequest,
    game: Game,
    full: TableState,
    state: TableState,
    form: HandEntryForm,
    reason_form: ReasonForm,
    number: int,
    *,
    status: int,
) -> HttpResponse:
    """The correction page of hand `number`: `full` the whole table, `state` the table before
    that hand."""
    context = {
        "game": game,
        "state": state,
        "form": form,
        "seat_blocks": form.seat_blocks(),
        "reason_form": reason_form,
        "editing": full.hands[number - 1],
        "number": number,
        "later": len(full.hands) - number,
    }
    return render(request, "scoring/edit_last.html", context, status=status)


@login_required
@require_POST
def game_edit_preview(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """htmx: what the corrected hand `number` pays, from the table as it stood before it."""
    game = _game_for_editing(request, game_id)
    index = number - 1
    state = table_state(game, upto=index)
    form = HandEntryForm(
        request.POST,
        players=state.players,
        rules=state.rules,
        offer_time_signal=offers_time_signal(table_state(game), editing=index),
    )
    return render(request, "scoring/_preview.html", _preview_context(game, state, form, at=index))


@login_required
@require_POST
def game_delete_last(request: HttpRequest, game_id: int) -> HttpResponse:

    return _game_action_with_reason(
        request,
        game_id,
        delete_last_hand,
        missing=_("Give a reason to delete the last hand."),
        done=_("Last hand deleted."),
    )
