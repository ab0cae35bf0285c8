"""Online sessions (issue 32.5): a session played on Tenhou or Mahjong Soul, each table's game
imported from its log.

``set_session_online`` marks a session online (organisers). ``import_table_log`` reads a log
(``scoring.services.online``), maps the site's names to the table's players (a name given once
is remembered for the tournament, ``OnlineName``, so the next session maps itself; a name
equal to a seated player's name maps itself), puts the table's winds in the log's order (the
site drew the seats), replays the hands under the tournament's rules (the engine is the one
source of scores) and keeps how that compares, hand by hand, with what the site paid
(``OnlineTableLog.comparison``). A log whose players are not the table's is refused naming
them; nothing is written unless the whole import succeeds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from core.audit import audited
from core.errors import ValidationFailed
from core.models import Player
from scoring.engine import RecordError
from scoring.models import Game, GameSeat
from scoring.online import OnlineGame, compare_paid
from scoring.services.games import import_game_record
from scoring.services.online import read_online_log
from tournaments.models import (
    OnlineName,
    OnlineTableLog,
    Registration,
    Seat,
    Session,
    Table,
)
from tournaments.places import TablePlace

from ._common import require_organiser, require_referee


@transaction.atomic
def set_session_online(*, actor: Any, session: Session, online: bool) -> Session:
    """Mark the session online (its tables' games come from online logs) or not."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    require_organiser(actor, session.tournament_id)
    if not isinstance(online, bool):
        raise ValidationFailed(_("online must be true or false."), field="online")
    if session.online == online:
        return session
    if session.status == Session.Status.CLOSED:
        raise ValidationFailed(_("This session is closed."), field="online")
    if not online and OnlineTableLog.objects.filter(table__session=session).exists():
        raise ValidationFailed(
            _("Games of this session were imported from online logs."), field="online"
        )
    with audited(
        actor=actor,
        action="session.online",
        obj=session,
        snapshot=lambda: {"number": session.number, "online": session.online},
        tournament_id=session.tournament_id,
    ):
        session.online = online
        session.save(update_fields=["online"])
    return session


@dataclass(frozen=True)
class OnlineTableImport:
    table: Table
    game: Game
    log: OnlineTableLog

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table.pk,
            "session": self.table.session.number,
            "table_number": self.table.number,
            **log_report(self.log),
            "game": self.game.pk,
            "status": self.game.status,
        }


def log_report(log: OnlineTableLog) -> dict[str, Any]:
    """What the API and the console show of an imported log."""
    return {
        "site": log.site,
        "log_id": log.log_id,
        "players": log.players,
        "comparison": log.comparison,
        "imported_at": log.created_at.isoformat() if log.created_at else None,
    }


def _norm(name: str) -> str:
    return "".join(name.split()).casefold()


def _given_registrations(
    tournament_id: int, online: OnlineGame, given: Mapping[str, Any]
) -> dict[str, Registration]:
    out: dict[str, Registration] = {}
    for name, raw in given.items():
        if name not in online.names:
            raise ValidationFailed(
                _("%(name)s does not play in this log.") % {"name": name},
                field=f"players.{name}",
            )
        try:
            pk = int(raw)
        except (TypeError, ValueError):
            pk = 0
        registration = (
            Registration.objects.filter(tournament_id=tournament_id, pk=pk)
            .select_related("player")
            .first()
            if pk > 0
            else None
        )
        if registration is None:
            raise ValidationFailed(
                _("%(name)s: %(id)s is not a registration of this tournament.")
                % {"name": name, "id": raw},
                field=f"players.{name}",
            )
        out[name] = registration
    return out


def _table_players(table: Table) -> list[Player]:
    """Who plays the table, by wind: the game's seats, else the seating's."""
    if table.game is not None:
        played = GameSeat.objects.filter(game=table.game).select_related("player")
        return [s.player for s in played.order_by("seat")]
    seated = Seat.objects.filter(table=table).select_related("player")
    return [s.player for s in seated.order_by("wind")]


