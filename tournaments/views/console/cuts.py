"""The cuts page (issue 32.2): the tournament's cuts and a form to cut the field."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import services
from tournaments.models import Cut

from .base import ConsoleFormView


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
        return {"cuts": list(self.tournament.cuts.order_by("after_session"))}

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
