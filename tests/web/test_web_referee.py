"""The referee's table entry: pick a table, preview, confirm, conflicts, edit, delete, finalize."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Game
from tests.factories import non_dealer_rons

pytestmark = pytest.mark.django_db


def ron_post(game: Game, **extra: Any) -> dict[str, Any]:
    data = {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "3",
        "fu_1": "30",
        "expected_version": str(game.version),
    }
    data.update(extra)
    return data


def test_referee_sees_their_running_tables(referee_client: Client, game: Game) -> None:
    response = referee_client.get(reverse("scoring:referee"))
    assert response.status_code == 200
    assert reverse("scoring:entry", args=[game.pk]) in response.content.decode()


def test_table_list_hides_other_tournaments(stranger_client: Client, game: Game) -> None:
    response = stranger_client.get(reverse("scoring:referee"))
    assert reverse("scoring:entry", args=[game.pk]) not in response.content.decode()


def test_entry_page_shows_scores_round_and_csrf(referee_client: Client, game: Game) -> None:
    response = referee_client.get(reverse("scoring:entry", args=[game.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "csrfmiddlewaretoken" in html
    assert "E1" in html and "30000" in html
    assert "Anna Adler" in html


def test_entry_needs_login(client: Client, game: Game) -> None:
    response = client.get(reverse("scoring:entry", args=[game.pk]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_referee_of_another_event_gets_403(stranger_client: Client, game: Game) -> None:
    assert stranger_client.get(reverse("scoring:entry", args=[game.pk])).status_code == 403
    response = stranger_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    assert response.status_code == 403
    assert game.hands.count() == 0


def test_preview_shows_payment_without_saving(referee_client: Client, game: Game) -> None:
    response = referee_client.post(reverse("scoring:preview", args=[game.pk]), ron_post(game))
    html = response.content.decode()
    assert response.status_code == 200
    # 3 han 30 fu non-dealer ron = 3900 (EMA 2025 4.1.3 scoring table)
    assert "+3900" in html and "-3900" in html
    assert game.hands.count() == 0


def test_preview_names_missing_fields(referee_client: Client, game: Game) -> None:
    data = ron_post(game, loser="")
    response = referee_client.post(reverse("scoring:preview", args=[game.pk]), data)
    assert "Choose who dealt in." in response.content.decode()


def test_preview_shows_engine_error(referee_client: Client, game: Game) -> None:
    # 1 han 20 fu by ron does not exist (game-record format)
    data = ron_post(game, han_1="1", fu_1="20")
    response = referee_client.post(reverse("scoring:preview", args=[game.pk]), data)
    assert 'role="alert"' in response.content.decode()


def test_confirm_saves_hand_and_shows_new_scores(referee_client: Client, game: Game) -> None:
    response = referee_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.hands.count() == 1 and game.version == 1
    html = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert "33900" in html and "26100" in html
    assert "E2" in html  # non-dealer won: the deal moves on


def test_form_error_is_next_to_the_field(referee_client: Client, game: Game) -> None:
    data = ron_post(game)
    del data["fu_1"]
    response = referee_client.post(reverse("scoring:add_hand", args=[game.pk]), data)
    assert response.status_code == 400
    assert "Choose the fu" in response.content.decode()
    assert game.hands.count() == 0


def test_stale_version_shows_conflict_and_current_state(referee_client: Client, game: Game) -> None:
    referee_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    stale = ron_post(game, expected_version="0")
    response = referee_client.post(reverse("scoring:add_hand", args=[game.pk]), stale)
    html = response.content.decode()
    assert response.status_code == 409
    assert "Another referee saved a change" in html
    assert 'value="1"' in html  # the form now carries the current version to re-confirm
    assert game.hands.count() == 1


def test_delete_last_hand_needs_reason(referee_client: Client, game: Game) -> None:
    referee_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    url = reverse("scoring:delete_last", args=[game.pk])
    referee_client.post(url, {"expected_version": "1", "reason": ""})
    assert game.hands.count() == 1
    referee_client.post(url, {"expected_version": "1", "reason": "wrong table"})
    assert game.hands.count() == 0


def test_edit_last_hand(referee_client: Client, game: Game) -> None:
    referee_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    url = reverse("scoring:edit_last", args=[game.pk])
    page = referee_client.get(url)
    assert page.status_code == 200
    data = ron_post(game, han_1="4", fu_1="30", expected_version="1", reason="misread han")
    response = referee_client.post(url, data)
    assert response.status_code == 302
    assert game.hands.get().data["wins"][0]["han"] == 4


def test_a_correction_that_lost_the_race_shows_the_hand_as_now_recorded(
    referee_client: Client, game: Game, monkeypatch: Any
) -> None:
    """The correction page's 409: another referee's correction of the same hand commits after
    the page read the table and before its own write locks the game. The answer shows the
    hand as that correction left it, the hands after it, and the version it carries
    (scoring.views.hands._edit_conflict reads them again, under the game's lock)."""
    from scoring.services import correct_hand, enter_hand
    from scoring.views import hands as views

    referee_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    user: Any = game.table.session.tournament.staff.first().user  # type: ignore[union-attr]
    won = {**game.hands.get().data, "loser": 3}

    def the_other_referee_first(**kwargs: Any) -> Any:
        current = correct_hand(
            actor=user,
            game=Game.objects.get(pk=game.pk),
            number=0,
            hand=won,
            expected_version=1,
            reason="wrong loser",
        )
        enter_hand(actor=user, game=current, hand=non_dealer_rons(1)[0], expected_version=2)
        return correct_hand(**kwargs)

    monkeypatch.setattr(views, "correct_hand", the_other_referee_first)
    data = ron_post(game, han_1="4", expected_version="1", reason="misread han")
    response = referee_client.post(reverse("scoring:edit_hand", args=[game.pk, 1]), data)
    assert response.status_code == 409
    assert response.context["editing"]["data"] == won
    assert response.context["later"] == 1
    assert response.context["form"]["expected_version"].value() == "3"
    assert game.hands.get(number=0).data == won


def test_edit_without_reason_is_refused(referee_client: Client, game: Game) -> None:
    referee_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    response = referee_client.post(
        reverse("scoring:edit_last", args=[game.pk]), ron_post(game, expected_version="1")
    )
    assert response.status_code == 400
    assert game.hands.get().data["wins"][0]["han"] == 3


def test_finalize_a_complete_game(referee_client: Client, game: Game) -> None:
    from scoring.services import enter_hand

    user: Any = game.table.session.tournament.staff.first().user  # type: ignore[union-attr]
    for hand in non_dealer_rons(8):
        game = enter_hand(actor=user, game=game, hand=hand, expected_version=game.version).game
    response = referee_client.post(
        reverse("scoring:finalize", args=[game.pk]), {"expected_version": str(game.version)}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_finalize_on_time_after_the_signal(referee_client: Client, game: Game) -> None:
    """EMA 2025 7.4: a timed session ends after the hand following the signal; the referee
    confirms on a second page before the game ends on time (issue 15)."""
    session = game.table.session
    session.started_at = timezone.now() - timedelta(minutes=session.duration_minutes - 10)
    session.save(update_fields=["started_at"])  # the 15-minute signal sounded 5 minutes ago
    referee_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    url = reverse("scoring:finalize", args=[game.pk])
    asked = referee_client.post(url, {"expected_version": "1", "end": "time"})
    assert asked.status_code == 200 and 'id="confirm-finalize"' in asked.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS  # nothing happened yet
    response = referee_client.post(url, {"expected_version": "1", "end": "time", "confirm": "yes"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end == "time"


def test_tsumo_with_two_winners_is_refused(referee_client: Client, game: Game) -> None:
    data = ron_post(game, outcome="tsumo", winners=["1", "2"], han_2="1", fu_2="30")
    response = referee_client.post(reverse("scoring:add_hand", args=[game.pk]), data)
    assert response.status_code == 400
    assert "A tsumo has exactly one winner." in response.content.decode()


def test_draw_and_chombo_are_entered(referee_client: Client, game: Game) -> None:
    url = reverse("scoring:add_hand", args=[game.pk])
    referee_client.post(
        url, {"outcome": "draw", "tenpai": ["0", "2"], "riichi": ["0"], "expected_version": "0"}
    )
    assert game.hands.get().data == {"outcome": "draw", "riichi": [0], "tenpai": [0, 2]}


def test_tile_mismatch_is_shown_in_preview(referee_client: Client, game: Game) -> None:
    # riichi + tsumo + pinfu = 3 han 20 fu, the entry says 30 fu
    data = ron_post(
        game,
        outcome="tsumo",
        winners=["1"],
        han_1="3",
        fu_1="30",
        riichi=["1"],
        tiles="234567m234p2355s+1s",
    )
    response = referee_client.post(reverse("scoring:preview", args=[game.pk]), data)
    assert response.status_code == 200
    assert "the tiles give 20" in response.content.decode()


def test_public_game_page(client: Client, game: Game, referee_client: Client) -> None:
    referee_client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game))
    response = client.get(reverse("scoring:game", args=[game.pk]))
    assert response.status_code == 200
    assert "Ron: Ben Berg 3 han 30 fu from Clara Claus" in response.content.decode()


@pytest.mark.parametrize(
    ("language", "confirm", "outcome"),
    [("de", "Hand bestätigen", "Remis"), ("fr", "Confirmer la main", "Nul")],
)
def test_referee_page_is_translated(
    referee_client: Client, game: Game, language: str, confirm: str, outcome: str
) -> None:
    from django.conf import settings

    referee_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert confirm in html and outcome in html
    assert f'<html lang="{language}">' in html


def test_double_ron_preview_pays_both_winners(referee_client: Client, game: Game) -> None:
    """Multiple ron as the rules allow (EMA 2025 3.4.4): each winner is paid by the discarder."""
    data = ron_post(game, winners=["1", "3"], loser="2", han_3="1", fu_3="30")
    response = referee_client.post(reverse("scoring:preview", args=[game.pk]), data)
    html = response.content.decode()
    assert "+3900" in html and "+1000" in html and "-4900" in html


def test_pao_cannot_be_the_winner(referee_client: Client, game: Game) -> None:
    data = ron_post(game, han_1="", fu_1="", yakuman_1="1", pao_1="1")
    response = referee_client.post(reverse("scoring:add_hand", args=[game.pk]), data)
    assert response.status_code == 400
    assert "cannot be liable for their own hand" in response.content.decode()
