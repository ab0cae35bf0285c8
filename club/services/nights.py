"""Seat a club night: whoever turns up, in tables of 4 and 3 under the club's house rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.models import Club, ClubNight
from club.nightseating import MIN_PLAYERS, seat_round
from club.places import NightPlace
from club.roles import is_club_admin
from core.audit import audited
from core.errors import PermissionDenied, ValidationFailed
from core.models import Player
from scoring.engine import RulesError, load_ruleset
from scoring.models import GameSeat
from scoring.services import create_game


@dataclass
class NightSeating:
    games: list[Any]  # scoring.models.Game, one per table, in table order
    sitting_out: list[Player] = field(default_factory=list)
    message: str = ""
    repeats: int = 0


def _house_rules(club: Club, size: int) -> tuple[str, dict[str, Any]]:
    """The club's 4- or 3-player house rules; refused if the ruleset has another table size."""
    if size == 4:
        ruleset, overrides, name = club.ruleset, club.rule_overrides or {}, "ruleset"
    else:
        ruleset, overrides, name = club.ruleset_3p, club.rule_overrides_3p or {}, "ruleset_3p"
    try:
        players = load_ruleset(ruleset, overrides or None).players
    except RulesError as error:
        raise ValidationFailed(str(error), field=name) from error
    if players != size:
        raise ValidationFailed(
            _("The club's %(name)s (%(ruleset)s) is for %(players)d players, not %(size)d.")
            % {"name": name, "ruleset": ruleset, "players": players, "size": size},
            field=name,
        )
    return ruleset, overrides


def _night_history(night: ClubNight) -> tuple[Counter[tuple[int, int]], Counter[int]]:
    """Pairs who shared a table tonight, and games each player has played tonight."""

    tables: dict[int, list[int]] = {}
    for game_id, player_id in GameSeat.objects.filter(game__club_game__night=night).values_list(
        "game_id", "player_id"
    ):
        tables.setdefault(game_id, []).append(player_id)
    met: Counter[tuple[int, int]] = Counter()
    played: Counter[int] = Counter()
    for ids in tables.values():
        played.update(ids)
        for i, a in enumerate(ids):
            for b in ids[:i]:
                met[(a, b) if a < b else (b, a)] += 1
    return met, played


@transaction.atomic
def seat_club_night(
    *, actor: Any, night: ClubNight, players: Sequence[Player], seed: int | None = None
) -> NightSeating:
    """One round of the night: tables of 4 and 3 (13 -> 4+3+3+3), a game per table under the
    club's 4- or 3-player house rules; later rounds keep apart those who met tonight and
    let those who sat out play. Club admins only; nothing is written when refused."""

    club = night.club
    if actor is not None and not is_club_admin(actor, club):
        raise PermissionDenied(_("Only the club's admins may seat a club night."))
    ids = [p.pk for p in players]
    if len(set(ids)) != len(ids):
        raise ValidationFailed(_("A player is listed twice."), field="players")
    if len(ids) < MIN_PLAYERS:
        raise ValidationFailed(
            ngettext(
                "%(count)d player came; a table needs at least 3.",
                "%(count)d players came; a table needs at least 3.",
                len(ids),
            )
            % {"count": len(ids)},
            field="players",
        )
    met, played = _night_history(night)
    round_no = night.games.count()
    seating = seat_round(
        ids,
        met=met,
        # Whoever played least tonight plays now; the rest take turns sitting out.
        sat_out={pid: -played.get(pid, 0) for pid in ids},
        seed=seed if seed is not None else night.pk * 1000 + round_no,
    )
    rules = {size: _house_rules(club, size) for size in {len(t) for t in seating.tables}}
    by_id = {p.pk: p for p in players}
    games = []
    with audited(actor=actor, action="club_night.seat", obj=night, club_id=club.pk) as audit:
        for table in seating.tables:
            ruleset, overrides = rules[len(table)]
            games.append(
                create_game(
                    actor=actor,
                    players=[by_id[pid] for pid in table],
                    ruleset=ruleset,
                    rule_overrides=overrides or None,
                    place=NightPlace(night),
                )
            )
        audit.after = {
            "tables": seating.tables,
            "games": [g.pk for g in games],
            "sitting_out": seating.sitting_out,
            "repeats": seating.repeats,
        }
    out = [by_id[pid] for pid in seating.sitting_out]
    message = ""
    if out:
        message = ngettext(
            "%(count)d players make one table of three; %(names)s sits out this round: "
            "tables need 3 or 4 players.",
            "%(count)d players make one table of three; %(names)s sit out this round: "
            "tables need 3 or 4 players.",
            len(out),
        ) % {"count": len(ids), "names": ", ".join(str(p) for p in out)}
    return NightSeating(games=games, sitting_out=out, message=message, repeats=seating.repeats)
