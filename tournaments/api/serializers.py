"""Per-endpoint input and output serializers for tournaments and everything in them."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from core.api.base import inline_choice_field
from core.api.serializers import LookupSlugField, PlayerBriefSerializer
from core.limits import MAX_SESSIONS, upload_problem
from core.models import Player, country_validator, ema_number_validator
from scoring.api.serializers import VersionInputSerializer
from scoring.engine import PRESETS
from tournaments.models import (
    OnlineSite,
    Penalty,
    Registration,
    Seat,
    SeatingPlan,
    Session,
    StaffRole,
    StandingRow,
    Table,
    Tournament,
)
from tournaments.roster import RosterSeat
from tournaments.selectors import session_roster
from tournaments.standings.asof import hidden_from
from tournaments.standings.ranking import game_penalties
from tournaments.standings.selectors import public_standings, standings_queryset


# ---- output ---------------------------------------------------------------------------------
class TournamentSerializer(serializers.ModelSerializer):
    rule_overrides = serializers.JSONField()
    tie_breaks = serializers.JSONField()
    status = inline_choice_field(Tournament.Status.choices, read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "slug",
            "name",
            "ruleset",
            "rule_overrides",
            "starts_on",
            "ends_on",
            "city",
            "country",
            "status",
            "sessions_planned",
            "session_minutes",
            "tie_breaks",
            "qualification_only",
            "published_at",
            # Self-registration (issue 35).
            "capacity",
            "registration_closes",
            "signup_approval",
            "country_quota",
            "country_quota_until",
            # Team events (issue 32.1).
            "teams_enabled",
            "team_counted_members",
            # Issue 33: every time of day the event shows is in it.
            "time_zone",
            # Issue 32.3.
            "standings_hidden_from",
        ]
        extra_kwargs = {
            "team_counted_members": {
                "help_text": "Team standings count the best N members of each team; null: all."
            },
            "standings_hidden_from": {
                "help_text": "From this session on, the public standings are those before it "
                "and the session's game results are its tables' and the staff's only, until "
                "the results are published. Null: nothing hidden."
            },
        }


class StaffRoleSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    role = inline_choice_field(StaffRole.Role.choices, read_only=True)

    class Meta:
        model = StaffRole
        fields = ["id", "username", "role"]


class RegistrationSerializer(serializers.ModelSerializer):
    """A registration. Issue 16: the drop reason is private to the tournament's organisers; for
    anyone else (the public, players, referees) it is null. The view says who may see it by
    passing `show_drop_reason=True` in the context."""

    player = PlayerBriefSerializer()
    role = inline_choice_field(
        Registration.Role.choices,
        read_only=True,
        help_text="player (ranked), fill-in (plays every session to complete the tables, never "
        "ranked) or reserve (on standby: seated only in place of a player, EMA 2025 7.3).",
    )
    is_substitute = serializers.BooleanField(
        read_only=True, help_text='Read-only: role == "fill-in" (the flag of before roles).'
    )
    drop_reason = serializers.SerializerMethodField(
        help_text="Why the player was dropped: only for the tournament's organisers, else null."
    )
    team = serializers.CharField(
        source="team.name",
        read_only=True,
        allow_null=True,
        help_text="The name of the player's team (issue 32.1), null for none.",
    )

    class Meta:
        model = Registration
        fields = [
            "id",
            "player",
            "club_name",
            "team",
            "role",
            "is_substitute",
            "dropped_at",
            "drop_reason",
            "disqualified_at",
            "disqualification_reason",
            "created_at",
        ]

    disqualification_reason = serializers.SerializerMethodField(
        help_text="Why the player was disqualified (EMA 2025 6.12): only for the tournament's "
        "organisers, else null."
    )

    @extend_schema_field(OpenApiTypes.STR)
    def get_drop_reason(self, registration: Registration) -> str | None:
        return registration.drop_reason if self.context.get("show_drop_reason") else None

    @extend_schema_field(OpenApiTypes.STR)
    def get_disqualification_reason(self, registration: Registration) -> str | None:
        if not self.context.get("show_drop_reason"):
            return None
        return registration.disqualification_reason


class SeatToReplaceSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    table = serializers.IntegerField()
    wind = serializers.IntegerField(help_text="0 East .. 3 North: the seat a substitute takes.")
    started = serializers.BooleanField(help_text="The session is running: substitute 'during'.")


class DisqualificationSerializer(RegistrationSerializer):
    seats_to_replace = SeatToReplaceSerializer(
        many=True,
        read_only=True,
        help_text="Tables of sessions not closed where the player is still seated: a "
        "substitute takes each seat (EMA 2025 7.3); a seated session cannot start before.",
    )

    class Meta(RegistrationSerializer.Meta):
        fields = [*RegistrationSerializer.Meta.fields, "seats_to_replace"]


class SessionSerializer(serializers.ModelSerializer):
    status = inline_choice_field(Session.Status.choices, read_only=True)
    roster = serializers.SerializerMethodField(
        help_text="Who sits where now (issue 31): per table and seat the player, the substitute "
        "and whom they replace, flagged seats (dropped, disqualified, no substitute), and the "
        "late arrivals without a seat (`unseated`)."
    )

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_roster(self, session: Session) -> dict[str, Any]:
        return session_roster(session).as_dict()

    class Meta:
        model = Session
        fields = [
            "id",
            "number",
            "status",
            "starts_at",
            "duration_minutes",
            "started_at",
            "paused_at",
            "paused_seconds",
            "closed_at",
            "online",
            "roster",
        ]
        extra_kwargs = {
            "online": {
                "read_only": True,
                "help_text": "Played on Tenhou or Mahjong Soul (issue 32.5): each table's game "
                "is imported from its log. Set with PATCH /sessions/{id}/.",
            }
        }


class RosterPersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ema_number = serializers.CharField(allow_null=True)
    role = serializers.CharField(help_text="player, fill-in or reserve.")
    dropped = serializers.BooleanField()
    disqualified = serializers.BooleanField()


def _roster_seat(context: Any, seat: Seat) -> RosterSeat | None:
    """The seat as the session roster has it (issue 31); one roster per session per answer
    (kept in the root serializer's context, which every nested seat shares)."""
    rosters = context.setdefault("_rosters", {})
    session_id = seat.table.session_id
    if session_id not in rosters:
        rosters[session_id] = session_roster(seat.table.session)
    return next(
        (
            s
            for s in rosters[session_id].seats()
            if s.table_id == seat.table_id and s.wind == seat.wind
        ),
        None,
    )


class SeatSerializer(serializers.ModelSerializer):
    """A seat: `player` is whom the plan seated there; who sits there now (a substitute, EMA
    2025 7.3, from the start or from hand n) is `sits`, read from the session roster."""

    player = PlayerBriefSerializer()
    wind_name = serializers.SerializerMethodField()
    sits = serializers.SerializerMethodField(help_text="Who sits there now (issue 31).")
    substitute = serializers.SerializerMethodField(
        help_text="A substitute sits there in place of `player` (EMA 2025 7.3)."
    )
    substitute_from = serializers.SerializerMethodField(help_text='"start", "during" or null.')
    from_hand = serializers.SerializerMethodField(
        help_text="During the game: the first hand the substitute played, if known."
    )
    state = serializers.SerializerMethodField(
        help_text="What became of `player`: seated, absent (a substitute plays), dropped or "
        "disqualified."
    )
    flagged = serializers.SerializerMethodField(
        help_text="Dropped or disqualified with no substitute: the session cannot start."
    )

    class Meta:
        model = Seat
        fields = [
            "wind",
            "wind_name",
            "player",
            "sits",
            "substitute",
            "substitute_from",
            "from_hand",
            "state",
            "flagged",
        ]

    def get_wind_name(self, seat: Seat) -> str:
        return Seat.WINDS[seat.wind] if 0 <= seat.wind < len(Seat.WINDS) else str(seat.wind)

    @extend_schema_field(RosterPersonSerializer)
    def get_sits(self, seat: Seat) -> dict[str, Any] | None:
        found = _roster_seat(self.context, seat)
        return found.player.as_dict() if found is not None else None

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_substitute(self, seat: Seat) -> bool:
        found = _roster_seat(self.context, seat)
        return bool(found and found.substituted)

    @extend_schema_field(OpenApiTypes.STR)
    def get_substitute_from(self, seat: Seat) -> str | None:
        found = _roster_seat(self.context, seat)
        return found.substitute_from if found is not None else None

    @extend_schema_field(OpenApiTypes.INT)
    def get_from_hand(self, seat: Seat) -> int | None:
        found = _roster_seat(self.context, seat)
        return found.from_hand if found is not None else None

    @extend_schema_field(OpenApiTypes.STR)
    def get_state(self, seat: Seat) -> str:
        found = _roster_seat(self.context, seat)
        return found.state if found is not None else "seated"

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_flagged(self, seat: Seat) -> bool:
        found = _roster_seat(self.context, seat)
        return bool(found and found.flagged)


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True)
    game = serializers.SerializerMethodField()
    session = serializers.IntegerField(source="session.number")

    class Meta:
        model = Table
        fields = ["id", "session", "number", "seats", "game"]

    @extend_schema_field(OpenApiTypes.INT)
    def get_game(self, table: Table) -> int | None:
        game = getattr(table, "game", None)
        return game.pk if game is not None else None


