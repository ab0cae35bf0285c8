"""Issue 32.3: hidden standings. From `standings_hidden_from` on, every public surface shows
the standings as they stood before that session, and the hidden sessions' game results are
their tables' players', the staff's and the organisers' only; publishing reveals everything.

One event (8 players, 2 tables, 2 sessions, session 2 hidden, a penalty in session 2) probed
on every surface as an anonymous reader, a player of table 1 (own table) and of table 2
(other table), and a referee."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.services import enter_hand, finalize_game
from scoring.summary import GameSummary
from tests.factories import (
    PenaltyFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    game_at_table,
    ron,
)
from tournaments import my_seat
from tournaments.models import Registration, Seat, StaffRole, Team, Tournament
from tournaments.services import publish_results, update_tournament
from tournaments.standings.selectors import public_standings, standings_for
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

YAKUMAN_TSUMO = {"outcome": "tsumo", "wins": [{"winner": 2, "yakuman": 1}], "riichi": []}


def _play(table: Any, players: list[Any], hands: list[dict[str, Any]], organiser: Any) -> Game:
    game = game_at_table(table, ruleset=table.session.tournament.ruleset)
    for seat, player in enumerate(players):
        game.seats.create(seat=seat, player=player)
        Seat.objects.create(table=table, wind=seat, player=player)
    for hand in hands:
        game = enter_hand(actor=organiser, game=game, hand=hand, expected_version=game.version).game
    return finalize_game(
        actor=organiser, game=game, expected_version=game.version, end="time", reason="test"
    )


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    tournament = TournamentFactory(slug="hidden-open", name="Hidden Open")
    organiser = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.ORGANISER).user
    referee = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).user
    own, other = UserFactory(), UserFactory()
    players = [PlayerFactory(first_name=f"P{i}", last_name=f"Hidden{i}") for i in range(8)]
    players[0].user = own  # plays at table 1 in both sessions
    players[4].user = other  # plays at table 2 in both sessions
    for p in players:
        p.save()
        RegistrationFactory(tournament=tournament, player=p)
    games: dict[tuple[int, int], Game] = {}
    session_hands = {
        1: ([ron(winner=1, loser=2, han=4, fu=30)], [ron(winner=3, loser=0, han=3, fu=40)]),
        # Session 2 turns the table over: a yakuman at table 1, a haneman at table 2.
        2: ([YAKUMAN_TSUMO], [ron(winner=0, loser=1, han=6)]),
    }
    for number in (1, 2):
        session = SessionFactory(tournament=tournament, number=number)
        for t in (1, 2):
            table = TableFactory(session=session, number=t)
            seated = players[4 * (t - 1) : 4 * t]
            games[(number, t)] = _play(table, seated, session_hands[number][t - 1], organiser)
    # A penalty given in session 2: a hidden figure too.
    PenaltyFactory(tournament=tournament, player=players[5], session=session, points=7700)
    recompute_standings(tournament_id=tournament.pk)
    update_tournament(actor=organiser, tournament=tournament, standings_hidden_from=2)
    tournament.refresh_from_db()
    clients = {"anonymous": Client()}
    for role, user in (("own", own), ("other", other), ("referee", referee)):
        clients[role] = Client()
        clients[role].force_login(user)
    return {
        "tournament": tournament,
        "organiser": organiser,
        "players": players,
        "games": games,
        "clients": clients,
    }


def _results(game: Game) -> dict[int, int]:
    """player id -> the game's result (after uma), as the engine computed it."""
    game.refresh_from_db()
    result = GameSummary.of(game.summary).result
    return {s.player_id: int(result[s.seat]) for s in game.seats.all()}


def _forms(value: int) -> list[str]:
    """The ways a page may write `value`: 12300, 12,300, 12 300, 12.300, with - or U+2212."""
    digits = f"{abs(value):,}"
    out = set()
    for sep in (",", "", "\u00a0", " ", ".", "\u202f"):
        text = digits.replace(",", sep)
        out |= {text} if value >= 0 else {f"-{text}", f"\u2212{text}"}
        if value > 0:
            out.add(f"+{text}")
    return sorted(out)


def _leaks(body: str, figures: set[int]) -> list[int]:
    """The hidden figures written in `body` (as whole numbers, not inside longer ones)."""
    found = []
    for value in figures:
        for form in _forms(value):
            if re.search(rf"(?<![\d.,]){re.escape(form)}(?![\d]|[.,]\d)", body):
                found.append(value)
                break
    return found


