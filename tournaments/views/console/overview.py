"""The console's first page (sessions, rules, standings settings), creating a tournament,
changing its status and publishing its results."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import ServiceError
from scoring.engine import PRESETS
from tournaments import services
from tournaments.clock import session_clock
from tournaments.forms import (
    StandingsSettingsForm,
    StatusForm,
    TimeZoneForm,
    TournamentCreateForm,
    rules_diff,
)
from tournaments.models import Tournament
from tournaments.selectors import active_registration_count, results_ready, tournament_sessions

from .base import ConsoleActionView, ConsoleFormView, show_refusal

CREATE_FIELDS: tuple[str, ...] = ("name", "slug", "ruleset", "rule_overrides", "starts_on")
CREATE_FIELDS += ("ends_on", "city", "country", "sessions_planned", "session_minutes")
CREATE_FIELDS += ("time_zone",)


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    """A new tournament from a preset; "preview" shows how the overrides change its rules."""
    form = TournamentCreateForm(request.POST or None)
    diff: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        diff = rules_diff(data["ruleset"], data["rule_overrides"])
        if "preview" not in request.POST:
            try:
                tournament = services.create_tournament(
                    actor=request.user, **{k: data[k] for k in CREATE_FIELDS}
                )
            except ServiceError as error:
                show_refusal(request, error, form)
            else:
                messages.success(request, _("Tournament created."))
                return redirect("tournaments:console", slug=tournament.slug)
    status = 400 if request.method == "POST" and form.errors else 200
    if not diff:  # show the chosen preset's rules for reference
        preset = form.data.get("ruleset") or "ema-2025"
        diff = rules_diff(preset if preset in PRESETS else "ema-2025", None)
    return render(
        request,
        "tournaments/console/create.html",
        {"form": form, "diff": [row for row in diff if row["changed"]], "all_rules": diff},
        status=status,
    )


class StandingsSettings(ConsoleFormView):
    """Tie-breaks and qualification-only (issue 15): the same service as the API's PATCH; the
    standings and so the EMA report are recomputed. POST only: the form is on the overview."""

    http_method_names = ["post"]
    page = "tournaments:console"
    template_name = "tournaments/console/overview.html"
    form_class = StandingsSettingsForm
    form_name = "settings_form"
    form_takes_tournament = True

    def page_context(self) -> dict[str, Any]:
        tournament = self.tournament
        sessions = tournament_sessions(tournament)
        return {
            "sessions": [{"session": s, "clock": session_clock(s)} for s in sessions],
            "diff": [
                row
                for row in rules_diff(tournament.ruleset, tournament.rule_overrides)
                if row["changed"]
            ],
            "registrations": active_registration_count(tournament),
            "statuses": Tournament.Status.choices,
            "results_ready": results_ready(tournament, sessions),
        }

    def page_forms(self) -> dict[str, forms.Form]:
        return {"zone_form": TimeZoneForm(tournament=self.tournament)}

    def save(self, data: dict[str, Any]) -> None:
        services.update_tournament(
            actor=self.request.user,
            tournament=self.tournament,
            tie_breaks=data["tie_breaks"],
            qualification_only=data["qualification_only"],
            teams_enabled=data["teams_enabled"],
            team_counted_members=data["team_counted_members"],
            standings_hidden_from=data.get("standings_hidden_from"),
        )
        messages.success(self.request, _("Standings settings saved; the standings are updated."))


class TimeZoneSettings(StandingsSettings):
    """The event's time zone (issue 33), changed after creation: the same service as the
    API's PATCH. POST only: the form is on the overview."""

    form_class = TimeZoneForm  # type: ignore[assignment]
    form_name = "zone_form"

    def page_forms(self) -> dict[str, forms.Form]:
        return {"settings_form": StandingsSettingsForm(tournament=self.tournament)}

    def save(self, data: dict[str, Any]) -> None:
        tournament = services.update_tournament(
            actor=self.request.user, tournament=self.tournament, time_zone=data["time_zone"]
        )
        messages.success(
            self.request,
            _("Time zone saved: the event's times are shown in %(zone)s.")
            % {"zone": tournament.time_zone},
        )


class Overview(StandingsSettings):
    """The console's first page. A POST here writes nothing: the page is shown as for a GET."""

    http_method_names = ["get", "post", "head"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        empty: forms.Form = StandingsSettingsForm(tournament=self.tournament)
        return self.render_to_response(self.get_context_data(form=empty))


class Publish(ConsoleActionView):
    page = "tournaments:console"

    def save(self, data: dict[str, Any]) -> None:
        services.publish_results(actor=self.request.user, tournament=self.tournament)
        messages.success(self.request, _("Results published."))


class SetStatus(ConsoleActionView):
    page = "tournaments:console"
    form_class = StatusForm
    invalid = gettext_lazy("Unknown status.")

    def save(self, data: dict[str, Any]) -> None:
        services.set_status(
            actor=self.request.user, tournament=self.tournament, status=data["status"]
        )
        messages.success(self.request, _("Status changed."))


console = Overview.as_view()
standings_settings = StandingsSettings.as_view()
time_zone_settings = TimeZoneSettings.as_view()
tournament_publish = Publish.as_view()
tournament_set_status = SetStatus.as_view()
