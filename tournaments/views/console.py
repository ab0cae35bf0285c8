"""The organiser console: create, register, seat, run sessions, penalties, publish.

Every write goes through tournaments.services. A console write is a `Write`: the form its POST
is read with and a short function that calls the service with the form's values and the
page's objects and says what it did; `perform` runs it and puts the service's errors next to
the fields they name. A page with forms is a `ConsolePage` (`page_view`); a write without a
page of its own is a `console_post`. After a write the organiser is back on the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.db.models import Model, QuerySet
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
    MinutesForm,
    OptionalReasonForm,
    PenaltyForm,
    ReasonForm,
    RegistrationForm,
    SeatingPlanUploadForm,
    SeatingRequestForm,
    StaffForm,
    StandingsSettingsForm,
    StatusForm,
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
from tournaments.selectors import session_by_number, session_tables
from tournaments.services.registration import seats_to_replace
from tournaments.services.staff import set_password_path
from tournaments.views.public import visible_tournament

Values = dict[str, Any]  # the page's objects (tournament, session, ...) and the form's values
View = Callable[..., HttpResponse]


def organiser_tournament(request: HttpRequest, slug: str) -> Tournament:
    # Issue 16: a draft is not found (404, as for no such slug) by whoever may not see it; a
    # visible tournament's console is refused (403) to everyone but its organisers.
    tournament = visible_tournament(request, slug)
    if not roles.is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organisers may do this."))
    return tournament


# ---------------------------------------------------------------- writes


@dataclass(frozen=True)
class Write:
    """One console write: `run(request, values)` calls the service (the actor is
    request.user) and says what it did; it returns where to go next if that is not back
    (a new seating plan's page). `form` is read from the POST (None: the POST carries
    nothing), built with `prefix`, and with the tournament when `for_tournament`; `invalid`
    is said when it is not valid and no page shows its errors (a `console_post`)."""

    run: Callable[[HttpRequest, Values], HttpResponse | None]
    form: type[forms.Form] | None = None
    prefix: str | None = None
    for_tournament: bool = False
    invalid: Any = None  # a gettext_lazy text: translated when said, in the request's language

    def build(self, tournament: Tournament, *bound: Any) -> forms.Form:
        """The form, empty, or `bound` to (request.POST, request.FILES)."""
        assert self.form is not None
        options: dict[str, Any] = {"prefix": self.prefix}
        if self.for_tournament:
            options["tournament"] = tournament
        return self.form(*bound, **options)


def write(form: type[forms.Form] | None = None, **options: Any) -> Callable[..., Write]:
    """Decorator: the function is the `run` of a Write of `form`."""
    return lambda run: Write(run, form, **options)


def perform(
    request: HttpRequest,
    form: forms.Form | None,
    action: Write,
    *,
    back: HttpResponse | None = None,
    flash: bool = False,
    **objects: Any,
) -> HttpResponse | None:
    """A valid form (or none) -> the write: where it goes next (else `back`). Else None, with
    the service's error next to the field it names, or in the messages with `flash` (no page
    shows the form)."""
    if form is not None and not form.is_valid():
        return None
    shown = None if flash else form
    try:
        values = {**objects, **(form.cleaned_data if form is not None else {})}
        answer = action.run(request, values)
        return back if answer is None else answer
    except ServicePermissionDenied as error:
        raise PermissionDenied(error.message) from error
    except ServiceUnavailable as error:
        messages.error(request, error.message)  # not the input's fault: a flash, not a field
    except ServiceError as error:
        rows = error.errors if isinstance(error, ValidationFailed) else []
        field = (error.field or "").removeprefix("options.")
        if rows and all("table" in row for row in rows):
            rows = []  # the message already names the tables ("Games at table(s) 1, 3 ...")
        texts = [(field, error.message)] + [(None, row_error(row)) for row in rows]
        for name, text in texts:
            if shown is None:
                messages.error(request, text)
            else:
                shown.add_error(name if name in shown.fields else None, text)
    return None


def row_error(row: Mapping[str, Any]) -> str:
    """One of several problems (a CSV row, a hand, a field) as text."""
    where = row.get("row") or row.get("hand") or row.get("field") or ""
    return f"{where}: {row.get('message')}" if where != "" else str(row.get("message"))


def numbered_session(tournament: Tournament, number: int) -> Session:
    """The tournament's session `number` (a form's `session` field), or that field's error in
    the console's own, translated words (the selector's default is the API's)."""
    return session_by_number(tournament, number, missing=_("No such session."))


