"""Erasure (issue 35.5, docs/privacy.md): after an organiser erases a registrant, their name is
on no page, PDF, CSV, API answer, EMA file or audit entry; standings and the EMA file keep
their numbers."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from core.models import AuditEntry, Player
from tests.factories import RegistrationFactory, StaffRoleFactory, TournamentFactory, UserFactory
from tests.standings.standings_builders import make_players, scores_game
from tests.web.test_web_pdf import pdf_text
from tournaments.ema.export import ema_csv
from tournaments.models import Penalty, SignUp, StaffRole
from tournaments.services import privacy, signups
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

FIRST, LAST, EMAIL, EMA = "Zoë", "Quellwasser", "zoe.q@example.org", "04123456"


@pytest.fixture
def event(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    organiser = UserFactory(username="org-erasure")
    t = TournamentFactory(status="registration", slug="erase-open", country="DE", city="Köln")
    StaffRoleFactory(tournament=t, user=organiser, role=StaffRole.Role.ORGANISER)
    with django_capture_on_commit_callbacks(execute=True):
        record = signups.sign_up(
            tournament=t,
            first_name=FIRST,
            last_name=LAST,
            country="DE",
            email=EMAIL,
            consent=True,
            ema_number=EMA,
            club="Riichi Quellstadt",
        )
    zoe = record.registration.player
    others = make_players(3, prefix="Other", ema=True, start=10)
    for p in others:
        RegistrationFactory(tournament=t, player=p)
    t.status = "running"
    t.save()
    game = scores_game(t, 1, 1, [zoe, *others], [45300, 30000, 25000, 19700])
    Penalty.objects.create(
        tournament=t, player=zoe, kind="lateness", points=1000, reason=f"{FIRST} {LAST} was late"
    )
    recompute_standings(tournament_id=t.pk)
    t.status = "published"
    t.save()
    client = Client()
    client.force_login(organiser)
    return {"t": t, "organiser": client, "sign_up": record, "zoe": zoe, "game": game}


def _surfaces(event: dict[str, Any], tmp_path: Any) -> dict[str, str]:
    t, zoe, game, org = event["t"], event["zoe"], event["game"], event["organiser"]
    slug = t.slug
    public = Client()
    texts = {
        name: org.get(url).content.decode()
        for name, url in {
            "player page": f"/t/{slug}/players/{zoe.pk}/",
            "standings page": f"/t/{slug}/standings/",
            "seating page": f"/t/{slug}/seating/1/",
            "results page": f"/t/{slug}/results/",
            "console registrations": f"/t/{slug}/console/registrations/",
            "console sign-ups": f"/t/{slug}/console/sign-ups/",
            "sign-ups CSV": f"/t/{slug}/console/sign-ups/?format=csv",
            "standings CSV": f"/t/{slug}/standings.csv",
            "EMA CSV": f"/t/{slug}/console/results/ema.csv",
            "game page": f"/games/{game.pk}/",
            "API standings": f"/api/v1/tournaments/{slug}/standings/",
            "API registrations": f"/api/v1/tournaments/{slug}/registrations/",
            "API sign-ups": f"/api/v1/tournaments/{slug}/sign-ups/",
            "API player": f"/api/v1/players/{zoe.pk}/",
            "API game": f"/api/v1/games/{game.pk}/",
            "API game record": f"/api/v1/games/{game.pk}/record/",
            "API tables": f"/api/v1/tables/?tournament={slug}",
            "API audit": f"/api/v1/tournaments/{slug}/audit/",
            "API penalties": f"/api/v1/tournaments/{slug}/penalties/",
            "API EMA export": f"/api/v1/tournaments/{slug}/ema-export/",
            "backup": f"/api/v1/tournaments/{slug}/backup/",
        }.items()
    }
    texts["public standings"] = public.get(f"/t/{slug}/standings/").content.decode()
    results_pdf = public.get(reverse("tournaments:results_pdf", args=[slug]))
    texts["results PDF"] = pdf_text(results_pdf.content, tmp_path)
    cards = org.get(reverse("tournaments:session_pdf", args=[slug, 1, "table-cards"]))
    texts["table cards PDF"] = pdf_text(cards.content, tmp_path)
    texts["audit trail"] = json.dumps(
        list(AuditEntry.objects.values("before", "after", "reason")), ensure_ascii=False
    )
    return texts


def _ema_numbers(raw: str) -> list[list[str]]:
    """The EMA file's rows without the name columns: what must not change (EMA numbers
    included)."""
    rows = list(csv.reader(io.StringIO(raw.removeprefix("\ufeff"))))
    header = rows[0]
    keep = [i for i, h in enumerate(header) if "name" not in h.lower()]
    return [[row[i] for i in keep] for row in rows]


@pytest.mark.pdftotext
def test_erasure_on_every_surface(event: dict[str, Any], tmp_path: Any) -> None:
    t, record, zoe = event["t"], event["sign_up"], event["zoe"]
    before = _surfaces(event, tmp_path)
    for surface, text in before.items():  # the name is there to begin with
        if surface not in ("API penalties",):
            assert LAST in text, surface
    standings_before = json.loads(before["API standings"])
    ema_before = ema_csv(t)

    # The registrant asks from the private link; the organiser carries it out.
    registrant = Client()
    status_url = f"/t/{t.slug}/register/{record.token}/"
    data = registrant.get(status_url + "data.json")
    assert data.status_code == 200 and data["Content-Disposition"].startswith("attachment")
    mine = data.json()
    assert mine["sign_up"]["email"] == EMAIL and mine["player"]["ema_number"] == EMA
    assert mine["seats"] == [{"session": 1, "table": 1, "wind": "East"}]
    assert mine["standing"]["rank"] == 1 and mine["penalties"][0]["points"] == 1000
    registrant.post(status_url, {"action": "erasure"})
    assert 'id="erasure-requested"' in registrant.get(status_url).content.decode()
    assert (
        "data-erasure-requested"
        in event["organiser"].get(f"/t/{t.slug}/console/sign-ups/").content.decode()
    )
    answer = event["organiser"].post(
        f"/t/{t.slug}/console/sign-ups/", {"action": "erase", "sign_up": record.pk}
    )
    assert answer.status_code == 302

    zoe.refresh_from_db()
    # The EMA number stays: the results count in the EMA ranking under it.
    assert zoe.first_name == "Player" and len(zoe.last_name) == 6 and zoe.ema_number == EMA
    after = _surfaces(event, tmp_path)
    for surface, text in after.items():
        for secret in (LAST, FIRST, EMAIL, "Quellstadt"):
            assert secret not in text, (surface, secret)
    pseudonym = f"Player {zoe.last_name}"
    for surface in ("player page", "public standings", "results PDF", "EMA CSV", "API game"):
        assert pseudonym in after[surface] or zoe.last_name in after[surface], surface
    # The numbers stay: the same standings totals and ranks, the same EMA rows but for names.
    standings_after = json.loads(after["API standings"])
    assert [(r["rank"], r["total"], r["player"]["id"]) for r in standings_after] == [
        (r["rank"], r["total"], r["player"]["id"]) for r in standings_before
    ]
    assert _ema_numbers(ema_csv(t)) == _ema_numbers(ema_before)
    entry = AuditEntry.objects.get(action="player.erase")
    assert entry.after["pseudonym"] == pseudonym and entry.actor.username == "org-erasure"
    assert 'id="erased"' in registrant.get(status_url).content.decode()
    assert SignUp.objects.get(pk=record.pk).email == ""


def test_only_a_site_admin_erases_a_player_seen_elsewhere(event: dict[str, Any]) -> None:
    other = TournamentFactory(slug="elsewhere")
    RegistrationFactory(tournament=other, player=event["zoe"])
    organiser = StaffRole.objects.get(tournament=event["t"]).user
    with pytest.raises(Exception, match="site admin"):
        privacy.erase(actor=organiser, tournament=event["t"], player=event["zoe"])
    assert Player.objects.get(pk=event["zoe"].pk).last_name == LAST
    admin = UserFactory(username="root-erasure", is_superuser=True, is_staff=True)
    privacy.erase(actor=admin, tournament=event["t"], player=event["zoe"])
    assert Player.objects.get(pk=event["zoe"].pk).last_name != LAST
    stranger = UserFactory(username="not-org")
    with pytest.raises(Exception, match="organisers"):
        privacy.erase(actor=stranger, tournament=other, player=event["zoe"])


def test_console_erases_a_registration_and_a_waiting_sign_up(
    event: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    t, org, zoe = event["t"], event["organiser"], event["zoe"]
    registration = t.registrations.get(player=zoe)
    answer = org.post(f"/t/{t.slug}/console/registrations/{registration.pk}/erase/")
    assert answer.status_code == 302
    zoe.refresh_from_db()
    assert zoe.first_name == "Player" and LAST not in org.get(answer.url).content.decode()
    # A sign-up still waiting (no player yet): its own name, address and club go.
    t.status, t.capacity = "registration", 4
    t.save()
    with django_capture_on_commit_callbacks(execute=True):
        waiting = signups.sign_up(
            tournament=t,
            first_name="Wanda",
            last_name="Wartend",
            country="AT",
            email="wanda@example.org",
            consent=True,
            club="Wiener Wind",
        )
    assert waiting.status == "waiting" and waiting.registration is None
    org.post(f"/t/{t.slug}/console/sign-ups/", {"action": "erase", "sign_up": waiting.pk})
    waiting.refresh_from_db()
    assert (waiting.first_name, waiting.email, waiting.club) == ("Player", "", "")
    assert waiting.erased_at is not None
    trail = json.dumps(list(AuditEntry.objects.values("before", "after")), ensure_ascii=False)
    assert "Wartend" not in trail and "Wiener Wind" not in trail
