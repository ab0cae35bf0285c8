"""The cuts page (issue 32.2): the tournament's cuts, a form to cut the field, and on the last
cut a button to undo it (confirmed by a tick) and one to promote the next player in place of a
finalist who dropped."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import services
from tournaments.models import Cut, Registration
from tournaments.selectors import cut_in_force

from .base import ConsoleActionView, ConsoleFormView


class CutForm(forms.Form):
    after_session = forms.IntegerField(
        min_value=1, max_value=32767, label=gettext_lazy("After session")
    )
    top = forms.IntegerField(min_value=1, max_value=100_000, label=gettext_lazy("Top"))
    carry_over = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Carry the points over")
    )
    seating = forms.ChoiceField(choices=Cut.Seating.choices, label=gettext_lazy("Seating"))
    winds = forms.ChoiceField(choices=Cut.Winds.choices, label=gettext_lazy("Winds"))
    seed = forms.IntegerField(
        initial=0, min_value=-(2**31), max_value=2**31 - 1, label=gettext_lazy("Seed")
    )


class Cuts(ConsoleFormView):
    page = "tournaments:cuts"
    template_name = "tournaments/console/cuts.html"
    form_class = CutForm

    def page_context(self) -> dict[str, Any]:
        last = cut_in_force(self.tournament)
        return {
            "cuts": list(self.tournament.cuts.order_by("after_session")),
            "last_cut": last,
            "dropped_finalists": dropped_finalists(last) if last is not None else [],
        }

    def page_forms(self) -> dict[str, forms.Form]:
        return {"form": CutForm()}

    def save(self, data: dict[str, Any]) -> None:
        cut = services.cut_field(actor=self.request.user, tournament=self.tournament, **data)
        messages.success(
            self.request,
            _("Cut to the top %(top)d after session %(session)d; session %(next)d is seated.")
            % {"top": cut.top, "session": cut.after_session, "next": cut.after_session + 1},
        )


cuts = Cuts.as_view()


def dropped_finalists(cut: Cut) -> list[tuple[int, str]]:
    """The players qualified at the cut who have dropped since: (player id, name)."""
    dropped = set(
        Registration.objects.filter(
            tournament_id=cut.tournament_id,
            player_id__in=cut.qualified_ids,
            dropped_at__isnull=False,
        ).values_list("player_id", flat=True)
    )
    return [(int(e["player"]), str(e["name"])) for e in cut.order if e["player"] in dropped]


class UndoCutForm(forms.Form):
    confirm = forms.BooleanField(
        required=True, label=gettext_lazy("Yes, undo this cut: everyone is in the field again")
    )


class CutAction(ConsoleActionView):
    page = "tournaments:cuts"
    cut: Cut

    def load(self) -> None:
        self.cut = get_object_or_404(self.tournament.cuts, pk=self.kwargs["cut_id"])


class UndoCut(CutAction):
    form_class = UndoCutForm
    invalid = gettext_lazy("Tick the box to confirm that the cut is undone.")

    def save(self, data: dict[str, Any]) -> None:
        services.undo_cut(actor=self.request.user, tournament=self.tournament, cut=self.cut)
        messages.success(
            self.request,
            _("The cut after session %(session)d is undone.") % {"session": self.cut.after_session},
        )


class PromoteForm(forms.Form):
    replaces = forms.IntegerField(min_value=1)


class PromoteAtCut(CutAction):
    form_class = PromoteForm
    invalid = gettext_lazy("Choose the finalist who dropped.")

    def save(self, data: dict[str, Any]) -> None:
        cut = services.promote_at_cut(
            actor=self.request.user, tournament=self.tournament, cut=self.cut, **data
        )
        promoted = next(e for e in cut.order if e.get("promoted_for") == data["replaces"])
        messages.success(
            self.request,
            _("%(name)s qualifies in place of the player who dropped.")
            % {"name": promoted["name"]},
        )


undo_cut = UndoCut.as_view()
promote_at_cut = PromoteAtCut.as_view()
