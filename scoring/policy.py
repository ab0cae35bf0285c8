"""Who may change a game and when: the questions scoring asks, while it writes, of the app the
game belongs to.

`scoring` imports neither `tournaments` nor `club` (issue 14), yet a tournament game follows
tournament rules (its referees enter it; nothing is entered before the session's start signal
or after its results are locked; EMA 2025 7.4's time signal) and a club game follows the
club's (club admins and the seated players enter it; hands entered by a player wait for the
others' confirmation). Each of those apps registers a `GamePolicy` in its AppConfig.ready()
answering these questions and no others (issue 29):

- whose game is it (`owner`: also the audit scope of its writes);
- which games may this user see (`visible`);
- may this user edit it (`may_edit`, asked in the game's own query with `editor_annotation`);
- is entry open now, and may the game end on time (`check_open`, EMA 2025 7.4);
- must an entry wait for the other players' confirmation (`entry_waits`).

A game no app claims gets the default: only site admins edit it, nothing is locked, nothing
waits for confirmation. Where a game is played, what pages call that place, and what the game
API shows and accepts of it are the apps' own (their places.py and api/places.py).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet

from core.roles import authenticated, is_site_admin

if TYPE_CHECKING:
    from scoring.models import Game


@dataclass(frozen=True)
class Owner:
    """Whose game it is: its tournament or its club (the scope of its audit entries)."""

    tournament_id: int | None = None
    club_id: int | None = None


@dataclass(frozen=True)
class OnTime:
    """Whether a game the rules have not ended may end on time now (EMA 2025 7.4): `allowed`,
    the time signal's time (`signal_at`; None: no clock), whether ending now is an organiser's
    `override` before the signal (the audit trail says so), and the time zone the signal's
    time of day is shown in (None: the site's). `session`: whether a session's clock governs the
    game at all (False for a club night's game: it may stop whenever its players do, and its
    pages speak of no session, time signal or finalizing "on time": issue 33)."""

    allowed: bool = True
    signal_at: datetime.datetime | None = None
    override: bool = False
    time_zone: str | None = None
    session: bool = True
    # The owner's words on this game's own time (a tournament table's extension, issue 35.3):
    # shown on the entry page, and the refusal's reason when `allowed` is False because of it.
    note: str = ""
    waits_for_hand: bool = False


class GamePolicy:
    """The decisions of one kind of game. Subclasses override what their games need."""

    # The relations (select_related paths from Game) this policy reads to decide: scoring's
    # reads of a game to show or change it load them in the same query (`game_relations`).
    relations: tuple[str, ...] = ()

    def owner(self, game: Game) -> Owner | None:
        """Whose `game` is, if this policy decides for it (else None)."""
        return None

    def visible(self, user: Any) -> Q:
        """Which of its games `user` (maybe anonymous or None; never a site admin, who sees
        every game) may read: a filter on Game (the one draft-visibility rule)."""
        return Q(pk__in=[])

    def may_edit(self, user: Any, game: Game) -> bool:
        """Whether a logged-in user who is not a site admin may enter or change its scores
        (from what `editor_annotation` read with the game, when it did)."""
        return False

    def editor_annotation(self, user: Any) -> dict[str, Any]:
        """Annotations for a Game queryset with which `may_edit` answers for `user` from the
        game's own query, without one of its own; {}: none."""
        return {}

    def check_open(
        self, actor: Any, game: Game, *, started: bool = True, on_time: bool = False
    ) -> OnTime:
        """Raise ValidationFailed if the game may not be changed now (results locked; with
        `started`, before the start signal); asked `on_time`, say whether it may end on time
        now (else the answer is the default). `actor` None is the system: never locked."""
        return OnTime()

    def entry_waits(self, actor: Any, game: Game) -> int:
        """How many of the other seated players must confirm a hand `actor` enters (0: it
        needs no confirmation)."""
        return 0


_DEFAULT = GamePolicy()
_policies: list[GamePolicy] = []


def register_game_policy(policy: GamePolicy) -> None:
    """Called from an AppConfig.ready(): `policy` decides for the games it owns."""
    if all(type(p) is not type(policy) for p in _policies):
        _policies.append(policy)


def policy_for(game: Game) -> tuple[GamePolicy, Owner]:
    """The policy deciding for `game`, and whose game it is."""
    for policy in _policies:
        owner = policy.owner(game)
        if owner is not None:
            return policy, owner
    return _DEFAULT, Owner()


def visible_filter(user: Any) -> Q:
    """The games `user` may read (not a site admin): each app's `visible` rule, joined."""
    found = Q(pk__in=[])
    for policy in _policies:
        found |= policy.visible(user)
    return found


def game_relations() -> tuple[str, ...]:
    """The select_related paths every registered policy reads (GamePolicy.relations)."""
    return tuple(path for policy in _policies for path in policy.relations)


def can_edit_game(user: Any, game: Game, *, policy: GamePolicy | None = None) -> bool:
    """Site admins always; otherwise the game's policy (tournament referees; club admins and
    the players seated at a club game; `policy`: the game's, when the caller has it)."""
    if not authenticated(user):
        return False
    if is_site_admin(user):
        return True
    return (policy or policy_for(game)[0]).may_edit(user, game)


def with_editor_check(games: QuerySet[Game], user: Any) -> QuerySet[Game]:
    """`games` answering `can_edit_game(user, game)` in their own query (each policy's
    `editor_annotation`: a tournament game, whether `user` referees its tournament): the
    check then asks nothing more of the database (issue 14.7: a hand POST)."""
    for policy in _policies:
        annotations = policy.editor_annotation(user)
        if annotations:
            games = games.annotate(**annotations)
    return games
