"""The organiser console: create, register, seat, run sessions, penalties, publish.

Every write goes through tournaments.services; errors come back next to the field they name.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.errors import PermissionDenied as ServicePermissionDenied
from club.errors import ServiceError, ServiceUnavailable, ValidationFailed
from scoring.engine import PRESETS
from scoring.models import Game
from tournaments import roles
from tournaments.forms import (
    ApplyPlanForm,
    CsvImportForm,
    PenaltyForm,
    ReasonForm,
    RegistrationForm,
    SeatingPlanUploadForm,
    SeatingRequestForm,
    SubstituteForm,
    SwapSeatsForm,
    TournamentCreateForm,
    rules_diff,
)
from tournaments.models import Penalty, Registration, Seat, SeatingPlan, Session, Tournament

SIGNAL_MINUTES = 15  # EMA 2025 7.4: a clear signal when 15 minutes remain


def session_clock(session: Session, now: datetime | None = None) -> dict[str, Any]:
    """Where a timed session stands (EMA 2025 7.4).

    ``state``: "not_started"; "playing"; "signal" (15 minutes or less left: finish the current
    hand, then play one more); "time_up" (no signal at the end: tables finish the hands above).
    """
    now = now or timezone.now()
    if session.started_at is None:
        return {"state": "not_started", "remaining": None, "ends_at": None, "signal_at": None}
    ends_at = session.started_at + timedelta(minutes=session.duration_minutes)
    signal_at = ends_at - timedelta(minutes=SIGNAL_MINUTES)
    remaining = int((ends_at - now).total_seconds())
    if session.closed_at is not None or session.status == Session.Status.CLOSED:
        state = "closed"
    elif now < signal_at:
        state = "playing"
    elif now < ends_at:
        state = "signal"
    else:
        state = "time_up"
    return {
        "state": state,
        "remaining": max(remaining, 0),
        "ends_at": ends_at,
        "signal_at": signal_at,
    }


def organiser_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
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
        for row in rows:
            where = row.get("row") or row.get("hand") or row.get("field") or ""
            text = f"{where}: {row.get('message')}" if where != "" else str(row.get("message"))
            if form is not None:
                form.add_error(None, text)
            else:
                messages.error(request, text)
        return False, None


def services() -> Any:
    import tournaments.services as tournament_services

    return tournament_services


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
                services().create_tournament,
                name=data["name"],
                slug=data["slug"],
                ruleset=data["ruleset"],
                rule_overrides=data["rule_overrides"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                city=data["city"],
                country=data["country"],
                sessions_planned=data["sessions_planned"],
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


@login_required
def console(request: HttpRequest, slug: str) -> HttpResponse:
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
    }
    return render(request, "tournaments/console/overview.html", context)


@login_required
@require_POST
def tournament_publish(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    ok, _result = run_service(request, None, services().publish_results, tournament=tournament)
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
            request, None, services().set_status, tournament=tournament, status=status
        )
        if ok:
            messages.success(request, _("Status changed."))
    return redirect("tournaments:console", slug=slug)


# ---------------------------------------------------------------- registrations


@login_required
def registrations(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    add_form = RegistrationForm(prefix="add")
    import_form = CsvImportForm(prefix="csv")
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "add":
            add_form = RegistrationForm(request.POST, prefix="add")
            if add_form.is_valid():
                data = add_form.cleaned_data
                ok, _reg = run_service(
                    request,
                    add_form,
                    services().register_player,
                    tournament=tournament,
                    first_name=data["first_name"],
                    last_name=data["last_name"],
                    ema_number=data["ema_number"] or None,
                    country=data["country"],
                    club_name=data["club_name"],
                    is_substitute=data["is_substitute"],
                )
                if ok:
                    messages.success(request, _("Player registered."))
                    return redirect("tournaments:registrations", slug=slug)
        elif action == "import":
            import_form = CsvImportForm(request.POST, request.FILES, prefix="csv")
            if import_form.is_valid():
                ok, created = run_service(
                    request,
                    import_form,
                    services().import_registrations_csv,
                    tournament=tournament,
                    text=import_form.cleaned_data["csv"],
                )
                if ok:
                    messages.success(
                        request, _("%(n)s players imported.") % {"n": len(created or [])}
                    )
                    return redirect("tournaments:registrations", slug=slug)
        status = 400
    rows = tournament.registrations.select_related("player").order_by(
        "dropped_at", "is_substitute", "player__last_name"
    )
    context = {
        "tournament": tournament,
        "rows": rows,
        "add_form": add_form,
        "import_form": import_form,
    }
    return render(request, "tournaments/console/registrations.html", context, status=status)


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
            services().drop_player,
            registration=registration,
            reason=form.cleaned_data["reason"],
        )
        if ok:
            messages.success(request, _("Player dropped."))
    return redirect("tournaments:registrations", slug=slug)


# ---------------------------------------------------------------- seating


def seated_quality(tournament: Tournament) -> dict[str, Any] | None:
    """The quality report (tournaments.seating.quality) of the sessions seated so far, or
    None while fewer than one full session is seated or the seating is irregular."""
    from tournaments.seating import SeatingError, quality

    index: dict[int, int] = {}
    plan: list[list[list[int]]] = []
    sessions = tournament.sessions.order_by("number").prefetch_related("tables__seats")
    for session in sessions:
        tables = []
        for table in sorted(session.tables.all(), key=lambda t: t.number):
            seats = sorted(table.seats.all(), key=lambda s: s.wind)
            tables.append([index.setdefault(s.player_id, len(index)) for s in seats])
        if tables:
            plan.append(tables)
    if not plan:
        return None
    try:
        return quality(plan).to_dict()
    except SeatingError:
        return None


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
        "plans": tournament.seating_plans.order_by("-created_at")[:10],
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
            services().request_seating_plan,
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
                request, swap_form, services().swap_seats, session=session, a=data["a"], b=data["b"]
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
            services().upload_seating_plan,
            tournament=tournament,
            text=upload_form.cleaned_data["text"],
        )
        if ok:
            messages.success(request, _("Seating plan uploaded."))
            return redirect("tournaments:seating_plan", slug=slug, plan_id=plan.pk)
    return render_seating_console(request, tournament, upload_form=upload_form, status=400)


def plan_tables(plan: SeatingPlan) -> list[list[list[str]]]:
    """The plan's registration ids as player names: rounds -> tables -> 4 names."""
    if not plan.plan:
        return []
    names = {
        r.pk: str(r.player)
        for r in Registration.objects.filter(tournament_id=plan.tournament_id).select_related(
            "player"
        )
    }
    return [
        [[names.get(rid, f"#{rid}") for rid in table] for table in round_] for round_ in plan.plan
    ]


