"""Privacy (issue 35.5; docs/privacy.md): sign-up e-mail addresses removed a while after the
event, a registrant's request for erasure, and the erasure an organiser or a site admin
carries out: the player's name becomes a pseudonym everywhere it is shown, while the results,
standings and EMA files keep their numbers (the rows stay; only who they name changes)."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.audit import audited
from core.errors import PermissionDenied, ValidationFailed
from core.models import AuditEntry, Player
from core.roles import is_site_admin
from core.signals import player_changed
from scoring.models import GameSeat
from tournaments.models import Penalty, Registration, SignUp, Tournament
from tournaments.standings.cache import touch

from ._common import require_organiser
from .signups import name_key

PSEUDONYM_FIRST_NAME = "Player"


def retention_days() -> int:
    return max(0, int(getattr(settings, "SIGNUP_EMAIL_RETENTION_DAYS", 30)))


@transaction.atomic
def purge_sign_up_emails(*, today: datetime.date | None = None) -> int:
    """Empty the e-mail address of every sign-up of a tournament that ended more than
    SIGNUP_EMAIL_RETENTION_DAYS ago (the periodic task `tournaments.purge_sign_up_emails`).
    One audit entry per tournament, naming how many addresses went (not the addresses)."""
    today = today or timezone.localdate()
    cutoff = today - datetime.timedelta(days=retention_days())
    kept = SignUp.objects.filter(tournament__ends_on__lt=cutoff).exclude(email="")
    removed = 0
    for tournament_id in sorted(set(kept.values_list("tournament_id", flat=True))):
        with audited(
            actor=None,
            action="signup.purge_emails",
            object_type="tournaments.tournament",
            object_id=tournament_id,
            reason=f"kept {retention_days()} days after the event (SIGNUP_EMAIL_RETENTION_DAYS)",
            tournament_id=tournament_id,
        ) as audit:
            count = kept.filter(tournament_id=tournament_id).update(email="")
            audit.after = {"emails_removed": count}
        removed += count
    return removed


@transaction.atomic
def request_erasure(*, token: str, actor: Any = None) -> SignUp:
    """The registrant asks, from their private link, that their data be erased; the organisers
    see the request on the console's Sign-ups page and carry it out (`erase`)."""
    record = SignUp.objects.select_for_update().filter(token=token).first()
    if record is None or not token:
        raise PermissionDenied("This link is not valid.", field="token")
    if record.erased_at is not None:
        raise ValidationFailed("Your data has been erased already.", field="status")
    if record.erasure_requested_at is not None:
        return record
    with audited(
        actor=actor,
        action="signup.erasure_request",
        obj=record,
        snapshot=lambda: {"erasure_requested_at": record.erasure_requested_at},
        tournament_id=record.tournament_id,
    ):
        record.erasure_requested_at = timezone.now()
        record.save(update_fields=["erasure_requested_at", "changed_at"])
    return record


def _replace(value: Any, names: dict[str, str], full: list[tuple[str, str]]) -> Any:
    """`value` with the erased names replaced: a whole name anywhere in a text, a first or last
    name where it is the whole value (a `first_name` field; not "Ben" inside "Bench")."""
    if isinstance(value, str):
        if value in names:
            return names[value]
        for old, new in full:
            value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [_replace(v, names, full) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, names, full) for k, v in value.items()}
    return value


def _scrub_texts(
    tournament_ids: Iterable[int],
    player_id: int | None,
    name: tuple[str, str],
    others: Iterable[str],
    pseudonym: tuple[str, str],
) -> None:
    """The erased name (first, last) and the `others` (clubs) out of the audit
    trail and the penalty reasons of these tournaments, and out of the player's own audit
    entries."""
    first, last = name
    exact = {first: pseudonym[0], last: pseudonym[1], **{o: "" for o in others if o}}
    full = [
        (f"{first} {last}", " ".join(pseudonym)),
        (f"{last}, {first}", f"{pseudonym[1]}, {pseudonym[0]}"),
        *((o, "") for o in others if len(o) >= 4),  # a club named inside a text
    ]
    ids = list(tournament_ids)
    entries = AuditEntry.objects.filter(tournament_id__in=ids)
    if player_id is not None:
        entries |= AuditEntry.objects.filter(object_type="core.player", object_id=str(player_id))
    changed: list[AuditEntry] = []
    for entry in entries.iterator():
        before, after = _replace(entry.before, exact, full), _replace(entry.after, exact, full)
        reason = _replace(entry.reason, {}, full)
        if (before, after, reason) != (entry.before, entry.after, entry.reason):
            entry.before, entry.after, entry.reason = before, after, reason
            changed.append(entry)
    AuditEntry.objects.bulk_update(changed, ["before", "after", "reason"], batch_size=500)
    for penalty in Penalty.objects.filter(tournament_id__in=ids):
        reason = _replace(penalty.reason, {}, full)
        if reason != penalty.reason:
            penalty.reason = reason
            penalty.save(update_fields=["reason"])


