"""The API's query-string filter backend.

The filters are the list's: they choose which objects a list shows (`GET /games/?status=`,
`GET /tournaments/?year=`). DRF's `get_object` reads its object through `filter_queryset`
too, so an object route (`/games/{id}/`, `/tournaments/{slug}/standings/`, a PATCH of a
tournament) took them from its query string: a filter the object does not match was a 404, a
value the list refuses a 400, for an object that is there. They apply to the `list` action
only; an object route reads its object whatever its query string says (its own query
parameters, such as `?format=` or `?open=`, are its view's to read). A view without actions (not
a view set) keeps them everywhere.

django-filter builds a FilterSet, its form and a deep copy of every filter on each request,
also when the query string is empty and nothing can be filtered: on a standings read (a phone
revalidating its ETag, the most frequent request of a tournament) that was a fifth of the
request's CPU (issue 14.7, bench/load.py). With no query parameter at all the filterset would
leave the queryset as it is, so it is not built; with any parameter it runs as before (a bad
`?year=` is still a 400 on the list).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.contrib.django_filters import DjangoFilterExtension


def filters_apply(view: Any) -> bool:
    """Whether the list filters apply to `view`'s request: its `list` action (or a view that
    has no actions)."""
    return getattr(view, "action", "list") == "list"


class QueryFilterBackend(DjangoFilterBackend):
    def filter_queryset(self, request: Any, queryset: QuerySet[Any], view: Any) -> QuerySet[Any]:
        if not request.query_params or not filters_apply(view):
            return queryset  # nothing to filter, or an object route: the filters are the list's
        return super().filter_queryset(request, queryset, view)


class QueryFilterSchema(DjangoFilterExtension):
    """The OpenAPI schema marks the list's filters deprecated where they do not apply: an
    object route's own list (`/tournaments/{slug}/registrations/` listed the tournaments'
    `?country=`, which it never read). They stay listed, so a client generated from an
    earlier schema keeps compiling (tests/api/test_api_schema_contract.py: extend, never
    break)."""

    target_class = "core.api.filters.QueryFilterBackend"
    priority = 1  # before drf-spectacular's own extension, which matches subclasses too

    def get_schema_operation_parameters(self, auto_schema: Any, *args: Any, **kwargs: Any) -> Any:
        parameters = super().get_schema_operation_parameters(auto_schema, *args, **kwargs)
        if not filters_apply(auto_schema.view):
            for parameter in parameters:
                parameter["deprecated"] = True
        return parameters
