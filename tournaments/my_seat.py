"""The player's phone (issue 35.4; docs/my-seat.md): "where do I sit" for one player without
a login. A private link, `/t/<slug>/me/<token>/`, names the player by a signed token (from the
registration e-mail, or the QR code on the table card); the page shows the table, the seat
wind, the opponents and the player's standing, and renews itself when the next session is
seated."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import segno
from django.conf import settings
from django.core import signing
from django.urls import reverse

from core.models import Player
from tournaments.models import Seat, Session, Tournament
from tournaments.roster import RosterSeat
from tournaments.selectors import session_roster
from tournaments.standings.selectors import public_standings

SALT = "tournaments.my-seat"
COOKIE = "hanchan-me"  # the "where do I sit" page remembers the link (per tournament)


def player_token(tournament: Tournament | int, player: Player | int) -> str:
    """The signed token of a player's private link in one tournament (no expiry: the link is
    printed on the table card and sent by e-mail; it shows what pages show anyway)."""
    t = tournament if isinstance(tournament, int) else tournament.pk
    p = player if isinstance(player, int) else player.pk
    # No timestamp (signing.dumps has one): the same link every time it is made.
    return signing.Signer(salt=SALT).sign_object([t, p])


def player_from_token(tournament: Tournament, token: str) -> int | None:
    """The player id the token names in this tournament, or None (forged, or another
    tournament's)."""
    try:
        value = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError):
        return None
    if not (isinstance(value, list) and len(value) == 2 and value[0] == tournament.pk):
        return None
    return int(value[1]) if isinstance(value[1], int) else None


def player_link(tournament: Tournament, player: Player | int) -> str:
    """The absolute private link (SITE_URL), as e-mails and QR codes carry it."""
    path = reverse("tournaments:my_seat", args=[tournament.slug, player_token(tournament, player)])
    return settings.SITE_URL.rstrip("/") + path


def qr_svg_data_uri(url: str) -> str:
    """A QR code of `url` as an SVG data URI (the table card PDF embeds it)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=2, border=2))


@dataclass
class Opponent:
    wind: str
    name: str


@dataclass
class MySeat:
    """What the phone shows: the session the player is seated in now (or None), their table,
    starting wind and opponents, and their standing."""

    player: Player
    session: Session | None = None
    seat: RosterSeat | None = None
    wind: str = ""
    game_id: int | None = None
    opponents: list[Opponent] = field(default_factory=list)
    replaced_by: str = ""
    rank: int | None = None
    total: int | None = None
    games: int = 0


def _current_session(tournament: Tournament) -> Session | None:
    """The session seated or running now; after the last, the last (as "Where do I sit?")."""
    sessions = list(tournament.sessions.exclude(status=Session.Status.PLANNED).order_by("number"))
    running = [s for s in sessions if s.status != Session.Status.CLOSED]
    if running:
        return running[0]
    return sessions[-1] if sessions else None


def my_seat(tournament: Tournament, player: Player) -> MySeat:
    view = MySeat(player=player)
    # The public standings (issue 32.3: before the hidden session while results are hidden).
    row = next((r for r in public_standings(tournament).rows if r.player_id == player.pk), None)
    if row is not None:
        view.rank, view.total, view.games = row.rank, row.total, row.games
    session = _current_session(tournament)
    if session is None:
        return view
    view.session = session
    roster = session_roster(session)
    seat = roster.seat_of(player.pk)
    if seat is None:
        replaced = roster.replaced(player.pk)
        if replaced is not None:
            view.replaced_by = replaced.player.name
        return view
    view.seat = seat
    view.wind = str(Seat.WIND_LABELS[seat.wind])
    table = next(t for t in roster.tables if t.id == seat.table_id)
    view.game_id = table.game_id
    view.opponents = [
        Opponent(wind=str(Seat.WIND_LABELS[s.wind]), name=s.player.name)
        for s in table.seats
        if s.player.id != player.pk
    ]
    return view


def table_card_links(tournament: Tournament, tables: list[dict[str, Any]]) -> None:
    """Each table card gets its players' QR codes (`qr`: wind label and SVG data URI), in
    place."""
    for table in tables:
        table["qr"] = [
            {
                "wind": Seat.WIND_LABELS[seat.wind],
                "uri": qr_svg_data_uri(player_link(tournament, seat.player.id)),
            }
            for seat in table["seats"]
        ]
