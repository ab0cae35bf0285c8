"""Tournament games follow tournament rules: scoring asks through scoring.policy (issue 14);
where they are played, tournaments.places.

Players registered in a tournament follow it too: its organisers correct them, and running
fixes their identity; club's player services ask through core.players."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import PermissionDenied, ValidationFailed
from core.models import Player
from core.players import PlayerPolicy
from scoring.models import Game
from scoring.policy import GamePolicy, OnTime, Owner
from tournaments.clock import session_clock, table_ends_at, table_signal_at
from tournaments.models import OnlineTableLog, Session, StaffRole, Tournament
from tournaments.roles import (
    game_referee_annotation,
    is_organiser,
    is_referee,
    remember_game_referee,
    tournament_id_of_game,
)
from tournaments.selectors import visible_tournament_games


class TournamentGamePolicy(GamePolicy):
    """A game at a tournament table: its tournament's referees enter it; the session and the
    tournament's status lock it (issue 15); EMA 2025 7.4's time signal ends it on time."""

    relations = ("table__session__tournament",)

    def owner(self, game: Game) -> Owner | None:
        tournament_id = tournament_id_of_game(game)  # from the loaded table, else one query
        return None if tournament_id is None else Owner(tournament_id=tournament_id)

    def visible(self, user: Any) -> Q:
        """A draft tournament's games are its staff's; a hidden session's are its tables' and
        the staff's (issue 32.3): tournaments.selectors.visible_tournament_games."""
        return visible_tournament_games(user)

    def may_edit(self, user: Any, game: Game) -> bool:
        remember_game_referee(user, game)  # what editor_annotation read with the game
        tournament_id = tournament_id_of_game(game)
        return tournament_id is not None and is_referee(user, tournament_id)

    def editor_annotation(self, user: Any) -> dict[str, Any]:
        return game_referee_annotation(user)

    def check_open(
        self, actor: Any, game: Game, *, started: bool = True, on_time: bool = False
    ) -> OnTime:
        """Locked: the session is closed, or the tournament is finished or its results
        published. Nobody changes such a game, referee or organiser: an organiser reopens the
        session first (`reopen_session`, with a reason, audited), which is the one override
        path. With `started` (hands, final scores, finalize) the session must also be running:
        nothing is played before the start signal (EMA 2025 7.4). Substitutes may be seated
        before it (EMA 2025 7.3: "before the beginning of the game").

        EMA 2025 7.4: a game the rules have not ended ends on time after the session's time
        signal (15 minutes before its end; pauses of the clock included), or earlier by an
        organiser (an audited override) or the system."""
        session = game.table.session
        if actor is not None:
            check_session_open(session, started=started)
        if not on_time:
            return OnTime()
        if session.online and OnlineTableLog.objects.filter(table_id=game.table.pk).exists():
            # Issue 32.5: the site ended this game (its log is imported and our rules have not
            # ended it: the site's own clock, a disconnection, its own end). The hall's time
            # signal does not govern an online table: staff end it as the log left it.
            return OnTime(
                time_zone=session.tournament.time_zone,
                note=_("The site ended this game: it ends as its log left it."),
            )
        now = timezone.now()
        clock = session_clock(session, now)
        table = game.table
        # Issue 35.3: a table given extra minutes waits for its own signal.
        signal_at = table_signal_at(table, clock["signal_at"])
        sounded = signal_at is not None and now >= signal_at
        # ... and one allowed one more hand waits until a hand after the grant is entered.
        waiting = table.one_more_hand and game.hands.count() <= (table.one_more_hand_after or 0)
        organiser = actor is None or is_organiser(actor, session.tournament_id)
        time_zone = session.tournament.time_zone
        return OnTime(
            allowed=(sounded and not waiting) or organiser,
            signal_at=signal_at,
            override=organiser and not (sounded and not waiting),
            # Issue 33: the signal's time of day is shown in the event's time zone.
            time_zone=time_zone,
            note=table_time_note(table, clock, time_zone, waiting=waiting),
            waits_for_hand=sounded and waiting,
        )

    def entry_waits(self, actor: Any, game: Game) -> int:
        return 0  # referees enter tournament games: nothing waits


def table_time_note(table: Any, clock: dict[str, Any], time_zone: str, *, waiting: bool) -> str:
    """What the referee phone says of a table's own time (issue 35.3), or "" for a table
    that follows the session's clock."""
    parts = []
    if table.extra_minutes and clock["ends_at"] is not None:
        zone = zoneinfo.ZoneInfo(time_zone) if time_zone else None
        ends = table_ends_at(table, clock["ends_at"])
        signal = table_signal_at(table, clock["signal_at"])
        parts.append(
            _(
                "Table %(n)d has %(m)d extra minutes: its own time signal at %(signal)s, "
                "its end at %(end)s (EMA 2025 7.4)."
            )
            % {
                "n": table.number,
                "m": table.extra_minutes,
                "signal": timezone.localtime(signal, zone).strftime("%H:%M"),
                "end": timezone.localtime(ends, zone).strftime("%H:%M"),
            }
        )
    if table.one_more_hand:
        if waiting:
            parts.append(
                _(
                    "Table %(n)d may play one more hand: finalize on time after hand %(h)d is "
                    "entered."
                )
                % {"n": table.number, "h": (table.one_more_hand_after or 0) + 1}
            )
        else:
            parts.append(_("Table %(n)d played its one more hand.") % {"n": table.number})
    return " ".join(parts)


def check_session_open(session: Session, *, started: bool) -> None:
    """See TournamentGamePolicy.check_open (issue 15; EMA 2025 7.4): a table of `session` takes
    no change now."""
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