@pytest.fixture
def figures(event: dict[str, Any]) -> dict[str, Any]:
    """What is hidden and what is shown, from the engine's results (nothing hard-coded)."""
    games = event["games"]
    session1: dict[int, int] = {}
    for t in (1, 2):
        session1.update(_results(games[(1, t)]))
    session2 = {t: _results(games[(2, t)]) for t in (1, 2)}
    real = {r.player_id: r.total for r in standings_for(event["tournament"])}
    shown = set(session1.values())
    hidden_by_table = {
        t: {v for v in session2[t].values() if v not in shown and v != 0} for t in (1, 2)
    }
    hidden_totals = {v for pid, v in real.items() if v != session1[pid] and v not in shown}
    return {
        "session1": session1,
        "real": real,
        "table": hidden_by_table,
        "all": hidden_by_table[1] | hidden_by_table[2] | hidden_totals | {7700},
        "totals": hidden_totals,
    }


def test_public_standings_are_those_before_the_hidden_session(
    event: dict[str, Any], figures: dict[str, Any]
) -> None:
    public = public_standings(event["tournament"])
    assert public.hidden_from == 2
    assert {r.player_id: r.total for r in public.rows} == figures["session1"]
    assert all(r.games == 1 for r in public.rows)
    # Ranked by the session-1 totals, ties sharing... the order the totals give.
    totals = [r.total for r in public.rows]
    assert totals == sorted(totals, reverse=True)
    assert figures["all"], "the fixture must hide something"
    assert figures["real"] != figures["session1"]


SURFACES = [
    ("standings", lambda t, p: reverse("tournaments:standings", args=[t.slug]), {}),
    (
        "standings htmx",
        lambda t, p: reverse("tournaments:standings", args=[t.slug]),
        {"HTTP_HX_REQUEST": "true"},
    ),
    ("standings csv", lambda t, p: reverse("tournaments:standings_csv", args=[t.slug]), {}),
    ("projector", lambda t, p: reverse("tournaments:projector_standings", args=[t.slug]), {}),
    ("detail", lambda t, p: reverse("tournaments:detail", args=[t.slug]), {}),
    ("awards", lambda t, p: reverse("tournaments:awards", args=[t.slug]), {}),
    (
        "seating search",
        lambda t, p: reverse("tournaments:seating_session", args=[t.slug, 2]) + "?q=Hidden",
        {},
    ),
    ("api standings", lambda t, p: f"/api/v1/tournaments/{t.slug}/standings/", {}),
    ("api standings csv", lambda t, p: f"/api/v1/tournaments/{t.slug}/standings/?format=csv", {}),
    ("api tournament", lambda t, p: f"/api/v1/tournaments/{t.slug}/", {}),
    ("api tournaments", lambda t, p: "/api/v1/tournaments/", {}),
    ("api ranking preview", lambda t, p: f"/api/v1/tournaments/{t.slug}/ranking-preview/", {}),
    ("api penalties", lambda t, p: f"/api/v1/tournaments/{t.slug}/penalties/", {}),
    ("api games", lambda t, p: f"/api/v1/games/?tournament={t.slug}", {}),
    ("results pdf", lambda t, p: reverse("tournaments:results_pdf", args=[t.slug]), {}),
    ("ranking preview", lambda t, p: reverse("tournaments:results", args=[t.slug]), {}),
    ("offline page", lambda t, p: reverse("scoring:offline"), {}),
    ("referee home", lambda t, p: reverse("scoring:referee"), {}),
]


@pytest.mark.parametrize("role", ["anonymous", "own", "other"])
def test_no_public_surface_shows_a_hidden_figure(
    event: dict[str, Any], figures: dict[str, Any], role: str
) -> None:
    t = event["tournament"]
    client = event["clients"][role]
    for name, url, headers in SURFACES:
        for _ in range(2):  # the second answer comes from the caches
            response = client.get(url(t, event["players"]), **headers)
            # 403: the results PDF and ranking preview page wait for publishing.
            assert response.status_code in (200, 302, 403), (name, response.status_code)
            body = response.content.decode()
            assert not _leaks(body, figures["all"]), (role, name, _leaks(body, figures["all"]))
    standings = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "hidden until the results are announced" in standings
    for value in figures["session1"].values():
        assert _leaks(standings, {value}) or value == 0


