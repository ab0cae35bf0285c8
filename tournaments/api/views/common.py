"""What the tournament API's view sets share: the tournament as the object of every view set
under /tournaments/{slug}/ (`TournamentResource`), the list's filters, permissions by
action, downloads chosen by `?format=`, and the private drop reasons (issue 16).
"""

from __future__ import annotations

from collections.abc import Iterable

import django_filters
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import BasePermission
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

from core.api.base import ServiceViewSet, errors
from core.errors import ValidationFailed
from tournaments import roles
from tournaments.api.permissions import IsTournamentOrganiser
from tournaments.api.serializers import TournamentSerializer
from tournaments.models import Tournament
from tournaments.selectors import can_see_tournament, visible_tournaments

WRITE_ERRORS = errors(400, 403, 404, 422)
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class FileFormatInQuery(DefaultContentNegotiation):
    """For the download actions `?format=csv|xlsx` picks the file, not a DRF renderer: the
    action answers the file itself, and errors are rendered as JSON."""

    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))  # JSON: the project's first renderer
        return first, str(first.media_type)


def _query_flag(request: Request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in ("1", "true", "yes")


def _file_format(request: Request, allowed: tuple[str, ...], default: str) -> str:
    chosen = request.query_params.get("format", default).lower()
    if chosen not in allowed:
        raise ValidationFailed(f"format must be one of: {', '.join(allowed)}.", field="format")
    return chosen


def _download(content: str | bytes, *, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# What a standings read needs of the tournament: its id and standings version (the ETag and
# the cache key); `slug` and `status` for the permission classes and anything that logs it.
STANDINGS_FIELDS = ("pk", "slug", "status", "standings_version", "standings_hidden_from")

# Statuses in which the ranking preview is public (before that: staff only).
RANKING_PREVIEW_PUBLIC = (
    Tournament.Status.RUNNING,
    Tournament.Status.FINISHED,
    Tournament.Status.PUBLISHED,
)


class _PermissionsByAction:
    """`action_permissions` maps an action to its permission classes (default: the class's)."""

    action_permissions: dict[str, list[type[BasePermission]]] = {}

    def get_permissions(self) -> list[BasePermission]:
        classes = self.action_permissions.get(getattr(self, "action", "") or "")
        if classes is None:
            return super().get_permissions()  # type: ignore[misc]
        return [permission() for permission in classes]


class TournamentFilter(django_filters.FilterSet):
    # Bounded: an out-of-range year or id is a 400, not a crash in the database layer.
    year = django_filters.NumberFilter(
        field_name="starts_on", lookup_expr="year", min_value=1, max_value=9999
    )

    class Meta:
        model = Tournament
        fields = ["status", "country", "year"]


# Issue 16: why a player was dropped or disqualified is for the tournament's organisers only;
# the audit log that its referees read leaves it out (the entries themselves stay).
PRIVATE_AUDIT_FIELDS = ("drop_reason", "disqualification_reason")
PRIVATE_REASON_ACTIONS = ("registration.drop", "registration.disqualify")


def redact_private_reasons(entry: dict) -> dict:
    for side in ("before", "after"):
        if isinstance(entry.get(side), dict):
            entry[side] = {
                key: (None if key in PRIVATE_AUDIT_FIELDS else value)
                for key, value in entry[side].items()
            }
    if entry.get("action") in PRIVATE_REASON_ACTIONS:
        entry["reason"] = ""
    return entry


def drop_reason_context(request: Request, tournament: Tournament) -> dict[str, bool]:
    """Issue 16: drop reasons are private to the tournament's organisers."""
    return {"show_drop_reason": roles.is_organiser(request.user, tournament)}


# What the view sets under /tournaments/{slug}/ share: the tournament the URL's slug names is
# their object (`get_object`: visible to the user, then the action's object permissions, by
# default the organisers'; the list's filters are the list's only, core.api.filters). Each
# resource of a tournament (staff, registrations, sessions, seating plans, penalties, exports)
# is a view set of its own on this base, under the same prefix and URL names
# (tournaments.api.urls). A comment, not a docstring: the schema takes an operation's
# description from the view set's first docstring, and it stays as it was.
class TournamentResource(_PermissionsByAction, ServiceViewSet):
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    filterset_class = TournamentFilter
    permission_classes = [IsTournamentOrganiser]

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user).order_by("-starts_on", "name")

    def _visible_tournament(self, *fields: str) -> Tournament:
        """`get_object()` loading only `fields` of the tournament (the others on access).

        The tournament is read by its slug alone and the selectors' rule for one loaded
        tournament decides whether it is visible: the same rule as `visible_tournaments`, with
        a simpler query to build. The list's filters play no part on an object route
        (core.api.filters), whatever the query string says."""
        tournament = get_object_or_404(Tournament.objects.only(*fields), slug=self.kwargs["slug"])
        if not can_see_tournament(self.request.user, tournament):
            raise Http404
        self.check_object_permissions(self.request, tournament)
        return tournament
