"""Club services: clubs, memberships, leagues and club nights."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction

from club.models import Club, ClubNight, League, Membership
from club.roles import is_club_admin
from core.audit import audited
from core.errors import PermissionDenied, ValidationFailed
from core.models import Player
from core.players import clean_country
from core.validation import parse_date, parse_optional_date, slug_from
from scoring.engine import load_ruleset
from scoring.validation import check_rules


def _require_club_admin(actor: Any, club: Club) -> None:
    if actor is not None and not is_club_admin(actor, club):
        raise PermissionDenied("Only the club's admins may do this.")


def club_snapshot(club: Club) -> dict[str, Any]:
    return {
        "name": club.name,
        "slug": club.slug,
        "city": club.city,
        "country": club.country,
        "ruleset": club.ruleset,
        "rule_overrides": club.rule_overrides,
        "ruleset_3p": club.ruleset_3p,
        "rule_overrides_3p": club.rule_overrides_3p,
        "confirmations": club.confirmations,
    }


@transaction.atomic
def create_club(
    *,
    actor: Any,
    name: str,
    slug: str = "",
    city: str = "",
    country: str = "",
    ruleset: str = "wdmc-2019",
    rule_overrides: dict[str, Any] | None = None,
    admin: Player | None = None,
) -> Club:
    """A new club with house rules (a preset plus overrides); `admin` becomes its first admin."""
    name = " ".join(str(name or "").split())
    if not name:
        raise ValidationFailed("A club needs a name.", field="name")
    slug = slug_from(slug, name)
    if not slug:
        raise ValidationFailed("Choose a slug of letters and digits.", field="slug")
    if Club.objects.filter(slug=slug).exists():
        raise ValidationFailed(f"The address {slug!r} is taken.", field="slug")
    check_rules(ruleset, rule_overrides)
    club = Club.objects.create(
        name=name,
        slug=slug,
        city=city.strip(),
        country=clean_country(country),
        ruleset=ruleset,
        rule_overrides=rule_overrides or {},
    )
    with audited(
        actor=actor,
        action="club.create",
        obj=club,
        club_id=club.pk,
        snapshot=lambda: club_snapshot(club),
        created=True,
    ) as audit:
        if admin is not None:
            Membership.objects.create(club=club, player=admin, role=Membership.Role.ADMIN)
        audit.note(admin=admin.pk if admin else None)
    return club


@transaction.atomic
def update_club_rules(
    *,
    actor: Any,
    club: Club,
    ruleset: str,
    rule_overrides: dict[str, Any] | None = None,
    ruleset_3p: str | None = None,
    rule_overrides_3p: dict[str, Any] | None = None,
    confirmations: str | None = None,
) -> Club:
    """Change the house rules (new games use them; played games keep their snapshot).

    ``ruleset_3p``/``rule_overrides_3p``: the rules of tables of three at club nights (a
    three-player ruleset); ``confirmations``: "one" or "all" other players at the table
    confirm a hand a player entered (club play without a referee). None keeps them.
    """
    _require_club_admin(actor, club)
    check_rules(ruleset, rule_overrides)
    fields = ["ruleset", "rule_overrides"]
    if ruleset_3p is not None:
        try:
            check_rules(ruleset_3p, rule_overrides_3p)
        except ValidationFailed as error:
            raise ValidationFailed(error.message, field="ruleset_3p") from error

        if load_ruleset(ruleset_3p, rule_overrides_3p or None).players != 3:
            raise ValidationFailed(
                "ruleset_3p must be a three-player ruleset (e.g. wdmc-2019-3p).",
                field="ruleset_3p",
            )
        fields += ["ruleset_3p", "rule_overrides_3p"]
    if confirmations is not None and confirmations not in Club.Confirmations.values:
        raise ValidationFailed('confirmations must be "one" or "all".', field="confirmations")
    with audited(
        actor=actor,
        action="club.rules",
        obj=club,
        club_id=club.pk,
        snapshot=lambda: club_snapshot(club),
    ):
        club.ruleset = ruleset
        club.rule_overrides = rule_overrides or {}
        if ruleset_3p is not None:
            club.ruleset_3p = ruleset_3p
            club.rule_overrides_3p = rule_overrides_3p or {}
        if confirmations is not None:
            club.confirmations = confirmations
            fields.append("confirmations")
        club.save(update_fields=fields)
    return club


@transaction.atomic
def add_member(
    *,
    actor: Any,
    club: Club,
    player: Player,
    role: str = Membership.Role.MEMBER,
    joined_on: datetime.date | str | None = None,
) -> Membership:
    _require_club_admin(actor, club)
    if role not in Membership.Role.values:
        raise ValidationFailed(
            f"role must be one of {', '.join(Membership.Role.values)}.", field="role"
        )
    if Membership.objects.filter(club=club, player=player).exists():
        raise ValidationFailed(f"{player} is already a member.", field="player")
    with audited(actor=actor, action="club.member.add", club_id=club.pk) as audit:
        membership = Membership.objects.create(
            club=club,
            player=player,
            role=role,
            joined_on=parse_optional_date(joined_on, field="joined_on"),
        )
        audit.obj = membership
        audit.after = {"player": player.pk, "role": role, "joined_on": membership.joined_on}
    return membership


@transaction.atomic
def remove_member(*, actor: Any, membership: Membership, reason: str = "") -> None:
    _require_club_admin(actor, membership.club)
    with audited(
        actor=actor,
        action="club.member.remove",
        object_type="club.membership",
        reason=reason,
        before={"player": membership.player_id, "role": membership.role},
    ) as audit:
        club_id, pk = membership.club_id, membership.pk
        membership.delete()
        audit.object_id = pk
        audit.club_id = club_id
        audit.after = None


@transaction.atomic
def create_league(
    *,
    actor: Any,
    club: Club,
    name: str,
    starts_on: datetime.date | str,
    ends_on: datetime.date | str | None = None,
    aggregate: str = League.Aggregate.SUM,
    best_n: int | None = None,
    min_games: int = 0,
) -> League:
    _require_club_admin(actor, club)
    name = " ".join(str(name or "").split())
    if not name:
        raise ValidationFailed("A league needs a name.", field="name")
    start = parse_date(starts_on, field="starts_on")
    assert start is not None  # required=True
    end = parse_optional_date(ends_on, field="ends_on")
    if end is not None and start is not None and end < start:
        raise ValidationFailed("The league ends before it starts.", field="ends_on")
    if aggregate not in League.Aggregate.values:
        raise ValidationFailed(
            f"aggregate must be one of {', '.join(League.Aggregate.values)}.", field="aggregate"
        )
    if aggregate == League.Aggregate.BEST_N and not (isinstance(best_n, int) and best_n > 0):
        raise ValidationFailed("Say how many best results count.", field="best_n")
    if not isinstance(min_games, int) or min_games < 0:
        raise ValidationFailed("min_games must be 0 or more.", field="min_games")
    with audited(actor=actor, action="league.create", club_id=club.pk) as audit:
        league = League.objects.create(
            club=club,
            name=name,
            starts_on=start,
            ends_on=end,
            aggregate=aggregate,
            best_n=best_n if aggregate == League.Aggregate.BEST_N else None,
            min_games=min_games,
        )
        audit.obj = league
        audit.after = {
            "name": name,
            "starts_on": start,
            "ends_on": end,
            "aggregate": aggregate,
            "best_n": league.best_n,
            "min_games": min_games,
        }
    return league


@transaction.atomic
def create_club_night(
    *,
    actor: Any,
    club: Club,
    date: datetime.date | str,
    league: League | None = None,
    notes: str = "",
) -> ClubNight:
    _require_club_admin(actor, club)
    day = parse_date(date, field="date")
    assert day is not None  # required=True
    if league is not None:
        if league.club_id != club.pk:
            raise ValidationFailed("The league belongs to another club.", field="league")
        if day is not None and (
            day < league.starts_on or (league.ends_on is not None and day > league.ends_on)
        ):
            raise ValidationFailed("The date is outside the league's season.", field="date")
    with audited(actor=actor, action="club_night.create", club_id=club.pk) as audit:
        night = ClubNight.objects.create(club=club, league=league, date=day, notes=notes)
        audit.obj = night
        audit.after = {"date": day, "league": league.pk if league else None, "notes": notes}
    return night
