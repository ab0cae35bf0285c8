"""Penalties: the list, a penalty for a player, a score-sheet penalty for a whole table
(EMA 2025 7.5), cancelling one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import services
from tournaments.forms import PenaltyForm, ReasonForm, TablePenaltyForm
from tournaments.selectors import penalty_rows, tournament_penalty

from .base import ConsoleActionView, ConsoleFormView, numbered_session


class Penalties(ConsoleFormView):
    """The penalties page and a penalty for one player (lateness by minutes and seconds)."""

    page = "tournaments:penalties"
    template_name = "tournaments/console/penalties.html"
    form_class = PenaltyForm
    form_takes_tournament = True

    def page_context(self) -> dict[str, Any]:
        return {"rows": penalty_rows(self.tournament)}

    def page_forms(self) -> dict[str, forms.Form]:
        return {
            "form": PenaltyForm(tournament=self.tournament),
            "table_form": TablePenaltyForm(prefix="table"),
        }

    def save(self, data: dict[str, Any]) -> None:
        tournament = self.tournament
        services.add_penalty(
            actor=self.request.user,
            tournament=tournament,
            player=data["player"],
            kind=data["kind"],
            points=data.get("points"),
            minutes_late=data.get("minutes_late"),
            seconds_late=data.get("seconds_late"),
            session=numbered_session(tournament, data["session"]) if data.get("session") else None,
            reason=data["reason"],
        )
        messages.success(self.request, _("Penalty recorded."))


class TablePenalty(Penalties):
    """EMA 2025 7.5: a score-sheet penalty for every player of a table at once (POST only)."""

    http_method_names = ["post"]
    form_class = TablePenaltyForm  # type: ignore[assignment]
    form_name = "table_form"
    prefix = "table"
    form_takes_tournament = False

    def save(self, data: dict[str, Any]) -> None:
        given = services.add_table_penalty(
            actor=self.request.user,
            tournament=self.tournament,
            session=numbered_session(self.tournament, data["session"]),
            table_number=data["table"],
            reason=data["reason"],
        )
        said = ngettext(
            "Score-sheet penalty recorded for %(n)d player.",
            "Score-sheet penalty recorded for each of the %(n)d players.",
            len(given),
        )
        messages.success(self.request, said % {"n": len(given)})


class PenaltyCancel(ConsoleActionView):
    page = "tournaments:penalties"
    form_class = ReasonForm
    invalid = gettext_lazy("Give a reason to cancel a penalty.")

    def load(self) -> None:
        penalty = tournament_penalty(self.tournament, self.kwargs["penalty_id"])
        if penalty is None:
            raise Http404
        self.penalty = penalty

    def save(self, data: dict[str, Any]) -> None:
        services.cancel_penalty(
            actor=self.request.user, penalty=self.penalty, reason=data["reason"]
        )
        messages.success(self.request, _("Penalty cancelled."))


penalties = Penalties.as_view()
penalty_table = TablePenalty.as_view()
penalty_cancel = PenaltyCancel.as_view()
