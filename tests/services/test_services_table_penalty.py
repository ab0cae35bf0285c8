"""Issue 15: a score-sheet penalty for a whole table at once (EMA 2025 7.5: "Any mistake on
the score sheet that cannot be fixed ... is subject to a 2,000-point penalty for each of the
players"): one penalty and one audit entry per player, all or none."""

from __future__ import annotations

import pytest

from core.audit import audit_for_tournament
from core.errors import PermissionDenied, ValidationFailed
from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    TableFactory,
    UserFactory,
)
from tournaments.models import Penalty, Session
from tournaments.services import add_table_penalty, substitute_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(tournament):
    return [RegistrationFactory(tournament=tournament).player for _ in range(4)]


@pytest.fixture
def game(session, players):
    return GameFactory(table=TableFactory(session=session, number=2), players=players)


def test_each_player_of_the_table_gets_2000(tournament, referee, session, players, game):
    """EMA 2025 7.5: 2,000 points for each of the players, one audit entry each."""
    given = add_table_penalty(
        actor=referee, tournament=tournament, session=session, table_number=2, reason="sheet"
    )
    assert sorted(p.player_id for p in given) == sorted(p.pk for p in players)
    assert {(p.kind, p.points, p.session_id) for p in given} == {("score_sheet", 2000, session.pk)}
    audit = list(audit_for_tournament(tournament.pk).filter(action="penalty.add"))
    assert len(audit) == 4 and {a.after["table"] for a in audit} == {2}
    assert {a.after["player"] for a in audit} == {p.pk for p in players}


def test_the_substitute_who_played_is_penalised_not_the_absent_player(
    tournament, organiser, session, players, game
):
    """EMA 2025 7.3: the substitute sat at the table and signed its sheet; the absent player
    did not."""
    sub = PlayerFactory()
    substitute_player(actor=organiser, game=game, seat=1, substitute=sub, reason="ill")
    given = add_table_penalty(
        actor=organiser, tournament=tournament, session=session, table_number=2, reason="sheet"
    )
    penalised = {p.player_id for p in given}
    assert sub.pk in penalised and players[1].pk not in penalised and len(penalised) == 4


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"table_number": 9}, "table"),
        ({"kind": "obstruction"}, "kind"),
        ({"reason": "  "}, "reason"),
    ],
)
def test_bad_input_names_the_field_and_saves_nothing(
    tournament, referee, session, game, extra, field
):
    args = {"actor": referee, "tournament": tournament, "session": session, "table_number": 2,
            "reason": "sheet", **extra}  # fmt: skip
    with pytest.raises(ValidationFailed) as err:
        add_table_penalty(**args)
    assert err.value.field == field
    assert not Penalty.objects.exists()


def test_all_or_none_when_one_player_is_not_registered(tournament, referee, session, players):
    stranger = PlayerFactory()
    GameFactory(table=TableFactory(session=session, number=3), players=[*players[:3], stranger])
    with pytest.raises(ValidationFailed) as err:
        add_table_penalty(
            actor=referee, tournament=tournament, session=session, table_number=3, reason="x"
        )
    assert err.value.field == "player"
    assert not Penalty.objects.exists()  # the three registered players got none either


def test_closed_session_and_strangers_are_refused(tournament, referee, session, game):
    with pytest.raises(PermissionDenied):
        add_table_penalty(
            actor=UserFactory(), tournament=tournament, session=session, table_number=2, reason="x"
        )
    Session.objects.filter(pk=session.pk).update(status=Session.Status.CLOSED)
    session.refresh_from_db()
    with pytest.raises(ValidationFailed) as err:
        add_table_penalty(
            actor=referee, tournament=tournament, session=session, table_number=2, reason="x"
        )
    assert err.value.field == "session"
    assert not Penalty.objects.exists()
