"""Issue 32.2, after the cut: the last cut undone (DELETE /tournaments/{slug}/cut/{id}/ and the
console's confirmed button), and a finalist who dropped replaced by the next player in the
order at the cut (POST /tournaments/{slug}/cut/{id}/promote/). The event is
test_standings_cuts.py's: 32 players, cut to 16 after session 2."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from core.models import AuditEntry
from scoring.models import Game, GameSeat, Hand
from scoring.services import enter_hand
from tests.factories import StaffRoleFactory, UserFactory, non_dealer_rons
from tests.standings.test_standings_cuts import (
    QUALIFIED_FIRST,
    _first_two_sessions,
    _organiser,
    _play,
    _ranks,
    _tables,
)
from tournaments.ema.export import ema_csv, result_lines
from tournaments.models import (
    Cut,
    Penalty,
    Registration,
    Seat,
    Session,
    StaffRole,
    StandingRow,
    Tournament,
)
from tournaments.selectors import planned_registrations
from tournaments.services import drop_player, start_session, update_tournament

pytestmark = pytest.mark.django_db


def _cut(client: Any, tournament: Any, after: int, top: int) -> dict[str, Any]:
    answer = client.post(
        f"/api/v1/tournaments/{tournament.slug}/cut/",
        {"after_session": after, "top": top},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_the_last_cut_is_undone_and_the_field_is_whole_again() -> None:
    tournament, players = _first_two_sessions()
    client = _organiser(tournament)
    cut = _cut(client, tournament, 2, 16)
    assert Session.objects.get(tournament=tournament, number=3).tables.count() == 4

    answer = client.delete(f"/api/v1/tournaments/{tournament.slug}/cut/{cut['id']}/")
    assert answer.status_code == 204, answer.content
    assert not Cut.objects.filter(tournament=tournament).exists()
    # Session 3, seated with the 16 only, is planned again without tables.
    session = Session.objects.get(tournament=tournament, number=3)
    assert session.status == Session.Status.PLANNED and not session.tables.exists()
    assert len(planned_registrations(tournament)) == 32
    # The standings are the plain order by total again: nobody qualified or out.
    rows = StandingRow.objects.filter(tournament=tournament)
    assert not rows.filter(qualified=True).exists()
    assert not rows.filter(out_after_session__isnull=False).exists()
    assert _ranks(tournament, players)[0] == (1, 60000)
    entry = AuditEntry.objects.get(action="tournament.cut_undo", tournament_id=tournament.pk)
    assert entry.before["top"] == 16 and len(entry.before["qualified"]) == 16
    # The organiser cuts again, as they meant to.
    assert len(_cut(client, tournament, 2, 8)["qualified"]) == 8


def test_undo_plans_the_sessions_planned_before_the_cut() -> None:
    """A cut after the last planned session plans one more for the stage it starts, creating
    it (docs/finals.md); undoing the cut takes both back: the tournament plans what it
    planned before and the session the cut created is gone. Audited as the rest of the undo:
    `tournament.update` (sessions_planned 3 -> 2) and `session.delete`, each noting the cut."""
    tournament, _players = _first_two_sessions()
    Tournament.objects.filter(pk=tournament.pk).update(sessions_planned=2)
    client = _organiser(tournament)
    cut = _cut(client, tournament, 2, 16)
    tournament.refresh_from_db()
    assert tournament.sessions_planned == 3
    raised = AuditEntry.objects.get(action="tournament.update", tournament_id=tournament.pk)
    assert raised.before["sessions_planned"] == 2 and raised.after["sessions_planned"] == 3
    assert raised.after["cut"] == cut["id"]

    answer = client.delete(f"/api/v1/tournaments/{tournament.slug}/cut/{cut['id']}/")
    assert answer.status_code == 204, answer.content
    tournament.refresh_from_db()
    assert tournament.sessions_planned == 2
    assert sorted(tournament.sessions.values_list("number", flat=True)) == [1, 2]
    restored = AuditEntry.objects.filter(
        action="tournament.update", tournament_id=tournament.pk
    ).latest("id")
    assert restored.before["sessions_planned"] == 3 and restored.after["sessions_planned"] == 2
    assert restored.after["cut_undone"] == cut["id"]
    removed = AuditEntry.objects.get(action="session.delete", tournament_id=tournament.pk)
    assert removed.before["number"] == 3 and removed.after == {"cut_undone": cut["id"]}
    # Cutting again plans and creates the session again.
    _cut(client, tournament, 2, 8)
    tournament.refresh_from_db()
    assert tournament.sessions_planned == 3


def test_undo_keeps_sessions_planned_the_organiser_set_after_the_cut() -> None:
    """The organiser planned more sessions after the cut: the undo leaves their plan (and
    the session, which their plan holds) as it is."""
    tournament, _players = _first_two_sessions()
    Tournament.objects.filter(pk=tournament.pk).update(sessions_planned=2)
    client = _organiser(tournament)
    cut = _cut(client, tournament, 2, 16)
    organiser = StaffRole.objects.get(tournament=tournament, role="organiser").user
    update_tournament(actor=organiser, tournament=tournament, sessions_planned=4)

    assert (
        client.delete(f"/api/v1/tournaments/{tournament.slug}/cut/{cut['id']}/").status_code == 204
    )
    tournament.refresh_from_db()
    assert tournament.sessions_planned == 4
    session = Session.objects.get(tournament=tournament, number=3)
    assert session.status == Session.Status.PLANNED and not session.tables.exists()


def test_undo_is_refused_once_the_next_session_started_or_for_an_earlier_cut() -> None:
    tournament, _players = _first_two_sessions()
    client = _organiser(tournament)
    first = _cut(client, tournament, 2, 16)
    url = f"/api/v1/tournaments/{tournament.slug}/cut/{first['id']}/"
    Session.objects.filter(tournament=tournament, number=3).update(status=Session.Status.RUNNING)
    refused = client.delete(url)
    assert refused.status_code == 409, refused.content
    assert refused.json()["field"] == "cut"
    assert "Session 3 has started" in refused.json()["message"]

    _play(tournament, 3)
    second = _cut(client, tournament, 3, 4)
    refused = client.delete(url)
    assert refused.status_code == 409 and "after session 3" in refused.json()["message"]
    assert Cut.objects.filter(tournament=tournament).count() == 2
    # The last one can go while session 4 has not started; the first stays.
    last = f"/api/v1/tournaments/{tournament.slug}/cut/{second['id']}/"
    assert client.delete(last).status_code == 204
    assert list(Cut.objects.filter(tournament=tournament).values_list("pk", flat=True)) == [
        first["id"]
    ]
    assert client.delete(f"/api/v1/tournaments/{tournament.slug}/cut/999999/").status_code == 404


@pytest.mark.parametrize("role", ["anonymous", "referee"])
def test_only_organisers_undo_or_promote(role: str) -> None:
    tournament, _players = _first_two_sessions()
    cut = _cut(_organiser(tournament), tournament, 2, 16)
    client = Client()
    if role == "referee":
        user = UserFactory()
        StaffRoleFactory(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
        client.force_login(user)
    base = f"/api/v1/tournaments/{tournament.slug}/cut/{cut['id']}/"
    assert client.delete(base).status_code in (401, 403)
    promote = client.post(f"{base}promote/", {"replaces": cut["qualified"][0]})
    assert promote.status_code in (401, 403)
    assert Cut.objects.get(pk=cut["id"]).qualified_ids == cut["qualified"]


def test_a_dropped_finalist_is_replaced_by_the_next_player_at_the_cut() -> None:
    tournament, players = _first_two_sessions()
    client = _organiser(tournament)
    cut = _cut(client, tournament, 2, 16)
    index = {p.pk: i for i, p in enumerate(players)}
    first_out = cut["line"]["first_out"]["player"]  # 9 or 25: 17th at the cut
    seat_of_0 = _tables(tournament, 3, players)[0].index(0)

    registration = Registration.objects.get(tournament=tournament, player=players[0])
    organiser = StaffRole.objects.get(tournament=tournament, role="organiser").user
    drop_player(actor=organiser, registration=registration, reason="flight home")
    assert len(planned_registrations(tournament)) == 15  # plans would refuse: not 4 x n

    url = f"/api/v1/tournaments/{tournament.slug}/cut/{cut['id']}/promote/"
    # A finalist who has not dropped, or a player out at the cut, cannot be replaced.
    not_dropped = client.post(url, {"replaces": players[16].pk}, format="json")
    assert not_dropped.status_code == 400 and not_dropped.json()["field"] == "replaces"
    not_in = client.post(url, {"replaces": players[31].pk}, format="json")
    assert not_in.status_code == 400 and not_in.json()["field"] == "replaces"

    answer = client.post(url, {"replaces": players[0].pk}, format="json")
    assert answer.status_code == 200, answer.content
    qualified = {index[pid] for pid in answer.json()["qualified"]}
    assert qualified == (QUALIFIED_FIRST - {0}) | {index[first_out]}
    promoted = next(e for e in answer.json()["order"] if e["player"] == first_out)
    assert promoted["promoted_for"] == players[0].pk
    # Session 3 not started: the promoted player takes the seat, table and wind unchanged.
    tables = _tables(tournament, 3, players)
    assert tables[0][seat_of_0] == index[first_out] and 0 not in {i for t in tables for i in t}
    assert len(planned_registrations(tournament)) == 16
    # The dropped player is out at the cut, first of those out (1st at the cut); the
    # promoted one ranks among the qualified.
    rows = {index[r.player_id]: r for r in StandingRow.objects.filter(tournament=tournament)}
    assert rows[0].out_after_session == 2 and rows[0].rank == 17 and not rows[0].qualified
    assert rows[index[first_out]].qualified and (rows[index[first_out]].rank or 0) in range(1, 17)
    assert AuditEntry.objects.filter(action="tournament.cut_promote").count() == 1


def test_console_undoes_the_cut_only_when_confirmed() -> None:
    tournament, _players = _first_two_sessions()
    user = UserFactory()
    StaffRoleFactory(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER)
    web = Client()
    web.force_login(user)
    web.post(
        f"/t/{tournament.slug}/console/cuts/",
        {"after_session": 2, "top": 16, "seating": "standing", "winds": "standing", "seed": 0},
    )
    cut = Cut.objects.get(tournament=tournament)
    page = web.get(f"/t/{tournament.slug}/console/cuts/").content.decode()
    assert f"/console/cuts/{cut.pk}/undo/" in page and 'name="confirm"' in page
    undo = f"/t/{tournament.slug}/console/cuts/{cut.pk}/undo/"
    assert web.post(undo, {}).status_code == 302  # not ticked: nothing happens
    assert Cut.objects.filter(pk=cut.pk).exists()
    assert web.post(undo, {"confirm": "on"}).status_code == 302
    assert not Cut.objects.filter(pk=cut.pk).exists()


def test_the_ema_file_reports_the_whole_event_under_a_restart() -> None:
    """The places are the standings' (the final's order first); the points columns are the
    player's whole event, every game and every tournament penalty (docs/ema-export.md), not
    the final's window the restart ranks on (EMA 2025 3.7 results; 7.2 penalties after uma)."""
    tournament, players = _first_two_sessions()
    Penalty.objects.create(
        tournament=tournament,
        session=Session.objects.get(tournament=tournament, number=1),
        player=players[0],
        kind=Penalty.Kind.LATENESS,
        points=1000,
        minutes_late=1,
        reason="one minute late (EMA 2025 7.2)",
    )
    client = _organiser(tournament)
    client.post(
        f"/api/v1/tournaments/{tournament.slug}/cut/",
        {"after_session": 2, "top": 16, "carry_over": False},
        format="json",
    )
    # Table 1 of session 3: 16 (60,000) before 0 (59,000 after the penalty), 4, 20; East wins:
    # +30,000 / +7,000 / -10,000 / -27,000.
    _play(tournament, 3)
    row = StandingRow.objects.get(tournament=tournament, player=players[0])
    assert (row.total, row.penalties) == (7000, 0)  # the stage after the restart alone
    by_name = {(line.first_name, line.last_name): line for line in result_lines(tournament)}
    line = by_name[(players[0].first_name, players[0].last_name)]
    # Sessions 1-3: 30,000 + 30,000 + 7,000 = 67,000 at the tables, 1,000 late.
    assert (line.place, line.table_points, line.score) == (row.rank, 67000, 66000)
    out = by_name[(players[9].first_name, players[9].last_name)]
    assert (out.place, out.table_points, out.score) == (17, 3000, 3000)
    fourth = by_name[(players[20].first_name, players[20].last_name)]
    # 20: 7,000 + 30,000 before the cut, -27,000 in session 3.
    assert (fourth.table_points, fourth.score) == (10000, 10000)
    assert '"67","66"' in ema_csv(tournament, force=True)  # thousands, as on score sheets


