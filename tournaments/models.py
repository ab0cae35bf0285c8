"""Tournaments, their staff, registrations, sessions, table seating, penalties and standings."""

import uuid
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.models import Player, country_validator
from scoring.engine.constants import WIND_NAMES
from scoring.models import Game


def default_time_zone() -> str:
    return str(settings.TIME_ZONE)


def time_zone_validator(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("%(value)s is not a time zone (e.g. Europe/Rome)."), params={"value": value}
        )


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        PUBLISHED = "published", _("Results published")

    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True)
    # The rules: a preset of scoring.engine plus validated overrides (scoring.engine.load_ruleset).
    ruleset = models.CharField(max_length=40, default="ema-2025")
    rule_overrides = models.JSONField(default=dict, blank=True)
    starts_on = models.DateField()
    ends_on = models.DateField()
    city = models.CharField(max_length=100, blank=True)
    country = models.CharField(max_length=2, blank=True, validators=[country_validator])
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    sessions_planned = models.PositiveSmallIntegerField(default=4)
    session_minutes = models.PositiveSmallIntegerField(default=90)
    # Standings tie-breaks, applied in order after total result (tournaments.standings).
    tie_breaks = models.JSONField(default=list, blank=True)
    qualification_only = models.BooleanField(default=False)  # MERS: +1 for such championships
    # Set when a standings update could not be queued (broker down): the next update rebuilds
    # the whole table instead of one game, and a periodic task catches up meanwhile.
    standings_stale = models.BooleanField(default=False)
    # Renewed with every change of the standings rows (or of what they show, such as a player's
    # name): the key of the cached standings answers and the ETag phones revalidate with. A
    # random value, never a counter, so that a restored backup or a reused id never meets an
    # answer cached for other rows.
    standings_version = models.UUIDField(default=uuid.uuid4)
    # Issue 32.3: from this session on, the public standings are those before it and the
    # session's game results are its tables' and the staff's only, until the results are
    # published (tournaments.standings.selectors.public_standings). None: nothing hidden.
    standings_hidden_from = models.PositiveSmallIntegerField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Issue 33: where the event is played. Every time of day its pages, PDFs and hall clock
    # show is in this zone (an IANA name such as "Europe/Rome"; default: settings.TIME_ZONE).
    time_zone = models.CharField(
        max_length=64, default=default_time_zone, validators=[time_zone_validator]
    )
    # Self-registration (issue 35, docs/sign-ups.md): places (none: unlimited; the rest wait,
    # first come first served), the closing time, organiser approval, and at most
    # `country_quota` players per country until `country_quota_until` (then open).
    capacity = models.PositiveIntegerField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    signup_approval = models.BooleanField(default=False)
    country_quota = models.PositiveSmallIntegerField(null=True, blank=True)
    country_quota_until = models.DateTimeField(null=True, blank=True)
    # Team events (issue 32.1, docs/teams.md): registrations belong to a Team; the team
    # standings sum the members' totals, or only the best `team_counted_members` (None: all).
    teams_enabled = models.BooleanField(default=False)
    team_counted_members = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name


class StaffRole(models.Model):
    """A user's role in one tournament: object-level permissions hang on this."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        REFEREE = "referee", _("Referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(max_length=10, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "role"], name="unique_staff_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) at {self.tournament}"


class Team(models.Model):
    """A team of a team event (issue 32.1): its members are registrations; kept apart by
    seating as a group; ranked in the team standings (tournaments.standings.teams)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=100)
    # The team page's address (/t/<slug>/teams/<slug>/); never all digits, which is an id.
    slug = models.SlugField(max_length=110)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_team_name"),
            models.UniqueConstraint(fields=["tournament", "slug"], name="unique_team_slug"),
        ]

    def __str__(self) -> str:
        return self.name


def _role_from_flag(kwargs: dict[str, Any]) -> None:
    """Before roles (issue 31) a flag said fill-in: is_substitute=True still registers one."""
    if "is_substitute" in kwargs:
        flag = kwargs.pop("is_substitute")
        kwargs.setdefault("role", Registration.Role.FILL_IN if flag else Registration.Role.PLAYER)


