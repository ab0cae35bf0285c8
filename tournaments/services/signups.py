"""Self-registration (issue 35; docs/sign-ups.md): sign up without an account, the waiting
list (first come, first served), organiser approval, per-country quotas and the closing time.

A sign-up that gets a place becomes a Registration (the player found by EMA number or
created); one that leaves frees its place for the next one waiting, who is told by e-mail.
E-mails go out after the commit, through the Celery task `send_sign_up_mail` (retried)."""

from __future__ import annotations

import secrets
from contextlib import AbstractContextManager
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.audit import Audit, audited
from core.enqueue import enqueue_after_commit
from core.errors import PermissionDenied, ValidationFailed
from core.names import fold
from core.players import clean_country, clean_ema_number, clean_name
from tournaments.models import Registration, Seat, SignUp, Tournament
from tournaments.standings.cache import touch as touch_standings

from ._common import require_organiser
from .registration import CLUB_NAME_MAX, find_or_create_player, registration_snapshot
from .teams import clean_team_name, remove_empty_teams, team_named

ACTIVE = (SignUp.Status.REGISTERED, SignUp.Status.WAITING, SignUp.Status.PENDING)
EMAIL_MAX = 254


def sign_up_snapshot(s: SignUp) -> dict[str, Any]:
    # The e-mail address stays out of the audit trail (issue 35.5: organisers only).
    return {
        "first_name": s.first_name,
        "last_name": s.last_name,
        "country": s.country,
        "ema_number": s.ema_number,
        "club": s.club,
        "team": s.team,
        "status": s.status,
        "registration": s.registration_id,
    }


def _clean_email(value: Any) -> str:
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    text = str(value or "").strip()
    if not text:
        raise ValidationFailed("An e-mail address is required.", field="email")
    if len(text) > EMAIL_MAX:
        raise ValidationFailed(f"At most {EMAIL_MAX} characters.", field="email")
    try:
        validate_email(text)
    except ValidationError:
        raise ValidationFailed(f"{text!r} is not an e-mail address.", field="email") from None
    return text


def name_key(first_name: str, last_name: str) -> str:
    return fold(f"{first_name} {last_name}")


def players_counted(tournament: Tournament) -> int:
    """Places taken: ranked registrations not dropped (organisers' own included)."""
    return Registration.objects.filter(
        tournament=tournament, role=Registration.Role.PLAYER, dropped_at__isnull=True
    ).count()


def has_free_place(tournament: Tournament) -> bool:
    return tournament.capacity is None or players_counted(tournament) < tournament.capacity


def quota_applies(tournament: Tournament, now: Any = None) -> bool:
    if tournament.country_quota is None:
        return False
    now = now or timezone.now()
    return tournament.country_quota_until is None or now < tournament.country_quota_until


def country_full(tournament: Tournament, country: str, now: Any = None) -> bool:
    """Whether the per-country quota keeps another player from `country` waiting now."""
    if not country or not quota_applies(tournament, now):
        return False
    taken = Registration.objects.filter(
        tournament=tournament,
        role=Registration.Role.PLAYER,
        dropped_at__isnull=True,
        player__country=country,
    ).count()
    return taken >= (tournament.country_quota or 0)


def _check_open(tournament: Tournament, now: Any) -> None:
    if tournament.status != Tournament.Status.REGISTRATION:
        raise ValidationFailed("Registration for this tournament is not open.", field="status")
    if tournament.registration_closes is not None and now >= tournament.registration_closes:
        raise ValidationFailed(
            "Registration closed on "
            f"{timezone.localtime(tournament.registration_closes):%Y-%m-%d %H:%M}.",
            field="registration_closes",
        )


def _check_duplicates(tournament: Tournament, *, key: str, ema_number: str | None) -> None:
    active = SignUp.objects.filter(tournament=tournament, status__in=ACTIVE)
    registered = Registration.objects.filter(tournament=tournament)
    if ema_number and (
        active.filter(ema_number=ema_number).exists()
        or registered.filter(player__ema_number=ema_number).exists()
    ):
        raise ValidationFailed(
            f"EMA number {ema_number} is already signed up for this tournament.",
            field="ema_number",
        )
    if active.filter(name_key=key).exists() or any(
        name_key(first, last) == key
        for first, last in registered.values_list("player__first_name", "player__last_name")
    ):
        raise ValidationFailed(
            "A player with this name is already signed up for this tournament.",
            field="last_name",
        )


