"""Template hooks of the offline referee pages (issue 21): `{% load offline %}`.

- `{% offline_head %}` in `<head>`: manifest, theme colour, the offline script and styles;
- `{% offline_status %}` in the top bar: online / offline / waiting to send;
- `{% offline_entry game state %}` on the entry page: the queue of hands waiting to send, its
  conflict screen, and the page's settings for `static/js/offline.js`;
- `{% offline_tables games %}` on the referee's table list: keeps those tables' entry pages
  on the phone.

Every text the script shows is translated here (the same msgids as the server's own, so a
hand reads the same whether described by the server or by the phone).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.shortcuts import resolve_url
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import offline
from scoring.engine.constants import WINDS
from scoring.selectors import TableState

register = template.Library()
COUNTS = 30  # honba and riichi sticks counted on the phone, each form translated here


def _strings() -> dict[str, str | list[str]]:
    return {
        # state in the top bar
        "online": _("Online"),
        "offline": _("Offline"),
        "sending": _("Sending…"),
        "waiting_count": _("Waiting to send: %(count)s"),
        "conflict_short": _("Conflict"),
        "all_sent": _("All waiting hands were sent."),
        # the queue
        "queue_title": _("Waiting to send"),
        "queue_note": _(
            "Kept on this phone, also through a reload. They are sent in order, each exactly "
            "once, as soon as the connection returns. The scores above do not include them yet."
        ),
        "queued": _("Hand kept on this phone: it is sent when the connection returns."),
        "preview_offline": _(
            "Offline: the payment preview returns with the connection. Confirmed hands wait on "
            "this phone and the server checks each one when it is sent."
        ),
        "preview_waiting": _(
            "The payment preview returns once the hands waiting on this phone are sent (it "
            "would not count them). The server checks every hand when it arrives."
        ),
        "badge_waiting": _("waiting"),
        "badge_conflict": _("conflict"),
        "badge_refused": _("refused"),
        "badge_auth": _("log in"),
        "other_tables": _("Other tables also have hands waiting to send: %(count)s"),
        # conflicts
        "conflict_title": _("Another referee changed this game meanwhile."),
        "finalized_title": _(
            "This game was finalized meanwhile: your waiting hands were not added."
        ),
        "refused_title": _("The server refused a waiting hand:"),
        "auth_title": _("Log in again to send the waiting hands; they stay on this phone."),
        "login": _("Log in"),
        "conflict_help": _("Nothing of yours was applied. Compare both and choose."),
        "server_side": _("On the server now"),
        "yours": _("Yours, not sent"),
        "scores": _("Scores: %(scores)s"),
        "no_new_hands": _("No new hands: an earlier hand was corrected or deleted."),
        "send_mine": _("Send mine after theirs"),
        "discard_mine": _("Discard mine, keep the server's"),
        "discard_one": _("Discard this hand"),
        "retry": _("Try again"),
        "needs_connection": _(
            "This needs the connection, and the hands waiting on this phone sent first."
        ),
        # the form, checked on the phone (the same messages as scoring.forms.HandEntryForm)
        "not_complete": _("Not complete yet:"),
        "what_happened": _("What happened?"),
        "required": _("This field is required."),
        "choose_winner": _("Choose who won."),
        "tsumo_one": _("A tsumo has exactly one winner."),
        "choose_loser": _("Choose who dealt in."),
        "loser_wins": _("The player who dealt in cannot also win."),
        "choose_han": _("Choose the han, or yakuman."),
        "choose_fu": _("Choose the fu (below 5 han they count)."),
        "pao_self": _("The winner cannot be liable for their own hand."),
        "choose_nagashi": _("Choose who made nagashi mangan."),
        "choose_offender": _("Choose who made the chombo."),
        "tiles_single": _("Tiles can be checked for a single win only."),
        # one line per hand (the same msgids as scoring.views.describe_hand)
        "ron": _("Ron: %(wins)s from %(loser)s"),
        "tsumo": _("Tsumo: %(win)s"),
        "draw": _("Draw, tenpai: %(who)s"),
        "nobody": _("nobody"),
        "nagashi": _("Nagashi mangan: %(who)s"),
        "chombo": _("Chombo: %(who)s"),
        "abortive": _("Abortive draw"),
        "yakuman": _("yakuman"),
        "double_yakuman": _("double yakuman"),
        "han_fu": _("%(han)s han %(fu)s fu"),
        "han": _("%(han)s han"),
        "time_signal": _("time signal"),
        # Issue 33: the scoreboard and the preview computed on the phone, with the server's
        # msgids (templates/scoring/_scoreboard.html, _preview.html).
        "honba_n": [
            ngettext("%(counter)s honba", "%(counter)s honba", n) % {"counter": n}
            for n in range(COUNTS)
        ],
        "sticks_n": [
            ngettext("%(counter)s stick", "%(counter)s sticks", n) % {"counter": n}
            for n in range(COUNTS)
        ],
        "game_over": _("game over"),
        "game_over_time": _("game over: time"),
        "queue_counted": _(
            "Kept on this phone, also through a reload. They are sent in order, each exactly "
            "once, as soon as the connection returns. The scoreboard and the hands already "
            "count them; the server's answer replaces them when they arrive."
        ),
        "player": _("Player"),
        "change": _("Change"),
        "then": _("Then"),
        "no_change": _("No points change hands."),
        "not_complete_line": _("Not complete yet"),
        "ends_game": _("This hand ends the game."),
        "ends_game_time": _("This hand ends the game: time (EMA 2025 7.4)."),
        "one_more_hand": _("Time signal: one more hand after this one (EMA 2025 7.4)."),
        "chombo_badge": _("Chombo"),
        "chombo_after_uma": _(
            "%(name)s loses %(points)s points after uma, at the end of the game; the hand is "
            "replayed."
        ),
        "chombo_at_table": _("%(name)s pays the chombo at the table; the hand is replayed."),
        "chombo_line": _("%(name)s chombo -%(points)s after uma"),
        "hand_saved": _("Hand saved."),
    }


def _common(user: Any) -> dict[str, Any]:
    return {
        "user": getattr(user, "pk", None),
        "sw": reverse("scoring:service_worker"),
        "scope": offline.scope(),
        "hands_api": reverse("api:game-hands", args=[987654321]),
        "entry": reverse("scoring:entry", args=[987654321]),
        "login": resolve_url(settings.LOGIN_URL),
        "strings": _strings(),
    }


@register.simple_tag
def offline_head() -> SafeString:
    return format_html(
        '<link rel="manifest" href="{}"><meta name="theme-color" content="{}">'
        '<link rel="icon" href="{}" sizes="192x192">'
        '<link rel="stylesheet" href="{}"><script src="{}" defer></script>'
        '<script src="{}" defer></script><script src="{}" defer></script>'
        '<script src="{}" defer></script>',
        reverse("scoring:manifest"),
        offline.THEME_COLOR,
        static("icons/hanchan-192.png"),
        static("css/offline.css"),
        static("js/offline-queue.js"),
        static("js/paytable.js"),
        static("js/scoreboard.js"),
        static("js/offline.js"),
    )


@register.simple_tag
def offline_status() -> SafeString:
    """Online / offline / sending / conflict, and how many hands wait on this phone."""
    return format_html(
        '<span id="net-status" class="net-status" data-state="online" data-queued="0" '
        'role="status" aria-live="polite"><span class="dot" aria-hidden="true"></span>'
        '<span class="text">{}</span><span class="count" hidden></span></span>',
        _("Online"),
    )


@register.inclusion_tag("scoring/_offline.html", takes_context=True)
def offline_entry(context: template.Context, game: Any, state: TableState) -> dict[str, Any]:
    rules = state.rules
    config = {
        **_common(context["request"].user),
        "page": "entry",
        "game": game.pk,
        "version": game.version,
        "hands": len(state.hands),
        "players": list(state.players),
        "finished": game.status == "finished",
        # Issue 33: what the phone needs to keep score while hands wait (static/js/scoreboard.js)
        # and to preview a hand without a round trip.
        "rules": rules.to_dict() if rules is not None else None,
        "table": _table(state),
    }
    return {"config": config, "entry": True}


def _table(state: TableState) -> dict[str, Any] | None:
    """The table before the next hand as scoreboard.js starts from it: round wind and hand
    (0-based), honba, riichi sticks, scores, hands played and the EMA 2025 7.4 signal hand."""
    label = str(state.round or "E1")
    if label[:1] not in WINDS or not label[1:].isdigit():
        return None
    signal = state.time_signal_hand
    return {
        "wind": WINDS.index(label[:1]),
        "kyoku": int(label[1:]) - 1,
        "honba": state.honba,
        "sticks": state.riichi_sticks,
        "scores": [seat["score"] for seat in state.seats],
        "count": len(state.hands),
        "signal": signal["number"] if signal else None,
        "ended_by": state.ended_by if state.over else None,
    }


@register.inclusion_tag("scoring/_offline.html", takes_context=True)
def offline_tables(context: template.Context, *game_lists: Any) -> dict[str, Any]:
    warm = [reverse("scoring:entry", args=[g.pk]) for games in game_lists for g in games or []]
    config = {**_common(context["request"].user), "page": "tables", "warm": warm}
    return {"config": config, "entry": False}
