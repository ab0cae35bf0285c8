"""Forms of the club pages: a new club night, and who turned up to seat a round."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Club, League
from core.models import Player


class ClubNightForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    league = forms.ModelChoiceField(
        queryset=League.objects.none(), required=False, label=_("League")
    )
    notes = forms.CharField(required=False, label=_("Notes"))

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = club.leagues.all()  # type: ignore[attr-defined]


class NightSeatingForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=_("Who is here"),
        help_text=_("Tables of 4 and 3; those who met tonight are kept apart."),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Player.objects.filter(  # type: ignore[attr-defined]
            memberships__club=club
        ).order_by("last_name", "first_name")
