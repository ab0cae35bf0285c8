"""Self-registration (issue 35.1): sign-up -> waiting list -> promotion with the e-mails
(Django's locmem outbox), approval, per-country quotas, the closing date, duplicates."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone

from core.audit import audit_for_tournament
from core.errors import PermissionDenied, ValidationFailed
from tests.factories import PlayerFactory, RegistrationFactory, UserFactory
from tournaments.models import Registration, SignUp, Team
from tournaments.services import signups, update_tournament

pytestmark = pytest.mark.django_db


def person(n: int, **extra):
    return {
        "first_name": f"Ann{n}",
        "last_name": f"Player{n}",
        "country": "DE",
        "email": f"p{n}@example.org",
        "consent": True,
        **extra,
    }


def join(tournament, capture, n: int, **extra) -> SignUp:
    with capture(execute=True):
        return signups.sign_up(tournament=tournament, **person(n, **extra))


def token_from(mail) -> str:
    match = re.search(r"/register/([\w-]+)/", mail.body)
    assert match, mail.body
    return match.group(1)


def test_waiting_list_then_promotion_by_withdrawal_with_emails(
    tournament, organiser, mailoutbox, django_capture_on_commit_callbacks
):
    update_tournament(actor=organiser, tournament=tournament, capacity=2)
    tournament.refresh_from_db()
    first = join(tournament, django_capture_on_commit_callbacks, 1)
    second = join(tournament, django_capture_on_commit_callbacks, 2)
    third = join(tournament, django_capture_on_commit_callbacks, 3)
    fourth = join(tournament, django_capture_on_commit_callbacks, 4)
    assert [s.status for s in (first, second, third, fourth)] == [
        "registered",
        "registered",
        "waiting",
        "waiting",
    ]
    assert Registration.objects.filter(tournament=tournament).count() == 2
    # One confirmation each, to the registrant, with the private link.
    assert [m.to for m in mailoutbox] == [[f"p{n}@example.org"] for n in (1, 2, 3, 4)]
    assert "You are registered" in mailoutbox[0].body
    assert "waiting list" in mailoutbox[2].body
    assert token_from(mailoutbox[0]) == first.token

    # The first one withdraws from their link: the first one waiting (3, not 4) moves up.
    with django_capture_on_commit_callbacks(execute=True):
        signups.withdraw_sign_up(token=token_from(mailoutbox[0]))
    first.refresh_from_db()
    third.refresh_from_db()
    fourth.refresh_from_db()
    assert (first.status, third.status, fourth.status) == ("withdrawn", "registered", "waiting")
    assert first.registration is None and third.registration is not None
    assert set(
        Registration.objects.filter(tournament=tournament).values_list(
            "player__first_name", flat=True
        )
    ) == {"Ann2", "Ann3"}
    promoted = mailoutbox[4]
    assert promoted.to == ["p3@example.org"] and "you have a place" in promoted.subject
    assert token_from(promoted) == third.token
    assert len(mailoutbox) == 5  # nobody else is written to
    actions = list(audit_for_tournament(tournament.pk).values_list("action", flat=True))
    assert "signup.withdraw" in actions and "signup.promote" in actions
    # core.audit.audited: each entry holds the sign-up before and after (no e-mail address).
    promote = audit_for_tournament(tournament.pk).get(action="signup.promote")
    assert (promote.before["status"], promote.after["status"]) == ("waiting", "registered")
    assert promote.object_id == str(third.pk) and "email" not in (promote.after or {})
    created = audit_for_tournament(tournament.pk).filter(action="signup.create")
    assert created.count() == 4 and all(e.before is None for e in created)
    with pytest.raises(ValidationFailed) as err:
        signups.withdraw_sign_up(token=first.token)
    assert err.value.field == "status"
    with pytest.raises(PermissionDenied):
        signups.withdraw_sign_up(token="not-a-token")


def test_new_sign_ups_queue_behind_the_waiting_list(
    tournament, organiser, django_capture_on_commit_callbacks
):
    update_tournament(actor=organiser, tournament=tournament, capacity=1)
    tournament.refresh_from_db()
    assert join(tournament, django_capture_on_commit_callbacks, 1).status == "registered"
    assert join(tournament, django_capture_on_commit_callbacks, 2).status == "waiting"
    # The organiser adds a place: the one waiting gets it, not a newcomer.
    update_tournament(actor=organiser, tournament=tournament, capacity=2)
    tournament.refresh_from_db()
    moved = signups.fill_places_now(actor=organiser, tournament=tournament)
    assert [s.first_name for s in moved] == ["Ann2"]
    assert join(tournament, django_capture_on_commit_callbacks, 3).status == "waiting"


def test_approval_makes_sign_ups_pending_until_the_organiser_decides(
    tournament, organiser, mailoutbox, django_capture_on_commit_callbacks
):
    update_tournament(actor=organiser, tournament=tournament, signup_approval=True, capacity=1)
    tournament.refresh_from_db()
    a = join(tournament, django_capture_on_commit_callbacks, 1)
    b = join(tournament, django_capture_on_commit_callbacks, 2)
    c = join(tournament, django_capture_on_commit_callbacks, 3)
    assert (a.status, b.status, c.status) == ("pending", "pending", "pending")
    assert not Registration.objects.filter(tournament=tournament).exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert signups.decide_sign_up(actor=organiser, sign_up=b, approve=True).status == (
            "registered"
        )
        assert signups.decide_sign_up(actor=organiser, sign_up=a, approve=True).status == (
            "waiting"
        )
        assert signups.decide_sign_up(actor=organiser, sign_up=c, approve=False).status == (
            "refused"
        )
    assert [m.to[0] for m in mailoutbox[3:]] == [
        "p2@example.org",
        "p1@example.org",
        "p3@example.org",
    ]
    assert "not accept" in mailoutbox[5].body
    with pytest.raises(PermissionDenied):
        signups.decide_sign_up(actor=UserFactory(), sign_up=a, approve=True)


def test_country_quota_holds_until_its_date_then_opens(
    tournament, organiser, django_capture_on_commit_callbacks
):
    until = timezone.now() + datetime.timedelta(days=7)
    update_tournament(
        actor=organiser,
        tournament=tournament,
        capacity=10,
        country_quota=2,
        country_quota_until=until,
    )
    tournament.refresh_from_db()
    germans = [join(tournament, django_capture_on_commit_callbacks, n) for n in (1, 2, 3)]
    assert [s.status for s in germans] == ["registered", "registered", "waiting"]
    # Another country is not held up by the German one waiting.
    dutch = join(tournament, django_capture_on_commit_callbacks, 4, country="NL")
    assert dutch.status == "registered"
    # The quota ends: the German one waiting moves up.
    update_tournament(
        actor=organiser,
        tournament=tournament,
        country_quota_until=timezone.now() - datetime.timedelta(seconds=1),
    )
    tournament.refresh_from_db()
    moved = signups.fill_places_now(actor=organiser, tournament=tournament)
    assert [s.pk for s in moved] == [germans[2].pk]
    assert join(tournament, django_capture_on_commit_callbacks, 5).status == "registered"


def test_closing_date_and_status_refuse_sign_ups(tournament, organiser):
    update_tournament(
        actor=organiser,
        tournament=tournament,
        registration_closes=timezone.now() - datetime.timedelta(minutes=1),
    )
    tournament.refresh_from_db()
    with pytest.raises(ValidationFailed) as err:
        signups.sign_up(tournament=tournament, **person(1))
    assert err.value.field == "registration_closes"
    assert not SignUp.objects.exists()
    update_tournament(
        actor=organiser,
        tournament=tournament,
        registration_closes=timezone.now() + datetime.timedelta(days=1),
    )
    tournament.refresh_from_db()
    assert signups.sign_up(tournament=tournament, **person(1)).status == "registered"
    tournament.status = "running"
    tournament.save()
    with pytest.raises(ValidationFailed) as err:
        signups.sign_up(tournament=tournament, **person(2))
    assert err.value.field == "status"


def test_duplicates_refused_naming_the_field(tournament):
    signups.sign_up(tournament=tournament, **person(1, ema_number="04000001"))
    with pytest.raises(ValidationFailed) as err:
        signups.sign_up(tournament=tournament, **person(2, ema_number="0400 0001"))
    assert err.value.field == "ema_number" and "04000001" in err.value.message
    # Same name, other case and accents.
    signups.sign_up(
        tournament=tournament, **{**person(3), "first_name": "Zoë", "last_name": "Müller"}
    )
    with pytest.raises(ValidationFailed) as err:
        signups.sign_up(
            tournament=tournament, **{**person(4), "first_name": "ZOE", "last_name": "muller"}
        )
    assert err.value.field == "last_name"
    # A player the organiser registered by hand counts too.
    RegistrationFactory(
        tournament=tournament,
        player=PlayerFactory(first_name="Émile", last_name="Zola", ema_number="04000009"),
    )
    with pytest.raises(ValidationFailed) as err:
        signups.sign_up(
            tournament=tournament, **{**person(5), "first_name": "emile", "last_name": "ZOLA"}
        )
    assert err.value.field == "last_name"
    with pytest.raises(ValidationFailed) as err:
        signups.sign_up(tournament=tournament, **person(6, ema_number="04000009"))
    assert err.value.field == "ema_number"
    assert SignUp.objects.count() == 2


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"consent": False}, "consent"),
        ({"email": "not-an-address"}, "email"),
        ({"ema_number": "1234"}, "ema_number"),
        ({"country": "XX"}, "country"),
        ({"country": ""}, "country"),
        ({"first_name": " "}, "first_name"),
    ],
)
def test_invalid_sign_up_names_the_field_and_saves_nothing(tournament, changes, field):
    with pytest.raises(ValidationFailed) as err:
        signups.sign_up(tournament=tournament, **person(1, **changes))
    assert err.value.field == field
    assert not SignUp.objects.exists() and not Registration.objects.exists()


def test_rate_limit_is_never_below_ten_per_hour(settings):
    settings.SIGNUP_RATE_PER_HOUR = 3
    assert signups.rate_limit_per_hour() == 10
    for _ in range(10):
        signups.count_sign_up_attempt("203.0.113.7")
    with pytest.raises(signups.TooManySignUps):
        signups.count_sign_up_attempt("203.0.113.7")
    signups.count_sign_up_attempt("203.0.113.8")  # another address has its own count


def test_a_team_events_sign_up_joins_its_team_when_it_gets_a_place(
    tournament, organiser, django_capture_on_commit_callbacks
):
    # docs/teams.md: in a team event a sign-up names its team; the registration joins it (the
    # name's case ignored), created on first use, when the sign-up gets its place: at once, or
    # when it moves up from the waiting list. A team whose last member withdraws is removed.
    update_tournament(actor=organiser, tournament=tournament, capacity=2, teams_enabled=True)
    tournament.refresh_from_db()
    capture = django_capture_on_commit_callbacks
    first = join(tournament, capture, 1, team="  Red   Dragons ")
    second = join(tournament, capture, 2, team="red dragons")
    third = join(tournament, capture, 3, team="Tigers")
    assert (first.team, second.team, third.team) == ("Red Dragons", "red dragons", "Tigers")
    assert first.registration.team.name == "Red Dragons"
    assert second.registration.team_id == first.registration.team_id
    assert third.status == "waiting" and not Team.objects.filter(name="Tigers").exists()
    entries = audit_for_tournament(tournament.pk).filter(action="signup.create")
    assert sorted(e.after["team"] for e in entries) == ["Red Dragons", "Tigers", "red dragons"]
    signups.withdraw_sign_up(token=first.token)
    third.refresh_from_db()
    assert third.status == "registered" and third.registration.team.name == "Tigers"
    signups.withdraw_sign_up(token=second.token)
    assert list(Team.objects.filter(tournament=tournament).values_list("name", flat=True)) == [
        "Tigers"
    ]


@pytest.mark.parametrize(
    ("teams", "team", "message"),
    [(False, "Dragons", "not a team event"), (True, "x" * 101, "at most 100 characters")],
)
def test_a_team_outside_team_events_or_too_long_is_refused_naming_it(
    tournament, organiser, teams, team, message
):
    update_tournament(actor=organiser, tournament=tournament, teams_enabled=teams)
    tournament.refresh_from_db()
    with pytest.raises(ValidationFailed) as refused:
        signups.sign_up(tournament=tournament, **person(1, team=team))
    assert refused.value.field == "team" and message in str(refused.value)
    assert not SignUp.objects.exists() and not Team.objects.exists()
