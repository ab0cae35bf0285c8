"""The organiser console: create, register, seat, run sessions, penalties, publish.

Every write goes through tournaments.services; errors come back next to the field they name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from core import names
from core.errors import PermissionDenied as ServicePermissionDenied
from core.errors import ServiceError, ServiceUnavailable, ValidationFailed
from scoring.engine import PRESETS
from scoring.models import Game
from tournaments import roles
from tournaments import services as tournament_services
from tournaments.clock import session_clock
from tournaments.forms import (
    ApplyPlanForm,
    CsvImportForm,
    DisqualifyForm,
    DropForm,
    PenaltyForm,
    ReasonForm,
    RegistrationForm,
    SeatingPlanUploadForm,
    SeatingRequestForm,
    StaffForm,
    StandingsSettingsForm,
    SubstituteForm,
    SwapSeatsForm,
    TablePenaltyForm,
    TournamentCreateForm,
    rules_diff,
)
from tournaments.models import (
    Penalty,
    Registration,
    Seat,
    SeatingPlan,
    Session,
    StaffRole,
    StandingRow,
    Tournament,
)
from tournaments.seating import SeatingError, quality
from tournaments.selectors import session_tables
from tournaments.services.registration import seats_to_replace
from tournaments.services.staff import set_password_path
from tournaments.views.public import visible_tournament


def organiser_tournament(request: HttpRequest, slug: str) -> Tournament:
    # Issue 16: a draft is not found (404, as for no such slug) by whoever may not see it; a
    # visible tournament's console is refused (403) to everyone but its organisers.
    tournament = visible_tournament(request, slug)
    if not roles.is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organisers may do this."))
    return tournament


def run_service(
    request: HttpRequest, form: forms.Form | None, service: Callable[..., Any], **kwargs: Any
) -> tuple[bool, Any]:
    """Call a service; put its error next to the named field (or in the messages)."""
    try:
        return True, service(actor=request.user, **kwargs)
    except ServicePermissionDenied as error:
        raise PermissionDenied(error.message) from error
    except ServiceUnavailable as error:
        messages.error(request, error.message)  # not the input's fault: a flash, not a field
        return False, None
    except ServiceError as error:
        rows = error.errors if isinstance(error, ValidationFailed) else []
        field = (error.field or "").removeprefix("options.")
        if form is not None and field in form.fields:
            form.add_error(field, error.message)
        elif form is not None:
            form.add_error(None, error.message)
        else:
            messages.error(request, error.message)
        if rows and all("table" in row for row in rows):
            rows = []  # the message already names the tables ("Games at table(s) 1, 3 ...")
        for row in rows:
            where = row.get("row") or row.get("hand") or row.get("field") or ""
            text = f"{where}: {row.get('message')}" if where != "" else str(row.get("message"))
            if form is not None:
                form.add_error(None, text)
            else:
                messages.error(request, text)
        return False, None


# ---------------------------------------------------------------- create & overview


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentCreateForm(request.POST or None)
    diff: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        diff = rules_diff(data["ruleset"], data["rule_overrides"])
        if "preview" not in request.POST:
            ok, tournament = run_service(
                request,
                form,
                tournament_services.create_tournament,
                name=data["name"],
                slug=data["slug"],
                ruleset=data["ruleset"],
                rule_overrides=data["rule_overrides"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                city=data["city"],
                country=data["country"],
                sessions_planned=data["sessions_planned"],
                session_minutes=data["session_minutes"],
            )
            if ok:
                messages.success(request, _("Tournament created."))
                return redirect("tournaments:console", slug=tournament.slug)
    status = 400 if request.method == "POST" and form.errors else 200
    if not diff:  # show the chosen preset's rules for reference
        preset = form.data.get("ruleset") or "ema-2025"
        diff = rules_diff(preset if preset in PRESETS else "ema-2025", None)
    return render(
        request,
        "tournaments/console/create.html",
        {"form": form, "diff": [row for row in diff if row["changed"]], "all_rules": diff},
        status=status,
    )


def results_ready(tournament: Tournament, sessions: list[Session]) -> bool:
    """Publishing is the next step: every session closed and the standings computed."""

    return (
        tournament.status != Tournament.Status.PUBLISHED
        and bool(sessions)
        and all(s.status == Session.Status.CLOSED for s in sessions)
        and StandingRow.objects.filter(tournament=tournament).exists()
    )


@login_required
def console(
    request: HttpRequest,
    slug: str,
    settings_form: StandingsSettingsForm | None = None,
    status: int = 200,
) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    sessions = list(tournament.sessions.all())
    context = {
        "tournament": tournament,
        "sessions": [{"session": s, "clock": session_clock(s)} for s in sessions],
        "diff": [
            row
            for row in rules_diff(tournament.ruleset, tournament.rule_overrides)
            if row["changed"]
        ],
        "registrations": tournament.registrations.filter(dropped_at__isnull=True).count(),
        "statuses": Tournament.Status.choices,
        "results_ready": results_ready(tournament, sessions),
        "settings_form": settings_form or StandingsSettingsForm(tournament=tournament),
    }
    return render(request, "tournaments/console/overview.html", context, status=status)


@login_required
@require_POST
def standings_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """Tie-breaks and qualification-only from the console (issue 15): the same service as the
    API's PATCH; the standings and so the EMA report are recomputed."""
    tournament = organiser_tournament(request, slug)
    form = StandingsSettingsForm(request.POST, tournament=tournament)
    if form.is_valid():
        ok, _result = run_service(
            request,
            form,
            tournament_services.update_tournament,
            tournament=tournament,
            tie_breaks=form.tie_breaks(),
            qualification_only=form.cleaned_data["qualification_only"],
        )
        if ok:
            messages.success(request, _("Standings settings saved; the standings are updated."))
            return redirect("tournaments:console", slug=slug)
    return console(request, slug, settings_form=form, status=400)


