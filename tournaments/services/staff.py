"""Staff from the console: organisers add referees and co-organisers by username or e-mail.

Someone without a login yet gets one (named after the e-mail address, no usable password);
the console shows a link where they set their password (Django's password-reset token).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from core.audit import audited
from core.errors import ValidationFailed
from tournaments.models import StaffRole, Tournament

from ._common import require_organiser
from .tournament import add_staff

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass
class StaffInvite:
    staff: StaffRole
    new_user: bool  # a login was created

    @property
    def needs_password(self) -> bool:
        """Hand over a set-password link: a new login, or one whose earlier link went unused
        (it expires after settings.PASSWORD_RESET_TIMEOUT: invited again, a fresh one)."""
        return self.new_user or not self.staff.user.has_usable_password()


def set_password_path(user: Any) -> str:
    """The address where `user` chooses a password: it works once, for
    settings.PASSWORD_RESET_TIMEOUT (24 hours) and until they log in or change it."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})


def _free_username(email: str) -> str:
    user_model = get_user_model()
    base = re.sub(r"[^\w.@+-]", "", email.split("@", 1)[0])[:120] or "staff"
    name, n = base, 1
    while user_model.objects.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}{n}"
    return name


@transaction.atomic
def invite_staff(*, actor: Any, tournament: Tournament, identifier: str, role: str) -> StaffInvite:
    """Give `role` (referee or organiser) to the user with this username or e-mail address.

    An unknown e-mail address gets a new login without a usable password; an unknown
    username is an error (a username says nothing about how to reach the person).
    """
    require_organiser(actor, tournament)
    text = str(identifier or "").strip()
    if not text:
        raise ValidationFailed("Give a username or an e-mail address.", field="identifier")
    if len(text) > 254:
        raise ValidationFailed("At most 254 characters.", field="identifier")
    if role not in StaffRole.Role.values:
        raise ValidationFailed(
            f"role must be one of {', '.join(StaffRole.Role.values)}.", field="role"
        )
    user_model = get_user_model()
    user = user_model.objects.filter(username__iexact=text).first()
    if user is None and "@" in text:
        matches = list(user_model.objects.filter(email__iexact=text)[:2])
        if len(matches) > 1:
            raise ValidationFailed(
                "Several logins use this e-mail address; give the username instead.",
                field="identifier",
            )
        user = matches[0] if matches else None
    new_user = False
    if user is None:
        if not EMAIL.match(text):
            raise ValidationFailed(
                f"Nobody has the username {text!r}; give their e-mail address to create a "
                "login for them.",
                field="identifier",
            )
        user = user_model(username=_free_username(text), email=text)
        user.set_unusable_password()
        user.save()
        with audited(
            actor=actor, action="user.create", obj=user, tournament_id=tournament.pk
        ) as audit:
            new_user = True
            audit.after = {"username": user.get_username(), "email": text, "for_role": role}
    if StaffRole.objects.filter(tournament=tournament, user=user, role=role).exists():
        raise ValidationFailed(f"{user.get_username()} already has this role.", field="identifier")
    staff = add_staff(actor=actor, tournament=tournament, user=user, role=role)
    return StaffInvite(staff=staff, new_user=new_user)
