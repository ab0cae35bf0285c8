from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The bottom layer: what every app shares (errors, audit, idempotency, API plumbing,
    roles memo, players). It imports no other app of the project (issue 14)."""

    name = "core"
    verbose_name = "Players, audit log and API access"

    def ready(self) -> None:
        # Signal receivers: failed logins per client address, token revocation (issue 16).
        from core import lockout, tokens  # noqa: F401
