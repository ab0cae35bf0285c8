"""A tournament's life cycle: draft -> registration -> running -> finished -> published."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from core.audit import audited
from core.errors import ValidationFailed
from scoring.models import Game
from tournaments.models import Session, Tournament
from tournaments.standings.tasks import enqueue_recompute

from ._common import require_organiser

S = Tournament.Status
ALLOWED = {
    S.DRAFT: {S.REGISTRATION, S.RUNNING},
    S.REGISTRATION: {S.DRAFT, S.RUNNING},
    S.RUNNING: {S.REGISTRATION, S.FINISHED},
    S.FINISHED: {S.RUNNING, S.PUBLISHED},
    S.PUBLISHED: {S.FINISHED},
}


def _check_all_played(tournament: Tournament) -> None:
    open_sessions = list(
        tournament.sessions.exclude(status=Session.Status.CLOSED).values_list("number", flat=True)
    )
    if open_sessions:
        raise ValidationFailed(
            f"Session(s) {', '.join(map(str, open_sessions))} are not closed yet.",
            field="status",
        )
    unfinished = Game.objects.filter(table__session__tournament=tournament).exclude(
        status=Game.Status.FINISHED
    )
    if unfinished.exists():
        raise ValidationFailed("Some games are not finished yet.", field="status")


@transaction.atomic
def set_status(*, actor: Any, tournament: Tournament, status: str, reason: str = "") -> Tournament:
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if status not in S.values:
        raise ValidationFailed(f"status must be one of {', '.join(S.values)}.", field="status")
    if status == tournament.status:
        return tournament
    if status not in ALLOWED[S(tournament.status)]:
        raise ValidationFailed(
            f"A {tournament.get_status_display().lower()} tournament cannot become "
            f"{S(status).label.lower()}.",
            field="status",
        )
    if status in (S.FINISHED, S.PUBLISHED):
        _check_all_played(tournament)
    with audited(
        actor=actor,
        action="tournament.status",
        obj=tournament,
        reason=reason,
        tournament_id=tournament.pk,
        before={"status": tournament.status, "published_at": tournament.published_at},
    ) as audit:
        tournament.status = status
        if status == S.PUBLISHED:
            tournament.published_at = timezone.now()
        elif tournament.published_at is not None:
            tournament.published_at = None
        tournament.save(update_fields=["status", "published_at"])
        audit.after = {"status": tournament.status, "published_at": tournament.published_at}
    enqueue_recompute(tournament.pk)
    return tournament


@transaction.atomic
def publish_results(*, actor: Any, tournament: Tournament) -> Tournament:
    """Finish the tournament if needed and publish its results (every session closed)."""
    tournament = Tournament.objects.get(pk=tournament.pk)  # the caller's copy may be stale
    if tournament.status == S.RUNNING:
        tournament = set_status(actor=actor, tournament=tournament, status=S.FINISHED)
    return set_status(actor=actor, tournament=tournament, status=S.PUBLISHED)
