"""Organiser console forms. They parse and validate input; services do the work."""

from __future__ import annotations

import json
import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.db.models import Case, Value, When
from django.utils.translation import gettext_lazy as _

from core import limits
from core.errors import ValidationFailed
from core.limits import upload_problem
from core.models import Player
from scoring.engine import PRESETS, RulesError, load_ruleset
from tournaments.models import Penalty, Registration, SeatingPlan, Session, Tournament
from tournaments.roster import SessionRoster
from tournaments.selectors import substitute_candidates
from tournaments.standings.labels import TIE_BREAK_LABELS
from tournaments.standings.ranking import DEFAULT_TIE_BREAKS, TIE_BREAKS


def parse_rules_text(text: str) -> dict[str, Any]:
    """``key = value`` lines; values are JSON where they parse (numbers, lists, true), else text."""
    rules: dict[str, Any] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise forms.ValidationError(
                _("Line %(n)s: write key = value.") % {"n": number}, code="format"
            )
        key, value = (part.strip() for part in line.split("=", 1))
        try:
            rules[key] = limits.loads(value)
        except ValidationFailed as error:  # too deep, a number out of range (issue 16.3, 16.7)
            raise forms.ValidationError(
                _("Line %(n)s: %(message)s") % {"n": number, "message": error.message},
                code="limit",
            ) from None
        except ValueError:
            rules[key] = value
    return rules


def rules_text(overrides: dict[str, Any]) -> str:
    return "\n".join(f"{key} = {json.dumps(value)}" for key, value in sorted(overrides.items()))


