"""What the console's views share: who may open them, and how a write's form is handled.

A page's form posts to a `ConsoleFormView` (Django's FormView): a valid form goes to the
view's `save`, which calls a service; an invalid form, or a service's refusal, shows the page
again with the errors next to the fields they name. A write without a page of its own is a
`ConsoleActionView`: its errors are flash messages, and the organiser is back on the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, View

from core.errors import PermissionDenied as ServicePermissionDenied
from core.errors import ServiceError, ServiceUnavailable, ValidationFailed
from tournaments import roles
from tournaments.models import Session, Tournament
from tournaments.selectors import organiser_session, session_by_number
from tournaments.views.visibility import visible_tournament


def organiser_tournament(request: HttpRequest, slug: str) -> Tournament:
    # Issue 16: a draft is not found (404, as for no such slug) by whoever may not see it; a
    # visible tournament's console is refused (403) to everyone but its organisers.
    tournament = visible_tournament(request, slug)
    if not roles.is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organisers may do this."))
    return tournament


def console_session(tournament: Tournament, number: int) -> Session:
    """The session a console URL names (404 if the tournament has none of that number)."""
    session = organiser_session(tournament, number)
    if session is None:
        raise Http404
    return session


def numbered_session(tournament: Tournament, number: int) -> Session:
    """The tournament's session `number` (a form's `session` field), or that field's error in
    the console's own, translated words (the selector's default is the API's)."""
    return session_by_number(tournament, number, missing=_("No such session."))


def row_error(row: Mapping[str, Any]) -> str:
    """One of several problems (a CSV row, a hand, a field) as text."""
    where = row.get("row") or row.get("hand") or row.get("field") or ""
    return f"{where}: {row.get('message')}" if where != "" else str(row.get("message"))


def show_refusal(request: HttpRequest, error: ServiceError, form: forms.Form | None) -> int:
    """A service refused the write: its error next to the field it names on `form` (in the
    messages when no page shows the form). Returns the page's status: 400, or 503 when the
    service is unavailable (not the input's fault: a message, never a field's error)."""
    if isinstance(error, ServicePermissionDenied):
        raise PermissionDenied(error.message) from error
    if isinstance(error, ServiceUnavailable):
        messages.error(request, error.message)
        return 503
    rows = error.errors if isinstance(error, ValidationFailed) else []
    field = (error.field or "").removeprefix("options.")
    if rows and all("table" in row for row in rows):
        rows = []  # the message already names the tables ("Games at table(s) 1, 3 ...")
    texts = [(field, error.message)] + [(None, row_error(row)) for row in rows]
    for name, text in texts:
        if form is None:
            messages.error(request, text)
        else:
            form.add_error(name if name in form.fields else None, text)
    return 400


class OrganiserRequiredMixin(LoginRequiredMixin):
    """Logged in (else the login page), then an organiser of the URL's tournament
    (`self.tournament`), then `load` reads the page's objects the URL names (404 if they are
    not the tournament's). A method the view does not answer is a 405 before anything is read."""

    tournament: Tournament

    def load(self) -> None:
        pass

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if (request.method or "").lower() in self.http_method_names:  # type: ignore[attr-defined]
            self.tournament = organiser_tournament(request, kwargs["slug"])
            self.load()
        return super().dispatch(request, *args, **kwargs)


class ConsoleFormView(OrganiserRequiredMixin, FormView):
    """A console page (GET) and one of its forms (POST; `form_name` in the template).

    Subclasses say what the page shows (`page_context`, read through selectors), its other
    forms, empty (`page_forms`), and `save`: the service call with the form's values, which
    answers where to go next (None: back to the page `page`). The page answers 400 with the
    form's errors, or `unavailable_status` when the service is unavailable."""

    page: str  # the page's URL name
    form_name = "form"
    form_takes_tournament = False  # the form's choices are the tournament's
    unavailable_status = 503  # the service is unavailable (its flash message says so)
    empty_post_is_get = False  # a POST with no fields shows the page, as a GET does

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if self.empty_post_is_get and not request.POST:
            return self.get(request, *args, **kwargs)
        return super().post(request, *args, **kwargs)

    def page_context(self) -> dict[str, Any]:
        return {}

    def page_forms(self) -> dict[str, forms.Form]:
        return {}

    def save(self, data: dict[str, Any]) -> HttpResponse | None:
        raise NotImplementedError

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs = super().get_form_kwargs()
        if self.empty_post_is_get and not self.request.POST:
            kwargs.pop("data", None)
            kwargs.pop("files", None)
        if self.form_takes_tournament:
            kwargs["tournament"] = self.tournament
        return kwargs

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        form = kwargs.get("form") or self.get_form()
        page = {"tournament": self.tournament, **self.page_context(), **self.page_forms()}
        return {**page, self.form_name: form}

    def form_valid(self, form: forms.Form) -> HttpResponse:
        try:
            answer = self.save(form.cleaned_data)
        except ServiceError as error:
            status = show_refusal(self.request, error, form)
            status = self.unavailable_status if status == 503 else status
            return self.render_to_response(self.get_context_data(form=form), status=status)
        return answer or redirect(self.page, slug=self.tournament.slug)

    def form_invalid(self, form: forms.Form) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class ConsoleActionView(OrganiserRequiredMixin, View):
    """A write without a page of its own (POST only), then back to the page `page`.

    `form_class` reads the POST (None: it carries nothing); when it is not valid, `invalid`
    is said. `save` calls the service; its refusal is a flash message."""

    http_method_names = ["post"]
    page: str
    form_class: type[forms.Form] | None = None
    invalid: Any = None  # a gettext_lazy text: translated when said, in the request's language

    def save(self, data: dict[str, Any]) -> None:
        raise NotImplementedError

    def back(self) -> HttpResponse:
        return redirect(self.page, slug=self.tournament.slug)

    def write(self, request: HttpRequest) -> HttpResponse:
        form = self.form_class(request.POST) if self.form_class is not None else None
        if form is not None and not form.is_valid():
            messages.error(request, str(self.invalid))
        else:
            try:
                self.save(form.cleaned_data if form is not None else {})
            except ServiceError as error:
                show_refusal(request, error, None)
        return self.back()

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.write(request)
