"""factory-boy factories for the models (shared by every test directory)."""

from __future__ import annotations

import datetime
from typing import Any

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from club.models import Club, ClubGame, ClubNight, League, Membership
from core.models import Player
from scoring.models import Game, GamePenalty, GameSeat, Hand
from tournaments.models import (
    Penalty,
    Registration,
    Seat,
    Session,
    SignUp,
    StaffRole,
    Table,
    Tournament,
)
from tournaments.services.signups import name_key

DEMO_PASSWORD = "test-password"


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password(DEMO_PASSWORD)


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    # Unique, valid (8 digits) EMA numbers.
    ema_number = factory.Sequence(lambda n: f"{10000000 + n:08d}")
    country = "DE"


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Riichi Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Berlin"
    country = "DE"
    ruleset = "wdmc-2019"


class MembershipFactory(DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    role = Membership.Role.MEMBER


class LeagueFactory(DjangoModelFactory):
    class Meta:
        model = League

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    starts_on = datetime.date(2026, 1, 1)


class ClubNightFactory(DjangoModelFactory):
    class Meta:
        model = ClubNight

    club = factory.SubFactory(ClubFactory)
    date = datetime.date(2026, 3, 5)


class TournamentFactory(DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Open {n}")
    slug = factory.Sequence(lambda n: f"open-{n}")
    ruleset = "ema-2025"
    starts_on = datetime.date(2026, 5, 2)
    ends_on = datetime.date(2026, 5, 3)
    country = "DE"
    status = Tournament.Status.RUNNING


class StaffRoleFactory(DjangoModelFactory):
    class Meta:
        model = StaffRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = StaffRole.Role.REFEREE


class RegistrationFactory(DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)


class SignUpFactory(DjangoModelFactory):
    """A self-registration awaiting the organisers' approval (issue 35)."""

    class Meta:
        model = SignUp

    tournament = factory.SubFactory(TournamentFactory)
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    name_key = factory.LazyAttribute(lambda s: name_key(s.first_name, s.last_name))
    country = "DE"
    email = factory.Sequence(lambda n: f"sign-up{n}@example.org")
    status = SignUp.Status.PENDING
    token = factory.Sequence(lambda n: f"sign-up-token-{n}")
    consent_at = factory.LazyFunction(lambda: datetime.datetime.now(datetime.UTC))


class SessionFactory(DjangoModelFactory):
    class Meta:
        model = Session

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    status = Session.Status.RUNNING


class TableFactory(DjangoModelFactory):
    class Meta:
        model = Table

    session = factory.SubFactory(SessionFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    wind = 0
    player = factory.SubFactory(PlayerFactory)


class GameFactory(DjangoModelFactory):
    """A tournament game with 4 GameSeats (pass `players=[...]` to choose them). `table` (or
    `club_night`) is where it is played: the table (the club night) holds the link."""

    class Meta:
        model = Game
        skip_postgeneration_save = True

    table = factory.SubFactory(TableFactory)
    ruleset = factory.LazyAttribute(
        lambda g: g.table.session.tournament.ruleset if g.table else "wdmc-2019"
    )

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        table = kwargs.pop("table", None)
        night = kwargs.pop("club_night", None)
        game = super()._create(model_class, *args, **kwargs)
        if table is not None:
            table.game = game
            table.save(update_fields=["game"])
        if night is not None:
            ClubGame.objects.create(game=game, night=night)
        return game

    @factory.post_generation
    def players(obj: Game, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create:
            return
        players: list[Player] = (
            list(extracted) if extracted else [PlayerFactory.create() for _ in range(4)]
        )
        for seat, player in enumerate(players):
            GameSeat.objects.create(game=obj, seat=seat, player=player)
            table = getattr(obj, "table", None)
            if table is not None:
                Seat.objects.get_or_create(table=table, wind=seat, defaults={"player": player})


def game_at_table(table: Table, **fields: Any) -> Game:
    """`Game.objects.create(**fields)` played at `table` (the table holds the link)."""
    game = Game.objects.create(**fields)
    table.game = game
    table.save(update_fields=["game"])
    return game


def game_at_night(night: ClubNight, **fields: Any) -> Game:
    """`Game.objects.create(**fields)` played at club night `night` (the night holds the link)."""
    game = Game.objects.create(**fields)
    ClubGame.objects.create(game=game, night=night)
    return game


class ClubGameFactory(GameFactory):
    table = None  # type: ignore[assignment]
    club_night = factory.SubFactory(ClubNightFactory)
    ruleset = "wdmc-2019"  # type: ignore[assignment]


class HandFactory(DjangoModelFactory):
    class Meta:
        model = Hand

    game = factory.SubFactory(GameFactory)
    number = factory.LazyAttribute(lambda h: h.game.hands.count())
    data = factory.LazyFunction(lambda: ron(winner=1, loser=2, han=2, fu=30))


class GamePenaltyFactory(DjangoModelFactory):
    class Meta:
        model = GamePenalty

    game = factory.SubFactory(ClubGameFactory)
    seat = 0
    kind = "other"
    points = 2000


class PenaltyFactory(DjangoModelFactory):
    class Meta:
        model = Penalty

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    kind = Penalty.Kind.OBSTRUCTION
    points = 8000
    reason = "Obstruction"


# Game-record hand helpers (formats/game-record.md).


def ron(
    *, winner: int, loser: int, han: int = 1, fu: int | None = 30, riichi: list[int] | None = None
) -> dict[str, Any]:
    win: dict[str, Any] = {"winner": winner, "han": han}
    if fu is not None:
        win["fu"] = fu
    return {"outcome": "ron", "loser": loser, "wins": [win], "riichi": riichi or []}


def tsumo(
    *, winner: int, han: int = 1, fu: int | None = 30, riichi: list[int] | None = None
) -> dict[str, Any]:
    win: dict[str, Any] = {"winner": winner, "han": han}
    if fu is not None:
        win["fu"] = fu
    return {"outcome": "tsumo", "wins": [win], "riichi": riichi or []}


def draw(*, tenpai: list[int] | None = None, riichi: list[int] | None = None) -> dict[str, Any]:
    return {"outcome": "draw", "tenpai": tenpai or [], "riichi": riichi or []}


def chombo(*, offender: int) -> dict[str, Any]:
    return {"outcome": "chombo", "offender": offender, "riichi": []}


def non_dealer_rons(count: int = 8) -> list[dict[str, Any]]:
    """Hands that each move the dealership on: a full east-south game when count is 8."""
    hands = []
    for i in range(count):
        dealer = i % 4
        winner = (dealer + 1) % 4
        loser = (dealer + 2) % 4
        hands.append(ron(winner=winner, loser=loser, han=2, fu=30))
    return hands