class MySeatSerializer(serializers.Serializer):
    wind = serializers.IntegerField()
    wind_name = serializers.CharField()
    state = serializers.ChoiceField(
        choices=["seated", "substitute", "replaced", "seat to fill"],
        help_text="seated: you play the seat; substitute: you play it in place of `replaces`; "
        "replaced: a substitute plays the seat the plan gave you (EMA 2025 7.3); seat to "
        "fill: you were dropped and nobody plays it yet.",
    )
    replaces = RosterPersonSerializer(allow_null=True)
    replaced_by = RosterPersonSerializer(allow_null=True)
    message = serializers.CharField()


def my_seat(seat: RosterSeat, player_id: int) -> dict[str, Any]:
    """The player's own place at the roster seat `seat`, said in words too (my-table)."""
    where = f"table {seat.table} ({seat.wind_name})"
    if seat.substituted and seat.player.id == player_id:
        state, message = "substitute", f"You play {where} as a substitute for {seat.registered}."
    elif seat.substituted:
        state = "replaced"
        message = (
            f"You were replaced by {seat.player} at {where}, a substitute (EMA 2025 7.3). "
            "Please see the organisers."
        )
    elif seat.flagged:
        state, message = "seat to fill", f"You were dropped; {where} waits for a substitute."
    else:
        state, message = "seated", f"You sit at {where}."
    return {
        "wind": seat.wind,
        "wind_name": seat.wind_name,
        "state": state,
        "replaces": seat.registered.as_dict() if state == "substitute" else None,
        "replaced_by": seat.player.as_dict() if state == "replaced" else None,
        "message": message,
    }


