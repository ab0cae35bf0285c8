"""Player services: register and update players (EMA number and country checked)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.audit import record_audit
from core.errors import PermissionDenied, ValidationFailed
from core.models import Player
from core.players import check_ema_number_free, clean_country, clean_ema_number, clean_name
from core.roles import is_site_admin
from tournaments.models import StaffRole, StandingRow, Tournament
from tournaments.standings.cache import touch as touch_standings


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
    player.save()
    record_audit(
        actor=actor, action="player.create", obj=player, before=None, after=player_snapshot(player)
    )
    return player


UPDATABLE = ("first_name", "last_name", "ema_number", "country")
# Who a player is in a results file (issue 16.1): fixed for the player once registered in a
# tournament that is running or later; its organisers can still correct it (audited).
IDENTITY = ("first_name", "last_name", "ema_number")


def identity_locked_by(player: Player) -> Any:
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


@transaction.atomic
def update_player(*, actor: Any, player: Player, **changes: Any) -> Player:
    """Change a player's name, EMA number or country: site admins, organisers of a tournament
    the player is registered in, or the player themself while their identity is not fixed
    (not yet registered in a running, finished or published tournament)."""
    unknown = sorted(set(changes) - set(UPDATABLE))
    if unknown:
        raise ValidationFailed(f"{unknown[0]} cannot be changed here.", field=unknown[0])
    by_staff = actor is None or is_site_admin(actor) or organises_player(actor, player)
    if not by_staff and player.user_id != actor.pk:
        raise PermissionDenied("You may only change your own player profile.")
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = player_snapshot(player)
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
        tournament = identity_locked_by(player)
        if tournament is not None:
            raise PermissionDenied(
                _(
                    "Your name and EMA number are fixed while you are registered in "
                    "%(tournament)s (%(status)s); ask its organiser to correct them."
                )
                % {"tournament": tournament.name, "status": tournament.get_status_display()},
                field=changed[0],
            )
    player.save()
    # The standings show the player's name and EMA number.
    touch_standings(
        StandingRow.objects.filter(player=player).values_list("tournament_id", flat=True)
    )
    record_audit(
        actor=actor,
        action="player.update",
        obj=player,
        before=before,
        after=player_snapshot(player),
    )
    return player
