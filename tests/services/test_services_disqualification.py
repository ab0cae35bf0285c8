"""Issue 15: disqualification (EMA 2025 6.12: "A player caught cheating will be immediately
disqualified"; "Further repeated obstructive behaviour results in immediate disqualification")
as a registration state, with its consequences for seating and standings."""

from __future__ import annotations

import pytest

from core.audit import audit_for_tournament
from core.errors import PermissionDenied, ValidationFailed
from scoring.models import Game
from scoring.services import enter_final_scores, finalize_game
from tests.factories import PlayerFactory
from tournaments.ema.export import result_lines
from tournaments.models import Registration, StandingRow
from tournaments.services import (
    close_session,
    create_sessions,
    disqualify_player,
    reinstate_player,
    seat_session,
    start_session,
    substitute_player,
)
from tournaments.services.registration import seats_to_replace
from tournaments.standings.services import compute_standings, recompute_standings

pytestmark = pytest.mark.django_db


def _paper(actor, session, table, scores):
    game = Game.objects.get(table__session=session, table__number=table)
    game = enter_final_scores(actor=actor, game=game, scores=scores, expected_version=game.version)
    return finalize_game(actor=actor, game=game, expected_version=game.version)


@pytest.fixture
def eight(registrations):
    for r in registrations[8:]:
        r.delete()
    return [r.player for r in registrations[:8]]


def test_disqualification_is_audited_and_drops_the_player(tournament, organiser, eight):
    registration = Registration.objects.get(tournament=tournament, player=eight[0])
    disqualify_player(actor=organiser, registration=registration, reason="marked tiles")
    registration.refresh_from_db()
    assert registration.disqualified_at is not None and registration.dropped_at is not None
    assert registration.disqualification_reason == "marked tiles"
    entry = audit_for_tournament(tournament.pk).get(action="registration.disqualify")
    assert entry.reason == "marked tiles" and entry.after["disqualified_at"] is not None
    assert entry.before["disqualified_at"] is None


@pytest.mark.parametrize(
    ("reason", "again", "field"), [("  ", False, "reason"), ("cheating", True, "registration")]
)
def test_bad_disqualification_names_the_field(tournament, organiser, eight, reason, again, field):
    registration = Registration.objects.get(tournament=tournament, player=eight[0])
    if again:
        disqualify_player(actor=organiser, registration=registration, reason="first")
    with pytest.raises(ValidationFailed) as err:
        disqualify_player(actor=organiser, registration=registration, reason=reason)
    assert err.value.field == field
    assert audit_for_tournament(tournament.pk).filter(action="registration.disqualify").count() == (
        1 if again else 0
    )


def test_only_organisers_disqualify(tournament, referee, eight):
    registration = Registration.objects.get(tournament=tournament, player=eight[0])
    with pytest.raises(PermissionDenied):
        disqualify_player(actor=referee, registration=registration, reason="cheating")
    registration.refresh_from_db()
    assert registration.disqualified_at is None


def test_a_disqualified_player_is_never_seated_again(tournament, organiser, eight):
    """Seating: a later session cannot seat them; a session already seated with them cannot
    start until a substitute takes the seat (EMA 2025 7.3, "e.g. due to ... disqualification")."""
    s1, s2 = create_sessions(actor=organiser, tournament=tournament, count=2)
    seat_session(actor=organiser, session=s1, tables=[eight[0:4], eight[4:8]])
    registration = Registration.objects.get(tournament=tournament, player=eight[0])
    disqualify_player(actor=organiser, registration=registration, reason="cheating")
    assert seats_to_replace(registration) == [
        {"session": 1, "table": 1, "wind": 0, "started": False}
    ]
    with pytest.raises(ValidationFailed) as err:
        start_session(actor=organiser, session=s1)
    assert err.value.field == "tables" and "6.12" in err.value.message
    game = Game.objects.get(table__session=s1, table__number=1)
    substitute_player(actor=organiser, game=game, seat=0, substitute=PlayerFactory(),
                      reason="disqualified", from_="start")  # fmt: skip
    assert seats_to_replace(registration) == []
    start_session(actor=organiser, session=s1)
    with pytest.raises(ValidationFailed) as err:
        seat_session(actor=organiser, session=s2, tables=[eight[0:4], eight[4:8]])
    assert err.value.field == "tables" and "dropped" in err.value.message