class SeatingPlanSerializer(serializers.ModelSerializer):
    options = serializers.JSONField()
    plan = serializers.JSONField(help_text="rounds -> tables -> registration ids (E, S, W, N).")
    quality = serializers.JSONField()
    status = inline_choice_field(SeatingPlan.Status.choices, read_only=True)
    mode = inline_choice_field(SeatingPlan.Mode.choices, read_only=True)

    class Meta:
        model = SeatingPlan
        fields = [
            "id",
            "mode",
            "seed",
            "options",
            "status",
            "progress",
            "plan",
            "quality",
            "error",
            "created_at",
        ]


class PenaltySerializer(serializers.ModelSerializer):
    player = PlayerBriefSerializer()
    session = serializers.IntegerField(source="session.number", allow_null=True, default=None)

    class Meta:
        model = Penalty
        fields = [
            "id",
            "player",
            "session",
            "kind",
            "points",
            "minutes_late",
            "reason",
            "created_at",
            "cancelled_at",
            "cancel_reason",
        ]


class StandingRowSerializer(serializers.ModelSerializer):
    player = PlayerBriefSerializer()
    per_session = serializers.JSONField()
    tie_break_values = serializers.JSONField()
    game_penalties = serializers.SerializerMethodField(
        help_text="Points the player's games deducted after uma (each chombo, EMA 2025 3.4.6, "
        "hand by hand or on a paper sheet): already in `total` through the game results; "
        "`penalties` are the tournament penalties (lateness, obstruction, score sheet)."
    )

    substituted = serializers.SerializerMethodField(
        help_text="A substitute played one of the player's seats (EMA 2025 7.3)."
    )

    def get_game_penalties(self, row: StandingRow) -> int:
        return game_penalties(row.per_session)

    def get_substituted(self, row: StandingRow) -> bool:
        return row.substituted

    class Meta:
        model = StandingRow
        fields = [
            "rank",
            "player",
            "total",
            "penalties",
            "game_penalties",
            "games",
            "average_placement",
            "per_session",
            "tie_break_values",
            "is_substitute",
            "role",
            "substituted",
            "dropped",
            "disqualified",
            "qualified",
            "out_after_session",
            "computed_at",
        ]


class TeamMemberSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id", help_text="The player's id.")
    name = serializers.CharField()
    rank = serializers.IntegerField(
        allow_null=True, help_text="The player's rank in the standings (null: not ranked)."
    )
    total = serializers.IntegerField(help_text="The player's total, in points.")
    games = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="Counts for the team's total.")


class TeamStandingSerializer(serializers.Serializer):
    """A row of the team standings (issue 32.1, docs/teams.md)."""

    rank = serializers.IntegerField(
        allow_null=True, help_text="Null: no member counts (none ranked)."
    )
    team = serializers.CharField(source="name", help_text="The team's name.")
    id = serializers.IntegerField(source="team_id")
    slug = serializers.CharField(help_text="The team page: /t/{tournament}/teams/{slug}/.")
    total = serializers.IntegerField(
        help_text="The counted members' totals added up, in points (all members, or the best "
        "team_counted_members)."
    )
    games = serializers.IntegerField(help_text="Games the counted members played.")
    tie_break_values = serializers.JSONField(
        help_text="The tournament's tie-breaks in order (a list), over the counted members' games."
    )
    members = TeamMemberSerializer(many=True, help_text="Counted members first, by total.")


# The standings JSON without StandingRowSerializer (issue 14.7): every finished game renews the
# standings, and each web process builds the whole table again for its next reader; through the
# serializer 600 rows cost ~50 ms of CPU (models built, then 14 fields each through their
# to_representation). Here the rows are read as tuples, and each row's JSON after its rank is
# kept per process under everything it is made of (a game changes a few rows; the others only
# move in rank), so a new table is mostly joined from bytes already made.
# tests/standings/test_standings_cache.py holds the result to the serializer's, byte for byte.
_STANDING_COLUMNS = (
    "rank",
    "player_id",
    "player__first_name",
    "player__last_name",
    "player__ema_number",
    "total",
    "penalties",
    "games",
    "average_placement",
    "per_session_text",
    "tie_break_values_text",
    "is_substitute",
    "role",
    "dropped",
    "disqualified",
    "qualified",
    "out_after_session",
    "computed_at",
)
# Row JSON after the rank, by (time zone, the row's columns but the rank); emptied when full.
_ROW_TAILS: dict[tuple[Any, ...], bytes] = {}
_MAX_ROW_TAILS = 50_000


