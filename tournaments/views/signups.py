"""Self-registration pages (issue 35): the public sign-up form, the registrant's private
status page (withdraw), and the organisers' list with approval and CSV export."""

from __future__ import annotations

import io
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from django.views.generic import View

from core.errors import ServiceError
from core.lockout import client_ip
from tournaments.models import SignUp, Tournament
from tournaments.privacy_selectors import registrant_data
from tournaments.selectors import team_names
from tournaments.services import privacy, signups
from tournaments.signup_selectors import (
    SIGN_UP_CSV_HEADER,
    sign_up_by_token,
    sign_up_csv_rows,
    sign_ups_of,
    waiting_position,
)
from tournaments.spreadsheet import SafeCsvWriter
from tournaments.views.console.base import OrganiserRequiredMixin, show_refusal
from tournaments.views.visibility import visible_tournament


class SignUpForm(forms.Form):
    first_name = forms.CharField(label=gettext_lazy("First name"), max_length=100)
    last_name = forms.CharField(label=gettext_lazy("Last name"), max_length=100)
    country = forms.CharField(
        label=gettext_lazy("Country (two letters, e.g. DE)"), max_length=2, min_length=2
    )
    email = forms.EmailField(label=gettext_lazy("E-mail"), max_length=254)
    ema_number = forms.CharField(
        label=gettext_lazy("EMA number (8 digits, if you have one)"),
        max_length=20,
        required=False,
    )
    club = forms.CharField(label=gettext_lazy("Club"), max_length=200, required=False)
    # The tournament's teams to pick from (a datalist: a new name creates the team).
    team = forms.CharField(
        label=gettext_lazy("Team"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"list": "team-names", "autocomplete": "off"}),
    )
    # The honeypot: hidden from people by CSS, filled in by bots.
    website = forms.CharField(label=gettext_lazy("Website"), max_length=200, required=False)
    consent = forms.BooleanField(
        label=gettext_lazy(
            "I agree that my name, country, EMA number, club and e-mail address are stored to "
            "run this tournament and send its results to the EMA."
        ),
        required=True,
    )

    def __init__(self, *args: Any, teams: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not teams:  # asked in team events only (docs/teams.md)
            del self.fields["team"]


def _open_reason(tournament: Tournament) -> str | None:
    """Why the form cannot be used now, or None."""
    from django.utils import timezone

    if tournament.status != Tournament.Status.REGISTRATION:
        return _("Registration for this tournament is not open.")
    closes = tournament.registration_closes
    if closes is not None and timezone.now() >= closes:
        return _("Registration is closed.")
    return None


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    form = SignUpForm(request.POST or None, teams=tournament.teams_enabled)
    closed = _open_reason(tournament)
    status = 200
    if request.method == "POST" and closed is None and form.is_valid():
        data = dict(form.cleaned_data)
        if data.pop("website", ""):
            # A bot: thanked, nothing saved.
            return render(request, "tournaments/sign_up_done.html", {"tournament": tournament})
        try:
            signups.count_sign_up_attempt(client_ip(request))
            record = signups.sign_up(tournament=tournament, **data)
        except signups.TooManySignUps as refused:
            messages.error(request, _("Too many sign-ups from this address; try again later."))
            response = render(
                request,
                "tournaments/register.html",
                {"tournament": tournament, "form": form, "closed": closed},
                status=429,
            )
            response["Retry-After"] = str(refused.retry_after)
            return response
        except ServiceError as error:
            status = show_refusal(request, error, form)
        else:
            done: dict[str, Any] = {
                "tournament": tournament,
                "sign_up": record,
                "position": waiting_position(record),
            }
            return render(request, "tournaments/sign_up_done.html", done, status=201)
    elif request.method == "POST":
        status = 400
    context: dict[str, Any] = {
        "tournament": tournament,
        "form": form,
        "closed": closed,
        "team_names": team_names(tournament),
    }
    return render(request, "tournaments/register.html", context, status=status)


@require_http_methods(["GET", "POST"])
def sign_up_status(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The registrant's private page (the link from the e-mail): status, withdraw."""
    tournament = visible_tournament(request, slug)
    record = sign_up_by_token(token)
    if record is None or record.tournament_id != tournament.pk:
        raise Http404
    if request.method == "POST":
        erasure = request.POST.get("action") == "erasure"
        try:
            if erasure:
                privacy.request_erasure(token=token, actor=request.user)
            else:
                signups.withdraw_sign_up(token=token, actor=request.user)
        except ServiceError as error:
            show_refusal(request, error, None)
        else:
            if erasure:
                messages.success(request, _("Your request for erasure has been sent."))
            else:
                messages.success(request, _("You have withdrawn."))
        return redirect("tournaments:sign_up_status", slug=slug, token=token)
    record.refresh_from_db()
    context = {
        "tournament": record.tournament,
        "sign_up": record,
        "position": waiting_position(record),
    }
    response = render(request, "tournaments/sign_up_status.html", context)
    response["Referrer-Policy"] = "no-referrer"  # the token stays out of other sites' logs
    return response


@require_http_methods(["GET"])
def sign_up_data(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """What is stored about the registrant, as JSON (issue 35.5; the private link's token)."""
    tournament = visible_tournament(request, slug)
    record = sign_up_by_token(token)
    if record is None or record.tournament_id != tournament.pk:
        raise Http404
    response = JsonResponse(registrant_data(record), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-my-data.json"'
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response


def _decide_form_id(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("sign_up", ""))
    except ValueError:
        return None


class SignUpsPage(OrganiserRequiredMixin, View):
    """The organisers' list: every sign-up with its state and e-mail; approve or refuse the
    pending ones, move the waiting list up, export as CSV."""

    http_method_names = ["get", "post"]

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        if request.GET.get("format") == "csv":
            out = io.StringIO()
            writer = SafeCsvWriter(out)
            writer.writerow(SIGN_UP_CSV_HEADER)
            writer.writerows(sign_up_csv_rows(self.tournament))
            response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = (
                f'attachment; filename="{self.tournament.slug}-sign-ups.csv"'
            )
            return response
        rows = []
        position = 0
        for s in sign_ups_of(self.tournament):
            place = None
            if s.status == SignUp.Status.WAITING:
                position += 1
                place = position
            rows.append({"s": s, "position": place})
        context: dict[str, Any] = {
            "tournament": self.tournament,
            "rows": rows,
            "taken": signups.players_counted(self.tournament),
            "retention_days": privacy.retention_days(),
        }
        return render(request, "tournaments/console/sign_ups.html", context)

    def post(self, request: HttpRequest, slug: str) -> HttpResponse:
        action = request.POST.get("action", "")
        try:
            if action == "fill":
                moved = signups.fill_places_now(actor=request.user, tournament=self.tournament)
                messages.success(request, _("%(n)d moved up.") % {"n": len(moved)})
            elif action == "erase":
                record = get_object_or_404(
                    SignUp, pk=_decide_form_id(request), tournament=self.tournament
                )
                pseudonym = privacy.erase(
                    actor=request.user,
                    tournament=self.tournament,
                    sign_up=record,
                    reason=_("erasure requested by the player"),
                )
                messages.success(request, _("Erased: now %(name)s.") % {"name": pseudonym})
            elif action in ("approve", "refuse"):
                pk = _decide_form_id(request)
                record = get_object_or_404(SignUp, pk=pk, tournament=self.tournament)
                signups.decide_sign_up(
                    actor=request.user, sign_up=record, approve=action == "approve"
                )
            else:
                messages.error(request, _("Unknown action."))
        except ServiceError as error:
            show_refusal(request, error, None)
        return redirect("tournaments:sign_ups", slug=self.tournament.slug)


sign_ups_page = SignUpsPage.as_view()
