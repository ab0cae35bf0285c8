"""What `core` tells the apps above it (it imports none of them: issue 14)."""

from __future__ import annotations

from django.dispatch import Signal

player_changed = Signal()
"""
This signal is sent out when a player's details (name, EMA number, country) were changed by
the player services (`club.services.update_player`), inside the writing transaction, after the
player row is saved: a receiver's writes commit or roll back with the change. Tournaments
renew the standings version of every tournament the player has a standings row in (the
standings show the player's name and EMA number).

Receivers run in the request that changed the player: they only mark or enqueue, never
compute.

Arguments sent with this signal:

``sender``
    The `core.models.Player` class.
``player``
    The `Player` as saved.
``before``
    A dict of the player's details before the change (`first_name`, `last_name`,
    `ema_number`, `country`, `user`).
"""