@login_required
@require_POST
def tournament_publish(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    ok, _result = run_service(
        request, None, tournament_services.publish_results, tournament=tournament
    )
    if ok:
        messages.success(request, _("Results published."))
    return redirect("tournaments:console", slug=slug)


@login_required
@require_POST
def tournament_set_status(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    status = request.POST.get("status", "")
    if status not in Tournament.Status.values:
        messages.error(request, _("Unknown status."))
    else:
        ok, _result = run_service(
            request, None, tournament_services.set_status, tournament=tournament, status=status
        )
        if ok:
            messages.success(request, _("Status changed."))
    return redirect("tournaments:console", slug=slug)


# ---------------------------------------------------------------- registrations


def registration_numbers(tournament: Tournament) -> dict[int, int]:
    """Registration id -> the player's number in seating plans (1-based, active players in
    registration order: tournaments.services.seating.active_registrations)."""
    ids = (
        Registration.objects.filter(tournament=tournament, dropped_at__isnull=True)
        .order_by("id")
        .values_list("id", flat=True)
    )
    return {rid: n for n, rid in enumerate(ids, start=1)}


def import_summary(result: Any) -> list[tuple[str, str]]:
    """Flash messages (level, text) for a CSV import: imported, skipped, held back."""
    imported = len(result.registrations)
    out = [
        (
            "success",
            ngettext("%(n)s player imported.", "%(n)s players imported.", imported)
            % {"n": imported},
        )
    ]
    skipped = result.already_registered
    if skipped:
        out.append(
            (
                "info",
                ngettext(
                    "%(n)s row was already registered and skipped: %(rows)s.",
                    "%(n)s rows were already registered and skipped: %(rows)s.",
                    len(skipped),
                )
                % {
                    "n": len(skipped),
                    "rows": ", ".join(
                        _("row %(row)s (%(name)s)") % {"row": r["row"], "name": r["registered_as"]}
                        for r in skipped
                    ),
                },
            )
        )
    for row in result.possible_duplicates:
        if row.get("registered_as"):
            text = _(
                "Row %(row)s, %(name)s, was not imported: it may be %(other)s, registered "
                "without an EMA number. Edit that registration, or add the player by hand if "
                "it is someone else."
            ) % {"row": row["row"], "name": row["name"], "other": row["registered_as"]}
        else:
            text = _(
                "Row %(row)s, %(name)s, was not imported: several known players have this "
                "name. Add the player by hand with the EMA number."
            ) % {"row": row["row"], "name": row["name"]}
        out.append(("warning", text))
    return out


@dataclass(frozen=True)
class FormAction:
    """One console form's write: the service it calls with the cleaned form's values
    (`arguments`), and what the organiser is told once it succeeded (`done`: flash messages).
    Messages are lazy (gettext_lazy): they are translated when sent, in the request's
    language."""

    service: Callable[..., Any]
    arguments: Callable[[dict[str, Any]], dict[str, Any]]
    done: Callable[[HttpRequest, dict[str, Any], Any], None]
    # The page's objects the service takes too (`tournament`, `registration`).
    takes: tuple[str, ...] = ()


def perform(request: HttpRequest, form: forms.Form, action: FormAction, **context: Any) -> bool:
    """A valid form -> the service (its errors next to their fields: run_service) -> the
    messages. True when it succeeded (the caller redirects); else the form is shown again."""
    if not form.is_valid():
        return False
    data = form.cleaned_data
    objects = {name: context[name] for name in action.takes}
    ok, result = run_service(request, form, action.service, **objects, **action.arguments(data))
    if ok:
        action.done(request, data, result)
    return ok


def say(text: Any) -> Callable[[HttpRequest, dict[str, Any], Any], None]:
    """`done` for a write whose success says one message (a gettext_lazy text)."""

    def done(request: HttpRequest, data: dict[str, Any], result: Any) -> None:
        messages.success(request, str(text))

    return done


def player_details(data: dict[str, Any]) -> dict[str, Any]:
    """A RegistrationForm's values as register_player and update_registration take them."""
    return {
        "first_name": data["first_name"],
        "last_name": data["last_name"],
        "ema_number": data["ema_number"] or None,
        "country": data["country"],
        "club_name": data["club_name"],
        "is_substitute": data["is_substitute"],
    }


def registration_and_reason(data: dict[str, Any]) -> dict[str, Any]:
    return {"registration": data["registration"], "reason": data["reason"]}


def say_imported(request: HttpRequest, data: dict[str, Any], result: Any) -> None:
    for level, text in import_summary(result):
        getattr(messages, level)(request, text)


def say_dropped(request: HttpRequest, data: dict[str, Any], result: Any) -> None:
    messages.success(request, _("%(name)s dropped.") % {"name": data["registration"].player})


def say_disqualified(request: HttpRequest, data: dict[str, Any], result: Any) -> None:
    name = data["registration"].player
    messages.success(request, _("%(name)s disqualified (EMA 2025 6.12).") % {"name": name})
    for seat in seats_to_replace(result):
        messages.warning(
            request,
            _(
                "%(name)s is still seated in session %(s)s at table %(t)s: a "
                "substitute takes the seat (EMA 2025 7.3)."
            )
            % {"name": name, "s": seat["session"], "t": seat["table"]},
        )


@dataclass(frozen=True)
class PageForm:
    """One form of a console page: its name in the template, class and prefix, whether it
    lists the tournament's registrations (`for_tournament`), and its write."""

    name: str
    form: type[forms.Form]
    prefix: str
    action: FormAction
    for_tournament: bool = False

    def build(self, tournament: Tournament, *bound: Any) -> forms.Form:
        """The form, empty, or `bound` to (request.POST, request.FILES)."""
        options: dict[str, Any] = {"prefix": self.prefix}
        if self.for_tournament:
            options["tournament"] = tournament
        return self.form(*bound, **options)


# The registrations page: a POST's `action` -> its form and write (tournaments.services).
REGISTRATION_FORMS = {
    "add": PageForm(
        "add_form",
        RegistrationForm,
        "add",
        FormAction(
            tournament_services.register_player,
            player_details,
            say(gettext_lazy("Player registered.")),
            takes=("tournament",),
        ),
    ),
    "import": PageForm(
        "import_form",
        CsvImportForm,
        "csv",
        FormAction(
            tournament_services.import_registrations_csv,
            lambda data: {"text": data["csv"]},
            say_imported,
            takes=("tournament",),
        ),
    ),
    "drop": PageForm(
        "drop_form",
        DropForm,
        "drop",
        FormAction(tournament_services.drop_player, registration_and_reason, say_dropped),
        for_tournament=True,
    ),
    "disqualify": PageForm(
        "disqualify_form",
        DisqualifyForm,
        "dq",
        FormAction(
            tournament_services.disqualify_player, registration_and_reason, say_disqualified
        ),
        for_tournament=True,
    ),
}
SAVE_REGISTRATION = FormAction(
    tournament_services.update_registration,
    player_details,
    say(gettext_lazy("Registration saved.")),
    takes=("registration",),
)


@login_required
def registrations(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    page_forms = {page.name: page.build(tournament) for page in REGISTRATION_FORMS.values()}
    status = 200
    if request.method == "POST":
        page = REGISTRATION_FORMS.get(request.POST.get("action") or "")
        if page is not None:
            form = page_forms[page.name] = page.build(tournament, request.POST, request.FILES)
            if perform(request, form, page.action, tournament=tournament):
                return redirect("tournaments:registrations", slug=slug)
        status = 400
    query = (request.GET.get("q") or "").strip()
    rows = list(
        tournament.registrations.select_related("player").order_by(
            "dropped_at", "is_substitute", "player__last_name", "player__first_name"
        )
    )
    if query:
        rows = [
            r
            for r in rows
            if names.matches(query, str(r.player), r.player.ema_number or "", r.club_name)
        ]
    numbers = registration_numbers(tournament)
    context = {
        "tournament": tournament,
        "rows": [{"registration": r, "number": numbers.get(r.pk)} for r in rows],
        "query": query,
        **page_forms,
    }
    return render(request, "tournaments/console/registrations.html", context, status=status)


@login_required
def registration_edit(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """Correct a registration (name, EMA number, country, club, substitute)."""
    tournament = organiser_tournament(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, tournament=tournament
    )
    player = registration.player
    initial = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "ema_number": player.ema_number or "",
        "country": player.country,
        "club_name": registration.club_name,
        "is_substitute": registration.is_substitute,
    }
    form = RegistrationForm(request.POST or None, initial=initial)
    if request.method == "POST" and perform(
        request, form, SAVE_REGISTRATION, registration=registration
    ):
        return redirect("tournaments:registrations", slug=slug)
    context = {
        "tournament": tournament,
        "registration": registration,
        "number": registration_numbers(tournament).get(registration.pk),
        "form": form,
    }
    status = 400 if form.errors else 200
    return render(request, "tournaments/console/registration_edit.html", context, status=status)


@login_required
@require_POST
def registration_drop(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    registration = get_object_or_404(Registration, pk=registration_id, tournament=tournament)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason to drop a player."))
    else:
        ok, _result = run_service(
            request,
            None,
            tournament_services.drop_player,
            registration=registration,
            reason=form.cleaned_data["reason"],
        )
        if ok:
            messages.success(request, _("Player dropped."))
    return redirect("tournaments:registrations", slug=slug)


# ---------------------------------------------------------------- staff


@login_required
def staff(request: HttpRequest, slug: str) -> HttpResponse:
    """Referees and co-organisers: add by username or e-mail (a new person gets a link to set
    a password), remove."""
    tournament = organiser_tournament(request, slug)
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        ok, invite = run_service(
            request,
            form,
            tournament_services.invite_staff,
            tournament=tournament,
            identifier=form.cleaned_data["identifier"],
            role=form.cleaned_data["role"],
        )
        if ok:
            user = invite.staff.user
            added = (
                _("%(user)s is now a referee.")
                if invite.staff.role == StaffRole.Role.REFEREE
                else _("%(user)s is now an organiser.")
            )
            messages.success(request, added % {"user": user.get_username()})
            if invite.new_user:
                link = request.build_absolute_uri(set_password_path(user))
                request.session["staff_password_link"] = {
                    "username": user.get_username(),
                    "link": link,
                }
                send_password_link(request, user, link, tournament)
            return redirect("tournaments:staff", slug=slug)
    context = {
        "tournament": tournament,
        "form": form,
        "rows": tournament.staff.select_related("user").order_by("role", "user__username"),
        "password_link": request.session.pop("staff_password_link", None),
    }
    return render(
        request, "tournaments/console/staff.html", context, status=400 if form.errors else 200
    )


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


@login_required
@require_POST
def staff_remove(request: HttpRequest, slug: str, staff_id: int) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    role = get_object_or_404(
        StaffRole.objects.select_related("user"), pk=staff_id, tournament=tournament
    )
    ok, _result = run_service(request, None, tournament_services.remove_staff, staff=role)
    if ok:
        removed = (
            _("%(user)s is no longer a referee.")
            if role.role == StaffRole.Role.REFEREE
            else _("%(user)s is no longer an organiser.")
        )
        messages.success(request, removed % {"user": role.user.get_username()})
    return redirect("tournaments:staff", slug=slug)


# ---------------------------------------------------------------- seating


def seating_by_session(tournament: Tournament) -> dict[int, list[list[int]]]:
    """Session number -> its tables as player ids in seat order (seated sessions only)."""
    seating: dict[int, list[list[int]]] = {}
    sessions = tournament.sessions.order_by("number").prefetch_related("tables__seats")
    for session in sessions:
        tables = []
        for table in sorted(session.tables.all(), key=lambda t: t.number):
            seats = sorted(table.seats.all(), key=lambda s: s.wind)
            tables.append([s.player_id for s in seats])
        if tables:
            seating[session.number] = tables
    return seating


def quality_of(seating: dict[int, list[list[int]]]) -> dict[str, Any] | None:
    """The quality report (tournaments.seating.quality) of these sessions, or None when there
    are none or the seating is irregular (players dropped or added between sessions)."""

    index: dict[int, int] = {}
    plan = [
        [[index.setdefault(p, len(index)) for p in table] for table in seating[n]]
        for n in sorted(seating)
    ]
    if not plan:
        return None
    try:
        return quality(plan).to_dict()
    except SeatingError:
        return None


def seated_quality(tournament: Tournament) -> dict[str, Any] | None:
    """The quality report of the sessions seated so far."""
    return quality_of(seating_by_session(tournament))


def plan_effect(plan: SeatingPlan, start: int) -> dict[str, Any]:
    """What applying `plan` from session `start` does to the seating: the seated sessions it
    replaces, and the quality of the whole seating before and after."""
    before = seating_by_session(plan.tournament)
    players = dict(
        Registration.objects.filter(tournament_id=plan.tournament_id).values_list("pk", "player_id")
    )
    after = dict(before)
    numbers = [start + offset for offset in range(len(plan.plan or []))]
    for number, round_tables in zip(numbers, plan.plan or [], strict=False):
        after[number] = [[players.get(rid, -rid) for rid in table] for table in round_tables]
    return {
        "replaced": [n for n in numbers if n in before],
        "kept_later": [n for n in sorted(before) if n > max(numbers, default=0)],
        "before": quality_of(before),
        "after": quality_of(after),
    }


def render_seating_console(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: SeatingRequestForm | None = None,
    swap_form: SwapSeatsForm | None = None,
    upload_form: SeatingPlanUploadForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "form": form or SeatingRequestForm(),
        "swap_form": swap_form or SwapSeatsForm(tournament=tournament),
        "upload_form": upload_form or SeatingPlanUploadForm(),
        "plans": list(enumerate(tournament.seating_plans.order_by("pk"), start=1))[::-1][:10],
        "quality": seated_quality(tournament),
    }
    return render(request, "tournaments/console/seating.html", context, status=status)


@login_required
def seating_console(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    form = SeatingRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        options: dict[str, Any] = {}
        if data.get("separate_by"):
            options["separate_by"] = data["separate_by"]
            options["separate_rounds"] = data.get("separate_rounds") or 0
        ok, plan = run_service(
            request,
            form,
            tournament_services.request_seating_plan,
            tournament=tournament,
            mode=data["mode"],
            seed=data["seed"],
            options=options,
        )
        if ok:
            return redirect("tournaments:seating_plan", slug=slug, plan_id=plan.pk)
        if not form.errors:  # the broker is down: the flash says so, the form is kept
            return render_seating_console(request, tournament, form=form, status=503)
    return render_seating_console(
        request, tournament, form=form, status=400 if form.errors else 200
    )


@login_required
@require_POST
def seating_swap(request: HttpRequest, slug: str) -> HttpResponse:
    """Exchange two players' seats in a session; the page shows the quality report again."""
    tournament = organiser_tournament(request, slug)
    swap_form = SwapSeatsForm(request.POST, tournament=tournament)
    if swap_form.is_valid():
        data = swap_form.cleaned_data
        session = Session.objects.filter(tournament=tournament, number=data["session"]).first()
        if session is None:
            swap_form.add_error("session", _("No such session."))
        else:
            ok, _result = run_service(
                request,
                swap_form,
                tournament_services.swap_seats,
                session=session,
                a=data["a"],
                b=data["b"],
            )
            if ok:
                messages.success(
                    request,
                    _("%(a)s and %(b)s swapped seats in session %(n)s.")
                    % {"a": data["a"], "b": data["b"], "n": session.number},
                )
                return redirect("tournaments:seating_console", slug=slug)
    return render_seating_console(request, tournament, swap_form=swap_form, status=400)


@login_required
@require_POST
def seating_upload(request: HttpRequest, slug: str) -> HttpResponse:
    """A predefined plan from CSV; it opens like a generated plan (quality, then apply)."""
    tournament = organiser_tournament(request, slug)
    upload_form = SeatingPlanUploadForm(request.POST, request.FILES)
    if upload_form.is_valid():
        ok, plan = run_service(
            request,
            upload_form,
            tournament_services.upload_seating_plan,
            tournament=tournament,
            text=upload_form.cleaned_data["text"],
        )
        if ok:
            messages.success(request, _("Seating plan uploaded."))
            return redirect("tournaments:seating_plan", slug=slug, plan_id=plan.pk)
    return render_seating_console(request, tournament, upload_form=upload_form, status=400)


def plan_tables(plan: SeatingPlan) -> list[list[list[str]]]:
    """The plan's registration ids as player names: rounds -> tables -> seats. Swiss plans
    seat by standings: each name carries the player's rank and points."""
    if not plan.plan:
        return []
    registrations = Registration.objects.filter(tournament_id=plan.tournament_id).select_related(
        "player"
    )
    names = {r.pk: str(r.player) for r in registrations}
    if plan.mode == SeatingPlan.Mode.SWISS:
        rows = {
            row.player_id: row
            for row in StandingRow.objects.filter(tournament_id=plan.tournament_id)
        }
        for r in registrations:
            row = rows.get(r.player_id)
            if row is not None:
                names[r.pk] = _("%(name)s (%(rank)s., %(points)s)") % {
                    "name": names[r.pk],
                    "rank": row.rank if row.rank is not None else "-",
                    "points": row.total,
                }
    return [
        [[names.get(rid, f"#{rid}") for rid in table] for table in round_] for round_ in plan.plan
    ]


def wind_names() -> list[str]:
    return [_("East"), _("South"), _("West"), _("North")]


def plan_number(plan: SeatingPlan) -> int:
    """The plan's number within its tournament (1 = the tournament's first plan)."""
    return SeatingPlan.objects.filter(tournament_id=plan.tournament_id, pk__lte=plan.pk).count()


@login_required
def seating_plan(request: HttpRequest, slug: str, plan_id: int) -> HttpResponse:
    """A plan's progress (htmx polls this while it runs), then its quality report."""
    tournament = organiser_tournament(request, slug)
    plan = get_object_or_404(SeatingPlan, pk=plan_id, tournament=tournament)
    default_start = int((plan.options or {}).get("from_session") or 1)
    apply_form = ApplyPlanForm(request.POST or None, initial={"from_session": default_start})
    effect: dict[str, Any] | None = None
    if request.method == "POST" and apply_form.is_valid():
        start = apply_form.cleaned_data["from_session"]
        effect = plan_effect(plan, start) if plan.status == SeatingPlan.Status.DONE else None
        if effect and effect["replaced"] and not request.POST.get("confirm"):
            # Seated sessions would be replaced: show the quality before and after, ask again.
            pass
        else:
            ok, _result = run_service(
                request,
                apply_form,
                tournament_services.apply_seating_plan,
                plan=plan,
                from_session=start,
            )
            if ok:
                messages.success(request, _("Seating applied: tables and games are ready."))
                return redirect("tournaments:console", slug=slug)
            effect = None
    start = (
        apply_form.cleaned_data["from_session"]
        if apply_form.is_bound and apply_form.is_valid()
        else default_start
    )
    rounds = plan_tables(plan) if plan.status == SeatingPlan.Status.DONE else []
    context = {
        "tournament": tournament,
        "plan": plan,
        "plan_number": plan_number(plan),
        "percent": round(100 * (plan.progress or 0)),
        "running": plan.status in (SeatingPlan.Status.PENDING, SeatingPlan.Status.RUNNING),
        "rounds": [{"number": start + i, "tables": tables} for i, tables in enumerate(rounds)],
        "winds": wind_names()[: len(rounds[0][0]) if rounds and rounds[0] else 4],
        "apply_form": apply_form,
        "effect": effect if effect and effect["replaced"] else None,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/console/_plan_status.html", context)
    status = 400 if apply_form.errors else 200
    return render(request, "tournaments/console/seating_plan.html", context, status=status)


# ---------------------------------------------------------------- sessions


@login_required
def session_console(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    session = get_object_or_404(Session, tournament=tournament, number=number)
    substitute_form = SubstituteForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and substitute_form.is_valid():
        data = substitute_form.cleaned_data
        game = Game.objects.filter(table__session=session, table__number=data["table"]).first()
        if game is None:
            substitute_form.add_error("table", _("No game at this table."))
        else:
            ok, _result = run_service(
                request,
                substitute_form,
                tournament_services.substitute_player,
                game=game,
                seat=int(data["seat"]),
                substitute=data["substitute"],
                reason=data["reason"],
                from_=data["from_"],
            )
            if ok:
                messages.success(request, _("Substitute seated."))
                return redirect("tournaments:session", slug=slug, number=number)
    tables = session_tables(session)
    context = {
        "tournament": tournament,
        "session": session,
        "clock": session_clock(session),
        "tables": tables,
        "unfinished": sum(
            1 for t in tables if t["game"] and t["game"].status != Game.Status.FINISHED
        ),
        "substitute_form": substitute_form,
        "winds": Seat.WIND_LABELS,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/console/_clock.html", context)
    status = 400 if substitute_form.errors else 200
    return render(request, "tournaments/console/session.html", context, status=status)


@login_required
@require_POST
def session_clock_action(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The session clock (EMA 2025 7.4): pause, resume, extend, or set the length before the
    start. Every change is audited by the service."""
    tournament = organiser_tournament(request, slug)
    session = get_object_or_404(Session, tournament=tournament, number=number)
    action = request.POST.get("action", "")
    minutes: int | None = None
    if action in ("extend", "length"):
        try:
            minutes = int(request.POST.get("minutes", ""))
        except ValueError:
            messages.error(request, _("Minutes: give a whole number."))
            return redirect("tournaments:session", slug=slug, number=number)
    n = minutes or 0
    calls: dict[str, tuple[Callable[..., Any], dict[str, Any], str]] = {
        "pause": (tournament_services.pause_session, {}, _("Clock paused.")),
        "resume": (tournament_services.resume_session, {}, _("Clock running again.")),
        "extend": (
            tournament_services.extend_session,
            {"minutes": minutes, "reason": request.POST.get("reason", "")},
            (
                ngettext("%(n)s minute added.", "%(n)s minutes added.", n)
                if n >= 0
                else ngettext("%(n)s minute taken off.", "%(n)s minutes taken off.", -n)
            )
            % {"n": abs(n)},
        ),
        "length": (
            tournament_services.set_session_length,
            {"minutes": minutes},
            ngettext("The session lasts %(n)s minute.", "The session lasts %(n)s minutes.", n)
            % {"n": n},
        ),
    }
    if action not in calls:
        raise PermissionDenied(_("Unknown action."))
    service, kwargs, done = calls[action]
    ok, _result = run_service(request, None, service, session=session, **kwargs)
    if ok:
        messages.success(request, done)
    return redirect("tournaments:session", slug=slug, number=number)


@login_required
@require_POST
def session_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    session = get_object_or_404(Session, tournament=tournament, number=number)
    if action == "reopen":
        # Issue 15: the organiser's override of locked results, with a reason (audited);
        # after publication the results are provisional again until re-published.
        ok, _result = run_service(
            request,
            None,
            tournament_services.reopen_session,
            session=session,
            reason=(request.POST.get("reason") or "").strip(),
        )
        if ok:
            messages.success(request, _("Session reopened: its results are provisional again."))
        return redirect("tournaments:session", slug=slug, number=number)
    service = {
        "start": tournament_services.start_session,
        "close": tournament_services.close_session,
    }.get(action)
    if service is None:
        raise PermissionDenied(_("Unknown action."))
    ok, _result = run_service(request, None, service, session=session)
    if ok:
        messages.success(
            request, _("Session started.") if action == "start" else _("Session closed.")
        )
    return redirect("tournaments:session", slug=slug, number=number)


# ---------------------------------------------------------------- penalties


@login_required
def penalties(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    form = PenaltyForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        session = None
        if data.get("session"):
            session = Session.objects.filter(tournament=tournament, number=data["session"]).first()
            if session is None:
                form.add_error("session", _("No such session."))
        if not form.errors:
            ok, _result = run_service(
                request,
                form,
                tournament_services.add_penalty,
                tournament=tournament,
                player=data["player"],
                kind=data["kind"],
                points=data.get("points"),
                minutes_late=data.get("minutes_late"),
                seconds_late=data.get("seconds_late"),
                session=session,
                reason=data["reason"],
            )
            if ok:
                messages.success(request, _("Penalty recorded."))
                return redirect("tournaments:penalties", slug=slug)
    return _penalties_page(request, tournament, form, TablePenaltyForm(prefix="table"))


def _penalties_page(
    request: HttpRequest, tournament: Tournament, form: PenaltyForm, table_form: TablePenaltyForm
) -> HttpResponse:
    rows = tournament.penalties.select_related("player", "session").order_by("-created_at")
    status = 400 if form.errors or table_form.errors else 200
    return render(
        request,
        "tournaments/console/penalties.html",
        {"tournament": tournament, "form": form, "table_form": table_form, "rows": rows},
        status=status,
    )


@login_required
@require_POST
def penalty_table(request: HttpRequest, slug: str) -> HttpResponse:
    """EMA 2025 7.5: a score-sheet penalty for every player of a table at once."""
    tournament = organiser_tournament(request, slug)
    form = TablePenaltyForm(request.POST, prefix="table")
    if form.is_valid():
        data = form.cleaned_data
        session = Session.objects.filter(tournament=tournament, number=data["session"]).first()
        if session is None:
            form.add_error("session", _("No such session."))
        else:
            ok, result = run_service(
                request,
                form,
                tournament_services.add_table_penalty,
                tournament=tournament,
                session=session,
                table_number=data["table"],
                reason=data["reason"],
            )
            if ok:
                messages.success(
                    request,
                    ngettext(
                        "Score-sheet penalty recorded for %(n)d player.",
                        "Score-sheet penalty recorded for each of the %(n)d players.",
                        len(result),
                    )
                    % {"n": len(result)},
                )
                return redirect("tournaments:penalties", slug=slug)
    return _penalties_page(request, tournament, PenaltyForm(tournament=tournament), form)


@login_required
@require_POST
def penalty_cancel(request: HttpRequest, slug: str, penalty_id: int) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    penalty = get_object_or_404(Penalty, pk=penalty_id, tournament=tournament)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason to cancel a penalty."))
    else:
        ok, _result = run_service(
            request,
            None,
            tournament_services.cancel_penalty,
            penalty=penalty,
            reason=form.cleaned_data["reason"],
        )
        if ok:
            messages.success(request, _("Penalty cancelled."))
    return redirect("tournaments:penalties", slug=slug)
