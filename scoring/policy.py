"""Who may change a game and when: decided by the app the game belongs to, asked by scoring.

`scoring` imports neither `tournaments` nor `club` (issue 14), yet a tournament game follows
tournament rules (its referees enter it; nothing is entered before the session's start signal
or after its results are locked; EMA 2025 7.4's time signal) and a club game follows the
club's (club admins and the seated players enter it; hands entered by a player wait for the
others' confirmation). Each of those apps registers a `GamePolicy` in its AppConfig.ready();
scoring's services and views ask `policy_for(game)`. A game no app claims gets the default:
only site admins edit it, nothing is locked, nothing waits for confirmation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.roles import authenticated, is_site_admin

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from scoring.models import Game


class GamePolicy:
    """The decisions of one kind of game. Subclasses override what their games need."""

    def owns(self, game: Game) -> bool:
        """Whether this policy decides for `game`."""
        return False

    def may_edit(self, user: Any, game: Game) -> bool:
        """Whether a logged-in user who is not a site admin may enter or change its scores."""
        return False

    def check_open(self, actor: Any, game: Game, *, started: bool) -> None:
        """Raise ValidationFailed if the game may not be changed now (results locked; with
        `started`, before the start signal). `actor` is never None here (the system)."""

    def check_time_signal(self, actor: Any, game: Game) -> str | None:
        """Before ending an unfinished game on time: raise ValidationFailed if `actor` may
        not yet, or return an override note for the audit trail (None: nothing to note)."""
        return None

    def time_signal_state(self, user: Any, game: Game) -> dict[str, Any]:
        """Whether the entry page offers "finalize on time" (EMA 2025 7.4): `allowed`, the
        `signal_at` time (None: no clock), and whether it would be an organiser's `override`."""
        return {"allowed": True, "signal_at": None, "override": False}

    def scope(self, game: Game) -> tuple[int | None, int | None]:
        """(tournament id, club id) for the audit trail of the game."""
        return None, None

    def entry_waits(self, actor: Any, game: Game) -> bool:
        """Whether a hand `actor` enters waits for the other players' confirmation."""
        return False

    def confirmations_needed(self, game: Game) -> int:
        """How many other seated players must confirm a waiting hand."""
        return 0

    def editor_annotation(self, user: Any) -> dict[str, Any]:
        """Annotations for a Game queryset with which `may_edit` answers for `user` from the
        game's own query (read the game with them, then `remember_editor`); {}: none."""
        return {}

    def remember_editor(self, user: Any, game: Game) -> None:
        """Keep for this request what `editor_annotation` found on `game` (see there)."""


_DEFAULT = GamePolicy()
_policies: list[GamePolicy] = []


def register_game_policy(policy: GamePolicy) -> None:
    """Called from an AppConfig.ready(): `policy` decides for the games it `owns`."""
    if all(type(p) is not type(policy) for p in _policies):
        _policies.append(policy)


def policy_for(game: Game) -> GamePolicy:
    for policy in _policies:
        if policy.owns(game):
            return policy
    return _DEFAULT


def can_edit_game(user: Any, game: Game) -> bool:
    """Site admins always; otherwise the game's policy (tournament referees; club admins and
    the players seated at a club game)."""
    if not authenticated(user):
        return False
    if is_site_admin(user):
        return True
    return policy_for(game).may_edit(user, game)


def with_editor_check(games: QuerySet[Game], user: Any) -> QuerySet[Game]:
    """`games` answering `can_edit_game(user, game)` in their own query (each policy's
    `editor_annotation`: a tournament game, whether `user` referees its tournament); call
    `remember_editor` on the game read, then the check asks nothing more of the database
    (issue 14.7: a hand POST)."""
    for policy in _policies:
        annotations = policy.editor_annotation(user)
        if annotations:
            games = games.annotate(**annotations)
    return games


def remember_editor(user: Any, game: Game) -> None:
    """Keep for this request what `with_editor_check` read with `game`."""
    for policy in _policies:
        policy.remember_editor(user, game)
