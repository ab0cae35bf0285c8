"""Issue 32.5: a game the site ended before our rules did (the log stops after three hands)
stays in progress after its import and keeps the session from closing. Staff end it as the log
left it with the game's finalize, `end: "time"` (POST /api/v1/games/{id}/finalize/, or the
console's "End the game as the site did", which leads to the same confirmation as the referee's
phone): an online table is not governed by the hall's time signal (EMA 2025 7.4), so a referee
needs no organiser's override and no reason, and the results count."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from core.errors import ValidationFailed
from core.models import AuditEntry
from scoring.models import Game
from tests.factories import PlayerFactory, RegistrationFactory
from tests.online.test_online_sessions import THREE_HANDS, online_session
from tournaments.models import Session, StandingRow, Tournament
from tournaments.services import close_session, import_table_log
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

# The names in tenhou-three-hands.mjlog: seated players named so map themselves.
LOG_NAMES = ("〓超快適〓", "CLS", "るーみっく", "かづきＸＩ")


def _site_ended(tournament: Tournament, organiser: Any, referee: Any) -> tuple[Session, Game]:
    four = [PlayerFactory(first_name=name, last_name="") for name in LOG_NAMES]
    for p in four:
        RegistrationFactory(tournament=tournament, player=p)
    session = online_session(tournament, organiser, 1, [four])
    done = import_table_log(actor=referee, table=session.tables.get(), data=THREE_HANDS)
    assert done.game.status == Game.Status.IN_PROGRESS and not done.log.comparison["over"]
    return session, done.game


def test_a_referee_ends_a_game_the_site_ended_and_the_session_closes(
    tournament: Tournament, organiser: Any, referee: Any
) -> None:
    session, game = _site_ended(tournament, organiser, referee)
    with pytest.raises(ValidationFailed) as blocked:
        close_session(actor=organiser, session=session)
    assert blocked.value.field == "games"

    client = APIClient()
    client.force_authenticate(referee)
    # The session has just started: the hall's time signal is far off, yet the site ended it.
    answer = client.post(
        f"/api/v1/games/{game.pk}/finalize/",
        {"version": game.version, "end": "time"},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert (game.status, game.end) == (Game.Status.FINISHED, "time")
    entry = AuditEntry.objects.get(action="game.finalize", game_id=game.pk)
    assert "override" not in (entry.after or {})  # nobody overrode the time signal

    close_session(actor=organiser, session=session)
    recompute_standings(tournament_id=tournament.pk)
    rows = StandingRow.objects.filter(tournament=tournament, games=1)
    assert rows.count() == 4
    # Tenhou's rules: the results of the three hands with uma, zero-sum at the table.
    assert sum(r.total for r in rows) == 0


def test_the_console_offers_the_end_for_a_game_the_site_ended(
    tournament: Tournament, organiser: Any, referee: Any
) -> None:
    session, game = _site_ended(tournament, organiser, referee)
    web = Client()
    web.force_login(organiser)
    page = web.get(f"/t/{tournament.slug}/console/sessions/{session.number}/").content.decode()
    assert 'id="end-online-1"' in page and f"/games/{game.pk}/entry/finalize/" in page
    # The button leads to the confirmation, then the game ends without a reason asked.
    shown = web.post(
        f"/games/{game.pk}/entry/finalize/", {"expected_version": game.version, "end": "time"}
    )
    assert shown.status_code == 200 and 'name="reason"' not in shown.content.decode()
    web.post(
        f"/games/{game.pk}/entry/finalize/",
        {"expected_version": game.version, "end": "time", "confirm": "yes"},
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    page = web.get(f"/t/{tournament.slug}/console/sessions/{session.number}/").content.decode()
    assert 'id="end-online-1"' not in page