def _row_tail(row: tuple[Any, ...], computed_at: Any) -> bytes:
    """`,"player":...}`: the row's JSON as StandingRowSerializer renders it, after the rank."""
    (
        player_id,
        first,
        last,
        ema,
        total,
        penalties,
        games,
        average,
        per_session_text,
        tie_break_values_text,
        is_substitute,
        role,
        dropped,
        disqualified,
        qualified,
        out_after_session,
        when,
    ) = row
    per_session = json.loads(per_session_text)  # as JSONField.from_db_value reads it
    data = {
        # PlayerBriefSerializer: the name is Player.__str__.
        "player": {"id": player_id, "name": f"{first} {last}".strip(), "ema_number": ema},
        "total": total,
        "penalties": penalties,
        "game_penalties": game_penalties(per_session),
        "games": games,
        "average_placement": average,
        "per_session": per_session,
        "tie_break_values": json.loads(tie_break_values_text),
        "is_substitute": is_substitute,
        "role": role,
        "substituted": any(e.get("substituted") for e in per_session),
        "dropped": dropped,
        "disqualified": disqualified,
        "qualified": qualified,
        "out_after_session": out_after_session,
        "computed_at": computed_at(when) if when is not None else None,
    }
    return b"," + JSONRenderer().render(data)[1:]


def standings_json(tournament: Tournament | int) -> bytes:
    """JSONRenderer's bytes of StandingRowSerializer(rows, many=True) for the public standings
    (`public_standings`: while results are hidden, the table before the hidden session)."""
    zone = timezone.get_current_timezone()
    # The ModelSerializer's field for computed_at, its time zone looked up once, not per row.
    computed_at = serializers.DateTimeField(default_timezone=zone).to_representation
    if len(_ROW_TAILS) > _MAX_ROW_TAILS:
        _ROW_TAILS.clear()
    if isinstance(tournament, int):
        tournament = Tournament.objects.get(pk=tournament)
    if hidden_from(tournament) is not None:
        values = [_row_values(row) for row in public_standings(tournament).rows]
    else:
        values = list(
            standings_queryset(tournament)
            .annotate(
                per_session_text=Cast("per_session", TextField()),
                tie_break_values_text=Cast("tie_break_values", TextField()),
            )
            .values_list(*_STANDING_COLUMNS)
        )
    parts = []
    for rank, *rest in values:
        key = (zone, *rest)
        tail = _ROW_TAILS.get(key)
        if tail is None:
            tail = _ROW_TAILS[key] = _row_tail(tuple(rest), computed_at)
        parts.append(b'{"rank":' + (b"null" if rank is None else str(rank).encode()) + tail)
    return b"[" + b",".join(parts) + b"]"


def _row_values(row: StandingRow) -> tuple[Any, ...]:
    """A row in memory as `_STANDING_COLUMNS` reads it from the database."""

    def value(column: str) -> Any:
        if column.startswith("player__"):
            return getattr(row.player, column.removeprefix("player__"))
        if column.endswith("_text"):  # a JSON column read as text
            return json.dumps(getattr(row, column.removesuffix("_text")))
        return getattr(row, column)

    return tuple(value(column) for column in _STANDING_COLUMNS)


class ImportSkippedRowSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text="Line in the file (the header is line 1).")
    name = serializers.CharField()
    registration = serializers.IntegerField(required=False, help_text="The matching registration.")
    registered_as = serializers.CharField(required=False)


class ImportResultSerializer(serializers.Serializer):
    imported = serializers.IntegerField()
    registrations = RegistrationSerializer(many=True)
    already_registered = ImportSkippedRowSerializer(
        many=True, help_text="Rows matched to a registered player (by EMA number or name): skipped."
    )
    possible_duplicates = ImportSkippedRowSerializer(
        many=True,
        help_text="Rows that may be a player already registered or known: not imported.",
    )


