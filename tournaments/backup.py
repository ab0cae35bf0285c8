"""A whole tournament as one JSON document, and back (docs/backup.md).

``export_tournament`` writes every row that belongs to the tournament: the tournament, its
staff, the players it references, teams, registrations, sessions, tables and seats, seating plans,
games with their seats, hands and penalties, tournament penalties, standings rows and the
audit entries of the tournament and its games. Rows keep their ids, so audit entries still
point at the right objects; users are referenced by username (no passwords are exported).

``import_tournament`` loads such a document into a database that does not have those rows yet
(a fresh or cleared database, or one without this tournament), all or nothing. Exporting the
imported tournament again gives the same document (tests/exports).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.db.models import Q

from core.audit import audited
from core.errors import ValidationFailed
from core.models import AuditEntry, Player
from scoring.models import Game, GamePenalty, GameSeat, Hand
from tournaments.models import (
    Penalty,
    Registration,
    Seat,
    SeatingPlan,
    Session,
    StaffRole,
    StandingRow,
    Table,
    Team,
    Tournament,
)

FORMAT = "hanchan-tournament/1"

# Document key -> model, in the order rows must be created.
SECTIONS: list[tuple[str, type[models.Model]]] = [
    ("players", Player),
    ("tournament", Tournament),
    ("staff", StaffRole),
    ("teams", Team),  # before the registrations that name them (issue 32.1)
    ("registrations", Registration),
    ("sessions", Session),
    ("tables", Table),
    ("seats", Seat),
    ("seating_plans", SeatingPlan),
    ("games", Game),
    ("game_seats", GameSeat),
    ("hands", Hand),
    ("game_penalties", GamePenalty),
    ("penalties", Penalty),
    ("standings", StandingRow),
    ("audit", AuditEntry),
]


def _is_user_fk(field: models.Field[Any, Any]) -> bool:
    return bool(field.is_relation and field.related_model is get_user_model())


def _to_json(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return value


def _from_json(field: models.Field[Any, Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(field, models.DateTimeField):
        return datetime.datetime.fromisoformat(value)
    if isinstance(field, models.DateField):
        return datetime.date.fromisoformat(value)
    return value


# A cache tag, not data: a restored tournament gets a fresh one.
NOT_BACKED_UP = {"standings_version"}


def _dump(obj: models.Model, usernames: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if field.name in NOT_BACKED_UP:
            continue
        if _is_user_fk(field):
            user_id = getattr(obj, field.attname)
            out[field.name] = usernames.get(user_id) if user_id is not None else None
        elif field.is_relation:
            out[field.attname] = getattr(obj, field.attname)
        else:
            out[field.name] = _to_json(field.value_from_object(obj))
    return out


def _querysets(tournament: Tournament) -> dict[str, models.QuerySet[Any]]:
    t = tournament
    games = Game.objects.filter(table__session__tournament=t)
    game_ids = list(games.values_list("id", flat=True))
    player_ids: set[int] = set()
    for qs in (
        Registration.objects.filter(tournament=t).values_list("player_id", flat=True),
        Seat.objects.filter(table__session__tournament=t).values_list("player_id", flat=True),
        GameSeat.objects.filter(game_id__in=game_ids).values_list("player_id", flat=True),
        Penalty.objects.filter(tournament=t).values_list("player_id", flat=True),
        StandingRow.objects.filter(tournament=t).values_list("player_id", flat=True),
    ):
        player_ids.update(qs)
    return {
        "players": Player.objects.filter(pk__in=player_ids),
        "tournament": Tournament.objects.filter(pk=t.pk),
        "staff": StaffRole.objects.filter(tournament=t),
        "teams": Team.objects.filter(tournament=t),
        "registrations": Registration.objects.filter(tournament=t),
        "sessions": Session.objects.filter(tournament=t),
        "tables": Table.objects.filter(session__tournament=t),
        "seats": Seat.objects.filter(table__session__tournament=t),
        "seating_plans": SeatingPlan.objects.filter(tournament=t),
        "games": games,
        "game_seats": GameSeat.objects.filter(game_id__in=game_ids),
        "hands": Hand.objects.filter(game_id__in=game_ids),
        "game_penalties": GamePenalty.objects.filter(game_id__in=game_ids),
        "penalties": Penalty.objects.filter(tournament=t),
        "standings": StandingRow.objects.filter(tournament=t),
        "audit": AuditEntry.objects.filter(Q(tournament_id=t.pk) | Q(game_id__in=game_ids)),
    }


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The tournament and everything that belongs to it, as one JSON-able document."""
    querysets = _querysets(tournament)
    rows = {key: list(qs.order_by("pk")) for key, qs in querysets.items()}
    user_ids: set[int] = set()
    for key, model in SECTIONS:
        user_fields = [f for f in model._meta.concrete_fields if _is_user_fk(f)]
        for obj in rows[key]:
            user_ids.update(
                getattr(obj, f.attname) for f in user_fields if getattr(obj, f.attname) is not None
            )
    User = get_user_model()
    users = list(User.objects.filter(pk__in=user_ids).order_by(User.USERNAME_FIELD))
    usernames = {u.pk: u.get_username() for u in users}
    document: dict[str, Any] = {
        "format": FORMAT,
        "users": [
            {
                "username": u.get_username(),
                "first_name": getattr(u, "first_name", ""),
                "last_name": getattr(u, "last_name", ""),
                "email": getattr(u, "email", ""),
            }
            for u in users
        ],
    }
    for key, _model in SECTIONS:
        dumped = [_dump(obj, usernames) for obj in rows[key]]
        document[key] = dumped[0] if key == "tournament" else dumped
    return document


