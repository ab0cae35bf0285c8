"""Registrations: the list (search), adding a player, a CSV import, drop and disqualify; one
registration's page to correct it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import services
from tournaments.forms import CsvImportForm, DisqualifyForm, DropForm, ReasonForm, RegistrationForm
from tournaments.models import Registration, Tournament
from tournaments.selectors import (
    registration_numbers,
    registration_rows,
    team_names,
    tournament_registration,
)
from tournaments.services.privacy import erase
from tournaments.services.registration import seats_to_replace

from .base import ConsoleActionView, ConsoleFormView


def import_summary(result: Any) -> list[tuple[str, str]]:
    """Flash messages (level, text) for a CSV import: imported, skipped, held back."""
    imported = len(result.registrations)
    out = [
        (
            "success",
            ngettext("%(n)s player imported.", "%(n)s players imported.", imported)
            % {"n": imported},
        )
    ]
    skipped = result.already_registered
    if skipped:
        out.append(
            (
                "info",
                ngettext(
                    "%(n)s row was already registered and skipped: %(rows)s.",
                    "%(n)s rows were already registered and skipped: %(rows)s.",
                    len(skipped),
                )
                % {
                    "n": len(skipped),
                    "rows": ", ".join(
                        _("row %(row)s (%(name)s)") % {"row": r["row"], "name": r["registered_as"]}
                        for r in skipped
                    ),
                },
            )
        )
    for row in result.possible_duplicates:
        if row.get("registered_as"):
            text = _(
                "Row %(row)s, %(name)s, was not imported: it may be %(other)s, registered "
                "without an EMA number. Edit that registration, or add the player by hand if "
                "it is someone else."
            ) % {"row": row["row"], "name": row["name"], "other": row["registered_as"]}
        else:
            text = _(
                "Row %(row)s, %(name)s, was not imported: several known players have this "
                "name. Add the player by hand with the EMA number."
            ) % {"row": row["row"], "name": row["name"]}
        out.append(("warning", text))
    return out


def player_details(data: dict[str, Any]) -> dict[str, Any]:
    """A RegistrationForm's values as register_player and update_registration take them."""
    return {
        "first_name": data["first_name"],
        "last_name": data["last_name"],
        "ema_number": data["ema_number"] or None,
        "country": data["country"],
        "club_name": data["club_name"],
        "role": data["role"],
        # Issue 32.1: the team field is on the form only in a team event.
        **({"team": data["team"] or ""} if "team" in data else {}),
    }


def without_team_unless_enabled(form: forms.Form, tournament: Tournament) -> forms.Form:
    """A registration form asks for the team only in a team event (issue 32.1)."""
    if not tournament.teams_enabled:
        form.fields.pop("team", None)
    return form


# The page's forms by the `action` each posts: its name in the template, class, prefix.
ACTIONS: dict[str, tuple[str, type[forms.Form], str]] = {
    "add": ("add_form", RegistrationForm, "add"),
    "import": ("import_form", CsvImportForm, "csv"),
    "drop": ("drop_form", DropForm, "drop"),
    "disqualify": ("disqualify_form", DisqualifyForm, "dq"),
}
FOR_TOURNAMENT = (DropForm, DisqualifyForm)  # their choices are the tournament's players


def one_registration(tournament: Tournament, registration_id: int) -> Registration:
    found = tournament_registration(tournament, registration_id)
    if found is None:
        raise Http404
    return found


