"""Issue 15: a replaced player's page shows the sessions a substitute played in their seat,
with the -15,000 points and -15,000 uma they score for each (EMA 2025 7.3: "A player who is
substituted will score -15,000 points and -15,000 uma at each session"); the substitute's page
marks that game as played for someone else."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import enter_final_scores, finalize_game
from tests.factories import PlayerFactory
from tournaments.models import StandingRow, Tournament
from tournaments.services import substitute_player
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("when", ["start", "during"])
def test_replaced_player_page_shows_the_substituted_session(
    when: str,
    organiser: Any,
    client: Client,
    tournament: Tournament,
    players: list[Any],
    game: Any,
) -> None:
    sub = PlayerFactory(first_name="Sam", last_name="Stand-in")
    game = substitute_player(actor=organiser, game=game, seat=1, substitute=sub,
                             reason="ill", from_=when)  # fmt: skip
    game = enter_final_scores(actor=organiser, game=game, scores=[25000, 45000, 30000, 20000],
                              expected_version=game.version)  # fmt: skip
    finalize_game(actor=organiser, game=game, expected_version=game.version)
    recompute_standings(tournament_id=tournament.pk)
    ben = players[1]
    url = reverse("tournaments:player", args=[tournament.slug, ben.pk])
    html = client.get(url).content.decode()
    section = html.split('id="substituted-1"')[1].split("</section>")[0]
    assert "replaced by a substitute" in section and "Sam Stand-in played this seat" in section
    assert "EMA 2025 7.3" in section
    assert "· -30000</h3>" in section  # -15,000 points and -15,000 uma
    assert StandingRow.objects.get(tournament=tournament, player=ben).total == -30000
    assert "Tournament total" in html  # the chart counts the session as the standings do

    sub_html = client.get(
        reverse("tournaments:player", args=[tournament.slug, sub.pk])
    ).content.decode()
    assert "played as a substitute" in sub_html and "not here (EMA 2025 7.3)" in sub_html
    assert "Tournament total" not in sub_html  # nothing of it counts for the substitute