# ---------------------------------------------------------------- pages and posts


@dataclass(frozen=True)
class ConsolePage:
    """A console page: its URL's name, its template, its forms by their name there, what else
    it shows."""

    url: str
    template: str
    forms: Mapping[str, Write]
    context: Callable[[HttpRequest, Tournament], Values]


def page_view(
    page: ConsolePage,
    posted: str | Callable[[HttpRequest], str] | None,
    *,
    post_only: bool = False,
) -> View:
    """The page; a POST runs the form `posted` names (or picks from the POST; None: a POST
    is read as a GET) and unless it succeeded shows the page again with its errors (400; 503
    when the service is unavailable, as the flash says)."""

    def view(request: HttpRequest, slug: str) -> HttpResponse:
        tournament = organiser_tournament(request, slug)
        shown = {name: action.build(tournament) for name, action in page.forms.items()}
        status = 200
        if request.method == "POST" and posted is not None:
            name = posted if isinstance(posted, str) else posted(request)
            status = 400
            if name in page.forms:
                form = shown[name] = page.forms[name].build(tournament, request.POST, request.FILES)
                back = redirect(page.url, slug=slug)
                done = perform(request, form, page.forms[name], back=back, tournament=tournament)
                if done is not None:
                    return done
                status = 400 if form.errors else 503
        context = {"tournament": tournament, **page.context(request, tournament), **shown}
        return render(request, page.template, context, status=status)

    return login_required(require_POST(view) if post_only else view)


def tournament_page(tournament: Tournament, **url: Any) -> Values:
    return {"tournament": tournament}


def session_page(tournament: Tournament, number: int, **url: Any) -> Values:
    session = get_object_or_404(Session, tournament=tournament, number=number)
    return {"tournament": tournament, "session": session}


def one_of(name: str, rows: type[Model] | QuerySet[Any], url_id: str) -> Callable[..., Values]:
    """The page's object `name`: the one of `rows` the URL's `url_id` names, if it is the
    tournament's (404 otherwise: never another tournament's)."""

    def load(tournament: Tournament, **url: Any) -> Values:
        return {
            "tournament": tournament,
            name: get_object_or_404(rows, pk=url[url_id], tournament=tournament),
        }

    return load


def console_post(
    back: str, writes: Write | Mapping[str, Write], *, load: Callable[..., Values] = tournament_page
) -> View:
    """A write without a page of its own (POST only): the organiser's tournament and the
    page's objects (`load`: 404 if not the tournament's), the write (one, or chosen by the
    URL's or the POST's `action`: 403 if unknown), then back to the page `back` (a session's
    page: that session's)."""

    @login_required
    @require_POST
    def view(request: HttpRequest, slug: str, **url: Any) -> HttpResponse:
        objects = load(organiser_tournament(request, slug), **url)
        if isinstance(writes, Write):
            action: Write | None = writes
        else:
            action = writes.get(url.get("action") or request.POST.get("action", ""))
        if action is None:
            raise PermissionDenied(_("Unknown action."))
        form = action.form(request.POST) if action.form is not None else None
        if form is not None and not form.is_valid():
            messages.error(request, str(action.invalid))
        else:
            perform(request, form, action, flash=True, **objects)
        return redirect(back, slug=slug, **{k: v for k, v in url.items() if k == "number"})

    return view


# ---------------------------------------------------------------- create & overview


