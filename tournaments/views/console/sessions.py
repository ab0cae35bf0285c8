"""A session's page (tables, games, the clock, substitutes) and its writes: start, close,
reopen; the clock's pause, resume, extend and length (EMA 2025 7.4)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.errors import ServiceError
from core.limits import upload_problem
from scoring.services.online import MAX_LOG_BYTES
from tournaments import services
from tournaments.clock import session_clock
from tournaments.forms import MinutesForm, OptionalReasonForm, SubstituteForm
from tournaments.models import Seat, SeatingPlan, Session
from tournaments.roster import SessionRoster
from tournaments.selectors import (
    online_logs,
    online_names,
    session_roster,
    session_table,
    session_tables,
    unfinished_games,
)

from .base import ConsoleActionView, ConsoleFormView, console_session, show_refusal


class SessionPage(ConsoleFormView):
    """The session's tables and clock (htmx polls the clock) and a substitute's form: EMA
    2025 7.3, a substitute takes a seat at one of the session's tables."""

    template_name = "tournaments/console/session.html"
    form_class = SubstituteForm
    form_name = "substitute_form"
    form_takes_tournament = True
    unavailable_status = 200  # the page as it was, with the flash message
    empty_post_is_get = True
    session: Session

    def load(self) -> None:
        self.session = console_session(self.tournament, self.kwargs["number"])

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return ["tournaments/console/_clock.html"]
        return [self.template_name]

    def get_form_kwargs(self) -> dict[str, Any]:
        # Issue 31: the picker offers reserves first, nobody seated here, dropped or
        # disqualified; a "seat a reserve" link fills in the table and seat.
        kwargs = super().get_form_kwargs()
        kwargs["session"] = self.session
        kwargs["roster"] = self.roster
        if "data" not in kwargs:
            kwargs["initial"] = {
                k: self.request.GET[k] for k in ("table", "seat") if k in self.request.GET
            }
        return kwargs

    @cached_property
    def roster(self) -> SessionRoster:
        # Read once: the table cards and the substitute picker both need it.
        return session_roster(self.session)

    def page_context(self) -> dict[str, Any]:
        tables = session_tables(self.session)
        roster = self.roster
        seats = {t.id: t.seats for t in roster.tables}
        logs = online_logs(self.session) if self.session.online else {}
        names = online_names(self.tournament) if self.session.online else {}
        for t in tables:  # who sits where now (issue 31), beside the game's status
            t["roster"] = [
                {
                    "seat": s,
                    "label": Seat.WIND_LABELS[s.wind],
                    "online_name": names.get(s.player.id, "") if s.player else "",
                }
                for s in seats.get(t["table"].pk, [])
            ]
            t["online_log"] = logs.get(t["table"].pk)
        return {
            "session": self.session,
            "clock": session_clock(self.session),
            "tables": tables,
            "roster": roster,
            "unfinished": unfinished_games(tables),
            "winds": Seat.WIND_LABELS,
        }

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if self.request.headers.get("HX-Request"):
            kwargs.pop("status", None)  # the clock fragment: htmx swaps in a 200 only
        return super().render_to_response(context, **kwargs)

    def save(self, data: dict[str, Any]) -> HttpResponse:
        services.substitute_at_table(
            actor=self.request.user,
            session=self.session,
            table=data["table"],
            seat=int(data["seat"]),
            substitute=data["substitute"],
            reason=data["reason"],
            from_=data["from_"],
            missing=_("No game at this table."),
        )
        messages.success(self.request, _("Substitute seated."))
        return redirect(
            "tournaments:session", slug=self.tournament.slug, number=self.session.number
        )


MINUTES = gettext_lazy("Minutes: give a whole number.")


class SessionWrite(ConsoleActionView):
    """A write on the session, chosen by the URL's or the POST's `action` (403 if unknown),
    then back to the session's page. Every change is audited by its service."""

    page = "tournaments:session"
    session: Session

    def load(self) -> None:
        self.session = console_session(self.tournament, self.kwargs["number"])

    def back(self) -> HttpResponse:
        return redirect(self.page, slug=self.tournament.slug, number=self.session.number)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        action = kwargs.get("action") or request.POST.get("action", "")
        if action not in self.actions:
            raise PermissionDenied(_("Unknown action."))
        self.action = action
        self.form_class, self.invalid = self.actions[action]
        return self.write(request)

    actions: dict[str, tuple[Any, Any]] = {}