def test_the_standings_surfaces_are_the_same_for_the_staff(
    event: dict[str, Any], figures: dict[str, Any]
) -> None:
    """Public surfaces do not depend on the reader (their caches are shared): the staff see
    the hidden standings in the console (ranking preview, EMA export), not here."""
    t = event["tournament"]
    referee, anonymous = event["clients"]["referee"], event["clients"]["anonymous"]
    for name in ("standings", "standings csv", "projector", "api standings", "api standings csv"):
        url, headers = next((u(t, None), h) for n, u, h in SURFACES if n == name)
        body = referee.get(url, **headers).content
        assert not _leaks(body.decode(), figures["totals"]), name
        if name.startswith("api") or name.endswith("csv"):
            assert body == anonymous.get(url, **headers).content, name
    preview = referee.get(reverse("tournaments:exports", args=[t.slug]))
    assert preview.status_code == 403  # a referee is not an organiser
    organiser = Client()
    organiser.force_login(event["organiser"])
    console = organiser.get(reverse("tournaments:exports", args=[t.slug])).content.decode()
    assert "Hidden0" in console


def test_the_players_phone_page_shows_the_public_standing(
    event: dict[str, Any], figures: dict[str, Any]
) -> None:
    """Issue 35.4's private link (no login): the player's rank and total are the public ones,
    else the rank would tell the other tables' hidden results."""
    t, players = event["tournament"], event["players"]
    for player in (players[0], players[2], players[5]):
        url = my_seat.player_link(t, player)
        body = Client().get(url).content.decode()
        assert not _leaks(body, figures["totals"]), player
        public = figures["session1"][player.pk]
        assert _leaks(body, {public}) or public == 0


def test_player_pages_show_a_hidden_game_to_its_table_and_the_staff_preview_only(
    event: dict[str, Any], figures: dict[str, Any]
) -> None:
    t, players = event["tournament"], event["players"]
    for target, table in ((players[2], 1), (players[5], 2)):
        for role, client in event["clients"].items():
            preview = role == "referee"  # the staff see the public page unless they preview
            url = reverse("tournaments:player", args=[t.slug, target.pk])
            body = client.get(url + ("?preview=1" if preview else "")).content.decode()
            sees = preview or ((role == "own") == (table == 1) and role != "anonymous")
            leaked = _leaks(body, figures["table"][table])
            assert bool(leaked) == sees, (role, table, leaked)
            if not sees:  # nor the total it makes
                assert not _leaks(body, figures["totals"]), role
            assert ("Result hidden until the results are announced." in body) != sees


@pytest.mark.parametrize(
    "path",
    [
        "/games/{id}/",
        "/games/{id}/record.json",
        "/games/{id}/entry/",
        "/api/v1/games/{id}/",
        "/api/v1/games/{id}/hands/",
        "/api/v1/games/{id}/record/",
        "/api/v1/games/{id}/audit/",
    ],
)
def test_game_surfaces_of_a_hidden_session(event: dict[str, Any], path: str) -> None:
    hidden_game, shown_game = event["games"][(2, 1)], event["games"][(1, 1)]
    clients = event["clients"]
    for role in ("anonymous", "other"):
        answer = clients[role].get(path.format(id=hidden_game.pk))
        assert answer.status_code in (302, 401, 403, 404), (role, answer.status_code)
        assert "16000" not in answer.content.decode()
    for role in ("own", "referee"):
        answer = clients[role].get(path.format(id=hidden_game.pk))
        if ("entry" in path or "audit" in path) and role == "own":
            continue  # the entry page and the audit are the staff's in any case
        assert answer.status_code == 200, (role, path, answer.status_code)
    # An earlier session's game stays public.
    if "entry" not in path and "audit" not in path:
        assert clients["anonymous"].get(path.format(id=shown_game.pk)).status_code == 200


def test_game_lists_leave_out_hidden_games_for_others(event: dict[str, Any]) -> None:
    t, games = event["tournament"], event["games"]

    def listed(role: str) -> set[int]:
        answer = event["clients"][role].get(f"/api/v1/games/?tournament={t.slug}&page_size=100")
        data = answer.json()
        return {g["id"] for g in data.get("results", data)}

    everything = {g.pk for g in games.values()}
    public = {games[(1, 1)].pk, games[(1, 2)].pk}
    assert listed("anonymous") == public
    assert listed("own") == public | {games[(2, 1)].pk}
    assert listed("other") == public | {games[(2, 2)].pk}
    assert listed("referee") == everything


