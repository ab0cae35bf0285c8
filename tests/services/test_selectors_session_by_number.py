"""tournaments.selectors.session_by_number: the one lookup of a session by its number that
the console's forms and the API's penalty actions share."""

from __future__ import annotations

import pytest

from core.errors import ValidationFailed
from tournaments.selectors import session_by_number

pytestmark = pytest.mark.django_db


def test_a_known_number_is_the_tournaments_session(tournament, session) -> None:
    assert session_by_number(tournament, 1) == session


def test_an_unknown_number_is_the_session_fields_error(tournament, session) -> None:
    with pytest.raises(ValidationFailed) as raised:
        session_by_number(tournament, 7)
    assert raised.value.field == "session"
    assert raised.value.message == "No session with this number."  # the API's words
    with pytest.raises(ValidationFailed) as raised:
        session_by_number(tournament, 7, missing="No such session.")  # the console's words
    assert (raised.value.field, raised.value.message) == ("session", "No such session.")
