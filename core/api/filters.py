"""The API's query-string filter backend.

django-filter builds a FilterSet, its form and a deep copy of every filter on each request,
also when the query string is empty and nothing can be filtered: on a standings read (a phone
revalidating its ETag, the most frequent request of a tournament) that was a fifth of the
request's CPU (issue 14.7, bench/load.py). With no query parameter at all the filterset would
leave the queryset as it is, so it is not built; with any parameter it runs as before (a bad
`?year=` is still a 400).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend


class QueryFilterBackend(DjangoFilterBackend):
    def filter_queryset(self, request: Any, queryset: QuerySet[Any], view: Any) -> QuerySet[Any]:
        if not request.query_params:
            return queryset  # an empty filterset filters nothing: skip building it
        return super().filter_queryset(request, queryset, view)
