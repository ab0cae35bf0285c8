"""Registrations: register players (finding them by EMA number), correct them, drop them."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from core.audit import audited
from core.errors import ValidationFailed
from core.models import Player
from core.players import check_ema_number_free, clean_country, clean_ema_number, clean_name
from scoring.models import Game
from tournaments.models import Registration, Seat, Session, StandingRow, Tournament
from tournaments.standings.cache import touch as touch_standings
from tournaments.standings.tasks import enqueue_recompute

from ._common import require_organiser
from .teams import clean_team_name, remove_empty_teams, team_label, team_named

CLUB_NAME_MAX = Registration._meta.get_field("club_name").max_length or 200


def registration_snapshot(r: Registration) -> dict[str, Any]:
    return {
        "player": r.player_id,
        "player_name": str(r.player),
        "first_name": r.player.first_name,
        "last_name": r.player.last_name,
        "ema_number": r.player.ema_number,
        "country": r.player.country,
        "club_name": r.club_name,
        "team": team_label(r),
        "role": r.role,
        "dropped_at": r.dropped_at,
        "drop_reason": r.drop_reason,
        "disqualified_at": r.disqualified_at,
        "disqualification_reason": r.disqualification_reason,
    }


def find_or_create_player(
    *, first_name: str, last_name: str, ema_number: str | None, country: str
) -> tuple[Player, bool]:
    """The player with this EMA number, or a new player (names and codes already cleaned)."""
    if ema_number:
        existing = Player.objects.filter(ema_number=ema_number).first()
        if existing is not None:
            if not existing.country and country:
                existing.country = country
                existing.save(update_fields=["country"])
            return existing, False
    player = Player.objects.create(
        first_name=first_name, last_name=last_name, ema_number=ema_number, country=country
    )
    return player, True


ROLES = tuple(Registration.Role.values)


def clean_role(value: Any, *, field: str = "role") -> str:
    """`player`, `fill-in` or `reserve` (issue 31), else the field's error."""
    role = str(value or "").strip().lower() if isinstance(value, str) else value
    if role not in ROLES:
        raise ValidationFailed(f"role is one of {', '.join(ROLES)}.", field=field)
    return str(role)


def check_open_for_registration(tournament: Tournament) -> None:
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED):
        raise ValidationFailed("The tournament is over: no more registrations.", field="status")


@transaction.atomic
def register_player(
    *,
    actor: Any,
    tournament: Tournament,
    first_name: str = "",
    last_name: str = "",
    ema_number: str | None = None,
    country: str = "",
    club_name: str = "",
    role: str | None = None,
    is_substitute: bool = False,
    player: Player | None = None,
    team: str = "",
) -> Registration:
    """Register a player: an existing `player`, the one holding `ema_number`, or a new one.

    `role` (issue 31): "player" (ranked), "fill-in" (plays every session to complete the
    tables, never ranked) or "reserve" (on standby: seated only in place of a player, EMA 2025
    7.3). `is_substitute=True` without a role is the fill-in of before roles. `team`: the
    team's name (created on first use, issue 32.1), "" for none."""
    require_organiser(actor, tournament)
    check_open_for_registration(tournament)
    team_name = clean_team_name(team)
    role = clean_role(role if role is not None else ("fill-in" if is_substitute else "player"))
    club_name = " ".join(str(club_name or "").split())
    if len(club_name) > CLUB_NAME_MAX:
        raise ValidationFailed(f"At most {CLUB_NAME_MAX} characters.", field="club_name")
    if player is None:
        first = clean_name(first_name, field="first_name")
        last = clean_name(last_name, field="last_name")
        ema = clean_ema_number(ema_number)
        player, _ = find_or_create_player(
            first_name=first, last_name=last, ema_number=ema, country=clean_country(country)
        )
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationFailed(f"{player} is already registered.", field="ema_number")
    with audited(
        actor=actor,
        action="registration.create",
        tournament_id=tournament.pk,
        snapshot=lambda: registration_snapshot(registration),
        created=True,
    ) as audit:
        registration = Registration.objects.create(
            tournament=tournament,
            player=player,
            club_name=club_name,
            role=role,
            team=team_named(tournament, team_name),
        )
        audit.obj = registration
    if team_name:
        touch_standings(tournament.pk)  # the team standings list the new member
    return registration