class Registration(models.Model):
    class Role(models.TextChoices):
        # Ranked; seated by plans.
        PLAYER = "player", _("Player")
        # Plays every session to complete the tables, never ranked (issue 17.3's substitute).
        FILL_IN = "fill-in", _("Fill-in")
        # On standby: never seated by a plan, only in place of a player (EMA 2025 7.3).
        RESERVE = "reserve", _("Reserve")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    club_name = models.CharField(max_length=200, blank=True)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="members"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    # Read-only, kept by the database: the flag of before roles (API, exports, filters).
    is_substitute = models.GeneratedField(
        expression=models.Q(role="fill-in"),  # type: ignore[arg-type]  # a Q is a condition
        output_field=models.BooleanField(),
        db_persist=True,
    )
    dropped_at = models.DateTimeField(null=True, blank=True)
    drop_reason = models.TextField(blank=True)
    # EMA 2025 6.12: "A player caught cheating will be immediately disqualified"; "Further
    # repeated obstructive behaviour results in immediate disqualification". A disqualified
    # player is also dropped (never seated again) and is not ranked (docs/standings.md).
    disqualified_at = models.DateTimeField(null=True, blank=True)
    disqualification_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="unique_tournament_registration"
            )
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _role_from_flag(kwargs)
        super().__init__(*args, **kwargs)
        if "role" in self.__dict__ and "is_substitute" not in self.__dict__:
            self.is_substitute = self.role == self.Role.FILL_IN  # what the database will say

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        self.is_substitute = self.role == self.Role.FILL_IN  # an UPDATE does not read it back

    @property
    def ranked(self) -> bool:
        return self.role == self.Role.PLAYER and self.disqualified_at is None

    @property
    def planned(self) -> bool:
        """Seated by plans: players and fill-ins still in the tournament (not reserves)."""
        return self.role != self.Role.RESERVE and self.dropped_at is None


class Session(models.Model):
    """One round of play in a tournament (EMA: a hanchan per table)."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        SEATED = "seated", _("Seated")
        RUNNING = "running", _("Running")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(null=True, blank=True)
    duration_minutes = models.PositiveSmallIntegerField(default=90)
    started_at = models.DateTimeField(null=True, blank=True)
    # When its tables were last seated: a player registered later has no seat (issue 31).
    seated_at = models.DateTimeField(null=True, blank=True)
    # The clock (tournaments.clock): set while the organiser has paused it; the seconds of
    # earlier pauses add to the session's end.
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(default=0)
    closed_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    # Issue 32.5: played on Tenhou or Mahjong Soul; each table's game is imported from its log
    # (tournaments.services.online).
    online = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_session_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} session {self.number}"


class Table(models.Model):
    """A table of a session; its seats are in wind order East, South, West, North."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # The game played at this table (`game.table` from the game's side). The tournament owns
    # the link, so scoring knows nothing of tables (issue 14); deleting the table deletes its
    # game (tournaments.apps), deleting the game leaves the table empty.
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="table"
    )
    # Issue 35.3: this table's own time (a referee call delayed it): its time signal, and so
    # its finish on time (EMA 2025 7.4), come `extra_minutes` after the session's; with
    # `one_more_hand` the table was allowed one more hand than the rule's: it may start one
    # more hand after the grant, and finalize on time waits until a hand past
    # `one_more_hand_after` (the hands entered when it was granted) is entered.
    extra_minutes = models.PositiveSmallIntegerField(default=0)
    one_more_hand = models.BooleanField(default=False)
    one_more_hand_after = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return f"{self.session} table {self.number}"


def delete_game_with_table(sender: Any, instance: Table, **kwargs: Any) -> None:
    """post_delete of a Table (connected in tournaments.apps): its game goes with it, as it did
    when the game held the link (issue 14)."""
    if instance.game_id is not None:
        Game.objects.filter(pk=instance.game_id).delete()


