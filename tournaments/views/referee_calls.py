"""Referee calls on the web (issue 35.2): the "Call a referee" button of a table's pages, and
the open calls (table number, since when) that the referees' table list and the console poll
every few seconds, with Acknowledge and Close."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError
from core.roles import is_site_admin
from tournaments import roles
from tournaments.models import RefereeCall, StaffRole, Table, Tournament
from tournaments.selectors import can_see_tournament
from tournaments.services import referee_calls
from tournaments.views.console.base import show_refusal

OPEN = referee_calls.OPEN_STATES


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    # The page the form was on: `next`, else the referrer (the calls list is a fragment).
    target = request.POST.get("next", "") or request.META.get("HTTP_REFERER", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(fallback)


@require_POST
def call_referee(request: HttpRequest, table_id: int) -> HttpResponse:
    """The button on the table's own page and the referee's entry page (no login needed)."""
    table = get_object_or_404(Table.objects.select_related("session__tournament"), pk=table_id)
    if not can_see_tournament(request.user, table.session.tournament):
        raise Http404
    try:
        _call, created = referee_calls.call_referee(actor=request.user, table=table)
    except ServiceError as error:
        show_refusal(request, error, None)
    else:
        if created:
            messages.success(
                request, _("A referee has been called to table %(n)d.") % {"n": table.number}
            )
        else:
            messages.info(request, _("A referee is already called to this table."))
    return _back(request, reverse("tournaments:detail", args=[table.session.tournament.slug]))


def _calls_for(request: HttpRequest, slug: str | None) -> QuerySet[RefereeCall]:
    calls = RefereeCall.objects.filter(status__in=OPEN).select_related(
        "table__session", "tournament"
    )
    if slug is not None:
        return calls.filter(tournament__slug=slug)
    if is_site_admin(request.user):
        return calls
    return calls.filter(
        tournament__staff__user_id=request.user.pk or 0,
        tournament__staff__role__in=[StaffRole.Role.REFEREE, StaffRole.Role.ORGANISER],
    ).distinct()


@login_required
@require_GET
def open_calls(request: HttpRequest) -> HttpResponse:
    """The open calls of every tournament the user referees: a fragment polled by the
    referees' table list (and by the console with ?t=<slug>)."""
    slug = request.GET.get("t") or None
    if slug is not None:
        tournament = get_object_or_404(Tournament, slug=slug)
        if not can_see_tournament(request.user, tournament):
            raise Http404
        if not roles.is_referee(request.user, tournament):
            raise PermissionDenied
    calls = list(_calls_for(request, slug))
    return render(request, "tournaments/_referee_calls.html", {"calls": calls, "slug": slug or ""})


@login_required
@require_POST
def call_action(request: HttpRequest, call_id: int, action: str) -> HttpResponse:
    call = get_object_or_404(RefereeCall.objects.select_related("tournament"), pk=call_id)
    if not can_see_tournament(request.user, call.tournament):
        raise Http404  # a draft's call is not found, as the draft is not (issue 16)
    try:
        if action == "acknowledge":
            referee_calls.acknowledge_call(actor=request.user, call=call)
        elif action == "close":
            referee_calls.close_call(actor=request.user, call=call)
        else:
            raise Http404
    except ServiceError as error:
        show_refusal(request, error, None)
    return _back(request, reverse("scoring:referee"))