# ---- input ----------------------------------------------------------------------------------
class TournamentSettingsInputSerializer(serializers.Serializer):
    """PATCH /tournaments/{slug}/: the standings settings (issue 15)."""

    tie_breaks = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        max_length=10,
        help_text="Tie-breaks in order after the total (docs/standings.md).",
    )
    qualification_only = serializers.BooleanField(required=False)
    standings_hidden_from = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_SESSIONS,
        help_text="Hide the standings and game results from this session on until the results "
        "are published (issue 32.3; docs/standings.md). Null: nothing hidden.",
    )
    # Self-registration (issue 35): null means none (no limit, no closing time, no quota).
    capacity = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=100000,
        help_text="Places; the rest wait (first come, first served). Null: no limit.",
    )
    registration_closes = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Sign-ups refused from then on."
    )
    signup_approval = serializers.BooleanField(
        required=False, help_text="Sign-ups wait for the organiser's approval (pending)."
    )
    country_quota = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=10000,
        help_text="At most this many players per country until country_quota_until.",
    )
    country_quota_until = serializers.DateTimeField(required=False, allow_null=True)
    # Team events (issue 32.1, docs/teams.md).
    teams_enabled = serializers.BooleanField(
        required=False, help_text="A team event: team standings, team pages, teams seated apart."
    )
    team_counted_members = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=1000,
        help_text="The team standings count each team's best N members; null: all of them.",
    )
    time_zone = serializers.CharField(
        required=False,
        max_length=64,
        help_text="The event's IANA time zone (e.g. Europe/Rome): its pages, PDFs and hall "
        "clock show times in it.",
    )


class TournamentInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=50)
    ruleset = serializers.ChoiceField(choices=sorted(PRESETS), default="ema-2025")
    rule_overrides = serializers.DictField(required=False, default=dict)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    country = serializers.CharField(
        max_length=2, required=False, allow_blank=True, default="", validators=[country_validator]
    )
    sessions_planned = serializers.IntegerField(min_value=1, max_value=MAX_SESSIONS, default=4)
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="The event's IANA time zone (e.g. Europe/Rome); empty: the site's.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["ends_on"] < attrs["starts_on"]:
            raise serializers.ValidationError(
                {"ends_on": "A tournament cannot end before it starts."}
            )
        return attrs


class StatusInputSerializer(serializers.Serializer):
    status = inline_choice_field(Tournament.Status.choices)
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True)


class StaffInputSerializer(serializers.Serializer):
    user = LookupSlugField(
        slug_field="username",
        queryset=get_user_model().objects.all(),
        help_text="The user's username.",
    )
    role = inline_choice_field(StaffRole.Role.choices)


class RegistrationInputSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=100)
    last_name = serializers.CharField(max_length=100)
    ema_number = serializers.CharField(
        max_length=8,
        required=False,
        allow_null=True,
        allow_blank=True,
        validators=[ema_number_validator],
    )
    country = serializers.CharField(
        max_length=2, required=False, allow_blank=True, default="", validators=[country_validator]
    )
    club_name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    role = inline_choice_field(
        Registration.Role.choices,
        required=False,
        help_text="player (default), fill-in or reserve (issue 31).",
    )
    is_substitute = serializers.BooleanField(
        default=False, help_text='Without a role: true registers a fill-in (role "fill-in").'
    )
    team = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        allow_null=True,
        help_text="The team's name (issue 32.1): created on first use; empty or null for none.",
    )


class RegistrationUpdateInputSerializer(serializers.Serializer):
    """PATCH /registrations/{id}/: what is sent changes, the rest stays (organisers)."""

    first_name = serializers.CharField(max_length=100, required=False)
    last_name = serializers.CharField(max_length=100, required=False)
    ema_number = serializers.CharField(
        max_length=8,
        required=False,
        allow_null=True,
        allow_blank=True,
        validators=[ema_number_validator],
    )
    country = serializers.CharField(
        max_length=2, required=False, allow_blank=True, validators=[country_validator]
    )
    club_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    role = inline_choice_field(
        Registration.Role.choices, required=False, help_text="player, fill-in or reserve."
    )
    team = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        allow_null=True,
        help_text="The team's name (issue 32.1): created on first use; empty or null for none.",
    )


# Uploads are small (settings: 2 MB for request bodies); a bigger CSV is refused unread.
MAX_CSV_BYTES = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2 * 1024 * 1024


