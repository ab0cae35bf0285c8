"""Who sees what of a tournament's public pages: drafts for their staff only, and while
results are hidden the staff see the public's view unless they ask for a preview."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from tournaments import roles
from tournaments.models import Tournament
from tournaments.selectors import can_see_tournament
from tournaments.standings.asof import hidden_from


def visible_tournament(request: HttpRequest, slug: str) -> Tournament:
    """Drafts are visible to their staff only (the rule of tournaments.selectors)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_see_tournament(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament


# `?preview=1`: the staff's preview of the hidden results on a public page (issue 32.3).
PREVIEW = "preview"


@dataclass(frozen=True)
class PublicView:
    """Whose view a public page shows while results are hidden (issue 32.3).

    The staff see a public page as the public does, so what they check there is what is
    public; the hidden results only in an explicit preview (`?preview=1`), which the page
    marks as the staff's (templates/tournaments/_staff_preview.html). `reader` is whom the
    page asks which games it may show: the reader, or for the staff not previewing the public
    (a player still sees their own table's game: that is their view, not a staff one).
    `console`: an organiser, whom the note also points to the full table in the console."""

    hidden_from: int | None
    reader: Any
    staff: bool = False
    preview: bool = False
    console: bool = False


def public_view(request: HttpRequest, tournament: Tournament) -> PublicView:
    """The view `request` gets of `tournament`'s public pages (PublicView)."""
    hidden = hidden_from(tournament)
    if hidden is None or not roles.is_referee(request.user, tournament):
        return PublicView(hidden, request.user)
    preview = request.GET.get(PREVIEW) == "1"
    return PublicView(
        hidden,
        request.user if preview else AnonymousUser(),
        staff=True,
        preview=preview,
        console=roles.is_organiser(request.user, tournament),
    )
