"""Create a tournament and manage its staff."""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from core.audit import audited
from core.errors import PermissionDenied, ValidationFailed
from core.limits import MAX_SESSIONS
from core.players import clean_country
from core.validation import parse_date, slug_from
from scoring.models import Game
from scoring.validation import check_rules
from tournaments.models import StaffRole, Tournament, default_time_zone
from tournaments.standings.cache import touch as touch_standings
from tournaments.standings.ranking import TIE_BREAKS
from tournaments.standings.tasks import enqueue_recompute

from ._common import require_organiser, user_or_none
from .teams import clean_counted_members


def tournament_snapshot(t: Tournament) -> dict[str, Any]:
    return {
        "name": t.name,
        "slug": t.slug,
        "ruleset": t.ruleset,
        "rule_overrides": t.rule_overrides,
        "starts_on": t.starts_on,
        "ends_on": t.ends_on,
        "city": t.city,
        "country": t.country,
        "status": t.status,
        "sessions_planned": t.sessions_planned,
        "session_minutes": t.session_minutes,
        "tie_breaks": t.tie_breaks,
        "qualification_only": t.qualification_only,
        "time_zone": t.time_zone,
        "standings_hidden_from": t.standings_hidden_from,
        **{name: getattr(t, name) for name in SIGN_UP_SETTINGS},
        "teams_enabled": t.teams_enabled,
        "team_counted_members": t.team_counted_members,
    }


@transaction.atomic
def create_tournament(
    *,
    actor: Any,
    name: str,
    slug: str = "",
    ruleset: str = "ema-2025",
    rule_overrides: dict[str, Any] | None = None,
    starts_on: datetime.date | str,
    ends_on: datetime.date | str | None = None,
    city: str = "",
    country: str = "",
    sessions_planned: int = 4,
    session_minutes: int = 90,
    tie_breaks: list[str] | None = None,
    qualification_only: bool = False,
    time_zone: str = "",
) -> Tournament:
    """A draft tournament; the creator becomes its organiser. `time_zone` (an IANA name;
    default settings.TIME_ZONE) is where every time of day of its pages is shown."""
    if actor is not None and not getattr(actor, "is_authenticated", False):
        raise PermissionDenied("Log in to create a tournament.")
    name = " ".join(str(name or "").split())
    if not name:
        raise ValidationFailed("A tournament needs a name.", field="name")
    slug = slug_from(slug, name)
    if not slug:
        raise ValidationFailed("Choose a slug of letters and digits.", field="slug")
    if Tournament.objects.filter(slug=slug).exists():
        raise ValidationFailed(f"The address {slug!r} is taken.", field="slug")
    check_rules(ruleset, rule_overrides)
    start = parse_date(starts_on, field="starts_on")
    end = parse_date(ends_on, field="ends_on") if ends_on not in (None, "") else start
    if end < start:
        raise ValidationFailed("The tournament ends before it starts.", field="ends_on")
    if not isinstance(sessions_planned, int) or not 1 <= sessions_planned <= MAX_SESSIONS:
        raise ValidationFailed(
            f"Plan between 1 and {MAX_SESSIONS} sessions.", field="sessions_planned"
        )
    if not isinstance(session_minutes, int) or not 10 <= session_minutes <= 600:
        raise ValidationFailed("A session lasts 10 to 600 minutes.", field="session_minutes")
    zone = clean_time_zone(time_zone) if time_zone else default_time_zone()
    tournament = Tournament.objects.create(
        time_zone=zone,
        name=name,
        slug=slug,
        ruleset=ruleset,
        rule_overrides=rule_overrides or {},
        starts_on=start,
        ends_on=end,
        city=city.strip(),
        country=clean_country(country),
        sessions_planned=sessions_planned,
        session_minutes=session_minutes,
        tie_breaks=list(tie_breaks or []),
        qualification_only=qualification_only,
    )
    creator = user_or_none(actor)
    with audited(
        actor=actor,
        action="tournament.create",
        obj=tournament,
        tournament_id=tournament.pk,
        snapshot=lambda: tournament_snapshot(tournament),
        created=True,
    ):
        if creator is not None:
            StaffRole.objects.create(
                tournament=tournament, user=creator, role=StaffRole.Role.ORGANISER
            )
    return tournament


