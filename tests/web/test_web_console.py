"""The organiser console: permissions, forms, service errors next to fields, sessions clock."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import PenaltyFactory, PlayerFactory, RegistrationFactory, SessionFactory
from tournaments.clock import session_clock
from tournaments.forms import parse_rules_text, rules_diff
from tournaments.models import Penalty, Registration, SeatingPlan, Session, Tournament

pytestmark = pytest.mark.django_db


def test_console_is_for_organisers_only(
    referee_client: Client, organiser_client: Client, client: Client, tournament: Tournament
) -> None:
    url = reverse("tournaments:console", args=[tournament.slug])
    assert organiser_client.get(url).status_code == 200
    assert referee_client.get(url).status_code == 403
    assert client.get(url).status_code == 302  # to the login page


def test_create_tournament_from_preset_with_rule_changes(plain_user_client: Client) -> None:
    data = {
        "name": "Berlin Riichi Open",
        "slug": "berlin-open",
        "ruleset": "ema-2025",
        "starts_on": "2026-06-06",
        "ends_on": "2026-06-07",
        "city": "Berlin",
        "country": "de",
        "sessions_planned": "6",
        "rules": "uma = [20000, 10000, -10000, -20000]",
    }
    preview = plain_user_client.post(reverse("tournaments:create"), {**data, "preview": "1"})
    html = preview.content.decode()
    assert "Changes from the preset" in html and "uma" in html
    assert not Tournament.objects.filter(slug="berlin-open").exists()
    response = plain_user_client.post(reverse("tournaments:create"), data)
    assert response.status_code == 302
    created = Tournament.objects.get(slug="berlin-open")
    assert created.rule_overrides == {"uma": [20000, 10000, -10000, -20000]}
    assert created.country == "DE"


def test_create_tournament_rejects_unknown_rule(plain_user_client: Client) -> None:
    data = {
        "name": "X",
        "slug": "x",
        "ruleset": "ema-2025",
        "starts_on": "2026-06-06",
        "ends_on": "2026-06-07",
        "sessions_planned": "4",
        "rules": "no_such_rule = 1",
    }
    response = plain_user_client.post(reverse("tournaments:create"), data)
    assert response.status_code == 400
    assert "no_such_rule" in response.content.decode()


def test_rules_text_parsing_and_diff() -> None:
    assert parse_rules_text("a = 1\n# note\nb = text\nc = [1, 2]") == {
        "a": 1,
        "b": "text",
        "c": [1, 2],
    }
    changed = [r["key"] for r in rules_diff("ema-2025", {"kiriage": True}) if r["changed"]]
    assert changed == ["kiriage"] or changed == []  # no change if the preset already has it


def test_register_player_and_field_errors(organiser_client: Client, tournament: Tournament) -> None:
    url = reverse("tournaments:registrations", args=[tournament.slug])
    ok = organiser_client.post(
        url,
        {"action": "add", "add-first_name": "Eva", "add-last_name": "Eule", "add-country": "at"},
    )
    assert ok.status_code == 302
    assert Registration.objects.filter(tournament=tournament, player__last_name="Eule").exists()
    bad = organiser_client.post(url, {"action": "add", "add-first_name": "", "add-last_name": ""})
    assert bad.status_code == 400
    assert "This field is required." in bad.content.decode()


def test_csv_import_all_or_nothing(organiser_client: Client, tournament: Tournament) -> None:
    url = reverse("tournaments:registrations", args=[tournament.slug])
    good = "first_name,last_name,ema_number,country,club\nFay,Fink,,FR,Paris\nGus,Gans,,DE,\n"
    response = organiser_client.post(url, {"action": "import", "csv-text": good})
    assert response.status_code == 302
    assert tournament.registrations.count() == 2
    bad = "first_name,last_name,ema_number,country,club\nHal,Hahn,,DE,\nIvo,,123,XX,\n"
    response = organiser_client.post(url, {"action": "import", "csv-text": bad})
    assert response.status_code == 400
    assert tournament.registrations.count() == 2
    assert 'role="alert"' in response.content.decode()


def test_drop_player_needs_reason(organiser_client: Client, tournament: Tournament) -> None:
    registration: Any = RegistrationFactory(tournament=tournament)
    url = reverse("tournaments:drop", args=[tournament.slug, registration.pk])
    organiser_client.post(url, {"reason": ""})
    registration.refresh_from_db()
    assert registration.dropped_at is None
    organiser_client.post(url, {"reason": "went home ill"})
    registration.refresh_from_db()
    assert registration.dropped_at is not None


def test_seating_plan_progress_quality_and_apply(
    organiser_client: Client,
    tournament: Tournament,
    players: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    for i in range(4):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(last_name=f"Extra{i}"))
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(
            reverse("tournaments:seating_console", args=[tournament.slug]),
            {"mode": "random", "seed": "1", "separate_rounds": "0"},
        )
    assert response.status_code == 302
    plan = SeatingPlan.objects.get(tournament=tournament)
    page = organiser_client.get(response["Location"])
    assert plan.status == SeatingPlan.Status.DONE  # tasks run eagerly in tests
    assert "Quality" in page.content.decode()
    poll = organiser_client.get(response["Location"], HTTP_HX_REQUEST="true")
    assert 'id="plan-status"' in poll.content.decode()
    applied = organiser_client.post(response["Location"], {"from_session": "1"})
    assert applied.status_code == 302
    assert Session.objects.get(tournament=tournament, number=1).tables.count() == 2


def test_seating_plan_progress_bar_polls_while_running(
    organiser_client: Client, tournament: Tournament
) -> None:
    plan = SeatingPlan.objects.create(
        tournament=tournament, mode="random", status=SeatingPlan.Status.RUNNING, progress=0.4
    )
    url = reverse("tournaments:seating_plan", args=[tournament.slug, plan.pk])
    html = organiser_client.get(url).content.decode()
    assert 'hx-trigger="every 1s"' in html and 'value="40"' in html


def test_session_start_and_close(organiser_client: Client, game: Any) -> None:
    session = game.table.session
    session.status = Session.Status.SEATED
    session.save()
    slug = session.tournament.slug
    organiser_client.post(
        reverse("tournaments:session_action", args=[slug, session.number, "start"])
    )
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING
    page = organiser_client.get(reverse("tournaments:session", args=[slug, session.number]))
    assert 'id="countdown"' in page.content.decode()
    # Closing is refused while the table still plays.
    organiser_client.post(
        reverse("tournaments:session_action", args=[slug, session.number, "close"])
    )
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING


def test_session_clock_signal_at_15_minutes() -> None:
    """EMA 2025 7.4: a signal when 15 minutes remain; then finish the hand and play one more."""
    start = timezone.now()
    session = Session(started_at=start, duration_minutes=90, status=Session.Status.RUNNING)
    assert session_clock(session, start)["state"] == "playing"
    assert session_clock(session, start + datetime.timedelta(minutes=74))["state"] == "playing"
    at_signal = session_clock(session, start + datetime.timedelta(minutes=75))
    assert at_signal["state"] == "signal" and at_signal["remaining"] == 15 * 60
    assert session_clock(session, start + datetime.timedelta(minutes=91))["state"] == "time_up"
    assert session_clock(Session(duration_minutes=90))["state"] == "not_started"


def test_signal_state_is_shown(organiser_client: Client, tournament: Tournament) -> None:
    SessionFactory(
        tournament=tournament,
        number=3,
        status=Session.Status.RUNNING,
        started_at=timezone.now() - datetime.timedelta(minutes=80),
    )
    page = organiser_client.get(reverse("tournaments:session", args=[tournament.slug, 3]))
    assert "finish the current hand, then play one more" in page.content.decode()


def test_lateness_penalty_and_cancel(
    organiser_client: Client, tournament: Tournament, players: list[Any]
) -> None:
    """EMA 2025 7.2: 1000 points per started minute late."""
    SessionFactory(tournament=tournament, number=1)
    url = reverse("tournaments:penalties", args=[tournament.slug])
    missing = organiser_client.post(
        url, {"player": players[0].pk, "kind": "lateness", "reason": "late"}
    )
    assert missing.status_code == 400
    assert "minutes late" in missing.content.decode()
    response = organiser_client.post(
        url,
        {
            "player": players[0].pk,
            "kind": "lateness",
            "minutes_late": "3",
            "session": "1",
            "reason": "late",
        },
    )
    assert response.status_code == 302, response.content.decode()[-3000:]
    penalty = Penalty.objects.get(tournament=tournament)
    assert penalty.points == 3000
    cancel = reverse("tournaments:penalty_cancel", args=[tournament.slug, penalty.pk])
    organiser_client.post(cancel, {"reason": "clock was wrong"})
    penalty.refresh_from_db()
    assert penalty.cancelled_at is not None


def test_referee_cannot_cancel_penalty_page(referee_client: Client, tournament: Tournament) -> None:
    penalty: Any = PenaltyFactory(tournament=tournament)
    cancel = reverse("tournaments:penalty_cancel", args=[tournament.slug, penalty.pk])
    assert referee_client.post(cancel, {"reason": "x"}).status_code == 403


def test_substitute_form_seats_substitute(
    organiser_client: Client, game: Any, tournament: Tournament
) -> None:
    sub: Any = PlayerFactory(first_name="Sam", last_name="Sub")
    RegistrationFactory(tournament=tournament, player=sub, is_substitute=True)
    url = reverse("tournaments:session", args=[tournament.slug, game.table.session.number])
    response = organiser_client.post(
        url, {"table": "1", "seat": "2", "substitute": sub.pk, "from_": "start", "reason": "ill"}
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert game.seats.get(seat=2).player == sub


def test_substitute_form_errors_are_shown(
    organiser_client: Client, game: Any, tournament: Tournament
) -> None:
    url = reverse("tournaments:session", args=[tournament.slug, game.table.session.number])
    response = organiser_client.post(url, {"table": "9", "seat": "2", "reason": ""})
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()


def test_substitute_at_a_table_without_a_game_names_the_table(
    organiser_client: Client, game: Any, tournament: Tournament
) -> None:
    """The console names a table, not a game (tournaments.services.substitute_at_table): a
    table of the session without a game is the `table` field's error, and nothing changes."""
    sub: Any = PlayerFactory(first_name="Sam", last_name="Sub")
    RegistrationFactory(tournament=tournament, player=sub, is_substitute=True)
    url = reverse("tournaments:session", args=[tournament.slug, game.table.session.number])
    data = {"table": "9", "seat": "2", "substitute": sub.pk, "from_": "start", "reason": "ill"}
    response = organiser_client.post(url, data)
    assert response.status_code == 400
    form = response.context["substitute_form"]
    assert form.errors["table"] == ["No game at this table."]
    assert game.seats.get(seat=2).player != sub
    game.refresh_from_db()
    assert not game.substitutes


def test_publish_requires_closed_sessions(organiser_client: Client, game: Any) -> None:
    tournament = game.table.session.tournament
    organiser_client.post(reverse("tournaments:publish", args=[tournament.slug]))
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.PUBLISHED
