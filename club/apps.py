from django.apps import AppConfig
from django.db.models.signals import pre_delete


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Clubs and players"

    def ready(self) -> None:
        # In ready(): these import models, which load only once the app registry is ready.
        from club.models import ClubNight, Membership, delete_games_with_night
        from club.policy import ClubGamePolicy, ClubPlayerPolicy
        from club.ratings import receivers
        from core.players import register_player_policy
        from core.roles import forget_roles_when_changed
        from scoring.policy import register_game_policy
        from scoring.signals import game_changed

        # Ratings follow the games (scoring announces, never imports club: issue 14).
        # Who may change its games and when (scoring.policy).
        register_game_policy(ClubGamePolicy())
        # Club admins create players (core.players).
        register_player_policy(ClubPlayerPolicy())
        game_changed.connect(receivers.game_changed, dispatch_uid="club.ratings")
        # A club admin made or unmade within a request is seen by that request's next check.
        forget_roles_when_changed(Membership)
        # A night's games go with the night (the night holds the links: issue 14).
        pre_delete.connect(delete_games_with_night, sender=ClubNight, dispatch_uid="night.games")