class SessionClock(SessionWrite):
    """The session clock (EMA 2025 7.4): pause, resume, extend, or set the length before the
    start."""

    actions = {
        "pause": (None, None),
        "resume": (None, None),
        "extend": (MinutesForm, MINUTES),
        "length": (MinutesForm, MINUTES),
    }

    def save(self, data: dict[str, Any]) -> None:
        actor, session, request = self.request.user, self.session, self.request
        if self.action == "pause":
            services.pause_session(actor=actor, session=session)
            messages.success(request, _("Clock paused."))
        elif self.action == "resume":
            services.resume_session(actor=actor, session=session)
            messages.success(request, _("Clock running again."))
        elif self.action == "extend":
            n = data["minutes"]
            services.extend_session(actor=actor, session=session, minutes=n, reason=data["reason"])
            said = (
                ngettext("%(n)s minute added.", "%(n)s minutes added.", n)
                if n >= 0
                else ngettext("%(n)s minute taken off.", "%(n)s minutes taken off.", -n)
            )
            messages.success(request, said % {"n": abs(n)})
        else:
            n = data["minutes"]
            services.set_session_length(actor=actor, session=session, minutes=n)
            said = ngettext(
                "The session lasts %(n)s minute.", "The session lasts %(n)s minutes.", n
            )
            messages.success(request, said % {"n": n})


class SessionAction(SessionWrite):
    """Start, close, or reopen the session. Reopening (issue 15) is the organiser's override
    of locked results, with a reason (audited; the service refuses none); after publication
    the results are provisional until re-published."""

    actions = {
        "start": (None, None),
        "close": (None, None),
        "reopen": (OptionalReasonForm, None),
        "reseat": (None, None),
        "online": (None, None),
        "offline": (None, None),
    }
    plan: SeatingPlan | None = None

    def back(self) -> HttpResponse:
        if self.plan is not None:  # the re-seating plan's page: the organiser applies it
            return redirect(
                "tournaments:seating_plan", slug=self.tournament.slug, plan_id=self.plan.pk
            )
        return super().back()

    def save(self, data: dict[str, Any]) -> None:
        actor, session, request = self.request.user, self.session, self.request
        if self.action in ("online", "offline"):
            online = self.action == "online"
            services.set_session_online(actor=actor, session=session, online=online)
            messages.success(
                request,
                _("Session is online: import each table's game from its log.")
                if online
                else _("Session is played at the tables again."),
            )
        elif self.action == "reseat":
            # Issue 31: re-seat this session (and the ones after it) with the earlier
            # sessions as history; the plan is applied from its page.
            self.plan = services.reseat_from_session(actor=actor, session=session)
            messages.success(
                request,
                _("A new seating from session %(n)s is being planned; apply it when it is ready.")
                % {"n": session.number},
            )
        elif self.action == "start":
            services.start_session(actor=actor, session=session)
            messages.success(request, _("Session started."))
        elif self.action == "close":
            services.close_session(actor=actor, session=session)
            messages.success(request, _("Session closed."))
        else:
            services.reopen_session(actor=actor, session=session, reason=data["reason"])
            messages.success(request, _("Session reopened: its results are provisional again."))


class TableOnlineLog(SessionWrite):
    """Issue 32.5: a table's game from its Tenhou or Mahjong Soul log (a file), with the
    table's players' names on the site where the log's names are not known yet (remembered for
    the tournament). A refusal (names that are not the table's, a hand the rules cannot score)
    is a flash message naming what is wrong; the comparison shows on the session page."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        table = session_table(self.session, self.kwargs["table"])
        if table is None:
            raise Http404
        upload = request.FILES.get("log")
        problem = upload_problem(upload, MAX_LOG_BYTES) if upload else _("Choose the log file.")
        if upload is None or problem:
            messages.error(request, str(problem))
            return self.back()
        # "name-<registration id>": the player's name on the site (empty: known already).
        players: dict[str, int] = {}
        for key in request.POST:
            name = request.POST.get(key, "").strip()
            if key.startswith("name-") and key[5:].isdigit() and name:
                players[name] = int(key[5:])
        try:
            done = services.import_table_log(
                actor=request.user,
                table=table,
                data=upload.read(MAX_LOG_BYTES + 1),
                players=players,
            )
        except ServiceError as error:
            show_refusal(request, error, None)
            return self.back()
        report = done.log.comparison
        messages.success(
            request,
            _("Table %(table)s imported: %(hands)s hands, %(matching)s paid as on the site.")
            % {"table": table.number, "hands": report["hands"], "matching": report["matching"]},
        )
        return self.back()


session_console = SessionPage.as_view()
session_clock_action = SessionClock.as_view()
session_action = SessionAction.as_view()
table_online_log = TableOnlineLog.as_view()