@write(TournamentCreateForm)
def create_tournament(request: HttpRequest, v: Values) -> HttpResponse:
    tournament = tournament_services.create_tournament(
        actor=request.user,
        **{k: v[k] for k in ("name", "slug", "ruleset", "rule_overrides", "starts_on", "ends_on")},
        **{k: v[k] for k in ("city", "country", "sessions_planned", "session_minutes")},
    )
    messages.success(request, _("Tournament created."))
    return redirect("tournaments:console", slug=tournament.slug)


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentCreateForm(request.POST or None)
    diff: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        diff = rules_diff(data["ruleset"], data["rule_overrides"])
        if "preview" not in request.POST:
            done = perform(request, form, create_tournament)  # to the new tournament's console
            if done is not None:
                return done
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


def overview(request: HttpRequest, tournament: Tournament) -> Values:
    sessions = list(tournament.sessions.all())
    return {
        "sessions": [{"session": s, "clock": session_clock(s)} for s in sessions],
        "diff": [
            row
            for row in rules_diff(tournament.ruleset, tournament.rule_overrides)
            if row["changed"]
        ],
        "registrations": tournament.registrations.filter(dropped_at__isnull=True).count(),
        "statuses": Tournament.Status.choices,
        "results_ready": results_ready(tournament, sessions),
    }


@write(StandingsSettingsForm, for_tournament=True)
def save_standings_settings(request: HttpRequest, v: Values) -> None:
    """Tie-breaks and qualification-only (issue 15): the same service as the API's PATCH; the
    standings and so the EMA report are recomputed."""
    tournament_services.update_tournament(
        actor=request.user,
        tournament=v["tournament"],
        tie_breaks=v["tie_breaks"],
        qualification_only=v["qualification_only"],
    )
    messages.success(request, _("Standings settings saved; the standings are updated."))


@write()
def publish(request: HttpRequest, v: Values) -> None:
    tournament_services.publish_results(actor=request.user, tournament=v["tournament"])
    messages.success(request, _("Results published."))


@write(StatusForm, invalid=gettext_lazy("Unknown status."))
def set_status(request: HttpRequest, v: Values) -> None:
    tournament_services.set_status(
        actor=request.user, tournament=v["tournament"], status=v["status"]
    )
    messages.success(request, _("Status changed."))


OVERVIEW = ConsolePage(
    "tournaments:console",
    "tournaments/console/overview.html",
    {"settings_form": save_standings_settings},
    overview,
)
console = page_view(OVERVIEW, None)
standings_settings = page_view(OVERVIEW, "settings_form", post_only=True)
tournament_publish = console_post("tournaments:console", publish)
tournament_set_status = console_post("tournaments:console", set_status)


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


def player_details(v: Values) -> dict[str, Any]:
    """A RegistrationForm's values as register_player and update_registration take them."""
    return {
        "first_name": v["first_name"],
        "last_name": v["last_name"],
        "ema_number": v["ema_number"] or None,
        "country": v["country"],
        "club_name": v["club_name"],
        "is_substitute": v["is_substitute"],
    }


def registration_rows(request: HttpRequest, tournament: Tournament) -> Values:
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
    return {
        "rows": [{"registration": r, "number": numbers.get(r.pk)} for r in rows],
        "query": query,
    }


@write(RegistrationForm, prefix="add")
def register(request: HttpRequest, v: Values) -> None:
    tournament_services.register_player(
        actor=request.user, tournament=v["tournament"], **player_details(v)
    )
    messages.success(request, _("Player registered."))


@write(CsvImportForm, prefix="csv")
def import_csv(request: HttpRequest, v: Values) -> None:
    result = tournament_services.import_registrations_csv(
        actor=request.user, tournament=v["tournament"], text=v["csv"]
    )
    for level, text in import_summary(result):
        getattr(messages, level)(request, text)


@write(DropForm, prefix="drop", for_tournament=True)
def drop(request: HttpRequest, v: Values) -> None:
    tournament_services.drop_player(
        actor=request.user, registration=v["registration"], reason=v["reason"]
    )
    messages.success(request, _("%(name)s dropped.") % {"name": v["registration"].player})


