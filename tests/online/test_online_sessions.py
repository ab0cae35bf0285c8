"""Issue 32.5: an online session, each table's game imported from its real Tenhou log, the
log's names mapped to the table's players and remembered for the tournament, replayed under
the tournament's rules and compared hand by hand with what Tenhou paid.

The logs are the real Tenhou logs of tests/online/data (README.md there says where from)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.errors import PermissionDenied, ValidationFailed
from core.models import AuditEntry
from scoring.models import Game
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TournamentFactory,
    UserFactory,
)
from tests.online.test_online_parse import NAMES as TENHOU6_NAMES
from tests.online.test_online_parse import _mahjongsoul
from tournaments.models import (
    OnlineName,
    OnlineTableLog,
    Seat,
    Session,
    StaffRole,
    StandingRow,
    Tournament,
)
from tournaments.services import (
    close_session,
    import_table_log,
    seat_session,
    set_session_online,
    start_session,
)
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"
WEST4 = (DATA / "tenhou-west4.mjlog").read_text(encoding="utf-8")
# Tenhou's names in tenhou-west4.mjlog, seats East to North.
WEST4_NAMES = ["はぐれミント", "SNインパクト", "CLS", "ハガタカのえじき"]
# Tenhou's own final results of that game (owari), in points: the engine reproduces them.
WEST4_RESULT = [37000, -15000, -29000, 7000]
THREE_HANDS = (DATA / "tenhou-three-hands.mjlog").read_text(encoding="utf-8")


def another_game(log: str, ref: str) -> str:
    """The same log under another Tenhou log id (as test_online_import.py does): a second
    game of the same four players."""
    return log.replace("<GO ", f'<SHUFFLE seed="x" ref="{ref}"/><GO ', 1)


def online_session(
    tournament: Tournament, organiser: Any, number: int, tables: list[list[Any]]
) -> Session:
    session = SessionFactory(tournament=tournament, number=number, status=Session.Status.PLANNED)
    set_session_online(actor=organiser, session=session, online=True)
    seat_session(actor=organiser, session=session, tables=tables)
    return start_session(actor=organiser, session=session)


def registration_ids(tournament: Tournament, people: list[Any]) -> list[int]:
    by_player = dict(tournament.registrations.values_list("player_id", "pk"))
    return [by_player[p.pk] for p in people]


def test_an_online_session_finishes_with_standings_and_the_next_maps_itself(
    tournament: Tournament, organiser: Any, referee: Any, players: list[Any]
) -> None:
    four = players[:4]
    first = online_session(tournament, organiser, 1, [four])
    table = first.tables.get()
    mapping = dict(zip(WEST4_NAMES, registration_ids(tournament, four), strict=True))
    done = import_table_log(actor=referee, table=table, data=WEST4, players=mapping)

    game = done.game
    assert game.status == Game.Status.FINISHED and game.ruleset == "tenhou"
    assert game.hands.count() == 15
    # Tenhou's ranked-lobby payments, reproduced hand for hand by the engine.
    report = done.to_dict()["comparison"]
    assert report["ok"] and report["matching"] == 15 and report["mismatches"] == []
    assert report["final"]["ours"]["result"] == WEST4_RESULT
    assert report["final"]["site"]["result"] == WEST4_RESULT
    assert [p["mapped_by"] for p in done.to_dict()["players"]] == ["given"] * 4
    entry = AuditEntry.objects.get(action="table.import_online")
    assert entry.tournament_id == tournament.pk and entry.game_id == game.pk
    assert entry.after["comparison"]["ok"] is True
    close_session(actor=organiser, session=first)

    # Session 2: the same four, seated in other winds by the plan; Tenhou drew the seats as
    # in the first game, so the table's winds follow the log. No mapping is sent: remembered.
    second = online_session(tournament, organiser, 2, [[four[2], four[3], four[0], four[1]]])
    table2 = second.tables.get()
    again = import_table_log(
        actor=organiser, table=table2, data=another_game(WEST4, "2026112012gm-0089-0000-ab12")
    )
    assert [p["mapped_by"] for p in again.to_dict()["players"]] == ["remembered"] * 4
    winds = list(
        Seat.objects.filter(table=table2).order_by("wind").values_list("player_id", flat=True)
    )
    assert winds == [p.pk for p in four]
    seats = list(again.game.seats.order_by("seat").values_list("player_id", flat=True))
    assert seats == [p.pk for p in four]
    assert (
        AuditEntry.objects.get(action="table.import_online", game_id=again.game.pk).after[
            "winds_from_log"
        ]
        is True
    )
    close_session(actor=organiser, session=second)
    recompute_standings(tournament_id=tournament.pk)  # the worker's task, run here

    # The standings, by hand: each of the four played the same game twice in the same seat.
    totals = dict(
        StandingRow.objects.filter(tournament=tournament).values_list("player_id", "total")
    )
    assert [totals[p.pk] for p in four] == [2 * r for r in WEST4_RESULT]
    ranks = dict(StandingRow.objects.filter(tournament=tournament).values_list("player_id", "rank"))
    # The four registered players who did not play stand at 0 (ranks 3 to 6).
    assert [ranks[p.pk] for p in four] == [1, 7, 8, 2]
    assert OnlineName.objects.filter(tournament=tournament, site="tenhou").count() == 4


def test_a_log_of_other_players_is_refused_naming_them(
    tournament: Tournament, organiser: Any, players: list[Any]
) -> None:
    session = online_session(tournament, organiser, 1, [players[:4], players[4:]])
    table1, table2 = session.tables.order_by("number")
    mapping = dict(zip(WEST4_NAMES, registration_ids(tournament, players[:4]), strict=True))
    import_table_log(actor=organiser, table=table1, data=WEST4, players=mapping)

    # Table 2's players are others: the remembered names map to table 1's players.
    with pytest.raises(ValidationFailed) as refused:
        import_table_log(
            actor=organiser, table=table2, data=another_game(WEST4, "2026112012gm-0089-0000-cd34")
        )
    assert refused.value.field == "players"
    assert [e["name"] for e in refused.value.errors] == WEST4_NAMES
    for name in WEST4_NAMES:
        assert name in refused.value.message
    # A log of strangers: nobody maps, every name is said.
    with pytest.raises(ValidationFailed) as strangers:
        import_table_log(actor=organiser, table=table2, data=THREE_HANDS)
    assert strangers.value.field == "players"
    # CLS plays in both logs: remembered for a player of table 1, so named as not at table 2.
    cls = registration_ids(tournament, players[2:3])[0]
    assert [e["registration"] for e in strangers.value.errors] == [None, cls, None, None]
    assert "〓超快適〓" in strangers.value.message and "Online4 Player" in strangers.value.message
    # Nothing was written for table 2.
    assert not OnlineTableLog.objects.filter(table=table2).exists()
    assert not table2.game.hands.exists()
    assert OnlineName.objects.count() == 4


def test_names_given_wrongly_are_refused_by_field(
    tournament: Tournament, organiser: Any, players: list[Any]
) -> None:
    session = online_session(tournament, organiser, 1, [players[:4]])
    table = session.tables.get()
    with pytest.raises(ValidationFailed) as absent:
        import_table_log(actor=organiser, table=table, data=WEST4, players={"nobody": 1})
    assert absent.value.field == "players.nobody"
    with pytest.raises(ValidationFailed) as foreign:
        other = RegistrationFactory(player=PlayerFactory())  # another tournament's
        import_table_log(actor=organiser, table=table, data=WEST4, players={"CLS": other.pk})
    assert foreign.value.field == "players.CLS"
    twice = dict.fromkeys(WEST4_NAMES, registration_ids(tournament, players[:1])[0])
    with pytest.raises(ValidationFailed) as doubled:
        import_table_log(actor=organiser, table=table, data=WEST4, players=twice)
    assert doubled.value.field == "players" and len(doubled.value.errors) == 4


def test_a_seated_players_own_name_maps_itself(tournament: Tournament, organiser: Any) -> None:
    four = [
        PlayerFactory(first_name=first, last_name=last)
        for first, last in (("〓超快適〓", ""), ("CLS", ""), ("るーみっく", ""), ("かづきＸＩ", ""))
    ]
    for p in four:
        RegistrationFactory(tournament=tournament, player=p)
    session = online_session(tournament, organiser, 1, [four])
    done = import_table_log(actor=organiser, table=session.tables.get(), data=THREE_HANDS)
    assert [p["mapped_by"] for p in done.to_dict()["players"]] == ["name"] * 4
    # The log stops after three hands: imported, the game still running.
    assert done.game.status == Game.Status.IN_PROGRESS and done.game.hands.count() == 3
    assert done.log.comparison["over"] is False and done.log.comparison["ok"]


def test_the_tournaments_rules_score_and_differences_are_shown_per_hand(
    organiser: Any, players: list[Any]
) -> None:
    # EMA 2025 4.1.2/4.1.3 (kiriage): hand 3's 4 han 30 fu tsumo is a mangan, 2,000/4,000;
    # Tenhou paid 7,900 (2,000/3,900). The engine's figure is kept, the difference reported.
    ema = TournamentFactory(slug="ema-online", ruleset="ema-2025")
    StaffRoleFactory(tournament=ema, user=organiser, role=StaffRole.Role.ORGANISER)
    four = [PlayerFactory() for _ in range(4)]
    for p in four:
        RegistrationFactory(tournament=ema, player=p)
    session = online_session(ema, organiser, 1, [four])
    table = session.tables.get()
    names = ["〓超快適〓", "CLS", "るーみっく", "かづきＸＩ"]
    mapping = dict(zip(names, registration_ids(ema, four), strict=True))
    done = import_table_log(actor=organiser, table=table, data=THREE_HANDS, players=mapping)
    report = done.log.comparison
    assert report["matching"] == 2
    assert report["mismatches"] == [
        {"hand": 3, "round": "E3", "honba": 0,
         "ours": [9000, -2000, -5000, -2000], "site": [8900, -2000, -4900, -2000]},
    ]  # fmt: skip
    assert report["rules"]["ruleset"] == "ema-2025" and report["site_rules"]["ruleset"] == "tenhou"
    assert done.game.ruleset == "ema-2025"


def test_a_hand_the_rules_cannot_score_refuses_the_log(organiser: Any, players: list[Any]) -> None:
    # EMA 2025 has no abortive draws; tenhou-west4.mjlog has a nine-terminals draw in hand 9.
    ema = TournamentFactory(slug="ema-abortive", ruleset="ema-2025")
    StaffRoleFactory(tournament=ema, user=organiser, role=StaffRole.Role.ORGANISER)
    four = [PlayerFactory() for _ in range(4)]
    for p in four:
        RegistrationFactory(tournament=ema, player=p)
    table = online_session(ema, organiser, 1, [four]).tables.get()
    mapping = dict(zip(WEST4_NAMES, registration_ids(ema, four), strict=True))
    with pytest.raises(ValidationFailed) as refused:
        import_table_log(actor=organiser, table=table, data=WEST4, players=mapping)
    assert refused.value.field == "log" and "abortive" in refused.value.message
    assert refused.value.errors[0]["hand"] == 9
    assert not OnlineName.objects.exists() and not table.game.hands.exists()


def test_only_online_sessions_and_only_staff(
    tournament: Tournament, organiser: Any, players: list[Any]
) -> None:
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.PLANNED)
    seat_session(actor=organiser, session=session, tables=[players[:4]])
    start_session(actor=organiser, session=session)
    table = session.tables.get()
    mapping = dict(zip(WEST4_NAMES, registration_ids(tournament, players[:4]), strict=True))
    with pytest.raises(ValidationFailed) as offline:
        import_table_log(actor=organiser, table=table, data=WEST4, players=mapping)
    assert offline.value.field == "table"
    with pytest.raises(PermissionDenied):
        set_session_online(actor=UserFactory(), session=session, online=True)
    set_session_online(actor=organiser, session=session, online=True)
    with pytest.raises(PermissionDenied):
        import_table_log(actor=UserFactory(), table=table, data=WEST4, players=mapping)
    import_table_log(actor=organiser, table=table, data=WEST4, players=mapping)
    with pytest.raises(ValidationFailed) as again:
        import_table_log(actor=organiser, table=table, data=WEST4)
    assert again.value.field == "table"
    with pytest.raises(ValidationFailed) as off:
        set_session_online(actor=organiser, session=session, online=False)
    assert off.value.field == "online"
    assert AuditEntry.objects.filter(action="session.online").count() == 1


def test_a_mahjong_soul_log_maps_by_its_own_site(
    tournament: Tournament, organiser: Any, players: list[Any]
) -> None:
    # Names are remembered per site: a Tenhou name says nothing of a Mahjong Soul account.
    session = online_session(tournament, organiser, 1, [players[:4], players[4:]])
    table1, table2 = session.tables.order_by("number")
    mapping = dict(zip(WEST4_NAMES, registration_ids(tournament, players[:4]), strict=True))
    import_table_log(actor=organiser, table=table1, data=WEST4, players=mapping)
    soul = json.dumps(_mahjongsoul(), ensure_ascii=False)
    names = dict(zip(TENHOU6_NAMES, registration_ids(tournament, players[4:]), strict=True))
    done = import_table_log(actor=organiser, table=table2, data=soul, players=names)
    assert done.log.site == "mahjongsoul" and done.log.log_id == "231124-test"
    assert done.game.hands.count() == 5 and done.game.status == Game.Status.IN_PROGRESS
    # Each hand's payments against the next hand's starting scores, as Mahjong Soul paid them.
    assert done.log.comparison["matching"] == 4 and done.log.comparison["ok"]
    assert set(OnlineName.objects.values_list("site", flat=True)) == {"tenhou", "mahjongsoul"}