def _register(sign_up: SignUp) -> None:
    """Give the sign-up its place: a Registration (ranked player)."""
    player, _created = find_or_create_player(
        first_name=sign_up.first_name,
        last_name=sign_up.last_name,
        ema_number=sign_up.ema_number or None,
        country=sign_up.country,
    )
    if Registration.objects.filter(tournament=sign_up.tournament, player=player).exists():
        raise ValidationFailed(f"{player} is already registered.", field="ema_number")
    with audited(
        actor=None,
        action="registration.create",
        reason="self-registration",
        tournament_id=sign_up.tournament_id,
        snapshot=lambda: registration_snapshot(registration),
        created=True,
    ) as audit:
        registration = Registration.objects.create(
            tournament=sign_up.tournament,
            player=player,
            club_name=sign_up.club,
            team=team_named(sign_up.tournament_id, sign_up.team),
        )
        audit.obj = registration
    if sign_up.team:
        touch_standings(sign_up.tournament_id)  # the team standings list the new member
    sign_up.registration = registration
    sign_up.status = SignUp.Status.REGISTERED


def _mail(sign_up: SignUp, kind: str) -> None:
    from .signup_mail import send_sign_up_mail

    enqueue_after_commit(send_sign_up_mail, sign_up.pk, kind)


def _audited(
    actor: Any, action: str, sign_up: SignUp, *, reason: str = "", created: bool = False
) -> AbstractContextManager[Audit]:
    """The audit of a change to `sign_up` (core.audit.audited: snapshots before and after)."""
    return audited(
        actor=actor,
        action=action,
        obj=sign_up,
        snapshot=lambda: sign_up_snapshot(sign_up),
        created=created,
        reason=reason,
        tournament_id=sign_up.tournament_id,
    )


@transaction.atomic
def sign_up(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    country: str,
    email: str,
    consent: bool,
    ema_number: str | None = None,
    club: str = "",
    team: str = "",
) -> SignUp:
    """Sign up for a tournament without an account: "registered" while places are left (and the
    player's country is under its quota), else "waiting"; "pending" when the organiser approves
    sign-ups. A confirmation e-mail with the private status link follows. `team`: in a team
    event, the team's name ("" for none), joined (or created) when the place is given."""
    now = timezone.now()
    # One sign-up at a time per tournament: the last place is given once.
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_open(tournament, now)
    first = clean_name(first_name, field="first_name")
    last = clean_name(last_name, field="last_name")
    code = clean_country(country)
    if not code:
        raise ValidationFailed("A country is required.", field="country")
    address = _clean_email(email)
    if consent is not True:
        raise ValidationFailed(
            "Agree to the storing of your data to sign up (see the privacy note).",
            field="consent",
        )
    ema = clean_ema_number(ema_number)
    club = " ".join(str(club or "").split())
    if len(club) > CLUB_NAME_MAX:
        raise ValidationFailed(f"At most {CLUB_NAME_MAX} characters.", field="club")
    team_name = clean_team_name(team)
    if team_name and not tournament.teams_enabled:
        raise ValidationFailed(
            "This tournament is not a team event: leave the team empty.", field="team"
        )
    key = name_key(first, last)
    _check_duplicates(tournament, key=key, ema_number=ema)
    record = SignUp(
        tournament=tournament,
        first_name=first,
        last_name=last,
        name_key=key,
        country=code,
        email=address,
        ema_number=ema or "",
        club=club,
        team=team_name,
        token=secrets.token_urlsafe(32),
        consent_at=now,
        status=SignUp.Status.WAITING,
    )
    if tournament.signup_approval:
        record.status = SignUp.Status.PENDING
    with _audited(None, "signup.create", record, created=True):
        record.save()
        if record.status == SignUp.Status.WAITING:
            # In line behind those already waiting: the place goes to the first one eligible.
            fill_places(tournament, quiet=record)
            record.refresh_from_db()
    _mail(record, "confirmation")
    return record


def fill_places(
    tournament: Tournament, *, actor: Any = None, quiet: SignUp | None = None
) -> list[SignUp]:
    """Move waiting sign-ups up, oldest first, while places are left; one held back by its
    country's quota keeps its turn and the next one eligible moves up (EMA quota settings are
    the organiser's). Each one moved up is told by e-mail. Call inside a transaction."""
    moved: list[SignUp] = []
    now = timezone.now()
    waiting = SignUp.objects.select_for_update().filter(
        tournament=tournament, status=SignUp.Status.WAITING
    )
    for candidate in waiting.order_by("created_at", "pk"):
        if not has_free_place(tournament):
            break
        if country_full(tournament, candidate.country, now):
            continue
        new = candidate.pk == getattr(quiet, "pk", None)
        with _audited(actor, "signup.promote", candidate) as audit:
            _register(candidate)
            candidate.save()
            if new:  # audited as its creation, and gets its confirmation
                audit.discard()
        if not new:
            _mail(candidate, "promoted")
        moved.append(candidate)
    return moved