@write(DisqualifyForm, prefix="dq", for_tournament=True)
def disqualify(request: HttpRequest, v: Values) -> None:
    result = tournament_services.disqualify_player(
        actor=request.user, registration=v["registration"], reason=v["reason"]
    )
    name = v["registration"].player
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


REGISTRATIONS = ConsolePage(
    "tournaments:registrations",
    "tournaments/console/registrations.html",
    {
        "add_form": register,
        "import_form": import_csv,
        "drop_form": drop,
        "disqualify_form": disqualify,
    },
    registration_rows,
)
# Each form of the page posts its `action`: add, import, drop, disqualify.
registrations = page_view(REGISTRATIONS, lambda request: f"{request.POST.get('action')}_form")


@write()
def save_registration(request: HttpRequest, v: Values) -> None:
    tournament_services.update_registration(
        actor=request.user, registration=v["registration"], **player_details(v)
    )
    messages.success(request, _("Registration saved."))


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
    objects: Values = {"tournament": tournament, "registration": registration}
    if request.method == "POST":
        back = redirect("tournaments:registrations", slug=slug)
        done = perform(request, form, save_registration, back=back, **objects)
        if done is not None:
            return done
    context = {
        **objects,
        "number": registration_numbers(tournament).get(registration.pk),
        "form": form,
    }
    status = 400 if form.errors else 200
    return render(request, "tournaments/console/registration_edit.html", context, status=status)


@write(ReasonForm, invalid=gettext_lazy("Give a reason to drop a player."))
def drop_registration(request: HttpRequest, v: Values) -> None:
    tournament_services.drop_player(
        actor=request.user, registration=v["registration"], reason=v["reason"]
    )
    messages.success(request, _("Player dropped."))


registration_drop = console_post(
    "tournaments:registrations",
    drop_registration,
    load=one_of("registration", Registration, "registration_id"),
)


# ---------------------------------------------------------------- staff


@write(StaffForm)
def invite(request: HttpRequest, v: Values) -> None:
    """Referees and co-organisers, by username or e-mail: a new person also gets a link to set
    a password, shown once and e-mailed."""
    tournament = v["tournament"]
    found = tournament_services.invite_staff(
        actor=request.user, tournament=tournament, identifier=v["identifier"], role=v["role"]
    )
    user = found.staff.user
    added = (
        _("%(user)s is now a referee.")
        if found.staff.role == StaffRole.Role.REFEREE
        else _("%(user)s is now an organiser.")
    )
    messages.success(request, added % {"user": user.get_username()})
    if found.new_user:
        link = request.build_absolute_uri(set_password_path(user))
        request.session["staff_password_link"] = {"username": user.get_username(), "link": link}
        send_password_link(request, user, link, tournament)


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


@write()
def remove_staff(request: HttpRequest, v: Values) -> None:
    role = v["staff"]
    tournament_services.remove_staff(actor=request.user, staff=role)
    removed = (
        _("%(user)s is no longer a referee.")
        if role.role == StaffRole.Role.REFEREE
        else _("%(user)s is no longer an organiser.")
    )
    messages.success(request, removed % {"user": role.user.get_username()})


STAFF = ConsolePage(
    "tournaments:staff",
    "tournaments/console/staff.html",
    {"form": invite},
    lambda request, tournament: {
        "rows": tournament.staff.select_related("user").order_by("role", "user__username"),
        "password_link": request.session.pop("staff_password_link", None),
    },
)
staff = page_view(STAFF, "form")
staff_remove = console_post(
    "tournaments:staff",
    remove_staff,
    load=one_of("staff", StaffRole.objects.select_related("user"), "staff_id"),
)


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


@write(SeatingRequestForm)
def request_plan(request: HttpRequest, v: Values) -> HttpResponse:
    """The worker computes it: its page shows the progress, then the quality report."""
    options: dict[str, Any] = {}
    if v.get("separate_by"):
        options["separate_by"] = v["separate_by"]
        options["separate_rounds"] = v.get("separate_rounds") or 0
    plan = tournament_services.request_seating_plan(
        actor=request.user,
        tournament=v["tournament"],
        mode=v["mode"],
        seed=v["seed"],
        options=options,
    )
    return redirect("tournaments:seating_plan", slug=v["tournament"].slug, plan_id=plan.pk)


