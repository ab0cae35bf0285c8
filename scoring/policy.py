"""Who may change a game and when: decided by the app the game belongs to, asked by scoring.

`scoring` imports neither `tournaments` nor `club` (issue 14), yet a tournament game follows
tournament rules (its referees enter it; nothing is entered before the session's start signal
or after its results are locked; EMA 2025 7.4's time signal) and a club game follows the
club's (club admins and the seated players enter it; hands entered by a player wait for the
others' confirmation). Each of those apps registers a `GamePolicy` in its AppConfig.ready();
scoring's services and views ask `policy_for(game)`. A game no app claims gets the default:
only site admins edit it, nothing is locked, nothing waits for confirmation.

The link between a game and where it is played belongs to the upper app too
(`tournaments.Table.game`, the club night's link): scoring creates a game "at a place" (a
table, a club night: any object a policy `claims`), and the place's policy checks who may
create it there and links it (`attach`). So does every name of the place's fields: the
relations scoring loads with a game (`relations`), the game API's filters by place
(`api_filters`) and what pages call the place (`labels`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet

from core.errors import ValidationFailed
from core.roles import authenticated, is_site_admin

if TYPE_CHECKING:
    from core.models import Player
    from scoring.models import Game, GameSeat


# Where a game is played, as the game API shows it (`GET /games/<id>/`): None where a key does
# not apply (a club game has no tournament). The app owning the game fills them (`place`).
PLACE_FIELDS = ("tournament", "session", "table", "table_number", "club_night")


@dataclass(frozen=True)
class PlaceLabels:
    """What pages call where a game is played, as the app owning it says (`labels`): `title`,
    a table's short name ("Table 3"; empty where the place has none: a club night);
    `heading`, the whole place ("Hamburg Open · Session 1, table 3"; the club night); and on
    the referee start page a `line` and its `detail`. Empty for a game no app claims."""

    title: str = ""
    heading: str = ""
    line: str = ""
    detail: str = ""


class GamePolicy:
    """The decisions of one kind of game. Subclasses override what their games need."""

    # The relations (select_related paths from Game) this policy reads to decide: scoring's
    # reads of a game to show or change it load them in the same query (`game_relations`).
    relations: tuple[str, ...] = ()
    # Whether one of its places holds one game only (a tournament table).
    one_game_per_place = False

    def owns(self, game: Game) -> bool:
        """Whether this policy decides for `game`."""
        return False

    def visible(self, user: Any) -> Q:
        """Which of its games `user` (maybe anonymous or None; never a site admin, who sees
        every game) may read: a filter on Game (the one draft-visibility rule)."""
        return Q(pk__in=[])

    # The values (paths from Game) that change what the game API shows of its place: the
    # cached answer of `GET /games/<id>/` is kept per game version and these.
    stamp: tuple[str, ...] = ()

    def home_games(self, user: Any) -> dict[str, list[Game]]:
        """The games the referee start page (`/games/`) lists for `user`, by the name the page
        shows them under (`games`: tournament tables to referee; `club_games`)."""
        return {}

    def seat_substitute(
        self,
        *,
        actor: Any,
        game: Game,
        seat: int,
        substitute: Player,
        reason: str,
        from_: str,
        expected_version: int | None,
    ) -> Game:
        """Seat `substitute` for the player at `seat` (EMA 2025 7.3: a tournament's rule)."""
        raise ValidationFailed("Substitutes exist only in tournament games.", field="game")

    def place(self, game: Game) -> dict[str, Any]:
        """`game`'s PLACE_FIELDS (tournament slug, session and table numbers, table and club
        night ids)."""
        return dict.fromkeys(PLACE_FIELDS)

    def labels(self, game: Game) -> PlaceLabels:
        """What pages call `game`'s place (read with `relations`: no query)."""
        return PlaceLabels()

    def api_filters(self) -> dict[str, Any]:
        """The game API's list filters by place, by query parameter (`tournament`, `session`;
        `club_night`, `club`): django_filters filters on Game."""
        return {}

    # Whether the entry page offers to reopen a finished game (a tournament table's).
    offers_reopen = False

    # Where a game is played: a place this policy `claims` (a table, a club night).

    # The name of its places in the API's input (`table`, `club_night`) and their rows.
    place_kind: str | None = None

    def places(self) -> QuerySet[Any]:
        """Every place of `place_kind` (the API looks the given id up in it)."""
        raise NotImplementedError

    def claims(self, place: Any) -> bool:
        """Whether `place` is one of this policy's places."""
        return False

    def house_rules(self, place: Any) -> tuple[str, Mapping[str, Any] | None]:
        """The ruleset and overrides a game created at `place` plays by when the request names
        none (a club's house rules)."""
        raise NotImplementedError

    def check_create(self, actor: Any, place: Any, players: Sequence[Player]) -> None:
        """Raise PermissionDenied or ValidationFailed if `actor` (never None: the system is not
        checked) may not create a game for `players` at `place`."""

    def check_place_open(self, actor: Any, place: Any) -> None:
        """Raise ValidationFailed if nothing may be played at `place` now (an import there)."""

    def place_taken(self, place: Any) -> bool:
        """Whether `place` holds its one game already (a tournament table)."""
        return False

    def seated_game(self, place: Any) -> Game | None:
        """The game already created at `place` for its seated players, for an import to fill
        (issue 20); None if there is none."""
        return None

    def check_fill(self, actor: Any, place: Any) -> None:
        """Raise PermissionDenied if `actor` (never None) may not import a record into the
        `seated_game` of `place`."""

    def attach(self, game: Game, place: Any) -> None:
        """Link the new (saved) `game` to `place`; afterwards this policy `owns` it."""

    def imported(
        self,
        actor: Any,
        game: Game,
        record: Mapping[str, Any],
        players: Sequence[Player],
        substitutes: Sequence[Mapping[str, Any]],
    ) -> None:
        """After a game record was imported into `game`: keep what the record says beyond the
        game (a tournament's penalties and substitute registrations, issue 20). A game whose
        app keeps no tournament penalties refuses a record that carries some."""
        if record.get("tournament_penalties"):
            raise ValidationFailed(
                "Tournament penalties belong to a tournament game.", field="tournament_penalties"
            )

    def record_extensions(self, game: Game, seats: Sequence[GameSeat]) -> dict[str, Any]:
        """Extra game-record keys this app adds to the game's record (its extensions, issue 20:
        `tournament_penalties`); `seats` are the game's seats as read."""
        return {}

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


def policy_for_place(place: Any) -> GamePolicy | None:
    """The policy whose place `place` is (None: no app claims it)."""
    for policy in _policies:
        if policy.claims(place):
            return policy
    return None


def visible_filter(user: Any) -> Q:
    """The games `user` may read (not a site admin): each app's `visible` rule, joined."""
    found = Q(pk__in=[])
    for policy in _policies:
        found |= policy.visible(user)
    return found


def game_stamp() -> tuple[str, ...]:
    """Every registered policy's `stamp` paths."""
    return tuple(path for policy in _policies for path in policy.stamp)


def home_games(user: Any) -> dict[str, list[Game]]:
    """Each app's `home_games` for the referee start page."""
    found: dict[str, list[Game]] = {}
    for policy in _policies:
        found.update(policy.home_games(user))
    return found


def game_place(game: Game) -> dict[str, Any]:
    """Where `game` is played (PLACE_FIELDS), as the app owning it says."""
    return policy_for(game).place(game)


def place_labels(game: Game) -> PlaceLabels:
    """What pages call where `game` is played, as the app owning it says."""
    return policy_for(game).labels(game)


def place_filters() -> dict[str, Any]:
    """Every registered policy's `api_filters`."""
    return {name: f for policy in _policies for name, f in policy.api_filters().items()}


def places_of_kind(kind: str) -> QuerySet[Any]:
    """The places an app names `kind` in the API (`table`, `club_night`)."""
    for policy in _policies:
        if policy.place_kind == kind:
            return policy.places()
    raise LookupError(f"no app registered places of kind {kind!r}")


def house_rules(place: Any) -> tuple[str, Mapping[str, Any] | None]:
    """The ruleset and overrides of a game at `place` when the request names none."""
    policy = policy_for_place(place)
    if policy is None:
        raise LookupError(f"no app claims the place {place!r}")
    return policy.house_rules(place)


def game_relations() -> tuple[str, ...]:
    """The select_related paths every registered policy reads (GamePolicy.relations)."""
    return tuple(path for policy in _policies for path in policy.relations)


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
