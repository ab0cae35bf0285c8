"""Seating: requesting a plan (the worker computes it), uploading one, swapping two players'
seats, and a plan's page (its progress, then its quality and applying it)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.forms import (
    ApplyPlanForm,
    SeatingPlanUploadForm,
    SeatingRequestForm,
    SwapSeatsForm,
)
from tournaments.models import SeatingPlan
from tournaments.selectors import (
    plan_effect,
    plan_tables,
    recent_seating_plans,
    seated_quality,
    seating_plan_number,
    tournament_seating_plan,
)

from .base import ConsoleFormView, numbered_session


def wind_names() -> list[str]:
    return [_("East"), _("South"), _("West"), _("North")]


class Seating(ConsoleFormView):
    """The seating page and a plan's request: the worker computes it; its page shows the
    progress, then the quality report."""

    page = "tournaments:seating_console"
    template_name = "tournaments/console/seating.html"
    form_class = SeatingRequestForm

    def page_context(self) -> dict[str, Any]:
        return {
            "plans": recent_seating_plans(self.tournament),
            "quality": seated_quality(self.tournament),
        }

    def page_forms(self) -> dict[str, forms.Form]:
        return {
            "form": SeatingRequestForm(),
            "swap_form": SwapSeatsForm(tournament=self.tournament),
            "upload_form": SeatingPlanUploadForm(),
        }

    def save(self, data: dict[str, Any]) -> HttpResponse:
        options: dict[str, Any] = {}
        if data.get("separate_by"):
            options["separate_by"] = data["separate_by"]
            options["separate_rounds"] = data.get("separate_rounds") or 0
        plan = services.request_seating_plan(
            actor=self.request.user,
            tournament=self.tournament,
            mode=data["mode"],
            seed=data["seed"],
            options=options,
        )
        return redirect("tournaments:seating_plan", slug=self.tournament.slug, plan_id=plan.pk)


class SeatingSwap(Seating):
    """Exchange two players' seats in a session; the page shows the quality report again."""

    http_method_names = ["post"]
    form_class = SwapSeatsForm  # type: ignore[assignment]
    form_name = "swap_form"
    form_takes_tournament = True

    def save(self, data: dict[str, Any]) -> None:  # type: ignore[override]
        session = numbered_session(self.tournament, data["session"])
        services.swap_seats(actor=self.request.user, session=session, a=data["a"], b=data["b"])
        messages.success(
            self.request,
            _("%(a)s and %(b)s swapped seats in session %(n)s.")
            % {"a": data["a"], "b": data["b"], "n": session.number},
        )


class SeatingUpload(Seating):
    """A predefined plan from CSV; it opens like a generated plan (quality, then apply)."""

    http_method_names = ["post"]
    form_class = SeatingPlanUploadForm  # type: ignore[assignment]
    form_name = "upload_form"

    def save(self, data: dict[str, Any]) -> HttpResponse:
        plan = services.upload_seating_plan(
            actor=self.request.user, tournament=self.tournament, text=data["text"]
        )
        messages.success(self.request, _("Seating plan uploaded."))
        return redirect("tournaments:seating_plan", slug=self.tournament.slug, plan_id=plan.pk)


class Plan(ConsoleFormView):
    """A plan's progress (htmx polls this while it runs), then its quality report and the
    form that applies it. When seated sessions would be replaced, the page shows the quality
    before and after and asks again (`confirm`)."""

    page = "tournaments:console"  # applied: the tables and games are ready
    template_name = "tournaments/console/seating_plan.html"
    form_class = ApplyPlanForm
    form_name = "apply_form"
    unavailable_status = 200  # the page as it was, with the flash message
    empty_post_is_get = True
    effect: dict[str, Any] | None = None
    plan: SeatingPlan

    def load(self) -> None:
        plan = tournament_seating_plan(self.tournament, self.kwargs["plan_id"])
        if plan is None:
            raise Http404
        self.plan = plan

    def get_initial(self) -> dict[str, Any]:
        return {"from_session": int((self.plan.options or {}).get("from_session") or 1)}

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return ["tournaments/console/_plan_status.html"]
        return [self.template_name]

    def page_context(self) -> dict[str, Any]:
        plan, form = self.plan, self.form_shown
        start = (
            form.cleaned_data["from_session"]
            if form.is_bound and form.is_valid()
            else self.get_initial()["from_session"]
        )
        done = plan.status == SeatingPlan.Status.DONE
        rounds = plan_tables(plan, _("%(name)s (%(rank)s., %(points)s)")) if done else []
        effect = self.effect
        return {
            "plan": plan,
            "plan_number": seating_plan_number(plan),
            "percent": round(100 * (plan.progress or 0)),
            "running": plan.status in (SeatingPlan.Status.PENDING, SeatingPlan.Status.RUNNING),
            "rounds": [{"number": start + i, "tables": tables} for i, tables in enumerate(rounds)],
            "winds": wind_names()[: len(rounds[0][0]) if rounds and rounds[0] else 4],
            "effect": effect if effect and effect["replaced"] else None,
        }

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        self.form_shown = kwargs.get("form") or self.get_form()
        return super().get_context_data(form=self.form_shown)

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if self.request.headers.get("HX-Request"):
            kwargs.pop("status", None)  # the progress fragment: htmx swaps in a 200 only
        return super().render_to_response(context, **kwargs)

    def form_valid(self, form: forms.Form) -> HttpResponse:
        start = form.cleaned_data["from_session"]
        done = self.plan.status == SeatingPlan.Status.DONE
        self.effect = plan_effect(self.plan, start) if done else None
        if self.effect and self.effect["replaced"] and not self.request.POST.get("confirm"):
            return self.render_to_response(self.get_context_data(form=form))
        self.effect = None
        return super().form_valid(form)

    def save(self, data: dict[str, Any]) -> None:
        services.apply_seating_plan(
            actor=self.request.user, plan=self.plan, from_session=data["from_session"]
        )
        messages.success(self.request, _("Seating applied: tables and games are ready."))


seating_console = Seating.as_view()
seating_swap = SeatingSwap.as_view()
seating_upload = SeatingUpload.as_view()
seating_plan = Plan.as_view()