class Seat(models.Model):
    WINDS = list(WIND_NAMES)  # stable names (API, str); pages use WIND_LABELS
    WIND_LABELS = (_("East"), _("South"), _("West"), _("North"))  # in the reader's language

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    wind = models.PositiveSmallIntegerField()  # 0 East .. 3 North: the starting seat
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_seats")

    class Meta:
        ordering = ["table", "wind"]
        constraints = [
            models.UniqueConstraint(fields=["table", "wind"], name="unique_table_wind"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.WINDS[self.wind]} {self.player}"


class SeatingPlan(models.Model):
    """A generated seating for all remaining sessions (or one Swiss session), built by Celery."""

    class Mode(models.TextChoices):
        RANDOM = "random", _("All sessions, no repeat opponents")
        SWISS = "swiss", _("Swiss: next session by standings")
        UPLOADED = "uploaded", _("Uploaded plan")
        # Issue 32.2: a final's next session, 1-4 at table 1, 5-8 at table 2, ...
        STANDING = "standing", _("By standing: next session, 1-4 at table 1, ...")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="seating_plans"
    )
    mode = models.CharField(max_length=10, choices=Mode.choices)
    seed = models.IntegerField(default=0)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    progress = models.FloatField(default=0.0)
    # rounds -> tables -> registration ids in seat order E, S, W, N
    plan = models.JSONField(null=True, blank=True)
    quality = models.JSONField(null=True, blank=True)
    # What the plan was made from (issue 31): how many players and fill-ins it seats, the
    # reserves it leaves out, and for Swiss the standings it used and each player's rank then.
    basis = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.tournament} seating #{self.pk} ({self.mode}, {self.status})"


class Penalty(models.Model):
    class Kind(models.TextChoices):
        CHOMBO = "chombo", _("Chombo")
        LATENESS = "lateness", _("Lateness")
        OBSTRUCTION = "obstruction", _("Obstruction")
        SCORE_SHEET = "score_sheet", _("Score sheet")
        ALL_LAST_SHEET = "all_last_sheet", _("All-last sheet")
        OTHER = "other", _("Other")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    points = models.PositiveIntegerField()  # deducted after uma
    minutes_late = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.TextField()
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancel_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "penalties"

    def __str__(self) -> str:
        cancelled = " (cancelled)" if self.cancelled_at else ""
        return f"{self.player}: {self.get_kind_display()} -{self.points}{cancelled}"


