"""Write services for tournaments (docs/services.md says how they work)."""

from .csv_import import import_registrations_csv
from .cuts import cut_field, promote_at_cut, undo_cut
from .online import import_table_log, set_session_online
from .penalties import add_penalty, add_table_penalty, cancel_penalty, lateness_points
from .registration import (
    disqualify_player,
    drop_player,
    register_player,
    reinstate_player,
    update_registration,
    withdraw_registration,
)
from .seating import (
    apply_seating_plan,
    request_seating_plan,
    reseat_from_session,
    swap_seats,
    upload_seating_plan,
)
from .sessions import (
    close_session,
    create_sessions,
    extend_session,
    pause_session,
    reopen_session,
    resume_session,
    seat_session,
    set_session_length,
    start_session,
)
from .staff import invite_staff
from .status import publish_results, set_status
from .substitutes import substitute_at_table, substitute_player
from .tournament import add_staff, create_tournament, remove_staff, update_tournament

__all__ = [
    "add_penalty",
    "add_staff",
    "add_table_penalty",
    "apply_seating_plan",
    "cancel_penalty",
    "close_session",
    "create_sessions",
    "create_tournament",
    "cut_field",
    "disqualify_player",
    "drop_player",
    "extend_session",
    "import_registrations_csv",
    "import_table_log",
    "invite_staff",
    "lateness_points",
    "pause_session",
    "promote_at_cut",
    "publish_results",
    "register_player",
    "reinstate_player",
    "remove_staff",
    "reopen_session",
    "request_seating_plan",
    "reseat_from_session",
    "resume_session",
    "seat_session",
    "set_session_length",
    "set_session_online",
    "set_status",
    "start_session",
    "substitute_at_table",
    "substitute_player",
    "swap_seats",
    "undo_cut",
    "update_registration",
    "update_tournament",
    "upload_seating_plan",
    "withdraw_registration",
]