class RegistrationImportInputSerializer(serializers.Serializer):
    file = serializers.FileField(
        required=False,
        help_text="CSV (registrations: name or first_name,last_name; ema_number; country; club).",
    )
    text = serializers.CharField(
        required=False,
        max_length=MAX_CSV_BYTES,
        help_text="The CSV as text, instead of a file.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        too_big = f"The CSV is larger than {MAX_CSV_BYTES // (1024 * 1024)} MB; split it."
        if "file" in attrs:
            upload = attrs["file"]
            if upload.size is not None and upload.size > MAX_CSV_BYTES:
                raise serializers.ValidationError({"file": too_big})
            problem = upload_problem(upload)  # seen while it streamed in (issue 16.8)
            if problem:
                raise serializers.ValidationError({"file": problem})
            raw = upload.read(MAX_CSV_BYTES + 1)
            if len(raw) > MAX_CSV_BYTES:
                raise serializers.ValidationError({"file": too_big})
            try:
                attrs["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError as error:
                raise serializers.ValidationError(
                    {"file": "The CSV must be UTF-8 text (export it as CSV UTF-8)."}
                ) from error
        if "\x00" in attrs.get("text", ""):
            raise serializers.ValidationError({"file": "This is not a text CSV file."})
        if not attrs.get("text", "").strip():
            raise serializers.ValidationError({"file": "Upload a CSV file (or send `text`)."})
        return attrs


class ReasonInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=1000)


class OptionalReasonInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


class SessionsInputSerializer(serializers.Serializer):
    count = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSIONS,
        required=False,
        help_text="Create sessions 1..count that are missing (default: sessions_planned).",
    )


class CsvUploadInputSerializer(RegistrationImportInputSerializer):
    """A CSV file (or `text`)."""


class SeatingPlanInputSerializer(serializers.Serializer):
    mode = inline_choice_field(SeatingPlan.Mode.choices)
    # Bounds of the database columns: a larger number is a 400, not a crash on save.
    seed = serializers.IntegerField(default=0, min_value=-(2**31), max_value=2**31 - 1)
    options = serializers.DictField(required=False, default=dict)


class ApplyPlanInputSerializer(serializers.Serializer):
    from_session = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSIONS,
        required=False,
        help_text="Number of the first session the plan seats (sessions are created as needed).",
    )


class SwapInputSerializer(serializers.Serializer):
    a = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    b = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class PenaltyInputSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices)
    points = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, allow_null=True
    )
    minutes_late = serializers.IntegerField(
        min_value=0,
        max_value=32767,
        required=False,
        allow_null=True,
        help_text="Lateness: whole minutes late (with `seconds_late` for the seconds). EMA 2025 "
        "7.2: 1,000 points per started minute; later than 10 minutes is refused (a substitute "
        "plays, 7.3).",
    )
    seconds_late = serializers.IntegerField(
        min_value=0,
        max_value=59,
        required=False,
        allow_null=True,
        help_text="Lateness: the seconds beyond `minutes_late` (0-59). 9 minutes 30 seconds "
        "(minutes_late 9, seconds_late 30) is rounded up to 10 started minutes: 10,000 points "
        "(EMA 2025 7.2); the penalty's `minutes_late` is the started minutes.",
    )
    session = serializers.IntegerField(
        min_value=1, max_value=32767, required=False, allow_null=True, help_text="Session number."
    )
    reason = serializers.CharField(max_length=1000)


class TablePenaltyInputSerializer(serializers.Serializer):
    session = serializers.IntegerField(min_value=1, max_value=32767, help_text="Session number.")
    table = serializers.IntegerField(
        min_value=1, max_value=32767, help_text="Table number in that session."
    )
    kind = inline_choice_field(
        [Penalty.Kind.SCORE_SHEET.value],
        default=Penalty.Kind.SCORE_SHEET.value,
        help_text="Only score_sheet: EMA 2025 7.5, 2,000 points for each of the players.",
    )
    reason = serializers.CharField(max_length=1000)