@transaction.atomic
def add_staff(*, actor: Any, tournament: Tournament, user: Any, role: str) -> StaffRole:
    require_organiser(actor, tournament)
    if role not in StaffRole.Role.values:
        raise ValidationFailed(
            f"role must be one of {', '.join(StaffRole.Role.values)}.", field="role"
        )
    if not isinstance(user, get_user_model()):
        raise ValidationFailed("Choose a user.", field="user")
    staff, created = StaffRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    with audited(actor=actor, action="staff.add", obj=staff, tournament_id=tournament.pk) as audit:
        if not created:
            raise ValidationFailed(f"{user} already has this role.", field="user")
        audit.after = {"user": user.pk, "username": user.get_username(), "role": role}
    return staff


@transaction.atomic
def remove_staff(*, actor: Any, staff: StaffRole) -> None:
    require_organiser(actor, staff.tournament_id)
    if (
        staff.role == StaffRole.Role.ORGANISER
        and not StaffRole.objects.filter(
            tournament_id=staff.tournament_id, role=StaffRole.Role.ORGANISER
        )
        .exclude(pk=staff.pk)
        .exists()
    ):
        raise ValidationFailed("A tournament keeps at least one organiser.", field="role")
    with audited(
        actor=actor,
        action="staff.remove",
        object_type="tournaments.staffrole",
        before={"user": staff.user_id, "role": staff.role},
    ) as audit:
        pk, tournament_id = staff.pk, staff.tournament_id
        staff.delete()
        audit.object_id = pk
        audit.tournament_id = tournament_id
        audit.after = None


# Self-registration (issue 35): null (or false) means none.
SIGN_UP_SETTINGS = (
    "capacity",
    "registration_closes",
    "signup_approval",
    "country_quota",
    "country_quota_until",
)

UPDATABLE = (
    "name",
    "city",
    "country",
    "starts_on",
    "ends_on",
    "sessions_planned",
    "session_minutes",
    "tie_breaks",
    "qualification_only",
    "ruleset",
    "rule_overrides",
    "time_zone",
    "standings_hidden_from",
    *SIGN_UP_SETTINGS,
    # Team events (issue 32.1).
    "teams_enabled",
    "team_counted_members",
)


def clean_time_zone(value: Any) -> str:
    """An IANA time zone name (issue 33), or ValidationFailed naming `time_zone`."""
    zone = str(value or "").strip()
    if zone not in zoneinfo.available_timezones():
        raise ValidationFailed(
            f"{zone!r} is not a time zone: give an IANA name such as Europe/Rome.",
            field="time_zone",
        )
    return zone