def _appears_elsewhere(player: Player, tournament: Tournament) -> bool:
    """Whether the player is also in another tournament, a game not played here or has a
    login: then only a site admin erases (an organiser's say ends at their tournament)."""
    if player.user_id is not None:
        return True
    if Registration.objects.filter(player=player).exclude(tournament=tournament).exists():
        return True
    return (
        GameSeat.objects.filter(player=player)
        .exclude(game__table__session__tournament=tournament)
        .exists()
    )


def _erase_sign_up(record: SignUp, pseudonym: tuple[str, str], now: datetime.datetime) -> None:
    record.first_name, record.last_name = pseudonym
    record.name_key = name_key(*pseudonym)
    record.email = ""
    record.ema_number = ""
    record.club = ""
    record.erased_at = now
    record.save()


@transaction.atomic
def erase(
    *,
    actor: Any,
    tournament: Tournament,
    player: Player | None = None,
    sign_up: SignUp | None = None,
    reason: str = "",
) -> str:
    """Erase a registrant's personal data (GDPR art. 17), by an organiser of `tournament` or a
    site admin: the name becomes a pseudonym ("Player 3FA9C1") on the player, their sign-ups
    and in the audit trail and penalty reasons; the e-mail address and club go. The player's
    EMA number stays (the results count in the EMA ranking under it), the sign-up's copy goes.
    Their rows in seating, games, standings and results stay with the same numbers. A player
    who also appears outside this tournament is erased by a site admin only. Returns the
    pseudonym."""
    require_organiser(actor, tournament)
    if sign_up is not None:
        sign_up = SignUp.objects.select_for_update().get(pk=sign_up.pk, tournament=tournament)
        if player is None and sign_up.registration_id is not None:
            player = Registration.objects.get(pk=sign_up.registration_id).player
    if player is None and sign_up is None:
        raise ValidationFailed("Name the player or the sign-up to erase.", field="player")
    now = timezone.now()
    pseudonym = (PSEUDONYM_FIRST_NAME, secrets.token_hex(3).upper())
    sign_ups = [sign_up] if sign_up is not None else []
    registrations: list[Registration] = []
    if player is not None:
        player = Player.objects.select_for_update().get(pk=player.pk)
        registrations = list(Registration.objects.filter(player=player))
        if not any(r.tournament_id == tournament.pk for r in registrations) and sign_up is None:
            raise ValidationFailed("This player is not registered here.", field="player")
        by_organiser = actor is not None and not is_site_admin(actor)
        if by_organiser and _appears_elsewhere(player, tournament):
            raise PermissionDenied(
                "This player also appears outside this tournament: a site admin erases them."
            )
        linked = SignUp.objects.select_for_update().filter(registration__in=registrations)
        sign_ups += [s for s in linked if s.pk != getattr(sign_up, "pk", None)]
        name = (player.first_name, player.last_name)
        others: list[str] = []
    else:
        assert sign_up is not None
        if sign_up.erased_at is not None:
            raise ValidationFailed("This sign-up has been erased already.", field="status")
        name = (sign_up.first_name, sign_up.last_name)
        others = []
    others += [s.club for s in sign_ups] + [r.club_name for r in registrations]
    tournament_ids = {tournament.pk} | {r.tournament_id for r in registrations}
    with audited(
        actor=actor,
        action="player.erase",
        object_type="core.player" if player is not None else "tournaments.signup",
        object_id=player.pk if player is not None else sign_ups[0].pk,
        reason=reason,
        tournament_id=tournament.pk,
    ) as audit:
        for record in sign_ups:
            _erase_sign_up(record, pseudonym, now)
        if player is not None:
            before = {
                "first_name": player.first_name,
                "last_name": player.last_name,
                "ema_number": player.ema_number,
                "country": player.country,
                "user": player.user_id,
            }
            # The EMA number stays: it is how the results count in the EMA ranking, and an
            # EMA file needs it (EMA 2025 results file); the EMA holds the name under it.
            player.first_name, player.last_name = pseudonym
            player.save(update_fields=["first_name", "last_name"])
            Registration.objects.filter(player=player).update(club_name="")
            # The standings, their cached pages and the results PDF show the name.
            player_changed.send(sender=Player, player=player, before=before)
            touch(tournament_ids)
        _scrub_texts(tournament_ids, getattr(player, "pk", None), name, others, pseudonym)
        # The entry names the pseudonym only: the old name must not survive in the trail.
        audit.after = {
            "pseudonym": " ".join(pseudonym),
            "sign_ups": [s.pk for s in sign_ups],
            "registrations": [r.pk for r in registrations],
        }
    return " ".join(pseudonym)