# ---- EMA export, ranking preview (output schemas of tournaments.ema) -------------------------
class MersWeightSerializer(serializers.Serializer):
    """The MERS weight and its parts (docs/ema-export.md)."""

    days = serializers.IntegerField()
    players = serializers.IntegerField()
    countries = serializers.IntegerField()
    qualification_only = serializers.BooleanField()
    days_weight = serializers.FloatField()
    players_weight = serializers.FloatField()
    countries_weight = serializers.FloatField()
    qualification_weight = serializers.FloatField()
    total = serializers.FloatField()


class ExportProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    blocking = serializers.BooleanField()
    game_id = serializers.IntegerField(allow_null=True)
    player_id = serializers.IntegerField(allow_null=True)


class EmaValidationSerializer(serializers.Serializer):
    """What blocks the EMA file (`ok` false) and what is only listed (penalties, ties, ...)."""

    ok = serializers.BooleanField()
    problems = ExportProblemSerializer(many=True)
    penalties = serializers.ListField(child=serializers.DictField())
    penalty_total = serializers.IntegerField()
    players_without_ema = serializers.ListField(child=serializers.CharField())
    ties = serializers.ListField(child=serializers.DictField())
    mers = MersWeightSerializer(allow_null=True)


class EmaBlockedSerializer(serializers.Serializer):
    """409 from the EMA export: the blocking problems and the whole report."""

    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)
    errors = serializers.ListField(child=serializers.DictField())  # type: ignore[assignment]
    report = EmaValidationSerializer()


class BaseRankSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    ema_number = serializers.CharField(allow_null=True)
    base_rank = serializers.FloatField()


class RankingPreviewSerializer(serializers.Serializer):
    mers = MersWeightSerializer()
    players = BaseRankSerializer(many=True)


class SessionUpdateInputSerializer(serializers.Serializer):
    online = serializers.BooleanField(
        help_text="Played on Tenhou or Mahjong Soul: each table's game is imported from its "
        "log (POST /tables/{id}/online-log/)."
    )


class OnlineLogInputSerializer(serializers.Serializer):
    log = serializers.CharField(
        trim_whitespace=False,
        help_text="The table's log: Tenhou mjlog XML, tenhou.net/6 JSON or Mahjong Soul JSON "
        "(as text; a multipart upload of the file under the same name works too).",
    )
    players = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        default=dict,
        help_text="Site name -> registration id, for names not mapped before (remembered for "
        "the tournament; a name equal to a seated player's name maps itself).",
    )


class OnlineLogPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The log's seat: 0 is the starting East.")
    name = serializers.CharField(help_text="The name on the site.")
    registration = serializers.IntegerField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    mapped_by = serializers.ChoiceField(
        choices=["given", "remembered", "name"],
        help_text="given in this request, remembered from an earlier log of the tournament, "
        "or the seated player's own name.",
    )


class OnlineLogSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    session = serializers.IntegerField(help_text="The session's number.")
    table_number = serializers.IntegerField()
    site = serializers.ChoiceField(choices=OnlineSite.choices)
    log_id = serializers.CharField(help_text="The site's log id (empty when the log has none).")
    players = OnlineLogPlayerSerializer(many=True)
    comparison = serializers.DictField(
        help_text="Our engine's replay under the tournament's rules against what the site paid: "
        "`hands`, `matching`, `ok`, `over` (our rules ended the game), `mismatches` (per hand: "
        "`hand`, `round`, `honba`, `ours` and `site` payments per seat; or `what`/`error`), "
        "`final` (`ours` and `site` scores and results), `rules` and `site_rules`."
    )
    imported_at = serializers.DateTimeField()
    game = serializers.IntegerField()
    status = serializers.CharField(help_text="The game's status: finished when our rules ended it.")


# A tournament game's substitute (EMA 2025 7.3): POST /games/{id}/substitutes/.
class SubstituteInputSerializer(VersionInputSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    substitute = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    reason = serializers.CharField(max_length=1000)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # `from` (as in the game record's substitutes) is a Python keyword: declared here.
        fields["from"] = serializers.ChoiceField(
            choices=["start", "during"],
            default="start",
            help_text="start: sat in from the start; during: took over mid-game (EMA 2025 7.3).",
        )
        return fields
