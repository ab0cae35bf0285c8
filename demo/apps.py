from django.apps import AppConfig


class DemoConfig(AppConfig):
    """`manage.py seed_demo`: demo logins and data for `make run`. The top layer (with config):
    it builds a club and a tournament, so it may import both (issue 14)."""

    name = "demo"
    verbose_name = "Demo data"