class StandingRow(models.Model):
    """A computed standings row (written by the standings task; read by pages and the API)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # None for substitutes and disqualified players (shown, not ranked)
    rank = models.PositiveIntegerField(null=True)
    total = models.IntegerField()  # in points, after uma, oka and penalties
    penalties = models.IntegerField(default=0)
    games = models.PositiveSmallIntegerField(default=0)
    average_placement = models.FloatField(null=True)
    per_session = models.JSONField(default=list)
    tie_break_values = models.JSONField(default=list)
    # Not ranked as a substitute: a fill-in or a reserve (role says which; issue 31).
    is_substitute = models.BooleanField(default=False)
    role = models.CharField(max_length=10, default="player", db_default="player")
    dropped = models.BooleanField(default=False)
    disqualified = models.BooleanField(default=False)  # EMA 2025 6.12: shown, not ranked
    # Issue 32.2, cuts: `qualified` for the players still in after the last cut (ranked
    # first); `out_after_session` names the cut a player went out at (ranked below the
    # qualified, in their order at that cut). Both unset while the tournament has no cut.
    qualified = models.BooleanField(default=False, db_default=False)
    out_after_session = models.PositiveSmallIntegerField(null=True, blank=True)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "rank", "-total"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_standing_row")
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.rank or '-'}. {self.player} {self.total}"

    @property
    def substituted(self) -> bool:
        """A substitute played one of the player's seats (EMA 2025 7.3: -15,000 and -15,000
        uma for that session)."""
        return any(e.get("substituted") for e in self.per_session or [])

    @property
    def marks(self) -> list[str]:
        """The marks every standings view shows (issue 31), in this order: disqualified or
        dropped, substituted, fill-in or reserve."""
        out = []
        if self.disqualified:
            out.append("disqualified")
        elif self.dropped:
            out.append("dropped")
        if self.substituted:
            out.append("substituted")
        if self.is_substitute:
            out.append("reserve" if self.role == "reserve" else "fill-in")
        if self.qualified:
            out.append("qualified")
        elif self.out_after_session is not None:
            out.append("cut")
        return out

    @property
    def all_penalties(self) -> int:
        """Every deduction after uma: the tournament penalties (``penalties``) and what the
        player's counted games deducted, each chombo above all (EMA 2025 3.4.6; already in
        the game results). What the penalty columns show (page, CSV, results PDF); the
        per-game ``penalty`` as tournaments.standings.ranking.game_penalties reads it."""
        return self.penalties + sum(
            int(e.get("penalty") or 0) for e in self.per_session or [] if not e.get("as_substitute")
        )


class Cut(models.Model):
    """Issue 32.2: after session `after_session` the field is cut to its top `top` players,
    who alone play the following sessions; the others keep their place at the cut, below."""

    class Seating(models.TextChoices):
        STANDING = "standing", _("By standing (1-4 at table 1, 5-8 at table 2, ...)")
        SWISS = "swiss", _("Swiss among the qualified players")

    class Winds(models.TextChoices):
        STANDING = "standing", _("By standing (the best placed is East)")
        # "Drawn" as in drawn by lot, not a drawn hand: the context tells the translators.
        DRAWN = "drawn", pgettext_lazy("winds", "Drawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="cuts")
    after_session = models.PositiveSmallIntegerField()
    top = models.PositiveIntegerField()
    # True: the qualified players keep their points; False: they start again from zero.
    carry_over = models.BooleanField(default=True)
    seating = models.CharField(max_length=10, choices=Seating.choices, default=Seating.STANDING)
    winds = models.CharField(max_length=10, choices=Winds.choices, default=Winds.STANDING)
    seed = models.IntegerField(default=0)  # for drawn winds and a tie no tie-break settles
    # The field at the cut, best first: {"player", "name", "rank", "total", "qualified"}.
    order = models.JSONField(default=list)
    # How the cut line was drawn (shown): {"rank", "tie", "decided_by", "players", ...}.
    line = models.JSONField(default=dict)
    # What the cut planned beyond the tournament's plan, for undo_cut to take back: the
    # tournament's sessions_planned before the cut raised it for the session after it (None:
    # not raised), and whether the cut created that session.
    sessions_planned_before = models.PositiveSmallIntegerField(null=True, blank=True)
    created_session = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "after_session"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "after_session"], name="unique_cut")
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: top {self.top} after session {self.after_session}"

    @property
    def qualified_ids(self) -> list[int]:
        return [int(o["player"]) for o in self.order if o.get("qualified")]


class SignUp(models.Model):
    """A self-registration (issue 35): kept beside the Registration it becomes, with the
    e-mail address (organisers only) and the private token of the registrant's status page."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        WAITING = "waiting", _("Waiting list")
        PENDING = "pending", _("Awaiting approval")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REFUSED = "refused", _("Refused")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sign_ups")
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    # fold(first + last): duplicates are refused accent- and case-insensitively.
    name_key = models.CharField(max_length=210, db_index=True)
    country = models.CharField(max_length=2, validators=[country_validator])
    # Emptied a while after the event (SIGNUP_EMAIL_RETENTION_DAYS) and on erasure.
    email = models.EmailField(blank=True)
    ema_number = models.CharField(max_length=8, blank=True)
    club = models.CharField(max_length=200, blank=True)
    # A team event's team, by name (docs/teams.md): the registration joins it, creating it on
    # first use, when the sign-up gets its place.
    team = models.CharField(max_length=100, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices)
    token = models.CharField(max_length=64, unique=True)
    registration = models.OneToOneField(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sign_up",
    )
    consent_at = models.DateTimeField()
    # Privacy (issue 35.5, docs/privacy.md): the registrant asked for erasure from the private
    # link; an organiser or a site admin carried it out.
    erasure_requested_at = models.DateTimeField(null=True, blank=True)
    erased_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"


class RefereeCall(models.Model):
    """A table asks for a referee (issue 35.2): open, then acknowledged by a referee (on the
    way), then closed."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACKNOWLEDGED = "acknowledged", _("Acknowledged")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="referee_calls"
    )
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"referee call, table {self.table_id} ({self.status})"


class OnlineSite(models.TextChoices):
    TENHOU = "tenhou", "Tenhou"
    MAHJONGSOUL = "mahjongsoul", "Mahjong Soul"


class OnlineName(models.Model):
    """A registration's name on an online site, remembered for the tournament: the next
    session's logs map themselves (issue 32.5)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    site = models.CharField(max_length=20, choices=OnlineSite.choices)
    name = models.CharField(max_length=100)
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="online_names"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "site", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "site", "name"], name="unique_tournament_online_name"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.site}:{self.name} -> registration {self.registration_id}"


class OnlineTableLog(models.Model):
    """The online log a table's game was imported from (issue 32.5): the site's log id (a log
    is imported once per tournament), who sat where, and how our engine's replay compared with
    what the site paid (kept and shown, never hidden)."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="online_log")
    site = models.CharField(max_length=20, choices=OnlineSite.choices)
    log_id = models.CharField(max_length=200, blank=True)
    players = models.JSONField(default=list)  # per seat: name, registration, player
    comparison = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.site}:{self.log_id or '-'} -> table {self.table_id}"
