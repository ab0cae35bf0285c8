from django.apps import AppConfig


class DemoConfig(AppConfig):
    """`manage.py seed_demo`: demo logins and data for `make run`; and `manage.py import_games`
    (into a club night or a tournament table). The top layer (with config): these commands
    reach a club and a tournament, so they may import both (issue 14)."""

    name = "demo"
    verbose_name = "Demo data"
