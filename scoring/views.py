"""Referee pages: pick a table, enter hands with a live payment preview, correct, finalize.

Views parse input, call scoring.services and render; every rule check is the engine's.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ConflictError, ServiceError, ValidationFailed
from core.errors import PermissionDenied as ServicePermissionDenied
from core.roles import player_of
from scoring.engine import RecordError
from scoring.forms import (
    HandEntryForm,
    PaperSheetForm,
    ReasonForm,
    VersionForm,
    field_for_engine_error,
)
from scoring.models import Game
from scoring.policy import can_edit_game, game_relations, home_games, policy_for
from scoring.records import game_record as record_of
from scoring.records import stored_game_from, stored_rows_annotations
from scoring.selectors import (
    WINDS,
    TableState,
    chombo_points,
    offers_time_signal,
    table_state,
    visible_games,
)
from scoring.services import (
    confirm_game,
    confirm_hand,
    correct_hand,
    delete_last_hand,
    enter_final_scores,
    enter_hand,
    finalize_game,
    preview,
    reopen_game,
)
from scoring.services._common import require_open_session
from scoring.tiles import Situation, TileError, cross_check, evaluate

# ---------------------------------------------------------------- reads (scoring.selectors)


def _game_for_editing(request: HttpRequest, game_id: int) -> Game:
    game = get_object_or_404(Game.objects.select_related(*game_relations()), pk=game_id)
    if not can_edit_game(request.user, game):
        # Issue 16: a draft tournament's game is not found (404) by whoever may not see it.
        if not visible_games(request.user).filter(pk=game.pk).exists():
            raise Http404("No such game.")
        raise PermissionDenied(_("You are not a referee of this game."))
    return game


# ---------------------------------------------------------------- pages


@login_required
def referee_home(request: HttpRequest) -> HttpResponse:
    # Each app lists its games (scoring.policy.home_games): tournament tables, club games.
    return render(request, "scoring/referee_home.html", home_games(request.user))


def locked_message(user: Any, game: Game) -> str | None:
    """Why this tournament game takes no scores now (session not started or closed, results
    final or published: issue 15), or None."""

    try:
        require_open_session(user, game)
    except ValidationFailed as exc:
        return exc.message
    return None


def time_signal_state(user: Any, game: Game) -> dict[str, Any]:
    """Whether "finalize on time" is offered (EMA 2025 7.4): the game's policy decides (for a
    tournament game: after the session's time signal, or to an organiser at any time)."""
    return policy_for(game).time_signal_state(user, game)


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
        "offers_reopen": policy_for(game).offers_reopen,
        **extra,
    }


def _waiting_hands(request: HttpRequest, game: Game, state: TableState) -> list[dict[str, Any]]:
    """Club play without a referee: hands waiting for confirmation, and whether this user
    (a seated player who did not enter it and has not confirmed yet) may confirm each."""
    me = player_of(request.user)
    seated = me is not None and game.seats.filter(player=me).exists()
    rows = []
    for hand in game.hands.filter(confirmed=False).order_by("number"):
        summary = state.hands[hand.number]["summary"] if hand.number < len(state.hands) else ""
        rows.append(
            {
                "number": hand.number,
                "summary": summary,
                "confirmed_by": len(hand.confirmed_by),
                "may_confirm": seated
                and hand.entered_by_id != request.user.pk
                and me is not None
                and me.pk not in hand.confirmed_by,
            }
        )
    return rows


def _waiting_entry(request: HttpRequest, game: Game) -> dict[str, Any] | None:
    """The paper score sheet or finish a seated player entered, waiting for the others
    (issue 30.3), and whether this user may confirm it; None when nothing waits."""
    if game.entry_confirmed:
        return None
    me = player_of(request.user)
    return {
        "confirmed_by": len(game.confirmed_by),
        "may_confirm": me is not None
        and game.entered_by_id != request.user.pk
        and me.pk not in game.confirmed_by
        and game.seats.filter(player=me).exists(),
    }


