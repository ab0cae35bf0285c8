"""Staff: referees and co-organisers, invited by username or e-mail, and removed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.mail import send_mail
from django.http import Http404, HttpRequest
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.forms import StaffForm
from tournaments.models import StaffRole, Tournament
from tournaments.selectors import staff_rows, tournament_staff_role
from tournaments.services.staff import set_password_path

from .base import ConsoleActionView, ConsoleFormView


def send_password_link(request: HttpRequest, user: Any, link: str, tournament: Tournament) -> None:
    """E-mail the set-password link when the site can send mail (the page shows it anyway)."""
    if not user.email:
        return
    subject = _("Your login for %(tournament)s") % {"tournament": tournament.name}
    body = _(
        "You were added to the staff of %(tournament)s. Your username is %(username)s. "
        "Choose your password here: %(link)s"
    ) % {"tournament": tournament.name, "username": user.get_username(), "link": link}
    # Without a reachable mail server nothing is sent: the organiser hands the link over.
    send_mail(subject, body, None, [user.email], fail_silently=True)


class Staff(ConsoleFormView):
    """The staff page and its invitation: a new person also gets a link to set a password,
    shown once and e-mailed."""

    page = "tournaments:staff"
    template_name = "tournaments/console/staff.html"
    form_class = StaffForm

    def page_context(self) -> dict[str, Any]:
        return {
            "rows": staff_rows(self.tournament),
            "password_link": self.request.session.pop("staff_password_link", None),
        }

    def save(self, data: dict[str, Any]) -> None:
        request, tournament = self.request, self.tournament
        found = services.invite_staff(
            actor=request.user,
            tournament=tournament,
            identifier=data["identifier"],
            role=data["role"],
        )
        user = found.staff.user
        added = (
            _("%(user)s is now a referee.")
            if found.staff.role == StaffRole.Role.REFEREE
            else _("%(user)s is now an organiser.")
        )
        messages.success(request, added % {"user": user.get_username()})
        if found.needs_password:
            link = request.build_absolute_uri(set_password_path(user))
            expires = timezone.localtime() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
            request.session["staff_password_link"] = {
                "username": user.get_username(),
                "link": link,
                "expires": formats.date_format(expires, "DATETIME_FORMAT"),
            }
            send_password_link(request, user, link, tournament)


class StaffRemove(ConsoleActionView):
    page = "tournaments:staff"

    def load(self) -> None:
        role = tournament_staff_role(self.tournament, self.kwargs["staff_id"])
        if role is None:
            raise Http404
        self.role = role

    def save(self, data: dict[str, Any]) -> None:
        role = self.role
        services.remove_staff(actor=self.request.user, staff=role)
        removed = (
            _("%(user)s is no longer a referee.")
            if role.role == StaffRole.Role.REFEREE
            else _("%(user)s is no longer an organiser.")
        )
        messages.success(self.request, removed % {"user": role.user.get_username()})


staff = Staff.as_view()
staff_remove = StaffRemove.as_view()
