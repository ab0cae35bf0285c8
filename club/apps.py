from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Clubs and players"

    def ready(self) -> None:
        # Signal receivers: failed logins per client address, token revocation (issue 16).
        from club import lockout, tokens  # noqa: F401
