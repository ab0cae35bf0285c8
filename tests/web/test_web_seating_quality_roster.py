"""Issue 31: the seating quality table counts the players each session seats ("Players \u00d7
sessions"), not everyone ever seated: a player dropped after session 1 and the fill-in who
took their place in session 2 make two sessions of 8, not "9 \u00d7 2"; seats a substitute plays
(EMA 2025 7.3) are noted."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    SeatFactory,
    SessionFactory,
    TableFactory,
)
from tournaments.models import Registration, Seat, Tournament
from tournaments.seating import session_quality
from tournaments.services import substitute_player

pytestmark = pytest.mark.django_db


def test_session_quality_counts_each_sessions_players() -> None:
    q = session_quality([[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 3, 9], [5, 6, 7, 8]]])
    assert q.players == 9  # everyone measured once (meetings, winds)
    assert q.session_players == (8, 8) and q.players_per_session == 8
    uneven = session_quality([[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 3, 4]]])
    assert uneven.session_players == (8, 4) and uneven.players_per_session is None


def test_console_counts_the_players_seated_now_and_notes_substitutes(
    organiser: Any, organiser_client: Client, tournament: Tournament
) -> None:
    people = [PlayerFactory(first_name=f"P{i}", last_name=f"Player{i}") for i in range(9)]
    regs = [RegistrationFactory(tournament=tournament, player=p) for p in people]
    regs[8].role = Registration.Role.FILL_IN
    regs[8].save()
    seated = {1: people[:8], 2: [people[8], *people[1:8]]}  # P0 dropped, the fill-in seated
    for number, field in seated.items():
        session = SessionFactory(tournament=tournament, number=number)
        for t, group in enumerate((field[:4], field[4:]), start=1):
            table = TableFactory(session=session, number=t)
            for wind, p in enumerate(group):
                SeatFactory(table=table, wind=wind, player=p)
    regs[0].dropped_at = timezone.now()
    regs[0].save()
    # Session 2, table 2: a reserve plays P5's seat from the start (the seat keeps P5).
    table = Seat.objects.get(table__session__number=2, player=people[5]).table
    game = GameFactory(table=table, players=[s.player for s in table.seats.order_by("wind")])
    reserve = PlayerFactory(first_name="Rita", last_name="Reserve")
    RegistrationFactory(tournament=tournament, player=reserve, role=Registration.Role.RESERVE)
    substitute_player(actor=organiser, game=game, seat=1, substitute=reserve, reason="ill")

    response = organiser_client.get(reverse("tournaments:seating_console", args=[tournament.slug]))
    html = response.content.decode()
    assert response.context["quality"]["players"] == 9
    assert '<td id="q-players">8 \u00d7 2</td>' in html
    assert '<td id="q-substitutes">1</td>' in html
