from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Clubs and players"

    def ready(self) -> None:
        from club.ratings import receivers
        from scoring.signals import game_changed

        # Ratings follow the games (scoring announces, never imports club: issue 14).
        game_changed.connect(receivers.game_changed, dispatch_uid="club.ratings")
