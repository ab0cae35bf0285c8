"""Who may do what: object-level roles for tournaments, games and clubs.

The per-request memo and the site-admin check are shared by every app: core.roles.

Site admin = superuser. Organisers count as referees. Club admins: club.roles; who may edit
a game: scoring.policy (tournaments.policy decides for tournament games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef

from core.roles import authenticated as _authenticated
from core.roles import is_site_admin
from core.roles import recalled as _recalled
from core.roles import remembered as _remembered
from scoring.models import Game
from tournaments.models import StaffRole, Table

if TYPE_CHECKING:
    from scoring.models import Game
    from tournaments.models import Tournament


def _has_role(user: Any, tournament: Tournament | int, roles: tuple[str, ...]) -> bool:

    if not _authenticated(user):
        return False
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    # The query is built only when the memo has no answer (issue 14.7: a hand POST asks three
    # times, answered by the game's own query; building the queryset each time cost CPU). All
    # of the user's roles in the tournament at once: "referee?" and then "organiser?" (a
    # Confirm's permission check, then its "finalize on time") are one statement (issue 33.4).
    known = _recalled(("staff", tournament_id, user.pk, roles))  # remember_game_referee's
    if known is not None:
        return bool(known)
    held = _remembered(
        ("staff", tournament_id, user.pk),
        lambda: frozenset(
            StaffRole.objects.filter(tournament_id=tournament_id, user_id=user.pk).values_list(
                "role", flat=True
            )
        ),
    )
    return not held.isdisjoint(roles)


def is_organiser(user: Any, tournament: Tournament | int) -> bool:

    return is_site_admin(user) or _has_role(user, tournament, (StaffRole.Role.ORGANISER,))


def is_referee(user: Any, tournament: Tournament | int) -> bool:
    """Referees and organisers (organisers count as referees)."""

    return is_site_admin(user) or _has_role(user, tournament, _referee_roles())


def table_of(game: Game) -> Table | None:
    """The table `game` is played at; None for a game elsewhere (a club night). The table owns
    the link (`Table.game`, issue 14): read from the game's cache when it was loaded with its
    table (scoring loads scoring.policy.game_relations()), else one query, kept on the game."""
    try:
        return game.table
    except Table.DoesNotExist:
        return None


def tournament_id_of_game(game: Game) -> int | None:
    """The tournament of `game`'s table (None: not a tournament game)."""
    if Game.table.is_cached(game):
        # Loaded with its table and session (the write views do): nothing to look up.
        table = table_of(game)
        if table is None:
            return None
        if Table.session.is_cached(table):
            return int(table.session.tournament_id)
    if game.pk is None:
        return None
    # A game never moves to another tournament: safe to remember for the request.
    return _remembered(
        ("game_tournament", game.pk),
        lambda: (
            Table.objects.filter(game_id=game.pk)
            .values_list("session__tournament_id", flat=True)
            .first()
        ),
    )


def _referee_roles() -> tuple[str, ...]:

    return (StaffRole.Role.ORGANISER, StaffRole.Role.REFEREE)


_REFEREES_FLAG = "_user_referees_tournament"


def game_referee_annotation(user: Any) -> dict[str, Any]:
    """Annotations for a Game queryset: whether `user` referees (or organises) the game's
    tournament, answered in the game's own query; remember_game_referee() then spares
    is_referee (and can_edit_game) its own query in this request (issue 14.7)."""
    if not _authenticated(user) or is_site_admin(user):
        return {}
    staff = StaffRole.objects.filter(
        tournament_id=OuterRef("table__session__tournament_id"),
        user_id=user.pk,
        role__in=_referee_roles(),
    )
    return {_REFEREES_FLAG: Exists(staff)}


def remember_game_referee(user: Any, game: Game) -> None:
    """Remember for this request what game_referee_annotation() found (see there)."""
    flag = game.__dict__.pop(_REFEREES_FLAG, None)
    if flag is None:
        return
    tournament_id = tournament_id_of_game(game)
    if tournament_id is not None:
        # The key is_referee's lookup uses: a later check answers from the memo.
        _remembered(("staff", tournament_id, user.pk, _referee_roles()), lambda: bool(flag))