@login_required
def seating_plan(request: HttpRequest, slug: str, plan_id: int) -> HttpResponse:
    """A plan's progress (htmx polls this while it runs), then its quality report."""
    tournament = organiser_tournament(request, slug)
    plan = get_object_or_404(SeatingPlan, pk=plan_id, tournament=tournament)
    apply_form = ApplyPlanForm(request.POST or None)
    if request.method == "POST" and apply_form.is_valid():
        ok, _result = run_service(
            request,
            apply_form,
            services().apply_seating_plan,
            plan=plan,
            from_session=apply_form.cleaned_data["from_session"],
        )
        if ok:
            messages.success(request, _("Seating applied: tables and games are ready."))
            return redirect("tournaments:console", slug=slug)
    context = {
        "tournament": tournament,
        "plan": plan,
        "percent": round(100 * (plan.progress or 0)),
        "running": plan.status in (SeatingPlan.Status.PENDING, SeatingPlan.Status.RUNNING),
        "rounds": plan_tables(plan) if plan.status == SeatingPlan.Status.DONE else [],
        "apply_form": apply_form,
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
                services().substitute_player,
                game=game,
                seat=int(data["seat"]),
                substitute=data["substitute"],
                reason=data["reason"],
                from_=data["from_"],
            )
            if ok:
                messages.success(request, _("Substitute seated."))
                return redirect("tournaments:session", slug=slug, number=number)
    tables: list[dict[str, Any]] = []
    for table in session.tables.prefetch_related("seats__player"):
        game = Game.objects.filter(table=table).first()
        tables.append({"table": table, "seats": list(table.seats.all()), "game": game})
    context = {
        "tournament": tournament,
        "session": session,
        "clock": session_clock(session),
        "tables": tables,
        "unfinished": sum(
            1 for t in tables if t["game"] and t["game"].status != Game.Status.FINISHED
        ),
        "substitute_form": substitute_form,
        "winds": Seat.WINDS,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/console/_clock.html", context)
    status = 400 if substitute_form.errors else 200
    return render(request, "tournaments/console/session.html", context, status=status)


@login_required
@require_POST
def session_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    tournament = organiser_tournament(request, slug)
    session = get_object_or_404(Session, tournament=tournament, number=number)
    service = {"start": services().start_session, "close": services().close_session}.get(action)
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
                services().add_penalty,
                tournament=tournament,
                player=data["player"],
                kind=data["kind"],
                points=data.get("points"),
                minutes_late=data.get("minutes_late"),
                session=session,
                reason=data["reason"],
            )
            if ok:
                messages.success(request, _("Penalty recorded."))
                return redirect("tournaments:penalties", slug=slug)
    rows = tournament.penalties.select_related("player", "session").order_by("-created_at")
    status = 400 if form.errors else 200
    return render(
        request,
        "tournaments/console/penalties.html",
        {"tournament": tournament, "form": form, "rows": rows},
        status=status,
    )


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
            services().cancel_penalty,
            penalty=penalty,
            reason=form.cleaned_data["reason"],
        )
        if ok:
            messages.success(request, _("Penalty cancelled."))
    return redirect("tournaments:penalties", slug=slug)
