"""Reading an online game log (Tenhou, Mahjong Soul) as an upload: the size limit and the
parser's refusal as a 400 on the field ``log``. Shared by the club's imports (issue 20) and a
tournament's online sessions (issue 32.5)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ValidationFailed
from scoring.online import LogError, OnlineGame, parse_log

MAX_LOG_BYTES = 5 * 1024 * 1024


def read_online_log(data: bytes | str) -> OnlineGame:
    """Parse a log; a broken or unsupported one is ValidationFailed on the field ``log``."""
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > MAX_LOG_BYTES:
        raise ValidationFailed(_("The log is larger than 5 MB."), field="log")
    try:
        return parse_log(data)
    except LogError as exc:
        raise ValidationFailed(
            _("This log cannot be imported: %(reason)s") % {"reason": exc},
            field="log",
            errors=[{"hand": exc.hand, "message": exc.message}],
        ) from exc