def test_api_etag_does_not_move_with_a_hidden_change(event: dict[str, Any]) -> None:
    t, players = event["tournament"], event["players"]
    client = event["clients"]["anonymous"]
    url = f"/api/v1/tournaments/{t.slug}/standings/"
    first = client.get(url)
    tag = first["ETag"]
    assert str(Tournament.objects.get(pk=t.pk).standings_version) not in tag
    # Another hidden penalty: the stored standings (and their version) change, the public
    # ones do not, nor their ETag.
    PenaltyFactory(tournament=t, player=players[1], session=t.sessions.get(number=2), points=3300)
    recompute_standings(tournament_id=t.pk)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    cache.clear()  # the same answer built afresh has the same tag
    again = client.get(url)
    assert again["ETag"] == tag and again.content == first.content
    # A change before the hidden session shows at once, with a new tag.
    PenaltyFactory(tournament=t, player=players[1], session=t.sessions.get(number=1), points=1100)
    recompute_standings(tournament_id=t.pk)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    rows = {r["player"]["id"]: r["total"] for r in changed.json()}
    assert rows[players[1].pk] == first_total(first, players[1].pk) - 1100


def first_total(answer: Any, player_id: int) -> int:
    return next(r["total"] for r in answer.json() if r["player"]["id"] == player_id)


def test_referee_sees_the_hidden_penalty_and_previews_the_awards(
    event: dict[str, Any], figures: dict[str, Any]
) -> None:
    t = event["tournament"]
    referee = event["clients"]["referee"]
    penalties = referee.get(f"/api/v1/tournaments/{t.slug}/penalties/").json()
    assert [p["points"] for p in penalties] == [7700]
    url = reverse("tournaments:awards", args=[t.slug])
    awards = referee.get(f"{url}?preview=1").content.decode()
    assert "you see them as staff" in awards and "award-biggest_hand" in awards
    anonymous = event["clients"]["anonymous"].get(reverse("tournaments:awards", args=[t.slug]))
    assert "Hidden until the results are announced." in anonymous.content.decode()
    assert "award-biggest_hand" not in anonymous.content.decode()


def test_publishing_reveals_everything(event: dict[str, Any], figures: dict[str, Any]) -> None:
    t = event["tournament"]
    organiser = event["organiser"]
    client = event["clients"]["anonymous"]
    url = f"/api/v1/tournaments/{t.slug}/standings/"
    hidden_tag = client.get(url)["ETag"]
    for session in t.sessions.all():
        session.status = "closed"
        session.save()
    publish_results(actor=organiser, tournament=t)
    answer = client.get(url, HTTP_IF_NONE_MATCH=hidden_tag)
    assert answer.status_code == 200
    assert {r["player"]["id"]: r["total"] for r in answer.json()} == {
        pid: total for pid, total in figures["real"].items()
    }
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "hidden until the results are announced" not in page
    assert client.get(f"/games/{event['games'][(2, 1)].pk}/").status_code == 200
    assert client.get(reverse("tournaments:awards", args=[t.slug])).status_code == 200
    assert (
        json.loads(client.get(f"/api/v1/tournaments/{t.slug}/").content)["standings_hidden_from"]
        == 2
    )


def test_setting_and_clearing_over_the_api(event: dict[str, Any], figures: dict[str, Any]) -> None:
    t = event["tournament"]
    organiser = Client()
    organiser.force_login(event["organiser"])
    url = f"/api/v1/tournaments/{t.slug}/"
    bad = organiser.patch(url, {"standings_hidden_from": 0}, content_type="application/json")
    assert bad.status_code == 400 and "standings_hidden_from" in bad.content.decode()
    referee = event["clients"]["referee"]
    refused = referee.patch(url, {"standings_hidden_from": None}, content_type="application/json")
    assert refused.status_code == 403
    cleared = organiser.patch(url, {"standings_hidden_from": None}, content_type="application/json")
    assert cleared.status_code == 200 and cleared.json()["standings_hidden_from"] is None
    rows = event["clients"]["anonymous"].get(f"{url}standings/").json()
    assert {r["player"]["id"]: r["total"] for r in rows} == figures["real"]
    # Back to hidden from the console form.
    form = organiser.post(
        reverse("tournaments:standings_settings", args=[t.slug]),
        {"tie_break_1": "best_game", "standings_hidden_from": "2"},
    )
    assert form.status_code == 302
    assert Tournament.objects.get(pk=t.pk).standings_hidden_from == 2
    rows = event["clients"]["anonymous"].get(f"{url}standings/").json()
    assert {r["player"]["id"]: r["total"] for r in rows} == figures["session1"]