def _map_names(table: Table, online: OnlineGame, given: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each seat of the log with the registration its name maps to (given in the request, else
    remembered for the tournament, else a seated player of the same name); a name that maps to
    nobody at this table refuses the log, naming the names."""
    tournament_id = table.session.tournament_id
    seated = _table_players(table)
    at_table = {p.pk for p in seated}
    chosen = _given_registrations(tournament_id, online, given)
    remembered = {
        o.name: o.registration
        for o in OnlineName.objects.filter(
            tournament_id=tournament_id, site=online.site, name__in=online.names
        ).select_related("registration__player")
    }
    registrations = {
        r.player_id: r
        for r in Registration.objects.filter(
            tournament_id=tournament_id, player_id__in=at_table
        ).select_related("player")
    }
    by_name = {_norm(str(p)): registrations.get(p.pk) for p in seated}
    seats: list[dict[str, Any]] = []
    for seat, name in enumerate(online.names):
        registration, how = chosen.get(name), "given"
        if registration is None:
            registration, how = remembered.get(name), "remembered"
        if registration is None:
            registration, how = by_name.get(_norm(name)), "name"
        seats.append({"seat": seat, "name": name, "registration": registration, "how": how})
    unmatched = [
        s for s in seats if s["registration"] is None or s["registration"].player_id not in at_table
    ]
    mapped = [s["registration"].player_id for s in seats if s not in unmatched]
    twice = {pid for pid in mapped if mapped.count(pid) > 1}
    unmatched += [s for s in seats if s not in unmatched and s["registration"].player_id in twice]
    if unmatched:
        absent = [str(p) for p in seated if p.pk not in set(mapped) - twice]
        names = ", ".join(_said(s) for s in sorted(unmatched, key=lambda s: s["seat"]))
        raise ValidationFailed(
            _(
                "The log's players do not match table %(table)s: %(names)s. Players of the "
                "table not matched: %(absent)s."
            )
            % {"table": table.number, "names": names, "absent": ", ".join(absent)},
            field="players",
            errors=[
                {
                    "seat": s["seat"],
                    "name": s["name"],
                    "registration": s["registration"].pk if s["registration"] else None,
                    "message": _said(s),
                }
                for s in sorted(unmatched, key=lambda s: s["seat"])
            ],
        )
    return seats


def _said(seat: Mapping[str, Any]) -> str:
    registration = seat["registration"]
    if registration is None:
        return str(seat["name"])
    return _("%(name)s (%(player)s, not at this table or named twice)") % {
        "name": seat["name"],
        "player": registration.player,
    }


def _seat_as_logged(table: Table, players: list[Player]) -> bool:
    """Give the table's seats (and its game's) the log's winds: the site drew the seats. Returns
    whether any wind changed."""
    wind_of = {p.pk: wind for wind, p in enumerate(players)}
    seats = list(Seat.objects.filter(table=table))
    game_seats = list(GameSeat.objects.filter(game=table.game)) if table.game else []
    if all(s.wind == wind_of.get(s.player_id, s.wind) for s in seats) and all(
        s.seat == wind_of[s.player_id] for s in game_seats
    ):
        return False
    # Two steps: the winds and seats are unique per table and game.
    Seat.objects.filter(table=table).update(wind=F("wind") + 4)
    for s in seats:
        Seat.objects.filter(pk=s.pk).update(wind=wind_of.get(s.player_id, s.wind))
    if table.game is not None:
        GameSeat.objects.filter(game=table.game).update(seat=F("seat") + 4)
        for g in game_seats:
            GameSeat.objects.filter(pk=g.pk).update(seat=wind_of[g.player_id])
    return True


@transaction.atomic
def import_table_log(
    *,
    actor: Any,
    table: Table,
    data: bytes | str,
    players: Mapping[str, Any] | None = None,
) -> OnlineTableImport:
    """Import the game of ``table`` (its session online) from a Tenhou or Mahjong Soul log.

    ``players`` maps site names to registration ids for names not mapped before (remembered
    for the tournament). The hands are replayed under the table's rules; the game is finished
    when those rules ended it, else it stays in progress (the comparison says the site ended
    it)."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("session__tournament", "game")
        .get(pk=table.pk)
    )
    session = table.session
    tournament = session.tournament
    require_referee(actor, tournament.pk)
    if not session.online:
        raise ValidationFailed(
            _("Session %(number)s is not an online session.") % {"number": session.number},
            field="table",
        )
    if OnlineTableLog.objects.filter(table=table).exists():
        raise ValidationFailed(_("This table's game was imported already."), field="table")
    game = table.game
    if game is not None and game.substitutes:
        raise ValidationFailed(
            _("A substitute plays at this table: enter its game by hand."), field="table"
        )
    online = read_online_log(data)
    if online.log_id:
        done = (
            OnlineTableLog.objects.filter(
                table__session__tournament=tournament, site=online.site, log_id=online.log_id
            )
            .select_related("table__session")
            .first()
        )
        if done is not None:
            raise ValidationFailed(
                _("This log was imported already (session %(s)s, table %(t)s).")
                % {"s": done.table.session.number, "t": done.table.number},
                field="log",
            )
    seats = _map_names(table, online, players or {})
    in_log_order: list[Player] = [s["registration"].player for s in seats]
    ruleset = game.ruleset if game is not None else tournament.ruleset
    rules = dict((game.rule_overrides if game is not None else tournament.rule_overrides) or {})
    try:
        comparison = compare_paid(online, ruleset=ruleset, rules=rules)
    except RecordError as error:
        raise ValidationFailed(
            _("The tournament's rules cannot score this log: %(reason)s") % {"reason": error},
            field="log",
            errors=[error.as_dict()],
        ) from error
    record = {**online.record, "ruleset": ruleset, "rules": rules}
    record.pop("end", None)
    names = [
        {
            "seat": s["seat"],
            "name": s["name"],
            "registration": s["registration"].pk,
            "player": s["registration"].player_id,
            "player_name": str(s["registration"].player),
            "mapped_by": s["how"],
        }
        for s in seats
    ]
    with audited(
        actor=actor, action="table.import_online", created=True, tournament_id=tournament.pk
    ) as audit:
        rewound = _seat_as_logged(table, in_log_order)
        imported = import_game_record(
            actor=actor,
            record=record,
            players=in_log_order,
            place=TablePlace(table),
            finalize=bool(comparison["over"]),
        )
        for s in seats:
            OnlineName.objects.update_or_create(
                tournament=tournament,
                site=online.site,
                name=s["name"],
                defaults={"registration": s["registration"]},
            )
        log = OnlineTableLog.objects.create(
            table=table,
            site=online.site,
            log_id=online.log_id,
            players=names,
            comparison=comparison,
        )
        audit.obj, audit.game_id = table, imported.pk
        audit.after = {
            "site": online.site,
            "log_id": online.log_id,
            "players": names,
            "winds_from_log": rewound,
            "comparison": comparison,
        }
    table.refresh_from_db()
    return OnlineTableImport(table=table, game=imported, log=log)
