"""Checks of a player's name, EMA number and country, shared by every app that writes players
(club's player services, tournament registrations and CSV imports): each failure names its
field."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from core.countries import ISO_3166_ALPHA2
from core.errors import ValidationFailed
from core.models import Player

EMA_NUMBER = re.compile(r"^\d{8}$")
NAME_MAX = Player._meta.get_field("first_name").max_length or 100


def clean_ema_number(value: Any, *, field: str = "ema_number") -> str | None:
    """An EMA number is exactly 8 digits; blank means none. Spaces are ignored."""
    if value is None:
        return None
    text = re.sub(r"\s+", "", str(value))
    if not text:
        return None
    if not EMA_NUMBER.match(text):
        raise ValidationFailed(
            f"An EMA number has exactly 8 digits; {value!r} does not.", field=field
        )
    return text


def clean_country(value: Any, *, field: str = "country") -> str:
    """A two-letter ISO 3166 code (case-insensitive); blank means unknown."""
    text = str(value or "").strip().upper()
    if not text:
        return ""
    if text not in ISO_3166_ALPHA2:
        raise ValidationFailed(
            f"{value!r} is not an ISO 3166 country code; use two letters, e.g. DE, FR, GB.",
            field=field,
        )
    return text


def clean_name(value: Any, *, field: str) -> str:
    text = " ".join(str(value or "").split())
    if not text:
        raise ValidationFailed("A name is required.", field=field)
    if len(text) > NAME_MAX:
        raise ValidationFailed(f"At most {NAME_MAX} characters.", field=field)
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text):
        raise ValidationFailed("The name contains control or unprintable characters.", field=field)
    return text


def check_ema_number_free(ema_number: str | None, *, exclude: int | None = None) -> None:
    if ema_number is None:
        return
    others = Player.objects.filter(ema_number=ema_number)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    taken = others.first()
    if taken is not None:
        raise ValidationFailed(
            f"EMA number {ema_number} already belongs to {taken}.", field="ema_number"
        )


class PlayerPolicy:
    """What an app above `core` knows about players, asked by the player services and API.

    `core` imports no other app (issue 14), yet who may create or correct a player, and when a
    player's identity is fixed, depend on tournaments (an organiser corrects the players
    registered in their tournament; registration in a running tournament fixes a player's
    name and EMA number, issue 16.1). Such an app registers a `PlayerPolicy` in its
    AppConfig.ready(); with none registered only site admins and the player themself count.
    """

    def may_create_players(self, user: Any) -> bool:
        """Whether a logged-in user who is not a site admin may create players."""
        return False

    def may_correct(self, user: Any, player: Player) -> bool:
        """Whether a logged-in user may change `player`'s details as staff (audited)."""
        return False

    def check_identity_change(self, player: Player, *, field: str) -> None:
        """Raise PermissionDenied (naming `field`) if the player may not change their own name
        or EMA number now."""


_policies: list[PlayerPolicy] = []


def register_player_policy(policy: PlayerPolicy) -> None:
    """Called from an AppConfig.ready(): `policy` is asked along with the others."""
    if all(type(p) is not type(policy) for p in _policies):
        _policies.append(policy)


def may_create_players(user: Any) -> bool:
    """A logged-in user some registered policy lets create players (site admins: always)."""
    return any(policy.may_create_players(user) for policy in _policies)


def may_correct_player(user: Any, player: Player) -> bool:
    """A logged-in user some registered policy lets correct `player` as staff."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return any(policy.may_correct(user, player) for policy in _policies)


def check_identity_change(player: Player, *, field: str) -> None:
    """Raise PermissionDenied if a registered policy fixes the player's identity now."""
    for policy in _policies:
        policy.check_identity_change(player, field=field)
