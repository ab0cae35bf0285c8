"""The list routes' query filters (`?status=`, `?tournament=`, `?year=`, ...) belong to the lists:
an object route (`/games/{id}/`, `/tournaments/{slug}/standings/`, ...) answers the same with
any of them in its query string, neither a 404 for an object the filter would leave out nor a
400 for a value the list would refuse (core.api.filters.QueryFilterBackend).

Every GET route of the API that names one object by its `pk` or `slug`, in a view set that
has list filters, is walked from the URL resolver: a new one is covered as it is added."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import django_filters
import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.api.conftest import World

pytestmark = pytest.mark.django_db


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern


def _filters(view_set: type[Any]) -> dict[str, django_filters.Filter]:
    filterset = getattr(view_set, "filterset_class", None)
    if isinstance(filterset, property):  # the game API builds its filters on first use
        filterset = filterset.fget(view_set())
    if filterset is not None:
        return dict(filterset.base_filters)
    # django-filter builds the filterset of `filterset_fields` itself.
    return {name: django_filters.CharFilter() for name in getattr(view_set, "filterset_fields", [])}


def object_routes() -> list[tuple[str, str, dict[str, django_filters.Filter]]]:
    """(route, action, filters) of every GET route with a `pk` or `slug` and list filters."""
    found = []
    for route, pattern in _walk(get_resolver().url_patterns):
        view_set = getattr(pattern.callback, "cls", None)
        action = (getattr(pattern.callback, "actions", None) or {}).get("get")
        kwargs = set(pattern.pattern.regex.groupindex)
        if view_set is None or action is None or not route.startswith("api/"):
            continue
        if kwargs not in ({"pk"}, {"slug"}) or not _filters(view_set):
            continue
        found.append((route, action, _filters(view_set)))
    return found


def _url(world: World, route: str) -> str:
    kinds = {
        "tournaments/": world.tournament.slug,
        "games/": world.game.pk,
        "tables/": world.table.pk,
        "players/": world.players[0].pk,
        "clubs/": world.club.slug,
    }
    for start, key in kinds.items():
        if start in route:
            path = route.replace("(?P<pk>[^/.]+)", str(key))
            return "/" + path.replace("(?P<slug>[^/.]+)", str(key)).replace("^", "").rstrip("$")
    raise AssertionError(f"{route}: say which object of the world this route names")


def _values(name: str, flt: django_filters.Filter) -> list[str]:
    """Values that leave the world's object out of the list, and values the list refuses."""
    values = ["999999", "zzz", "-1"]
    if isinstance(flt, django_filters.ChoiceFilter):
        values += [str(choice) for choice, _label in flt.extra.get("choices", [])]
    return values


def _body(response: Any) -> Any:
    if "json" in response.get("Content-Type", ""):
        return response.json()
    return response.content


def test_the_walk_finds_the_object_routes() -> None:
    actions = {(route.split("/")[2], action) for route, action, _ in object_routes()}
    assert ("^games", "retrieve") in actions and ("^tournaments", "standings") in actions
    assert ("^tables", "retrieve") in actions and ("^players", "retrieve") in actions
    assert ("^clubs", "nights") in actions


def test_object_routes_ignore_the_list_filters(world: World) -> None:
    client = world.client("admin")
    changed = []
    for route, action, filters in object_routes():
        url = _url(world, route)
        plain = client.get(url)
        # Found and understood (an export of a running tournament is a 409: still an answer).
        assert plain.status_code in (200, 409), (url, plain.status_code)
        for name, flt in filters.items():
            for value in _values(name, flt):
                answer = client.get(url, {name: value})
                if answer.status_code != plain.status_code or (
                    action != "backup" and _body(answer) != _body(plain)
                ):
                    changed.append((url, f"{name}={value}", answer.status_code))
    assert not changed, changed


def test_an_object_write_ignores_the_list_filters(world: World) -> None:
    """PATCH /tournaments/{slug}/ reads its object as the GET does: a list filter in the query
    string changes nothing."""
    client = world.client("organiser")
    answer = client.patch(
        f"/api/v1/tournaments/{world.tournament.slug}/?status=draft&year=1",
        {"qualification_only": True},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["qualification_only"] is True