def test_standings_show_the_disqualified_player_unranked(tournament, organiser, eight):
    """Standings (chosen; EMA 2025 6.12 does not say how a disqualified player ranks): shown
    and marked, not ranked, not in the EMA file; the opponents' results stand; a session a
    substitute plays for them scores -15,000 and -15,000 uma (EMA 2025 7.3)."""
    s1, s2 = create_sessions(actor=organiser, tournament=tournament, count=2)
    seat_session(actor=organiser, session=s1, tables=[eight[0:4], eight[4:8]])
    start_session(actor=organiser, session=s1)
    _paper(organiser, s1, 1, [45000, 30000, 25000, 20000])  # P0 first: +30,000
    _paper(organiser, s1, 2, [40000, 32000, 28000, 20000])
    close_session(actor=organiser, session=s1)
    seat_session(actor=organiser, session=s2, tables=[eight[0:4], eight[4:8]])
    registration = Registration.objects.get(tournament=tournament, player=eight[0])
    disqualify_player(actor=organiser, registration=registration, reason="cheating")
    game = Game.objects.get(table__session=s2, table__number=1)
    substitute_player(actor=organiser, game=game, seat=0, substitute=PlayerFactory(),
                      reason="P0 disqualified", from_="start")  # fmt: skip
    start_session(actor=organiser, session=s2)
    _paper(organiser, s2, 1, [30000, 30000, 30000, 30000])
    _paper(organiser, s2, 2, [30000, 30000, 30000, 30000])
    recompute_standings(tournament_id=tournament.pk)
    rows = {r.player_id: r for r in StandingRow.objects.filter(tournament=tournament)}
    dq = rows[eight[0].pk]
    # S1: 45,000 - 30,000 + 15,000 uma = 30,000; S2: substituted, -30,000 (EMA 2025 7.3).
    assert (dq.rank, dq.disqualified, dq.total) == (None, True, 0)
    ranked = sorted(r.rank for r in rows.values() if r.rank is not None)
    assert len(ranked) == 7 and ranked[0] == 1 and ranked[-1] <= 7  # seven ranked players
    # The EMA file: the seven ranked players, not P0 (compared as the ranked rows' names:
    # factory names can repeat, so P0's own name may be another player's too).
    ranked_names = sorted(
        (r.player.first_name, r.player.last_name) for r in rows.values() if r.rank is not None
    )
    lines = sorted((line.first_name, line.last_name) for line in result_lines(tournament))
    assert lines == ranked_names and eight[0].pk not in [
        pid for pid, r in rows.items() if r.rank is not None
    ]
    # The full rebuild and the stored rows agree (the incremental path keeps it unranked).
    assert {r.player_id: (r.rank, r.disqualified) for r in compute_standings(tournament)} == {
        pid: (r.rank, r.disqualified) for pid, r in rows.items()
    }


def test_a_game_update_keeps_the_disqualified_player_unranked(tournament, organiser, eight):
    """The one-game standings update (incremental) ranks as the full rebuild does."""
    from tournaments.standings.services import update_game_standings

    (s1,) = create_sessions(actor=organiser, tournament=tournament, count=1)
    seat_session(actor=organiser, session=s1, tables=[eight[0:4], eight[4:8]])
    start_session(actor=organiser, session=s1)
    g1 = _paper(organiser, s1, 1, [45000, 30000, 25000, 20000])
    _paper(organiser, s1, 2, [40000, 32000, 28000, 20000])
    registration = Registration.objects.get(tournament=tournament, player=eight[0])
    disqualify_player(actor=organiser, registration=registration, reason="cheating")
    recompute_standings(tournament_id=tournament.pk)
    update_game_standings(tournament_id=tournament.pk, game_id=g1.pk)
    row = StandingRow.objects.get(tournament=tournament, player=eight[0])
    assert row.rank is None and row.disqualified


def test_reinstating_undoes_the_disqualification(tournament, organiser, eight):
    registration = Registration.objects.get(tournament=tournament, player=eight[0])
    disqualify_player(actor=organiser, registration=registration, reason="cheating")
    reinstate_player(actor=organiser, registration=registration, reason="appeal upheld")
    registration.refresh_from_db()
    assert registration.disqualified_at is None and registration.dropped_at is None
    assert audit_for_tournament(tournament.pk).filter(action="registration.reinstate").exists()