@transaction.atomic
def update_tournament(*, actor: Any, tournament: Tournament, **changes: Any) -> Tournament:
    """Change a tournament's settings. The rules can only change before any score is entered
    (games keep the rules they were created with)."""

    require_organiser(actor, tournament)
    unknown = sorted(set(changes) - set(UPDATABLE))
    if unknown:
        raise ValidationFailed(f"{unknown[0]} cannot be changed here.", field=unknown[0])
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    with audited(
        actor=actor,
        action="tournament.update",
        obj=tournament,
        tournament_id=tournament.pk,
        snapshot=lambda: tournament_snapshot(tournament),
    ):
        if "name" in changes:
            name = " ".join(str(changes["name"] or "").split())
            if not name:
                raise ValidationFailed("A tournament needs a name.", field="name")
            tournament.name = name
        if "city" in changes:
            tournament.city = str(changes["city"] or "").strip()
        if "country" in changes:
            tournament.country = clean_country(changes["country"])
        if "starts_on" in changes:
            tournament.starts_on = parse_date(changes["starts_on"], field="starts_on")
        if "ends_on" in changes:
            tournament.ends_on = parse_date(changes["ends_on"], field="ends_on")
        if tournament.ends_on < tournament.starts_on:
            raise ValidationFailed("The tournament ends before it starts.", field="ends_on")
        if "sessions_planned" in changes:
            n = changes["sessions_planned"]
            if not isinstance(n, int) or not 1 <= n <= MAX_SESSIONS:
                raise ValidationFailed(
                    f"Plan between 1 and {MAX_SESSIONS} sessions.", field="sessions_planned"
                )
            tournament.sessions_planned = n
        if "session_minutes" in changes:
            m = changes["session_minutes"]
            if not isinstance(m, int) or not 10 <= m <= 600:
                raise ValidationFailed(
                    "A session lasts 10 to 600 minutes.", field="session_minutes"
                )
            tournament.session_minutes = m
        if "tie_breaks" in changes:
            tie_breaks = changes["tie_breaks"]
            if not isinstance(tie_breaks, list) or not all(isinstance(t, str) for t in tie_breaks):
                raise ValidationFailed("tie_breaks is a list of names.", field="tie_breaks")

            unknown_names = [t for t in tie_breaks if t not in TIE_BREAKS]
            if unknown_names:
                raise ValidationFailed(
                    f"Unknown tie-break {unknown_names[0]!r} (known: {', '.join(TIE_BREAKS)}).",
                    field="tie_breaks",
                )
            if len(set(tie_breaks)) != len(tie_breaks):
                raise ValidationFailed("A tie-break is listed twice.", field="tie_breaks")
            tournament.tie_breaks = tie_breaks
        if "qualification_only" in changes:
            tournament.qualification_only = bool(changes["qualification_only"])
        if "time_zone" in changes:
            tournament.time_zone = clean_time_zone(changes["time_zone"])
        _apply_sign_up_settings(tournament, changes)
        if "teams_enabled" in changes:
            tournament.teams_enabled = bool(changes["teams_enabled"])
        if "team_counted_members" in changes:
            tournament.team_counted_members = clean_counted_members(changes["team_counted_members"])
        hidden_changed = "standings_hidden_from" in changes and (
            clean_hidden_from(changes["standings_hidden_from"]) != tournament.standings_hidden_from
        )
        if hidden_changed:
            tournament.standings_hidden_from = clean_hidden_from(changes["standings_hidden_from"])
        if "ruleset" in changes or "rule_overrides" in changes:
            ruleset = changes.get("ruleset", tournament.ruleset)
            overrides = changes.get("rule_overrides", tournament.rule_overrides)
            check_rules(ruleset, overrides)
            if (ruleset, overrides or {}) != (tournament.ruleset, tournament.rule_overrides or {}):
                games = Game.objects.filter(table__session__tournament=tournament)
                if (
                    games.filter(hands__isnull=False).exists()
                    or games.exclude(final_scores__isnull=True).exists()
                ):
                    raise ValidationFailed(
                        "Scores were already entered under the current rules.", field="ruleset"
                    )
                games.update(ruleset=ruleset, rule_overrides=overrides or {})
            tournament.ruleset, tournament.rule_overrides = ruleset, overrides or {}
        tournament.save()
        if hidden_changed:
            # Issue 32.3: every cached standings answer and ETag was made for the other view.
            tournament.standings_version = touch_standings(tournament.pk)
        if any(
            k in changes for k in ("tie_breaks", "qualification_only", "ruleset", "rule_overrides")
        ):
            # Issue 15: the standings (ranks, tie-break values) and the EMA report follow at once.
            enqueue_recompute(tournament.pk)
        elif any(k in changes for k in ("teams_enabled", "team_counted_members")):
            touch_standings(tournament.pk)  # the team standings are computed as they are read
    return tournament


def clean_hidden_from(value: Any) -> int | None:
    """Issue 32.3: the first session whose results are hidden (a session number), or None."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SESSIONS:
        raise ValidationFailed(
            f"A session number from 1 to {MAX_SESSIONS}, or null to hide nothing.",
            field="standings_hidden_from",
        )
    return value


def _apply_sign_up_settings(tournament: Tournament, changes: dict[str, Any]) -> None:
    """capacity, registration_closes, signup_approval, country_quota(_until) (issue 35)."""
    for name in ("capacity", "country_quota"):
        if name in changes:
            value = changes[name]
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValidationFailed("A whole number, or empty for none.", field=name)
            if value is not None and value < 1:
                raise ValidationFailed("At least 1, or empty for none.", field=name)
            setattr(tournament, name, value)
    for name in ("registration_closes", "country_quota_until"):
        if name in changes:
            value = changes[name]
            if value is not None and not isinstance(value, datetime.datetime):
                raise ValidationFailed("A date and time, or empty for none.", field=name)
            setattr(tournament, name, value)
    if "signup_approval" in changes:
        tournament.signup_approval = bool(changes["signup_approval"])
