"""The player's phone (issue 35.4; docs/my-seat.md): their own "where do I sit" page from a
private link, renewed by polling with an ETag (a 304 while nothing changed)."""

from __future__ import annotations

import hashlib

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from core.models import Player
from tournaments.models import Registration
from tournaments.my_seat import COOKIE, my_seat, player_from_token
from tournaments.views.visibility import visible_tournament

POLL_SECONDS = 20
REMEMBER_SECONDS = 14 * 24 * 3600


@require_GET
def my_seat_page(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The page, or (htmx poll) its panel; the tokens's player must be registered here."""
    tournament = visible_tournament(request, slug)
    player_id = player_from_token(tournament, token)
    if player_id is None:
        raise Http404("This link is not valid.")
    if not Registration.objects.filter(tournament=tournament, player_id=player_id).exists():
        raise Http404("This link is not valid.")
    player = Player.objects.get(pk=player_id)
    context = {
        "tournament": tournament,
        "me": my_seat(tournament, player),
        "token": token,
        "poll_seconds": POLL_SECONDS,
    }
    panel = render_to_string("tournaments/_my_seat.html", context, request=request)
    etag = '"' + hashlib.sha256(panel.encode()).hexdigest()[:32] + '"'
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    elif request.headers.get("HX-Request"):
        response = HttpResponse(panel)
    else:
        response = HttpResponse(
            render_to_string(
                "tournaments/my_seat.html", {**context, "panel": panel}, request=request
            )
        )
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Referrer-Policy"] = "no-referrer"  # the token stays out of other sites' logs
    response["Vary"] = "HX-Request"
    # "Where do I sit?" remembers the player on this phone (no login).
    response.set_cookie(
        f"{COOKIE}-{tournament.pk}",
        token,
        max_age=REMEMBER_SECONDS,
        path=f"/t/{tournament.slug}/",
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )
    return response
