"""Players and clubs: EMA numbers, countries, memberships, leagues, club nights."""

from __future__ import annotations

import datetime

import pytest

from club.models import Club, League, Membership
from club.services import (
    add_member,
    create_club,
    create_club_night,
    create_league,
    register_player,
    update_club_rules,
    update_player,
)
from core.audit import audit_for_club
from core.errors import PermissionDenied, ValidationFailed
from core.models import AuditEntry, Player
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_register_player_cleans_and_audits():
    p = register_player(
        actor=None, first_name=" Ada ", last_name="Lovelace", ema_number="0412 3456", country="gb"
    )
    assert (p.first_name, p.ema_number, p.country) == ("Ada", "04123456", "GB")
    entry = AuditEntry.objects.get(action="player.create")
    assert entry.after["ema_number"] == "04123456" and entry.before is None


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"ema_number": "1234567"}, "ema_number"),  # 7 digits
        ({"ema_number": "123456789"}, "ema_number"),
        ({"ema_number": "1234567a"}, "ema_number"),
        ({"country": "XX"}, "country"),
        ({"country": "Germany"}, "country"),
        ({"first_name": "  "}, "first_name"),
    ],
)
def test_register_player_bad_input_names_field_and_saves_nothing(kwargs, field):
    data = {"first_name": "Ada", "last_name": "Lovelace", **kwargs}
    with pytest.raises(ValidationFailed) as err:
        register_player(actor=None, **data)
    assert err.value.field == field
    assert not Player.objects.exists() and not AuditEntry.objects.exists()


def test_ema_number_is_unique():
    PlayerFactory(ema_number="10000001", first_name="Bo", last_name="Li")
    with pytest.raises(ValidationFailed) as err:
        register_player(actor=None, first_name="X", last_name="Y", ema_number="10000001")
    assert err.value.field == "ema_number" and "Bo Li" in err.value.message


def test_update_player_by_self_only():
    user = UserFactory()
    player = PlayerFactory(user=user, ema_number=None)
    updated = update_player(actor=user, player=player, ema_number="22223333", country="fr")
    assert updated.ema_number == "22223333" and updated.country == "FR"
    entry = AuditEntry.objects.get(action="player.update")
    assert entry.before["ema_number"] is None and entry.after["ema_number"] == "22223333"
    with pytest.raises(PermissionDenied):
        update_player(actor=UserFactory(), player=player, country="DE")
    with pytest.raises(ValidationFailed) as err:
        update_player(actor=user, player=player, user=None)
    assert err.value.field == "user"


def test_create_club_with_admin_and_house_rules():
    admin = PlayerFactory()
    club = create_club(actor=None, name="Riichi Berlin", country="de", admin=admin)
    assert club.slug == "riichi-berlin" and club.country == "DE"
    assert Membership.objects.get(club=club).role == Membership.Role.ADMIN
    with pytest.raises(ValidationFailed) as err:
        create_club(actor=None, name="Riichi Berlin")
    assert err.value.field == "slug"
    with pytest.raises(ValidationFailed) as err:
        create_club(actor=None, name="Other", rule_overrides={"nope": 1})
    assert err.value.field == "rules.nope"
    assert Club.objects.count() == 1
    assert audit_for_club(club.pk).filter(action="club.create").exists()


def test_club_admin_rights():
    club = ClubFactory()
    admin_user, outsider = UserFactory(), UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=admin_user), role="admin")
    membership = add_member(actor=admin_user, club=club, player=PlayerFactory())
    assert membership.role == "member"
    with pytest.raises(ValidationFailed) as err:
        add_member(actor=admin_user, club=club, player=membership.player)
    assert err.value.field == "player"
    with pytest.raises(PermissionDenied):
        add_member(actor=outsider, club=club, player=PlayerFactory())
    with pytest.raises(PermissionDenied):
        update_club_rules(actor=outsider, club=club, ruleset="ema-2025")
    club = update_club_rules(
        actor=admin_user, club=club, ruleset="ema-2025", rule_overrides={"aka_dora": 1}
    )
    assert club.rule_overrides == {"aka_dora": 1}


def test_league_and_club_night():
    club = ClubFactory()
    league = create_league(
        actor=None, club=club, name="Spring 2026", starts_on="2026-03-01", ends_on="2026-05-31"
    )
    with pytest.raises(ValidationFailed) as err:
        create_league(
            actor=None, club=club, name="Bad", starts_on="2026-03-01", ends_on="2026-01-01"
        )
    assert err.value.field == "ends_on"
    with pytest.raises(ValidationFailed) as err:
        create_league(
            actor=None, club=club, name="Best", starts_on="2026-01-01", aggregate="best_n"
        )
    assert err.value.field == "best_n"
    assert League.objects.count() == 1
    night = create_club_night(actor=None, club=club, date="2026-03-05", league=league)
    assert night.date == datetime.date(2026, 3, 5)
    with pytest.raises(ValidationFailed) as err:
        create_club_night(actor=None, club=club, date="2026-07-01", league=league)
    assert err.value.field == "date"
    with pytest.raises(ValidationFailed) as err:
        create_club_night(actor=None, club=ClubFactory(), date="2026-03-05", league=league)
    assert err.value.field == "league"
    with pytest.raises(ValidationFailed) as err:
        create_club_night(actor=None, club=club, date="5.3.2026")
    assert err.value.field == "date"