@write(SwapSeatsForm, for_tournament=True)
def swap(request: HttpRequest, v: Values) -> None:
    """Exchange two players' seats in a session; the page shows the quality report again."""
    session = numbered_session(v["tournament"], v["session"])
    tournament_services.swap_seats(actor=request.user, session=session, a=v["a"], b=v["b"])
    messages.success(
        request,
        _("%(a)s and %(b)s swapped seats in session %(n)s.")
        % {"a": v["a"], "b": v["b"], "n": session.number},
    )


@write(SeatingPlanUploadForm)
def upload(request: HttpRequest, v: Values) -> HttpResponse:
    """A predefined plan from CSV; it opens like a generated plan (quality, then apply)."""
    plan = tournament_services.upload_seating_plan(
        actor=request.user, tournament=v["tournament"], text=v["text"]
    )
    messages.success(request, _("Seating plan uploaded."))
    return redirect("tournaments:seating_plan", slug=v["tournament"].slug, plan_id=plan.pk)


SEATING = ConsolePage(
    "tournaments:seating_console",
    "tournaments/console/seating.html",
    {"form": request_plan, "swap_form": swap, "upload_form": upload},
    lambda request, tournament: {
        "plans": list(enumerate(tournament.seating_plans.order_by("pk"), start=1))[::-1][:10],
        "quality": seated_quality(tournament),
    },
)
seating_console = page_view(SEATING, "form")
seating_swap = page_view(SEATING, "swap_form", post_only=True)
seating_upload = page_view(SEATING, "upload_form", post_only=True)


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


@write()
def apply_plan(request: HttpRequest, v: Values) -> None:
    tournament_services.apply_seating_plan(
        actor=request.user, plan=v["plan"], from_session=v["from_session"]
    )
    messages.success(request, _("Seating applied: tables and games are ready."))


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
        # Seated sessions would be replaced: show the quality before and after, ask again.
        if not (effect and effect["replaced"]) or request.POST.get("confirm"):
            back = redirect("tournaments:console", slug=slug)
            done = perform(request, apply_form, apply_plan, back=back, plan=plan)
            if done is not None:
                return done
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


@write()
def substitute(request: HttpRequest, v: Values) -> None:
    """EMA 2025 7.3: a substitute takes a seat at one of the session's tables."""
    table = {"table__session": v["session"], "table__number": v["table"]}
    game = Game.objects.filter(**table).first()
    if game is None:
        raise ValidationFailed(_("No game at this table."), field="table")
    tournament_services.substitute_player(
        actor=request.user,
        game=game,
        seat=int(v["seat"]),
        substitute=v["substitute"],
        reason=v["reason"],
        from_=v["from_"],
    )
    messages.success(request, _("Substitute seated."))


