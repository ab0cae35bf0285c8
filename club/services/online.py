"""Online games (Tenhou, Mahjong Soul) into club leagues (issue 20).

``import_online_log`` parses a log (``scoring.online``), maps the site's names to club
members (a name mapped once is remembered for the club: ``OnlineName``), imports the game
record into a club night, and keeps how our engine's replay compared with the points the
site paid (``OnlineGameLog.comparison``): a mismatch is reported with the game, never hidden.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, ClubNight, Membership, OnlineGameLog, OnlineName
from club.places import NightPlace
from core.audit import audited
from core.errors import ValidationFailed
from core.models import Player
from scoring.models import Game
from scoring.online import OnlineGame, compare
from scoring.services.games import import_game_record
from scoring.services.online import MAX_LOG_BYTES, read_online_log

__all__ = ["MAX_LOG_BYTES", "OnlineImport", "import_online_log", "name_mapping", "read_online_log"]


@dataclass(frozen=True)
class OnlineImport:
    game: Game
    comparison: dict[str, Any]
    players: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game.pk,
            "status": self.game.status,
            "comparison": self.comparison,
            "players": self.players,
        }


def name_mapping(*, club: Club, online: OnlineGame) -> list[dict[str, Any]]:
    """Each seat's site name and the club member it is mapped to (None: not asked yet)."""
    known = {
        o.name: o.player
        for o in OnlineName.objects.filter(
            club=club, site=online.site, name__in=online.names
        ).select_related("player")
    }
    return [
        {
            "seat": seat,
            "name": name,
            "player": known[name].pk if name in known else None,
            "label": str(known[name]) if name in known else None,
        }
        for seat, name in enumerate(online.names)
    ]


def _members(club: Club, ids: Mapping[str, Any]) -> dict[str, Player]:
    out: dict[str, Player] = {}
    for name, raw in ids.items():
        try:
            pk = int(raw)
        except (TypeError, ValueError):
            raise ValidationFailed(
                _("%(name)s: give a player id.") % {"name": name}, field=f"players.{name}"
            ) from None
        member = Membership.objects.filter(club=club, player_id=pk).select_related("player").first()
        if member is None:
            raise ValidationFailed(
                _("%(name)s: player %(id)s is not a member of this club.")
                % {"name": name, "id": pk},
                field=f"players.{name}",
            )
        out[name] = member.player
    return out


@transaction.atomic
def import_online_log(
    *,
    actor: Any,
    club: Club,
    data: bytes | str,
    players: Mapping[str, Any] | None = None,
    date: datetime.date | None = None,
) -> OnlineImport:
    """Import one online game log into the club night of ``date`` (default today).

    ``players`` maps site names to club members' ids; names mapped before for this club are
    remembered. Unmapped names are ValidationFailed on ``players`` listing them (with their
    seats) so the caller can ask once. Nothing is written unless the whole import succeeds.
    """
    online = read_online_log(data)
    if online.log_id:
        done = OnlineGameLog.objects.filter(site=online.site, log_id=online.log_id).first()
        if done is not None:
            raise ValidationFailed(
                _("This log was imported already (game %(game)s).") % {"game": done.game_id},
                field="log",
            )
    given = {n: v for n, v in (players or {}).items() if n in online.names}
    unknown = sorted(set(players or {}) - set(online.names))
    if unknown:
        raise ValidationFailed(
            _("%(name)s does not play in this log.") % {"name": unknown[0]},
            field=f"players.{unknown[0]}",
        )
    chosen = _members(club, given)
    mapping = name_mapping(club=club, online=online)
    missing = [m for m in mapping if m["player"] is None and m["name"] not in chosen]
    if missing:
        raise ValidationFailed(
            _("Map these names to club members: %(names)s")
            % {"names": ", ".join(m["name"] for m in missing)},
            field="players",
            errors=[{"seat": m["seat"], "name": m["name"]} for m in missing],
        )
    seated: list[Player] = []
    for m in mapping:
        if m["name"] in chosen:
            seated.append(chosen[m["name"]])
        else:
            seated.append(Player.objects.get(pk=m["player"]))
    if len({p.pk for p in seated}) != len(seated):
        raise ValidationFailed(_("One member is mapped to two seats."), field="players")
    for name, player in chosen.items():
        OnlineName.objects.update_or_create(
            club=club, site=online.site, name=name, defaults={"player": player}
        )
    comparison = compare(online)

    day = date or timezone.localdate()
    # A club may hold two nights on one date (create_club_night allows it): the first one takes
    # the game (get_or_create answered a 500 there, found by the fuzz run, issue 16).
    night = ClubNight.objects.filter(club=club, date=day).order_by("pk").first()
    if night is None:
        night = ClubNight.objects.create(club=club, date=day)
    names = [
        {"seat": s, "name": n, "player": p.pk}
        for s, (n, p) in enumerate(zip(online.names, seated, strict=True))
    ]
    with audited(actor=actor, action="game.import_online", club_id=club.pk) as audit:
        game = import_game_record(
            actor=actor,
            record=online.record,
            players=seated,
            place=NightPlace(night),
            finalize=comparison["final"] is not None,
        )
        OnlineGameLog.objects.create(
            site=online.site, log_id=online.log_id, game=game, comparison=comparison
        )
        audit.obj, audit.game_id = game, game.pk
        audit.after = {
            "site": online.site,
            "log_id": online.log_id,
            "names": names,
            "comparison": comparison,
        }
    return OnlineImport(game=game, comparison=comparison, players=names)
