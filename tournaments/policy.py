"""Tournament games follow tournament rules: scoring asks through scoring.policy (issue 14).

Players registered in a tournament follow it too: its organisers correct them, and running
fixes their identity; club's player services ask through core.players."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import django_filters
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.api.base import ID_BOUNDS
from core.errors import PermissionDenied, ValidationFailed
from core.models import Player
from core.players import PlayerPolicy
from core.roles import is_site_admin
from scoring.models import Game, GameSeat
from scoring.policy import GamePolicy, PlaceLabels, game_relations
from tournaments.clock import session_clock
from tournaments.game_records import import_extensions, tournament_penalties
from tournaments.models import Session, StaffRole, Table, Tournament
from tournaments.roles import (
    game_referee_annotation,
    is_organiser,
    is_referee,
    remember_game_referee,
    table_of,
    tournament_id_of_game,
)
from tournaments.selectors import visible_tournaments
from tournaments.services.substitutes import substitute_player


class TournamentGamePolicy(GamePolicy):
    """A game at a tournament table: its tournament's referees enter it; the session and the
    tournament's status lock it (issue 15); EMA 2025 7.4's time signal ends it on time.
    Its place is a `Table`, which holds the link (`Table.game`)."""

    relations = ("table__session__tournament",)
    one_game_per_place = True

    def owns(self, game: Game) -> bool:
        if Game.table.is_cached(game):
            return table_of(game) is not None
        return tournament_id_of_game(game) is not None  # one query, remembered for the request

    stamp = (
        "table__session__tournament_id",
        "table__session__tournament__status",
        "table__session__tournament__slug",
        "table__session__number",
        "table__number",
    )

    def visible(self, user: Any) -> Q:
        """A draft tournament's games are its staff's (tournaments.selectors)."""
        return Q(table__session__tournament__in=visible_tournaments(user).values("pk"))

    def home_games(self, user: Any) -> dict[str, list[Game]]:
        """In-progress games of the running sessions of the tournaments where the user
        referees (issue 15: tables of sessions not started or closed take no scores)."""
        games = Game.objects.filter(
            status=Game.Status.IN_PROGRESS,
            table__isnull=False,
            table__session__status=Session.Status.RUNNING,
        )
        if not is_site_admin(user):
            tournament_ids = StaffRole.objects.filter(user_id=user.pk).values_list(
                "tournament_id", flat=True
            )
            games = games.filter(table__session__tournament_id__in=list(tournament_ids))
        return {
            "games": list(
                games.select_related(*game_relations())  # what place_labels reads
                .prefetch_related("seats__player")
                .order_by(
                    "table__session__tournament__name", "table__session__number", "table__number"
                )
            )
        }

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
        return substitute_player(
            actor=actor,
            game=game,
            seat=seat,
            substitute=substitute,
            reason=reason,
            from_=from_,
            expected_version=expected_version,
        )

    def place(self, game: Game) -> dict[str, Any]:
        table = table_of(game)
        if table is None:
            return super().place(game)
        session = table.session
        return {
            "tournament": session.tournament.slug,
            "session": session.number,
            "table": table.pk,
            "table_number": table.number,
            "club_night": None,
        }

    def labels(self, game: Game) -> PlaceLabels:
        table = table_of(game)
        if table is None:
            return super().labels(game)
        session = table.session
        title = _("Table %(number)s") % {"number": table.number}
        where = _("Session %(s)s, table %(t)s") % {"s": session.number, "t": table.number}
        return PlaceLabels(
            title=title,
            heading=f"{session.tournament.name} · {where}",
            line=title,
            detail=f"{session.tournament.name} · "
            + _("Session %(number)s") % {"number": session.number},
        )

    def api_filters(self) -> dict[str, Any]:
        return {
            "tournament": django_filters.CharFilter(field_name="table__session__tournament__slug"),
            "session": django_filters.NumberFilter(field_name="table__session_id", **ID_BOUNDS),
        }

    offers_reopen = True

    place_kind = "table"

    def places(self) -> QuerySet[Table]:
        return Table.objects.all()

    def claims(self, place: Any) -> bool:
        return isinstance(place, Table)

    def check_create(self, actor: Any, place: Any, players: Sequence[Player]) -> None:
        if not is_referee(actor, place.session.tournament_id):
            raise PermissionDenied("You may not create a game here.")

    def check_place_open(self, actor: Any, place: Any) -> None:
        _check_session_open(place.session, started=True)

    def place_taken(self, place: Any) -> bool:
        return Table.objects.filter(pk=place.pk, game__isnull=False).exists()

    def seated_game(self, place: Any) -> Game | None:
        return Game.objects.filter(table=place).first()

    def check_fill(self, actor: Any, place: Any) -> None:
        if not is_referee(actor, place.session.tournament_id):
            raise PermissionDenied("Only the tournament's referees may import its games.")

    def attach(self, game: Game, place: Any) -> None:
        place.game = game
        place.save(update_fields=["game"])

    def imported(
        self,
        actor: Any,
        game: Game,
        record: Mapping[str, Any],
        players: Sequence[Player],
        substitutes: Sequence[Mapping[str, Any]],
    ) -> None:
        import_extensions(actor, game, record, players, substitutes)

    def record_extensions(self, game: Game, seats: Sequence[GameSeat]) -> dict[str, Any]:
        deducted = tournament_penalties(game, seats)
        return {"tournament_penalties": deducted} if deducted else {}

    def may_edit(self, user: Any, game: Game) -> bool:
        tournament_id = tournament_id_of_game(game)
        return tournament_id is not None and is_referee(user, tournament_id)

    def scope(self, game: Game) -> tuple[int | None, int | None]:
        return tournament_id_of_game(game), None

    def check_open(self, actor: Any, game: Game, *, started: bool) -> None:
        """Locked: the session is closed, or the tournament is finished or its results
        published. Nobody changes such a game, referee or organiser: an organiser reopens the
        session first (`reopen_session`, with a reason, audited), which is the one override
        path. With `started` (hands, final scores, finalize) the session must also be running:
        nothing is played before the start signal (EMA 2025 7.4). Substitutes may be seated
        before it (EMA 2025 7.3: "before the beginning of the game")."""
        _check_session_open(game.table.session, started=started)

    def time_signal_state(self, user: Any, game: Game) -> dict[str, Any]:
        """EMA 2025 7.4: "finalize on time" is offered after the session's time signal, or to
        an organiser at any time (an audited override)."""
        session = game.table.session
        now = timezone.now()
        signal_at = session_clock(session, now)["signal_at"]
        sounded = signal_at is not None and now >= signal_at
        organiser = is_organiser(user, session.tournament_id)
        return {
            "allowed": sounded or organiser,
            "signal_at": signal_at,
            "override": organiser and not sounded,
            # Issue 33: the signal's time of day is shown in the event's time zone.
            "time_zone": session.tournament.time_zone,
        }

    def check_time_signal(self, actor: Any, game: Game) -> str | None:
        """EMA 2025 7.4: a game the rules have not ended stops on time only after the time
        signal (15 minutes before the session's end). Before it only an organiser may end it
        (the audit entry then says `"override": "before_time_signal"`); a referee is refused."""
        session = game.table.session
        now = timezone.now()
        signal_at = session_clock(session, now)["signal_at"]  # pauses of the clock included
        if signal_at is not None and now >= signal_at:
            return None
        if actor is None or is_organiser(actor, session.tournament_id):
            return "before_time_signal"
        when = (
            f"It sounds at {signal_at:%H:%M} UTC."
            if signal_at is not None
            else "The session has no start time yet."
        )
        raise ValidationFailed(
            "The time signal has not sounded yet (15 minutes before the end of the session, EMA "
            f"2025 7.4), so the game cannot end on time. {when} Only an organiser may end it "
            "earlier.",
            field="end",
        )

    def editor_annotation(self, user: Any) -> dict[str, Any]:
        return game_referee_annotation(user)

    def remember_editor(self, user: Any, game: Game) -> None:
        remember_game_referee(user, game)


def _check_session_open(session: Session, *, started: bool) -> None:
    """See TournamentGamePolicy.check_open (issue 15; EMA 2025 7.4)."""
    tournament = session.tournament
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED):
        raise ValidationFailed(
            f"The results of {tournament.name} are "
            f"{'published' if tournament.status == Tournament.Status.PUBLISHED else 'final'}: "
            "no game or penalty can be changed. An organiser reopens the session first "
            "(with a reason).",
            field="session",
        )
    if session.status == Session.Status.CLOSED:
        raise ValidationFailed(
            f"Session {session.number} is closed: its games can no longer be changed. An "
            "organiser reopens the session first (with a reason).",
            field="session",
        )
    if started and session.status != Session.Status.RUNNING:
        raise ValidationFailed(
            f"Session {session.number} has not started yet: scores are entered once the "
            "organiser gives the start signal (EMA 2025 7.4).",
            field="session",
        )


def identity_locked_by(player: Player) -> Tournament | None:
    """The running, finished or published tournament the player is registered in, or None."""

    return (
        Tournament.objects.filter(
            registrations__player=player,
            status__in=(
                Tournament.Status.RUNNING,
                Tournament.Status.FINISHED,
                Tournament.Status.PUBLISHED,
            ),
        )
        .order_by("-starts_on", "pk")
        .first()
    )


def organises_player(actor: Any, player: Player) -> bool:
    """The actor organises a tournament the player is registered in."""

    if actor is None or not getattr(actor, "is_authenticated", False):
        return False
    return StaffRole.objects.filter(
        user_id=actor.pk,
        role=StaffRole.Role.ORGANISER,
        tournament__registrations__player=player,
    ).exists()


class TournamentPlayerPolicy(PlayerPolicy):
    """Any tournament organiser creates players; the organisers of a tournament a player is
    registered in correct them; who a player is in a results file is fixed for the player once
    registered in a tournament that is running or later (issue 16.1)."""

    def may_create_players(self, user: Any) -> bool:
        return bool(
            getattr(user, "is_authenticated", False)
            and StaffRole.objects.filter(user_id=user.pk, role=StaffRole.Role.ORGANISER).exists()
        )

    def may_correct(self, user: Any, player: Player) -> bool:
        return organises_player(user, player)

    def check_identity_change(self, player: Player, *, field: str) -> None:
        tournament = identity_locked_by(player)
        if tournament is not None:
            raise PermissionDenied(
                _(
                    "Your name and EMA number are fixed while you are registered in "
                    "%(tournament)s (%(status)s); ask its organiser to correct them."
                )
                % {"tournament": tournament.name, "status": tournament.get_status_display()},
                field=field,
            )