@login_required
def session_console(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    objects = session_page(tournament, number)
    session = objects["session"]
    substitute_form = SubstituteForm(request.POST or None, tournament=tournament)
    if request.method == "POST":
        back = redirect("tournaments:session", slug=slug, number=number)
        done = perform(request, substitute_form, substitute, back=back, **objects)
        if done is not None:
            return done
    tables = session_tables(session)
    context = {
        **objects,
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


# The session clock (EMA 2025 7.4): pause, resume, extend, or set the length before the
# start. Every change is audited by the service.
MINUTES = gettext_lazy("Minutes: give a whole number.")


@write()
def pause(request: HttpRequest, v: Values) -> None:
    tournament_services.pause_session(actor=request.user, session=v["session"])
    messages.success(request, _("Clock paused."))


@write()
def resume(request: HttpRequest, v: Values) -> None:
    tournament_services.resume_session(actor=request.user, session=v["session"])
    messages.success(request, _("Clock running again."))


@write(MinutesForm, invalid=MINUTES)
def extend(request: HttpRequest, v: Values) -> None:
    n = v["minutes"]
    tournament_services.extend_session(
        actor=request.user, session=v["session"], minutes=n, reason=v["reason"]
    )
    said = (
        ngettext("%(n)s minute added.", "%(n)s minutes added.", n)
        if n >= 0
        else ngettext("%(n)s minute taken off.", "%(n)s minutes taken off.", -n)
    )
    messages.success(request, said % {"n": abs(n)})


@write(MinutesForm, invalid=MINUTES)
def set_length(request: HttpRequest, v: Values) -> None:
    n = v["minutes"]
    tournament_services.set_session_length(actor=request.user, session=v["session"], minutes=n)
    said = ngettext("The session lasts %(n)s minute.", "The session lasts %(n)s minutes.", n)
    messages.success(request, said % {"n": n})


@write()
def start(request: HttpRequest, v: Values) -> None:
    tournament_services.start_session(actor=request.user, session=v["session"])
    messages.success(request, _("Session started."))


@write()
def close(request: HttpRequest, v: Values) -> None:
    tournament_services.close_session(actor=request.user, session=v["session"])
    messages.success(request, _("Session closed."))


@write(OptionalReasonForm)
def reopen(request: HttpRequest, v: Values) -> None:
    """Issue 15: the organiser's override of locked results, with a reason (audited; the
    service refuses none); after publication the results are provisional until re-published."""
    tournament_services.reopen_session(actor=request.user, session=v["session"], reason=v["reason"])
    messages.success(request, _("Session reopened: its results are provisional again."))


session_clock_action = console_post(
    "tournaments:session",
    {"pause": pause, "resume": resume, "extend": extend, "length": set_length},
    load=session_page,
)
session_action = console_post(
    "tournaments:session", {"start": start, "close": close, "reopen": reopen}, load=session_page
)


# ---------------------------------------------------------------- penalties


@write(PenaltyForm, for_tournament=True)
def add_penalty(request: HttpRequest, v: Values) -> None:
    tournament = v["tournament"]
    tournament_services.add_penalty(
        actor=request.user,
        tournament=tournament,
        player=v["player"],
        kind=v["kind"],
        points=v.get("points"),
        minutes_late=v.get("minutes_late"),
        seconds_late=v.get("seconds_late"),
        session=numbered_session(tournament, v["session"]) if v.get("session") else None,
        reason=v["reason"],
    )
    messages.success(request, _("Penalty recorded."))


@write(TablePenaltyForm, prefix="table")
def penalise_table(request: HttpRequest, v: Values) -> None:
    """EMA 2025 7.5: a score-sheet penalty for every player of a table at once."""
    given = tournament_services.add_table_penalty(
        actor=request.user,
        tournament=v["tournament"],
        session=numbered_session(v["tournament"], v["session"]),
        table_number=v["table"],
        reason=v["reason"],
    )
    said = ngettext(
        "Score-sheet penalty recorded for %(n)d player.",
        "Score-sheet penalty recorded for each of the %(n)d players.",
        len(given),
    )
    messages.success(request, said % {"n": len(given)})


@write(ReasonForm, invalid=gettext_lazy("Give a reason to cancel a penalty."))
def cancel_penalty(request: HttpRequest, v: Values) -> None:
    tournament_services.cancel_penalty(actor=request.user, penalty=v["penalty"], reason=v["reason"])
    messages.success(request, _("Penalty cancelled."))


PENALTIES = ConsolePage(
    "tournaments:penalties",
    "tournaments/console/penalties.html",
    {"form": add_penalty, "table_form": penalise_table},
    lambda request, tournament: {
        "rows": tournament.penalties.select_related("player", "session").order_by("-created_at")
    },
)
penalties = page_view(PENALTIES, "form")
penalty_table = page_view(PENALTIES, "table_form", post_only=True)
penalty_cancel = console_post(
    "tournaments:penalties", cancel_penalty, load=one_of("penalty", Penalty, "penalty_id")
)