@pytest.mark.parametrize(
    ("language", "words", "english"),
    [
        ("de", ["Feld schneiden", "Cut zurücknehmen", "ab null"], "Undo the cut"),
        ("pl", ["Wykonaj cięcie", "Cofnij cięcie", "od zera"], "Cut the field"),
    ],
)
def test_the_cuts_page_and_marks_read_in_the_page_language(
    language: str, words: list[str], english: str
) -> None:
    """Issue 22's rule for issue 32.2's strings: no English left on a translated page."""
    tournament, _players = _first_two_sessions()
    user = UserFactory()
    StaffRoleFactory(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER)
    web = Client()
    web.force_login(user)
    web.post(
        f"/t/{tournament.slug}/console/cuts/",
        {"after_session": 2, "top": 16, "seating": "standing", "winds": "standing", "seed": 0},
    )
    try:
        page = web.get(
            f"/t/{tournament.slug}/console/cuts/", HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        standings = (
            Client()
            .get(f"/t/{tournament.slug}/standings/projector/", HTTP_ACCEPT_LANGUAGE=language)
            .content.decode()
        )
    finally:
        translation.activate("en")  # the middleware leaves the last language active
    assert all(word in page for word in words), page
    assert english not in page
    assert "out at the cut after session 2" not in standings


def test_console_promotes_the_next_player_for_a_dropped_finalist() -> None:
    tournament, players = _first_two_sessions()
    client = _organiser(tournament)
    cut = _cut(client, tournament, 2, 16)
    organiser = StaffRole.objects.get(tournament=tournament, role="organiser").user
    web = Client()
    web.force_login(organiser)
    url = f"/t/{tournament.slug}/console/cuts/"
    assert "promote-at-cut" not in web.get(url).content.decode()  # nobody dropped yet
    registration = Registration.objects.get(tournament=tournament, player=players[4])
    drop_player(actor=organiser, registration=registration, reason="ill")
    page = web.get(url).content.decode()
    assert f'<option value="{players[4].pk}">' in page
    answer = web.post(f"{url}{cut['id']}/promote/", {"replaces": players[4].pk}, follow=True)
    first_out = cut["line"]["first_out"]
    assert f"{first_out['name']} qualifies in place" in answer.content.decode()
    assert first_out["player"] in Cut.objects.get(pk=cut["id"]).qualified_ids


def _finals_running(hand_at_table_of_0: bool) -> tuple[Any, list[Any], Any, dict[str, Any]]:
    """Cut to 16 after session 2; session 3 (seated by the cut) starts, and a hand is entered
    at the table of player 1 (or, with `hand_at_table_of_0`, of player 0 too); then player 0,
    a finalist, drops."""
    tournament, players = _first_two_sessions()
    client = _organiser(tournament)
    cut = _cut(client, tournament, 2, 16)
    organiser = StaffRole.objects.get(tournament=tournament, role="organiser").user
    start_session(actor=organiser, session=Session.objects.get(tournament=tournament, number=3))
    table_of = {
        i: Seat.objects.get(
            table__session__number=3, table__session__tournament=tournament, player=players[i]
        ).table
        for i in (0, 1)
    }
    assert table_of[0] != table_of[1]  # seated by standing: 1st and 5th at tables 1 and 2
    for i in (1, 0) if hand_at_table_of_0 else (1,):
        game = table_of[i].game
        enter_hand(actor=organiser, game=game, hand=non_dealer_rons(1)[0], expected_version=0)
    registration = Registration.objects.get(tournament=tournament, player=players[0])
    drop_player(actor=organiser, registration=registration, reason="taken ill")
    return tournament, players, client, cut


def _seated_in(tournament: Any, number: int, player: Any) -> tuple[bool, bool]:
    """Whether `player` has the tournament seat / the game seat in session `number`."""
    seat = Seat.objects.filter(
        table__session__tournament=tournament, table__session__number=number, player=player
    ).exists()
    game_seat = GameSeat.objects.filter(
        game__table__session__tournament=tournament,
        game__table__session__number=number,
        player=player,
    ).exists()
    return seat, game_seat


def test_promotion_in_a_running_session_hands_over_a_seat_not_played_yet() -> None:
    """Session 3 is running; player 0's table has entered nothing yet (player 1's table has
    played a hand). The promoted player takes player 0's seat there, in the tournament seat
    and the game alike, and the game's version moves on (a phone holding the old seating
    reloads); no other table changes: the session is not re-seated, so the played hand
    stays. docs/finals.md."""
    tournament, players, client, cut = _finals_running(hand_at_table_of_0=False)
    first_out = next(p for p in players if p.pk == cut["line"]["first_out"]["player"])
    table = Seat.objects.get(
        table__session__tournament=tournament, table__session__number=3, player=players[0]
    ).table
    assert table.game is not None
    version, wind = table.game.version, table.seats.get(player=players[0]).wind
    played = Hand.objects.filter(game__table__session__tournament=tournament).values_list(
        "pk", flat=True
    )
    hands = list(played)

    url = f"/api/v1/tournaments/{tournament.slug}/cut/{cut['id']}/promote/"
    answer = client.post(url, {"replaces": players[0].pk}, format="json")
    assert answer.status_code == 200, answer.content

    assert _seated_in(tournament, 3, players[0]) == (False, False)
    assert _seated_in(tournament, 3, first_out) == (True, True)
    assert table.seats.get(wind=wind).player == first_out
    game = Game.objects.get(pk=table.game.pk)
    assert game.version == version + 1
    assert GameSeat.objects.get(game=game, seat=wind).player == first_out
    assert list(played) == hands  # the hand played at player 1's table is still there
    entry = AuditEntry.objects.filter(action="session.seat", tournament_id=tournament.pk).latest(
        "id"
    )
    assert entry.after["promoted"] == first_out.pk and entry.after["table"] == table.number


def test_promotion_in_a_running_session_keeps_a_table_that_played() -> None:
    """Player 0's table has played a hand: its game counts as played by player 0 (a
    substitute finishes it, EMA 2025 7.3), so the seats stay as they are; the promotion
    itself stands."""
    tournament, players, client, cut = _finals_running(hand_at_table_of_0=True)
    url = f"/api/v1/tournaments/{tournament.slug}/cut/{cut['id']}/promote/"
    answer = client.post(url, {"replaces": players[0].pk}, format="json")
    assert answer.status_code == 200, answer.content
    assert players[0].pk not in answer.json()["qualified"]
    assert _seated_in(tournament, 3, players[0]) == (True, True)
    assert Hand.objects.filter(game__table__session__tournament=tournament).count() == 2