def _staff_pages(
    event: dict[str, Any], figures: dict[str, Any]
) -> list[tuple[str, str, set[int], str]]:
    """The public pages that show a reader's own view (issue 32.3): each with the hidden
    figures its preview shows and a mark of the hidden results. A team of players 2 (table 1)
    and 5 (table 2) for the team page."""
    t, players, games = event["tournament"], event["players"], event["games"]
    Tournament.objects.filter(pk=t.pk).update(teams_enabled=True)
    team = Team.objects.create(tournament=t, name="Mixed", slug="mixed")
    Registration.objects.filter(tournament=t, player__in=[players[2], players[5]]).update(team=team)
    # Their session-2 results: figures no public page shows.
    own = (_results(games[(2, 1)])[players[2].pk], _results(games[(2, 2)])[players[5].pk])
    assert own[0] in figures["table"][1] and own[1] in figures["table"][2]
    team_results = set(own)
    return [
        (
            "player of table 1",
            reverse("tournaments:player", args=[t.slug, players[2].pk]),
            {own[0]},
            "Result hidden until the results are announced.",
        ),
        (
            "player of table 2",
            reverse("tournaments:player", args=[t.slug, players[5].pk]),
            {own[1]},
            "Result hidden until the results are announced.",
        ),
        ("team", reverse("tournaments:team", args=[t.slug, "mixed"]), team_results, "hidden"),
        ("awards", reverse("tournaments:awards", args=[t.slug]), set(), "award-biggest_hand"),
    ]


@pytest.mark.parametrize("role", ["referee", "organiser"])
def test_staff_see_public_pages_as_the_public_unless_they_preview(
    event: dict[str, Any], figures: dict[str, Any], role: str
) -> None:
    """A public page shows the staff what the public sees, with a staff-only link to preview
    the hidden results; the preview (`?preview=1`) shows them, marked as a preview. The
    public asking for a preview gets the public page."""
    client = event["clients"]["referee"]
    if role == "organiser":
        client = Client()
        client.force_login(event["organiser"])
    anonymous = event["clients"]["anonymous"]
    for name, url, shown, mark in _staff_pages(event, figures):
        page = client.get(url).content.decode()
        assert not _leaks(page, figures["all"]), (name, _leaks(page, figures["all"]))
        assert 'id="staff-preview"' in page and "?preview=1" in page, name
        if name == "awards":
            assert mark not in page
        else:
            assert mark in page, name
        preview = client.get(f"{url}?preview=1").content.decode()
        assert "Staff preview" in preview and 'id="staff-preview"' in preview, name
        assert set(_leaks(preview, shown)) == shown, name
        if name == "awards":
            assert mark in preview
        for reader in (anonymous, event["clients"]["other"]):
            public = reader.get(f"{url}?preview=1").content.decode()
            assert 'id="staff-preview"' not in public and "Staff preview" not in public, name
            assert not _leaks(public, figures["table"][1]), name


def test_the_standings_page_tells_the_staff_where_the_hidden_table_is(
    event: dict[str, Any],
) -> None:
    """The standings page is the public's for everyone (its table is cached and shared); the
    staff are told so, and an organiser gets the link to the full table in the console."""
    t = event["tournament"]
    url = reverse("tournaments:standings", args=[t.slug])
    organiser = Client()
    organiser.force_login(event["organiser"])
    page = organiser.get(url).content.decode()
    assert 'id="staff-preview"' in page
    assert reverse("tournaments:exports", args=[t.slug]) in page
    referee = event["clients"]["referee"].get(url).content.decode()
    assert 'id="staff-preview"' in referee
    assert reverse("tournaments:exports", args=[t.slug]) not in referee  # not theirs
    for role in ("anonymous", "own"):
        assert 'id="staff-preview"' not in event["clients"][role].get(url).content.decode()
