"""Model choice labels are translatable (gettext_lazy): they follow the active language."""

from __future__ import annotations

from django.utils import translation

from club.models import Membership
from scoring.models import Game
from tournaments.models import Penalty, Tournament


def test_choice_labels_follow_the_language():
    assert str(Tournament.Status.RUNNING.label) == "Running"
    with translation.override("de"):
        assert str(Tournament.Status.RUNNING.label) == "Läuft"
        assert str(Penalty.Kind.LATENESS.label) == "Verspätung"
    with translation.override("fr"):
        assert str(Game.Entry.FINAL_SCORES.label) == "Scores finaux seulement (feuille papier)"
        assert str(Membership.Role.ADMIN.label) == "Admin du club"
