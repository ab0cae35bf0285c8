"""Issue 33 item 6, the small things seen once on a whole tournament day."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, SessionFactory
from tournaments.models import Session, Tournament
from tournaments.selectors import registration_rows

pytestmark = pytest.mark.django_db


def test_the_registration_list_sorts_by_name_ignoring_case_and_accents(
    tournament: Tournament,
) -> None:
    """ "de Vries" came after "Wójcik" (a byte-wise sort: lower case after upper case)."""
    for first, last in [
        ("Ola", "Wójcik"),
        ("Sanne", "de Vries"),
        ("Émile", "Zola"),
        ("Ana", "Álvarez"),
        ("Bo", "berg"),
    ]:
        RegistrationFactory(
            tournament=tournament, player=PlayerFactory(first_name=first, last_name=last)
        )
    rows = registration_rows(tournament)
    assert [r["registration"].player.last_name for r in rows] == [
        "Álvarez",
        "berg",
        "de Vries",
        "Wójcik",
        "Zola",
    ]


def test_the_extend_field_starts_empty(organiser_client: Client, tournament: Tournament) -> None:
    """It kept "5" after an extension, so a second click added five more minutes."""
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    page = organiser_client.get(
        reverse("tournaments:session", args=[tournament.slug, session.number])
    ).content.decode()
    field = page[page.index('id="extend-minutes"') :].split(">", 1)[0]
    assert "value=" not in field and "required" in field


@pytest.mark.parametrize(("language", "title"), [("de", "Nicht erlaubt"), ("fr", "Non autorisé")])
def test_the_403_page_speaks_the_visitors_language(
    stranger_client: Client, game: Any, language: str, title: str
) -> None:
    response = stranger_client.get(
        reverse("scoring:entry", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert f"<h1>{title}</h1>" in page and f'lang="{language}"' in page


def test_ending_early_with_an_empty_reason_says_so(
    organiser_client: Client, referee: Any, game: Any
) -> None:
    """EMA 2025 7.4: an organiser may end a game before the signal, with a reason; an empty
    one re-showed the page with no message."""
    from scoring.services import enter_hand
    from tests.factories import non_dealer_rons

    enter_hand(actor=referee, game=game, hand=non_dealer_rons(1)[0], expected_version=0)
    url = reverse("scoring:finalize", args=[game.pk])
    data = {"expected_version": "1", "end": "time", "confirm": "yes", "reason": "  "}
    response = organiser_client.post(url, data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Give a reason to end the game before the time signal." in page
    assert 'id="finalize-reason-error"' in page
    game.refresh_from_db()
    assert game.status != "finished"


def test_docs_say_the_standings_csv_is_in_points() -> None:
    """docs/standings.md said "totals in thousands ("45.3")"; the CSV is in points
    (tournaments.standings.exports.standings_csv: "Every score is in points")."""
    from pathlib import Path

    from tournaments.standings import exports

    docs = (Path(__file__).resolve().parents[2] / "docs" / "standings.md").read_text()
    paragraph = docs[docs.index("`exports.standings_csv(tournament)`") :].split("\n\n")[0]
    assert "in points" in paragraph and "in thousands (" not in paragraph
    assert "Every score is in points" in (exports.standings_csv.__doc__ or "")


def test_the_counters_stay_when_a_game_is_finalized_on_time(
    organiser_client: Client, organiser: Any, referee: Any, game: Any
) -> None:
    """The board said "2 honba, 0 sticks" before finalizing on time and "1 honba, 1 stick"
    (the last hand's start) after. EMA 2025 3.4.5: a tenpai dealer keeps the deal with a
    counter; 3.3.10: the winner takes the sticks."""
    from scoring.services import enter_hand, finalize_game
    from tests.factories import draw, ron

    enter_hand(actor=referee, game=game, hand=draw(tenpai=[0], riichi=[0]), expected_version=0)
    enter_hand(actor=referee, game=game, hand=ron(winner=0, loser=1, han=2), expected_version=1)
    url = reverse("scoring:entry", args=[game.pk])

    before = organiser_client.get(url).content.decode()
    assert "2 honba" in before and "0 sticks" in before
    game.refresh_from_db()
    finalize_game(actor=organiser, game=game, expected_version=2, end="time", reason="bell")
    after = organiser_client.get(url).content.decode()
    sticks = after[after.index('class="sticks"') :].split("</section>")[0][:400]
    assert "2 honba" in sticks and "0 sticks" in sticks, sticks
    round_ = after[after.index('data-testid="round"') :][:40]
    assert ">E1" in round_


def test_closing_the_session_asks_first(organiser_client: Client, tournament: Tournament) -> None:
    """ "Close the session" closed at once; now it opens a confirmation, whose button posts."""
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    page = organiser_client.get(
        reverse("tournaments:session", args=[tournament.slug, session.number])
    ).content.decode()
    block = page[page.index('<details class="confirm-close" id="close-session">') :]
    block = block[: block.index("</details>")]
    summary, form = block.split("</summary>", 1)
    assert "Close the session" in summary and "<button" not in summary
    assert "/close/" in form and 'id="close-session-confirm"' in form
    assert "Yes, close the session" in form