def rules_diff(preset: str, overrides: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every rule key with the preset's value and the tournament's, flagging the changed ones."""
    base = load_ruleset(preset).to_dict()
    current = load_ruleset(preset, overrides or None).to_dict()
    return [
        {
            "key": key,
            "preset": base[key],
            "value": current[key],
            "changed": base[key] != current[key],
        }
        for key in base
    ]


class TournamentCreateForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Name"))
    slug = forms.SlugField(label=_("Short name (in the address)"))
    ruleset = forms.ChoiceField(label=_("Rules preset"))
    starts_on = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    city = forms.CharField(max_length=100, required=False, label=_("City"))
    country = forms.CharField(max_length=2, required=False, label=_("Country (ISO code)"))
    sessions_planned = forms.IntegerField(min_value=1, max_value=40, initial=4, label=_("Sessions"))
    session_minutes = forms.IntegerField(
        required=False,
        min_value=10,
        max_value=600,
        initial=90,
        label=_("Session length (minutes)"),
        help_text=_("Each session's own length can be changed in the console before it starts."),
    )
    # Issue 33: every time of day of the event's pages, PDFs and hall clock is shown in it.
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False)
    rules = forms.CharField(
        required=False,
        label=_("Rule changes from the preset (key = value per line)"),
        widget=forms.Textarea(
            attrs={"rows": 5, "placeholder": "uma = [15000, 5000, -5000, -15000]"}
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(key, key) for key in sorted(PRESETS)]  # type: ignore[attr-defined]
        self.fields["ruleset"].initial = "ema-2025"
        zones = sorted(zoneinfo.available_timezones())
        self.fields["time_zone"].choices = [(zone, zone) for zone in zones]  # type: ignore[attr-defined]
        self.fields["time_zone"].initial = settings.TIME_ZONE

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"]
        if Tournament.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("This short name is taken."))
        return slug

    def clean_country(self) -> str:
        return str(self.cleaned_data.get("country") or "").upper()

    def clean_session_minutes(self) -> int:
        return int(self.cleaned_data.get("session_minutes") or 90)

    def clean_time_zone(self) -> str:
        return str(self.cleaned_data.get("time_zone") or settings.TIME_ZONE)

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        text = data.get("rules") or ""
        try:
            overrides = parse_rules_text(text)
        except forms.ValidationError as error:
            self.add_error("rules", error)
            return data
        if data.get("ruleset"):
            try:
                load_ruleset(data["ruleset"], overrides or None)
            except RulesError as error:
                self.add_error("rules", getattr(error, "message", str(error)))
        data["rule_overrides"] = overrides
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            self.add_error("ends_on", _("The last day is before the first."))
        return data


class RegistrationForm(forms.Form):
    first_name = forms.CharField(max_length=100, label=_("First name"))
    last_name = forms.CharField(max_length=100, label=_("Last name"))
    ema_number = forms.CharField(max_length=8, required=False, label=_("EMA number"))
    country = forms.CharField(max_length=2, required=False, label=_("Country"))
    club_name = forms.CharField(max_length=200, required=False, label=_("Club"))
    # Issue 31: player (ranked), fill-in (plays every session, never ranked) or reserve (on
    # standby, seated only in place of a player).
    role = forms.ChoiceField(
        choices=Registration.Role.choices,
        required=False,
        initial=Registration.Role.PLAYER,
        label=_("Role"),
    )
    # Issue 32.1: the team's name; a new name creates the team.
    team = forms.CharField(
        max_length=100,
        required=False,
        label=_("Team"),
        widget=forms.TextInput(attrs={"list": "team-names", "autocomplete": "off"}),
    )

    def clean_country(self) -> str:
        return str(self.cleaned_data.get("country") or "").upper()

    def clean_role(self) -> str:
        role = self.cleaned_data.get("role")
        if not role:  # a form of before roles posts the substitute box: a fill-in
            flag = str(self.data.get(self.add_prefix("is_substitute")) or "").lower()
            return Registration.Role.FILL_IN if flag in ("on", "true", "1") else "player"
        return str(role)


class StaffForm(forms.Form):
    identifier = forms.CharField(
        max_length=254,
        label=_("Username or e-mail address"),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    role = forms.ChoiceField(
        choices=[("referee", _("Referee")), ("organiser", _("Co-organiser"))],
        initial="referee",
        label=_("Role"),
    )


class DropForm(forms.Form):
    """One drop action for the whole list: who, and why."""

    registration = forms.ModelChoiceField(
        queryset=Registration.objects.none(), label=_("Player"), empty_label=None
    )
    reason = forms.CharField(max_length=500, label=_("Reason"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["registration"]
        field.queryset = (  # type: ignore[attr-defined]
            Registration.objects.filter(tournament=tournament, dropped_at__isnull=True)
            .select_related("player")
            .order_by("player__last_name", "player__first_name")
        )
        field.label_from_instance = lambda r: str(r.player)  # type: ignore[attr-defined]


class DisqualifyForm(forms.Form):
    """EMA 2025 6.12: disqualify a player (cheating, or further repeated obstruction)."""

    registration = forms.ModelChoiceField(
        queryset=Registration.objects.none(), label=_("Player"), empty_label=None
    )
    reason = forms.CharField(max_length=500, label=_("Reason"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["registration"]
        field.queryset = (  # type: ignore[attr-defined]
            Registration.objects.filter(tournament=tournament, disqualified_at__isnull=True)
            .select_related("player")
            .order_by("player__last_name", "player__first_name")
        )
        field.label_from_instance = lambda r: str(r.player)  # type: ignore[attr-defined]


class CsvImportForm(forms.Form):
    file = forms.FileField(required=False, label=_("CSV file"))
    text = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 4}), label=_("or paste CSV")
    )

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        upload = data.get("file")
        problem = upload_problem(upload) if upload else None
        if problem:  # checked while it streamed in, never read whole (issue 16.8)
            self.add_error("file", problem)
        elif upload:
            try:
                data["csv"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("The file is not UTF-8 text."))
        else:
            data["csv"] = data.get("text") or ""
        if not data.get("csv", "").strip() and not self.errors:
            self.add_error("text", _("Choose a file or paste CSV."))
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, label=_("Reason"))


class OptionalReasonForm(forms.Form):
    """A reason the service checks itself (reopening a session: issue 15)."""

    reason = forms.CharField(required=False)


class StatusForm(forms.Form):
    status = forms.ChoiceField(choices=Tournament.Status.choices)


class MinutesForm(forms.Form):
    """The session clock's extension or length (EMA 2025 7.4): a whole number, which the
    service bounds; the reason as typed."""

    minutes = forms.CharField(strip=False)
    reason = forms.CharField(required=False, strip=False)

    def clean_minutes(self) -> int:
        try:
            return int(self.cleaned_data["minutes"])
        except ValueError as error:
            raise forms.ValidationError(_("Minutes: give a whole number.")) from error


class SeatingRequestForm(forms.Form):
    mode = forms.ChoiceField(
        choices=[
            (SeatingPlan.Mode.RANDOM, _("All sessions, no repeat opponents")),
            (SeatingPlan.Mode.SWISS, _("Swiss: next session by standings")),
        ],
        label=_("Mode"),
    )
    seed = forms.IntegerField(initial=0, min_value=0, max_value=2**31 - 1, label=_("Seed"))
    separate_by = forms.ChoiceField(
        required=False,
        choices=[("", _("Nobody")), ("club", _("Club")), ("country", _("Country"))],
        label=_("Keep players of the same … apart"),
    )
    separate_rounds = forms.IntegerField(
        initial=0,
        min_value=0,
        max_value=32767,
        required=False,
        label=_("… for the first N sessions"),
    )


class ApplyPlanForm(forms.Form):
    from_session = forms.IntegerField(
        min_value=1, max_value=32767, initial=1, label=_("From session")
    )


class PenaltyForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Player"))
    kind = forms.ChoiceField(choices=Penalty.Kind.choices, label=_("Kind"))
    # Bounds of the database columns (issue 16.7): more is a form error, not a crash on save.
    points = forms.IntegerField(min_value=0, max_value=2**31 - 1, required=False, label=_("Points"))
    minutes_late = forms.IntegerField(
        min_value=0, max_value=32767, required=False, label=_("Minutes late")
    )
    # EMA 2025 7.2: "9 minutes and 30 seconds late has a 10,000-point penalty".
    seconds_late = forms.IntegerField(
        min_value=0, max_value=59, required=False, label=_("… and seconds")
    )
    session = forms.IntegerField(
        min_value=1, max_value=32767, required=False, label=_("Session number")
    )
    reason = forms.CharField(max_length=500, label=_("Reason"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(  # type: ignore[attr-defined]
            registrations__tournament=tournament
        )

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        if (
            data.get("kind") == Penalty.Kind.LATENESS
            and data.get("minutes_late") is None
            and data.get("seconds_late") is None
        ):
            self.add_error("minutes_late", _("Give the minutes late (EMA 2025 7.2)."))
        return data


class StandingsSettingsForm(forms.Form):
    """The standings' tie-breaks in order and MERS qualification-only (issue 15); the API's
    PATCH /tournaments/{slug}/ takes the same through the same service."""

    qualification_only = forms.BooleanField(
        required=False,
        label=_("Qualification-only championship (MERS +1)"),
    )
    # Team events (issue 32.1): the API's teams_enabled and team_counted_members.
    teams_enabled = forms.BooleanField(
        required=False,
        label=_("Team event (team standings; team mates seated apart)"),
    )
    team_counted_members = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=100,
        label=_("Team total: the best N members (empty: all)"),
    )
    # Issue 32.3: empty hides nothing.
    standings_hidden_from = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=32767,
        label=_("Hide the standings from session (until the results are published)"),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:

        super().__init__(*args, **kwargs)
        current = list(tournament.tie_breaks or DEFAULT_TIE_BREAKS)
        choices = [("", "—"), *((n, TIE_BREAK_LABELS.get(n, n)) for n in TIE_BREAKS)]
        self.tie_break_names = [f"tie_break_{i}" for i in range(1, len(TIE_BREAKS) + 1)]
        for i, name in enumerate(self.tie_break_names):
            self.fields[name] = forms.ChoiceField(
                choices=choices,
                required=False,
                initial=current[i] if i < len(current) else "",
                label=_("Tie-break %(n)s") % {"n": i + 1},
            )
        self.fields["qualification_only"].initial = tournament.qualification_only
        self.fields["teams_enabled"].initial = tournament.teams_enabled
        self.fields["team_counted_members"].initial = tournament.team_counted_members
        self.fields["standings_hidden_from"].initial = tournament.standings_hidden_from
        self.order_fields(
            [
                *self.tie_break_names,
                "qualification_only",
                "teams_enabled",
                "team_counted_members",
                "standings_hidden_from",
            ]
        )

    def clean(self) -> dict[str, Any]:
        """`tie_breaks`: the chosen ones in order, gaps closed (repeats are the service's
        error)."""
        data: dict[str, Any] = super().clean() or {}
        data["tie_breaks"] = [data[n] for n in self.tie_break_names if data.get(n)]
        return data


class TimeZoneForm(forms.Form):
    """The event's time zone after creation (issue 33): an IANA name; the API's PATCH
    /tournaments/{slug}/ takes the same (`time_zone`) through the same service."""

    time_zone = forms.ChoiceField(label=_("Time zone"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zones = sorted(zoneinfo.available_timezones())
        self.fields["time_zone"].choices = [(zone, zone) for zone in zones]  # type: ignore[attr-defined]
        self.fields["time_zone"].initial = tournament.time_zone


class TablePenaltyForm(forms.Form):
    """EMA 2025 7.5: a score-sheet mistake that cannot be fixed costs each player of the table
    2,000 points: one penalty per player, given at once."""

    session = forms.IntegerField(min_value=1, max_value=32767, label=_("Session number"))
    table = forms.IntegerField(min_value=1, max_value=32767, label=_("Table"))
    reason = forms.CharField(max_length=500, label=_("Reason"))


class SubstituteForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=32767, label=_("Table"))
    seat = forms.ChoiceField(
        choices=[("0", _("East")), ("1", _("South")), ("2", _("West")), ("3", _("North"))],
        label=_("Seat"),
    )
    substitute = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Substitute"))
    from_ = forms.ChoiceField(
        choices=[("start", _("From the start")), ("during", _("During the game"))],
        label=_("When"),
    )
    reason = forms.CharField(max_length=500, label=_("Reason"))

    def __init__(
        self,
        *args: Any,
        tournament: Tournament,
        session: Session | None = None,
        roster: SessionRoster | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # Issue 31: reserves first; nobody seated in the session, dropped or disqualified.
        if session is not None:
            choices = substitute_candidates(session, roster)
        else:
            choices = (
                Player.objects.filter(
                    registrations__tournament=tournament,
                    registrations__role__in=[
                        Registration.Role.RESERVE,
                        Registration.Role.FILL_IN,
                    ],
                    registrations__dropped_at__isnull=True,
                )
                .annotate(
                    reserve_first=Case(
                        When(registrations__role=Registration.Role.RESERVE, then=Value(0)),
                        default=Value(1),
                    )
                )
                .order_by("reserve_first", "last_name", "first_name")
            )
        self.fields["substitute"].queryset = choices  # type: ignore[attr-defined]


class GameRecordImportForm(forms.Form):
    """A JSON file with one game record or a list of them, for one table of a session."""

    session = forms.IntegerField(min_value=1, max_value=32767, label=_("Session number"))
    table = forms.IntegerField(min_value=1, max_value=32767, label=_("Table number"))
    file = forms.FileField(label=_("Game record file (JSON)"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        problem = upload_problem(upload)  # size and type seen while it streamed in
        if problem:
            raise forms.ValidationError(problem)
        name = (upload.name or "").lower()
        if not name.endswith(".json"):
            raise forms.ValidationError(_("Upload a .json file."))
        try:
            document = limits.loads(upload.read().decode("utf-8-sig"))
        except ValidationFailed as error:  # too deep, a number out of range (issue 16.3, 16.7)
            raise forms.ValidationError(f"{error.field}: {error.message}") from None
        except (UnicodeDecodeError, ValueError):
            raise forms.ValidationError(_("The file is not valid JSON.")) from None
        records = document if isinstance(document, list) else [document]
        if not records or not all(isinstance(r, dict) for r in records):
            raise forms.ValidationError(_("Expected one game record or a list of game records."))
        self.cleaned_data["records"] = records
        return upload


class SeatingPlanUploadForm(forms.Form):
    """A predefined plan: round,table,east,south,west,north (1-based player numbers)."""

    file = forms.FileField(label=_("Seating plan (CSV)"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        problem = upload_problem(upload)  # size and type seen while it streamed in
        if problem:
            raise forms.ValidationError(problem)
        try:
            self.cleaned_data["text"] = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        return upload


class SwapSeatsForm(forms.Form):
    session = forms.IntegerField(min_value=1, max_value=32767, label=_("Session number"))
    a = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Player"))
    b = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Swap with"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(registrations__tournament=tournament).order_by(
            "last_name", "first_name"
        )
        self.fields["a"].queryset = players  # type: ignore[attr-defined]
        self.fields["b"].queryset = players  # type: ignore[attr-defined]