@login_required
def game_entry(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_for_editing(request, game_id)
    context = _entry_context(game, user=request.user)
    context["waiting"] = _waiting_hands(request, game, context["state"])
    context["waiting_entry"] = _waiting_entry(request, game)
    return render(request, "scoring/entry.html", context)


@login_required
@require_POST
def game_confirm(request: HttpRequest, game_id: int) -> HttpResponse:
    """A seated player confirms the paper score sheet or finish another player entered."""
    game = _game_for_editing(request, game_id)
    try:
        version = int(request.POST.get("expected_version", ""))
    except ValueError:
        version = -1
    try:
        confirm_game(actor=request.user, game=game, expected_version=version)
    except ServicePermissionDenied as exc:
        raise PermissionDenied(exc.message) from exc
    except ConflictError:
        messages.error(request, _("The game changed meanwhile: check it and confirm again."))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Game confirmed."))
    return redirect("scoring:entry", game_id=game.pk)


@login_required
@require_POST
def game_confirm_hand(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """A seated player confirms a hand another player entered (club play without a referee)."""
    game = _game_for_editing(request, game_id)

    try:
        version = int(request.POST.get("expected_version", ""))
    except ValueError:
        version = -1
    try:
        confirm_hand(actor=request.user, game=game, number=number, expected_version=version)
    except ServicePermissionDenied as exc:
        raise PermissionDenied(exc.message) from exc
    except ConflictError:
        messages.error(request, _("The game changed meanwhile: check the hand and confirm again."))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Hand confirmed."))
    return redirect("scoring:entry", game_id=game.pk)


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


def _tile_warnings(game: Game, form: HandEntryForm, state: TableState) -> list[str]:
    """The payment preview's cross-check of typed tiles against the entered han/fu (warnings;
    the referee decides). Saving a hand evaluates the tiles in the service instead."""
    tiles = form.cleaned_data.get("tiles") or ""
    hand = form.hand
    if not tiles or not hand.get("wins"):
        return []

    win = hand["wins"][0]
    seat = win["winner"]
    situation = Situation(
        tsumo=hand["outcome"] == "tsumo",
        riichi=seat in hand.get("riichi", []),
        seat_wind=WINDS[(seat - state.dealer) % len(state.players)],
        round_wind=str(state.round)[:1] or "E",
    )
    try:
        evaluation = evaluate(tiles, rules=state.rules, situation=situation)
    except TileError as exc:
        form.add_error("tiles", getattr(exc, "message", str(exc)))
        return []
    return cross_check(
        evaluation, han=win.get("han"), fu=win.get("fu"), yakuman=win.get("yakuman", 0)
    )


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
        context["warnings"] = _tile_warnings(game, form, state)

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
    game = _game_for_editing(request, game_id)
    state = table_state(game)
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
        # Issue 33: the phone swaps the saved page in (static/js/offline.js): one request,
        # no redirect and no whole page load.
        return game_entry(request, game.pk)
    return redirect("scoring:entry", game_id=game.pk)


def _conflict(request: HttpRequest, game: Game, form: HandEntryForm) -> HttpResponse:
    """Someone else wrote first: show the current table and let the referee confirm again."""
    game.refresh_from_db()
    data = request.POST.copy()
    data["expected_version"] = str(game.version)
    state = table_state(game)
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
        _entry_context(game, fresh, user=request.user, conflict=True),
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
    count = game.hands.count()
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
                # Show the current table; the form now carries the current version.
                game.refresh_from_db()
                state = table_state(game, upto=index)
                data = request.POST.copy()
                data["expected_version"] = str(game.version)
                form = HandEntryForm(
                    data,
                    players=state.players,
                    rules=state.rules,
                    offer_time_signal=offers_time_signal(table_state(game), editing=index),
                )
                form.is_valid()
                form.add_error(None, _("The game changed meanwhile; check the table and retry."))
                status = 409
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
    context = {
        "game": game,
        "state": state,
        "form": form,
        "seat_blocks": form.seat_blocks(),
        "reason_form": reason_form,
        "editing": editing,
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
def game_paper_sheet(request: HttpRequest, game_id: int) -> HttpResponse:
    """A table that played on paper: enter the final scores from its score sheet (EMA 2025
    7.5), the riichi sticks left and the chombos; the engine checks the scores add up and
    applies uma, oka and the sticks (EMA 2025 3.7)."""
    game = _game_for_editing(request, game_id)
    state = table_state(game)
    rules = state.rules
    chombo_points = rules.chombo.points if rules.chombo.mode == "penalty" else None
    stored = game.final_scores or {}
    initial: dict[str, Any] = {
        "expected_version": game.version,
        "riichi_sticks_left": stored.get("riichi_sticks_left", 0),
    }
    for seat, score in enumerate(stored.get("scores") or []):
        initial[f"score_{seat}"] = score
    for penalty in game.penalties.filter(kind="chombo"):
        key = f"chombo_{penalty.seat}"
        initial[key] = initial.get(key, 0) + 1
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
        missing = request.POST.get("confirm") == "yes" and on_time["override"] and not reason
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


def game_public(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game hand by hand, for anyone (players look up their games); a draft tournament's
    games for its staff only (the one visibility rule, shared with the API)."""
    # Seats and hands come in the game's query where the database can (PostgreSQL): one
    # round trip and one statement to compile instead of three (issue 14.7).
    games = visible_games(request.user).annotate(**stored_rows_annotations())
    game = get_object_or_404(games, pk=game_id)
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
