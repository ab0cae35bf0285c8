"""Player services: register and update players (EMA number and country checked).

Who may correct a player as staff, and when a player's identity is fixed, is asked of the apps
that know (`core.players.PlayerPolicy`, filled by tournaments); a change is announced with
`core.signals.player_changed`."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from core.audit import audited
from core.errors import PermissionDenied, ValidationFailed
from core.models import Player
from core.players import (
    check_ema_number_free,
    check_identity_change,
    clean_country,
    clean_ema_number,
    clean_name,
    may_correct_player,
)
from core.roles import is_site_admin
from core.signals import player_changed


def player_snapshot(player: Player) -> dict[str, Any]:
    return {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "ema_number": player.ema_number,
        "country": player.country,
        "user": player.user_id,
    }


@transaction.atomic
def register_player(
    *,
    actor: Any,
    first_name: str,
    last_name: str,
    ema_number: str | None = None,
    country: str = "",
    user: Any = None,
) -> Player:
    """A new player. An EMA number already on file is an error naming its owner."""
    player = Player(
        first_name=clean_name(first_name, field="first_name"),
        last_name=clean_name(last_name, field="last_name"),
        ema_number=clean_ema_number(ema_number),
        country=clean_country(country),
        user=user,
    )
    check_ema_number_free(player.ema_number)
    if user is not None and Player.objects.filter(user=user).exists():
        raise ValidationFailed("This login is already linked to a player.", field="user")
    with audited(
        actor=actor,
        action="player.create",
        obj=player,
        snapshot=lambda: player_snapshot(player),
        created=True,
    ):
        player.save()
    return player


UPDATABLE = ("first_name", "last_name", "ema_number", "country")
# Who a player is in a results file (issue 16.1): fixed for the player once registered in a
# tournament that is running or later; its organisers can still correct it (audited).
IDENTITY = ("first_name", "last_name", "ema_number")


@transaction.atomic
def update_player(*, actor: Any, player: Player, **changes: Any) -> Player:
    """Change a player's name, EMA number or country: site admins, organisers of a tournament
    the player is registered in, or the player themself while their identity is not fixed
    (not yet registered in a running, finished or published tournament)."""
    unknown = sorted(set(changes) - set(UPDATABLE))
    if unknown:
        raise ValidationFailed(f"{unknown[0]} cannot be changed here.", field=unknown[0])
    by_staff = actor is None or is_site_admin(actor) or may_correct_player(actor, player)
    if not by_staff and player.user_id != actor.pk:
        raise PermissionDenied("You may only change your own player profile.")
    player = Player.objects.select_for_update().get(pk=player.pk)
    with audited(
        actor=actor,
        action="player.update",
        obj=player,
        snapshot=lambda: player_snapshot(player),
    ) as audit:
        before = audit.before or {}
        if "first_name" in changes:
            player.first_name = clean_name(changes["first_name"], field="first_name")
        if "last_name" in changes:
            player.last_name = clean_name(changes["last_name"], field="last_name")
        if "ema_number" in changes:
            player.ema_number = clean_ema_number(changes["ema_number"])
            check_ema_number_free(player.ema_number, exclude=player.pk)
        if "country" in changes:
            player.country = clean_country(changes["country"])
        changed = [f for f in IDENTITY if getattr(player, f) != before[f]]
        if changed and not by_staff:
            # Fixed while registered in a running tournament, say (tournaments.policy).
            check_identity_change(player, field=changed[0])
        player.save()
        # The standings show the player's name and EMA number (tournaments renew their version).
        player_changed.send(sender=Player, player=player, before=before)
    return player
