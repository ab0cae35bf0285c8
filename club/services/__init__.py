"""Write services for players and clubs (docs/services.md says how they work)."""

from .clubs import (
    add_member,
    create_club,
    create_club_night,
    create_league,
    remove_member,
    update_club_rules,
)
from .nights import NightSeating, seat_club_night
from .online import OnlineImport, import_online_log, name_mapping, read_online_log
from .players import clean_country, clean_ema_number, register_player, update_player

__all__ = [
    "NightSeating",
    "OnlineImport",
    "add_member",
    "clean_country",
    "clean_ema_number",
    "create_club",
    "create_club_night",
    "create_league",
    "import_online_log",
    "name_mapping",
    "read_online_log",
    "register_player",
    "remove_member",
    "seat_club_night",
    "update_club_rules",
    "update_player",
]