@transaction.atomic
def drop_player(*, actor: Any, registration: Registration, reason: str) -> Registration:
    """The player leaves the tournament: not seated in later sessions; results so far stay."""
    require_organiser(actor, registration.tournament_id)
    if not (reason or "").strip():
        raise ValidationFailed("Say why the player is dropped.", field="reason")
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.dropped_at is not None:
        raise ValidationFailed("The player was already dropped.", field="registration")
    with audited(
        actor=actor,
        action="registration.drop",
        obj=registration,
        reason=reason,
        tournament_id=registration.tournament_id,
        snapshot=lambda: registration_snapshot(registration),
    ):
        registration.dropped_at = timezone.now()
        registration.drop_reason = reason.strip()
        registration.save(update_fields=["dropped_at", "drop_reason"])
    enqueue_recompute(registration.tournament_id)
    return registration


@transaction.atomic
def disqualify_player(*, actor: Any, registration: Registration, reason: str) -> Registration:
    """Disqualify a player (EMA 2025 6.12: "A player caught cheating will be immediately
    disqualified"; "Further repeated obstructive behaviour results in immediate
    disqualification").

    Consequences (docs/standings.md):
    - Seating: the player is also dropped, so no later session seats them; a session already
      seated with them cannot start until a substitute takes their seat (EMA 2025 7.3: "a
      substitute player will take their place", e.g. "due to ... disqualification"); a game
      in progress continues with a substitute "during" the game (7.3).
    - Standings: the text does not say how a disqualified player ranks. Chosen: they are
      shown, marked, with their results so far (and -15,000 points and -15,000 uma for each
      session a substitute plays for them, 7.3), but not ranked and not in the EMA results
      file; their opponents' results stand as played.
    Refused once the results are final or published. Audited ("registration.disqualify");
    reinstate_player undoes it (an appeal), audited too.
    """
    require_organiser(actor, registration.tournament_id)
    if not (reason or "").strip():
        raise ValidationFailed("Say why the player is disqualified.", field="reason")
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament", "player")
        .get(pk=registration.pk)
    )
    tournament = registration.tournament
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED):
        raise ValidationFailed(
            "The results are final: a disqualification changes them. An organiser reopens "
            "the last session first (with a reason).",
            field="registration",
        )
    if registration.disqualified_at is not None:
        raise ValidationFailed("The player is already disqualified.", field="registration")
    with audited(
        actor=actor,
        action="registration.disqualify",
        obj=registration,
        reason=reason,
        tournament_id=registration.tournament_id,
        snapshot=lambda: registration_snapshot(registration),
    ):
        now = timezone.now()
        registration.disqualified_at = now
        registration.disqualification_reason = reason.strip()
        fields = ["disqualified_at", "disqualification_reason"]
        if registration.dropped_at is None:
            registration.dropped_at = now
            registration.drop_reason = reason.strip()
            fields += ["dropped_at", "drop_reason"]
        registration.save(update_fields=fields)
    enqueue_recompute(registration.tournament_id)
    return registration


def seats_to_replace(registration: Registration) -> list[dict[str, Any]]:
    """The tables of sessions not closed where a disqualified or dropped player is still
    seated and no substitute has taken their seat (EMA 2025 7.3): {"session", "table",
    "wind", "started"}."""

    out = []
    for seat in (
        Seat.objects.filter(
            table__session__tournament_id=registration.tournament_id,
            player_id=registration.player_id,
        )
        .exclude(table__session__status=Session.Status.CLOSED)
        .select_related("table__session")
        .order_by("table__session__number")
    ):
        game = Game.objects.filter(table__id=seat.table_id).only("substitutes").first()
        if game is not None and any(
            int(x.get("seat", -1)) == seat.wind for x in game.substitutes or []
        ):
            continue
        session = seat.table.session
        out.append(
            {
                "session": session.number,
                "table": seat.table.number,
                "wind": seat.wind,
                "started": session.status == Session.Status.RUNNING,
            }
        )
    return out