@contextmanager
def _keeping_timestamps(model_list: Iterable[type[models.Model]]) -> Iterator[None]:
    """Let rows keep the created/updated times of the document instead of "now".

    Flips auto_now/auto_now_add off for the duration of the import (this process only).
    """
    saved = []
    for model in model_list:
        for field in model._meta.concrete_fields:
            if isinstance(field, models.DateField) and (field.auto_now or field.auto_now_add):
                saved.append((field, field.auto_now, field.auto_now_add))
                field.auto_now = field.auto_now_add = False
    try:
        yield
    finally:
        for field, auto_now, auto_now_add in saved:
            field.auto_now, field.auto_now_add = auto_now, auto_now_add


def _check_free(document: dict[str, Any]) -> None:
    tournament = document["tournament"]
    if Tournament.objects.filter(Q(pk=tournament["id"]) | Q(slug=tournament["slug"])).exists():
        raise ValidationFailed(
            f"tournament {tournament['slug']!r} (id {tournament['id']}) already exists",
            field="tournament",
        )
    for key, model in SECTIONS:
        if key in ("players", "tournament"):
            continue
        ids = [row["id"] for row in document.get(key, [])]
        taken = list(model._default_manager.filter(pk__in=ids).values_list("pk", flat=True)[:1])
        if taken:
            raise ValidationFailed(
                f"{key}: id {taken[0]} is already used in this database", field=key
            )


@transaction.atomic
def import_tournament(document: dict[str, Any]) -> Tournament:
    """Create every row of an exported tournament (same ids); nothing is written on error.

    Players that already exist with the same id and name are reused; users are matched by
    username and created (without a usable password) when missing.
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValidationFailed(f"not a {FORMAT} document", field="format")
    _check_free(document)
    _links_on_tables(document)
    User = get_user_model()
    users: dict[str, Any] = {}
    for u in document.get("users", []):
        user = User.objects.filter(**{User.USERNAME_FIELD: u["username"]}).first()
        if user is None:
            user = User(
                **{User.USERNAME_FIELD: u["username"]},
                first_name=u["first_name"],
                last_name=u["last_name"],
                email=u["email"],
            )
            user.set_unusable_password()
            user.save()
        users[u["username"]] = user

    def build(model: type[models.Model], data: dict[str, Any]) -> models.Model:
        kwargs: dict[str, Any] = {}
        for field in model._meta.concrete_fields:
            if _is_user_fk(field):
                name = data.get(field.name)
                kwargs[field.attname] = users[name].pk if name else None
            elif field.is_relation:
                kwargs[field.attname] = data.get(field.attname)
            elif field.name in data:
                kwargs[field.name] = _from_json(field, data[field.name])
        return model(**kwargs)

    models_used = [model for _key, model in SECTIONS]
    with _keeping_timestamps(models_used):
        for key, model in SECTIONS:
            rows = document.get(key)
            if rows is None:
                continue
            rows = [rows] if key == "tournament" else rows
            objs = [build(model, row) for row in rows]
            if model is Player:
                objs = _new_players(objs)
            # Field checks (EMA number, country code, choices); relations are checked by the
            # database, and an empty JSON list is a valid value here.
            relations = [
                f.name
                for f in model._meta.concrete_fields
                if f.is_relation or isinstance(f, models.JSONField)
            ]
            for obj in objs:
                nulls = [
                    f.name
                    for f in model._meta.concrete_fields
                    if f.null and getattr(obj, f.attname) is None
                ]
                try:
                    obj.clean_fields(exclude=relations + nulls)
                except ValidationError as exc:
                    raise ValidationFailed(
                        f"{key}: id {obj.pk}: {exc.messages[0]}", field=key
                    ) from exc
            model._default_manager.bulk_create(objs, batch_size=500)
    _reset_sequences(models_used)
    with audited(actor=None, action="tournament.import") as audit:
        tournament = Tournament.objects.get(pk=document["tournament"]["id"])
        # Not scoped to the tournament (tournament_id left empty): the imported audit trail stays
        # exactly the exported one, and this entry still names the tournament as its object.
        audit.obj = tournament
        audit.after = {
            key: len(document.get(key) or []) for key, _model in SECTIONS if key != "tournament"
        }
    return tournament


def _links_on_tables(document: dict[str, Any]) -> None:
    """A document written before the table held the game link (issue 14) names each game's
    table in the game (`table_id`): the link goes onto the table, as it is kept now."""
    game_of = {
        row["table_id"]: row["id"]
        for row in document.get("games") or []
        if isinstance(row, dict) and row.get("table_id") is not None
    }
    for row in document.get("tables") or []:
        if isinstance(row, dict) and row.get("id") in game_of and row.get("game_id") is None:
            row["game_id"] = game_of[row["id"]]


def _new_players(players: list[models.Model]) -> list[models.Model]:
    existing = {p.pk: p for p in Player.objects.filter(pk__in=[p.pk for p in players])}
    out: list[models.Model] = []
    for p in players:
        assert isinstance(p, Player)
        found = existing.get(p.pk)
        if found is None:
            out.append(p)
        elif (found.first_name, found.last_name, found.ema_number) != (
            p.first_name,
            p.last_name,
            p.ema_number,
        ):
            raise ValidationFailed(
                f"players: id {p.pk} is {found} here but {p} in the document", field="players"
            )
    return out


def _reset_sequences(model_list: list[type[models.Model]]) -> None:
    """After inserting explicit ids, move PostgreSQL sequences past them (no-op on SQLite)."""
    statements = connection.ops.sequence_reset_sql(no_style(), model_list)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