@transaction.atomic
def withdraw_sign_up(*, token: str, actor: Any = None) -> SignUp:
    """The registrant leaves (from their private link): the place goes to the next waiting."""
    record = (
        SignUp.objects.select_for_update().select_related("tournament").filter(token=token).first()
    )
    if record is None or not token:
        raise PermissionDenied("This link is not valid.", field="token")
    if record.status not in ACTIVE:
        raise ValidationFailed("This sign-up was already withdrawn.", field="status")
    tournament = Tournament.objects.select_for_update().get(pk=record.tournament_id)
    with _audited(actor, "signup.withdraw", record):
        _withdraw(record, tournament, actor)
    if tournament.status == Tournament.Status.REGISTRATION:
        fill_places(tournament, actor=actor)
    return record


def _withdraw(record: SignUp, tournament: Tournament, actor: Any) -> None:
    registration = record.registration
    if registration is not None:
        seated = Seat.objects.filter(
            table__session__tournament_id=tournament.pk, player_id=registration.player_id
        ).exists()
        if seated:
            raise ValidationFailed(
                "You have been seated already: ask the organisers to withdraw you.",
                field="status",
            )
        with audited(
            actor=actor,
            action="registration.withdraw",
            object_type="tournaments.registration",
            reason="withdrawn by the player (self-registration link)",
            tournament_id=tournament.pk,
            snapshot=lambda: registration_snapshot(registration),
        ) as audit:
            record.registration = None
            registration_pk = registration.pk
            record.status = SignUp.Status.WITHDRAWN
            record.save()
            registration.delete()
            audit.object_id = registration_pk
            audit.after = None
        if registration.team_id:
            remove_empty_teams(tournament.pk)
            touch_standings(tournament.pk)
    else:
        record.status = SignUp.Status.WITHDRAWN
        record.save()


@transaction.atomic
def decide_sign_up(*, actor: Any, sign_up: SignUp, approve: bool, reason: str = "") -> SignUp:
    """The organiser approves a pending sign-up (a place if one is free, else the waiting
    list) or refuses it; the registrant is told by e-mail."""
    require_organiser(actor, sign_up.tournament_id)
    record = SignUp.objects.select_for_update().get(pk=sign_up.pk)
    tournament = Tournament.objects.select_for_update().get(pk=record.tournament_id)
    if record.status != SignUp.Status.PENDING:
        raise ValidationFailed("Only a sign-up awaiting approval can be decided.", field="status")
    if not approve:
        with _audited(actor, "signup.refuse", record, reason=reason):
            record.status = SignUp.Status.REFUSED
            record.save()
        _mail(record, "refused")
        return record
    with _audited(actor, "signup.approve", record, reason=reason):
        record.status = SignUp.Status.WAITING
        record.save()
    moved = fill_places(tournament, actor=actor)
    record.refresh_from_db()
    if record not in moved:
        _mail(record, "approved")
    return record


@transaction.atomic
def fill_places_now(*, actor: Any, tournament: Tournament) -> list[SignUp]:
    """The organiser's button: move the waiting list up (e.g. once the quotas have ended or
    the capacity grew)."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    return fill_places(tournament, actor=actor)


def rate_limit_per_hour() -> int:
    """Sign-ups an address may send per hour: never under 10 (a club signs up together)."""
    return max(10, int(getattr(settings, "SIGNUP_RATE_PER_HOUR", 30)))


class TooManySignUps(Exception):
    """More sign-ups from one address in an hour than SIGNUP_RATE_PER_HOUR (429)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("Too many sign-ups from this address; try again later.")
        self.retry_after = retry_after


def count_sign_up_attempt(address: str) -> None:
    """Count one sign-up from `address` in this hour, or raise TooManySignUps. A cache that
    does not answer lets the sign-up through (the honeypot and the duplicate checks remain)."""
    import logging
    import time

    from django.core.cache import cache

    hour = int(time.time() // 3600)
    key = f"signup-rate:{hour}:{address}"
    try:
        cache.add(key, 0, timeout=3600)
        count = cache.incr(key)
    except Exception:  # the cache is down: fail open, as the login throttle does
        logging.getLogger(__name__).warning("sign-up rate limit skipped: cache unavailable")
        return
    if count > rate_limit_per_hour():
        raise TooManySignUps(retry_after=3600 - int(time.time()) % 3600)
