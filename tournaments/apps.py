from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


def _roles_changed(**_: Any) -> None:
    # Imported when a role changes: apps.py must load before any model module.
    from core.roles import forget_roles

    forget_roles()


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # In ready(): these import models, which load only once the app registry is ready.
        from club.models import Membership
        from scoring.policy import register_game_policy
        from scoring.signals import game_changed

        from .models import StaffRole
        from .policy import TournamentGamePolicy
        from .standings import receivers

        # Standings follow the games (scoring announces, never imports tournaments: issue 14).
        # Who may change its games and when (scoring.policy).
        register_game_policy(TournamentGamePolicy())
        game_changed.connect(receivers.game_changed, dispatch_uid="tournaments.standings")
        # A role granted or taken away within a request is seen by that request's next check.
        for model in (StaffRole, Membership):
            post_save.connect(_roles_changed, sender=model)
            post_delete.connect(_roles_changed, sender=model)