class Registrations(ConsoleFormView):
    """The registrations page; each of its forms posts its `action`: add, import, drop,
    disqualify (anything else: the page again, 400)."""

    page = "tournaments:registrations"
    template_name = "tournaments/console/registrations.html"

    def build(self, action: str, *bound: Any) -> forms.Form:
        _name, form_class, prefix = ACTIONS[action]
        options: dict[str, Any] = {"prefix": prefix}
        if form_class in FOR_TOURNAMENT:
            options["tournament"] = self.tournament
        return without_team_unless_enabled(form_class(*bound, **options), self.tournament)

    @property
    def posted(self) -> str | None:
        action = self.request.POST.get("action", "")
        return action if self.request.method == "POST" and action in ACTIONS else None

    @property
    def form_name(self) -> str:  # type: ignore[override]
        return ACTIONS[self.posted or "add"][0]

    def get_form(self, form_class: Any = None) -> forms.Form:
        if self.posted is not None:
            return self.build(self.posted, self.request.POST, self.request.FILES)
        return self.build("add")

    def page_forms(self) -> dict[str, forms.Form]:
        return {name: self.build(action) for action, (name, _c, _p) in ACTIONS.items()}

    def page_context(self) -> dict[str, Any]:
        query = (self.request.GET.get("q") or "").strip()
        return {
            "rows": registration_rows(self.tournament, query),
            "query": query,
            "team_names": team_names(self.tournament),
        }

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if self.posted is None:
            return self.render_to_response(
                self.get_context_data(form=self.build("add")), status=400
            )
        return super().post(request, *args, **kwargs)

    def save(self, data: dict[str, Any]) -> None:
        actor, tournament = self.request.user, self.tournament
        if self.posted == "add":
            services.register_player(actor=actor, tournament=tournament, **player_details(data))
            messages.success(self.request, _("Player registered."))
        elif self.posted == "import":
            result = services.import_registrations_csv(
                actor=actor, tournament=tournament, text=data["csv"]
            )
            for level, text in import_summary(result):
                getattr(messages, level)(self.request, text)
        elif self.posted == "drop":
            registration = data["registration"]
            dropped = services.drop_player(
                actor=actor, registration=registration, reason=data["reason"]
            )
            messages.success(self.request, _("%(name)s dropped.") % {"name": registration.player})
            # Issue 31: the seats of sessions already seated are flagged; say where.
            for seat in seats_to_replace(dropped):
                if not seat["started"]:
                    messages.warning(
                        self.request,
                        _(
                            "%(name)s is still seated in session %(s)s at table %(t)s: seat "
                            "a reserve there or re-seat the session before it starts."
                        )
                        % {"name": registration.player, "s": seat["session"], "t": seat["table"]},
                    )
        else:
            self.disqualify(data["registration"], data["reason"])

    def disqualify(self, registration: Registration, reason: str) -> None:
        result = services.disqualify_player(
            actor=self.request.user, registration=registration, reason=reason
        )
        name = registration.player
        said = _("%(name)s disqualified (EMA 2025 6.12).") % {"name": name}
        messages.success(self.request, said)
        for seat in seats_to_replace(result):
            messages.warning(
                self.request,
                _(
                    "%(name)s is still seated in session %(s)s at table %(t)s: a "
                    "substitute takes the seat (EMA 2025 7.3)."
                )
                % {"name": name, "s": seat["session"], "t": seat["table"]},
            )


class RegistrationEdit(ConsoleFormView):
    """Correct a registration (name, EMA number, country, club, substitute)."""

    page = "tournaments:registrations"
    template_name = "tournaments/console/registration_edit.html"
    form_class = RegistrationForm
    registration: Registration

    unavailable_status = 200  # the page as it was, with the flash message
    empty_post_is_get = True

    def load(self) -> None:
        self.registration = one_registration(self.tournament, self.kwargs["registration_id"])

    def get_form(self, form_class: Any = None) -> forms.Form:
        return without_team_unless_enabled(super().get_form(form_class), self.tournament)

    def get_initial(self) -> dict[str, Any]:
        registration = self.registration
        player = registration.player
        return {
            "first_name": player.first_name,
            "last_name": player.last_name,
            "ema_number": player.ema_number or "",
            "country": player.country,
            "club_name": registration.club_name,
            "role": registration.role,
            "team": registration.team.name if registration.team else "",
        }

    def page_context(self) -> dict[str, Any]:
        return {
            "registration": self.registration,
            "number": registration_numbers(self.tournament).get(self.registration.pk),
            "team_names": team_names(self.tournament),
        }

    def save(self, data: dict[str, Any]) -> None:
        services.update_registration(
            actor=self.request.user, registration=self.registration, **player_details(data)
        )
        messages.success(self.request, _("Registration saved."))


class RegistrationDrop(ConsoleActionView):
    page = "tournaments:registrations"
    form_class = ReasonForm
    invalid = gettext_lazy("Give a reason to drop a player.")

    def load(self) -> None:
        self.registration = one_registration(self.tournament, self.kwargs["registration_id"])

    def save(self, data: dict[str, Any]) -> None:
        services.drop_player(
            actor=self.request.user, registration=self.registration, reason=data["reason"]
        )
        messages.success(self.request, _("Player dropped."))


class RegistrationErase(ConsoleActionView):
    """Erase a player's personal data on their request (issue 35.5, docs/privacy.md)."""

    page = "tournaments:registrations"

    def load(self) -> None:
        self.registration = one_registration(self.tournament, self.kwargs["registration_id"])

    def save(self, data: dict[str, Any]) -> None:
        pseudonym = erase(
            actor=self.request.user,
            tournament=self.tournament,
            player=self.registration.player,
            reason=_("erasure requested by the player"),
        )
        messages.success(self.request, _("Erased: now %(name)s.") % {"name": pseudonym})


registrations = Registrations.as_view()
registration_edit = RegistrationEdit.as_view()
registration_drop = RegistrationDrop.as_view()
registration_erase = RegistrationErase.as_view()