@transaction.atomic
def reinstate_player(*, actor: Any, registration: Registration, reason: str = "") -> Registration:
    require_organiser(actor, registration.tournament_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.dropped_at is None:
        raise ValidationFailed("The player is not dropped.", field="registration")
    with audited(
        actor=actor,
        action="registration.reinstate",
        obj=registration,
        reason=reason,
        tournament_id=registration.tournament_id,
        snapshot=lambda: registration_snapshot(registration),
    ):
        registration.dropped_at = None
        registration.drop_reason = ""
        # A disqualification is undone with it (an appeal, EMA 2025 6.12), audited.
        registration.disqualified_at = None
        registration.disqualification_reason = ""
        registration.save(
            update_fields=[
                "dropped_at",
                "drop_reason",
                "disqualified_at",
                "disqualification_reason",
            ]
        )
    enqueue_recompute(registration.tournament_id)
    return registration


@transaction.atomic
def withdraw_registration(*, actor: Any, registration: Registration, reason: str = "") -> None:
    """Remove a registration before the player has been seated (afterwards: drop_player)."""
    require_organiser(actor, registration.tournament_id)

    if Seat.objects.filter(
        table__session__tournament_id=registration.tournament_id, player_id=registration.player_id
    ).exists():
        raise ValidationFailed(
            "The player has been seated; drop them instead of removing the registration.",
            field="registration",
        )
    with audited(
        actor=actor,
        action="registration.withdraw",
        object_type="tournaments.registration",
        reason=reason,
        snapshot=lambda: registration_snapshot(registration),
    ) as audit:
        pk, tournament_id = registration.pk, registration.tournament_id
        registration.delete()
        remove_empty_teams(tournament_id)
        audit.object_id = pk
        audit.tournament_id = tournament_id
        audit.after = None


REGISTRATION_FIELDS = ("first_name", "last_name", "ema_number", "country", "club_name")


@transaction.atomic
def update_registration(*, actor: Any, registration: Registration, **changes: Any) -> Registration:
    """Correct a registration: the player's name, EMA number and country, the club shown, the
    role (issue 31; `is_substitute` true or false is the fill-in or player role of before
    roles) and the team (its name, created on first use; "" for none: issue 32.1). Unchanged
    values are left alone; all or nothing."""

    require_organiser(actor, registration.tournament_id)
    unknown = sorted(set(changes) - {*REGISTRATION_FIELDS, "role", "is_substitute", "team"})
    if unknown:
        raise ValidationFailed(f"{unknown[0]} cannot be changed here.", field=unknown[0])
    # One registration change at a time per tournament: a change creates and removes teams
    # across its registrations, and two at once deadlocked (found by the live API fuzzing).
    list(Tournament.objects.select_for_update().filter(pk=registration.tournament_id).values("pk"))
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("player", "team")
        .get(pk=registration.pk)
    )
    player = Player.objects.select_for_update().get(pk=registration.player_id)
    registration.player = player
    with audited(
        actor=actor,
        action="registration.update",
        obj=registration,
        snapshot=lambda: registration_snapshot(registration),
        tournament_id=registration.tournament_id,
    ) as audit:
        if "first_name" in changes:
            player.first_name = clean_name(changes["first_name"], field="first_name")
        if "last_name" in changes:
            player.last_name = clean_name(changes["last_name"], field="last_name")
        if "ema_number" in changes:
            ema = clean_ema_number(changes["ema_number"])
            check_ema_number_free(ema, exclude=player.pk)
            player.ema_number = ema
        if "country" in changes:
            player.country = clean_country(changes["country"])
        if "club_name" in changes:
            club_name = " ".join(str(changes["club_name"] or "").split())
            if len(club_name) > CLUB_NAME_MAX:
                raise ValidationFailed(f"At most {CLUB_NAME_MAX} characters.", field="club_name")
            registration.club_name = club_name
        if "role" in changes:
            registration.role = clean_role(changes["role"])
        elif "is_substitute" in changes:
            flag = bool(changes["is_substitute"])
            if flag or registration.role == Registration.Role.FILL_IN:
                # A reserve stays one when a form of before roles says "not a fill-in".
                registration.role = Registration.Role.FILL_IN if flag else Registration.Role.PLAYER
        if "team" in changes:
            name = clean_team_name(changes["team"])
            if name.casefold() != team_label(registration).casefold():
                registration.team = team_named(registration.tournament_id, name)
        if registration_snapshot(registration) == audit.before:
            audit.discard()
            return registration  # nothing changed: nothing to save or audit
        player.save(update_fields=["first_name", "last_name", "ema_number", "country"])
        registration.save(update_fields=["club_name", "role", "team"])
        remove_empty_teams(registration.tournament_id)

    # The standings (here and in the player's other tournaments) show the name and number.
    touch_standings(
        {registration.tournament_id}
        | set(StandingRow.objects.filter(player=player).values_list("tournament_id", flat=True))
    )
    enqueue_recompute(registration.tournament_id)
    return registration
