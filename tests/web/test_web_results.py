"""Standings (per-session columns, substitutes, dropped players, tie-breaks, CSV), the public
ranking preview (MERS weight, EMA base ranks) and the game-record download."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Game, GameSeat
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    TableFactory,
    UserFactory,
    game_at_table,
)
from tournaments.models import Registration, Tournament
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

SCORES = [45300, 30000, 25000, 19700]


def paper_game(tournament: Tournament, session: int, table: int, players: list[Any]) -> Game:
    """A finished paper-sheet game (final scores only)."""
    s = tournament.sessions.filter(number=session).first() or SessionFactory(
        tournament=tournament, number=session
    )
    game = game_at_table(
        TableFactory(session=s, number=table),
        ruleset=tournament.ruleset,
        entry=Game.Entry.FINAL_SCORES,
        final_scores=list(SCORES),
        status=Game.Status.FINISHED,
    )
    for seat, player in enumerate(players):
        GameSeat.objects.create(game=game, seat=seat, player=player)
    return game


@pytest.fixture
def finished(tournament: Tournament, players: list[Any]) -> Tournament:
    """Four players' finished game, a substitute registered, David dropped afterwards."""
    paper_game(tournament, 1, 1, players)
    RegistrationFactory(
        tournament=tournament,
        player=PlayerFactory(first_name="Sam", last_name="Sub"),
        is_substitute=True,
    )
    Registration.objects.filter(tournament=tournament, player=players[3]).update(
        dropped_at=timezone.now()
    )
    recompute_standings(tournament_id=tournament.pk)
    return tournament


def test_standings_show_sessions_substitutes_dropped_and_tie_breaks(
    client: Client, finished: Tournament
) -> None:
    response = client.get(reverse("tournaments:standings", args=[finished.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert ">S1</th>" in html  # one column per session
    assert "substitute (not ranked)" in html  # EMA 2025 7.3: substitutes are not ranked
    assert "dropped" in html
    assert 'title="Tie-breaks: best game:' in html  # values visible on hover
    assert reverse("tournaments:standings_csv", args=[finished.slug]) in html
    lines = response.context["lines"]
    anna = next(line for line in lines if line["row"].player.first_name == "Anna")
    assert anna["cells"][0]["result"] == anna["row"].total
    sam = next(line for line in lines if line["row"].player.first_name == "Sam")
    assert sam["row"].rank is None and sam is lines[-1]


def test_standings_csv_download(client: Client, finished: Tournament) -> None:
    response = client.get(reverse("tournaments:standings_csv", args=[finished.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["Rank", "First name", "Last name"]
    assert "Session 1" in rows[0]
    assert len(rows) == 1 + 5  # four players and the substitute


def test_standings_csv_of_a_draft_is_hidden(client: Client) -> None:
    from tests.factories import TournamentFactory

    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    response = client.get(reverse("tournaments:standings_csv", args=[draft.slug]))
    assert response.status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "plain", "player", "referee"])
def test_ranking_preview_is_hidden_before_publication(
    who: str,
    client: Client,
    plain_user_client: Client,
    referee_client: Client,
    finished: Tournament,
    players: list[Any],
) -> None:
    players[0].user = UserFactory()  # Anna, a registered player, logged in
    players[0].save(update_fields=["user"])
    player = Client()
    player.force_login(players[0].user)
    browser = {
        "anonymous": client,
        "plain": plain_user_client,
        "player": player,
        "referee": referee_client,
    }[who]
    response = browser.get(reverse("tournaments:results", args=[finished.slug]))
    assert response.status_code == 403


def test_organiser_sees_ranking_preview_before_publication(
    organiser_client: Client, finished: Tournament
) -> None:
    response = organiser_client.get(reverse("tournaments:results", args=[finished.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Provisional: not published yet" in html
    preview = response.context["preview"]
    # Two days (2026-05-02..03), 4 players, 1 country: MERS weight 2.
    assert preview["mers"]["total"] == 2.0
    assert 'id="mers-total">2<' in html
    places = [p["base_rank"] for p in preview["players"]]
    assert places == [1000.0, 666.67, 333.33, 0.0]  # 1000 x (N - place) / (N - 1)
    assert "666.67" in html and "1000.00" in html


def test_published_ranking_preview_is_public(client: Client, finished: Tournament) -> None:
    finished.status = Tournament.Status.PUBLISHED
    finished.save(update_fields=["status"])
    response = client.get(reverse("tournaments:results", args=[finished.slug]))
    assert response.status_code == 200
    assert "EMA base rank" in response.content.decode()
    standings = client.get(reverse("tournaments:standings", args=[finished.slug]))
    assert reverse("tournaments:results", args=[finished.slug]) in standings.content.decode()


def test_game_page_links_the_game_record(client: Client, finished: Tournament) -> None:
    game = Game.objects.get(table__session__tournament=finished)
    page = client.get(reverse("scoring:game", args=[game.pk]))
    assert reverse("scoring:record", args=[game.pk]) in page.content.decode()
    response = client.get(reverse("scoring:record", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    record = json.loads(response.content)
    assert record["format"] == "riichi-game-record/1"
    assert record["players"][0].startswith("Anna Adler")


def test_game_record_of_a_missing_game_is_404(client: Client, db: Any) -> None:
    assert client.get(reverse("scoring:record", args=[999999])).status_code == 404
