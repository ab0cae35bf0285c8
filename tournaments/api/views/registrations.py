"""Registrations over the API: a tournament's list, registering and CSV import; one
registration's drop, disqualification (EMA 2025 6.12) and reinstatement.
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import ServiceViewSet, errors, parse
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from tournaments import services
from tournaments.api.permissions import IsTournamentOrganiser
from tournaments.api.serializers import (
    DisqualificationSerializer,
    ImportResultSerializer,
    OptionalReasonInputSerializer,
    ReasonInputSerializer,
    RegistrationImportInputSerializer,
    RegistrationInputSerializer,
    RegistrationSerializer,
    RegistrationUpdateInputSerializer,
)
from tournaments.api.views.common import (
    WRITE_ERRORS,
    TournamentResource,
    _PermissionsByAction,
    drop_reason_context,
)
from tournaments.models import Registration
from tournaments.selectors import visible_tournaments
from tournaments.services.privacy import erase
from tournaments.services.registration import seats_to_replace


class TournamentRegistrationsViewSet(TournamentResource):
    @extend_schema(
        methods=["GET"],
        summary="Registered players",
        responses={200: RegistrationSerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Register a player (organisers); an existing EMA number reuses the player",
        request=RegistrationInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: RegistrationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def registrations(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            rows = tournament.registrations.select_related("player", "team")
            return Response(
                RegistrationSerializer(
                    rows, many=True, context=drop_reason_context(request, tournament)
                ).data
            )
        data = parse(RegistrationInputSerializer, request)
        data["ema_number"] = data.get("ema_number") or None
        registration = services.register_player(actor=request.user, tournament=tournament, **data)
        return Response(
            RegistrationSerializer(
                registration, context=drop_reason_context(request, tournament)
            ).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="Import registrations from CSV (all rows or none; errors per row)",
        request={
            "multipart/form-data": RegistrationImportInputSerializer,
            "application/json": RegistrationImportInputSerializer,
        },
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: ImportResultSerializer, **WRITE_ERRORS},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="registrations/import",
        url_name="registrations-import",
    )
    @idempotent
    def import_registrations(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        data = parse(RegistrationImportInputSerializer, request)
        result = services.import_registrations_csv(
            actor=request.user, tournament=tournament, text=data["text"]
        )
        body = {
            "imported": len(result.registrations),
            "registrations": RegistrationSerializer(
                result.registrations, many=True, context=drop_reason_context(request, tournament)
            ).data,
            "already_registered": result.already_registered,
            "possible_duplicates": result.possible_duplicates,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class RegistrationViewSet(_PermissionsByAction, mixins.RetrieveModelMixin, ServiceViewSet):
    serializer_class = RegistrationSerializer
    permission_classes = [IsTournamentOrganiser]

    def get_queryset(self) -> QuerySet[Registration]:
        return Registration.objects.filter(
            tournament__in=visible_tournaments(self.request.user).values("pk")
        ).select_related("player", "tournament", "team")

    def private_view(self, registration: Registration) -> dict:
        context = drop_reason_context(self.request, registration.tournament)
        return dict(RegistrationSerializer(registration, context=context).data)

    @extend_schema(summary="One registration (the drop reason only for organisers)")
    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(self.private_view(self.get_object()))

    @extend_schema(
        summary="Correct a registration or change its team (organisers)",
        description="Only the fields sent change. `team` is the team's name (issue 32.1): "
        "created on first use, empty or null for none; a team left without members is "
        "removed.",
        request=RegistrationUpdateInputSerializer,
        responses={200: RegistrationSerializer, **WRITE_ERRORS},
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        registration = self.get_object()
        data = parse(RegistrationUpdateInputSerializer, request)
        if "ema_number" in data:
            data["ema_number"] = data["ema_number"] or None
        services.update_registration(actor=request.user, registration=registration, **data)
        registration = self.get_queryset().get(pk=registration.pk)
        return Response(self.private_view(registration))

    @extend_schema(
        summary="Drop a player from the tournament (organisers)",
        request=ReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: RegistrationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def drop(self, request: Request, pk: str) -> Response:
        registration = self.get_object()
        data = parse(ReasonInputSerializer, request)
        result = services.drop_player(
            actor=request.user, registration=registration, reason=data["reason"]
        )
        registration = result if isinstance(result, Registration) else registration
        registration.refresh_from_db()
        return Response(self.private_view(registration))

    @extend_schema(
        summary="Disqualify a player (organisers; EMA 2025 6.12)",
        description="EMA 2025 6.12: cheating, or further repeated obstruction. The player is "
        "dropped (never seated again) and shown unranked in the standings and left out of the "
        "EMA file; `seats_to_replace` lists the seats a substitute must take (EMA 2025 7.3). "
        "Undone by `reinstate`.",
        request=ReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: DisqualificationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def disqualify(self, request: Request, pk: str) -> Response:

        registration = self.get_object()
        data = parse(ReasonInputSerializer, request)
        registration = services.disqualify_player(
            actor=request.user, registration=registration, reason=data["reason"]
        )
        registration.refresh_from_db()
        return Response(
            {**self.private_view(registration), "seats_to_replace": seats_to_replace(registration)}
        )

    @extend_schema(
        summary="Take a dropped player back (organisers)",
        request=OptionalReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: RegistrationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def reinstate(self, request: Request, pk: str) -> Response:
        registration = self.get_object()
        data = parse(OptionalReasonInputSerializer, request)
        services.reinstate_player(
            actor=request.user, registration=registration, reason=data["reason"]
        )
        registration.refresh_from_db()
        return Response(self.private_view(registration))

    @extend_schema(
        summary="Erase the player's personal data on their request (organisers; docs/privacy.md)",
        description="The name becomes a pseudonym (`Player 3FA9C1`) everywhere, the club and "
        "the sign-ups' e-mail address, EMA number and club go; the EMA number, country and "
        "every result stay. A player who also appears outside the tournament (another "
        "tournament, a club game, a login) is erased by a site admin only (403).",
        request=OptionalReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: RegistrationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def erase(self, request: Request, pk: str) -> Response:
        registration = self.get_object()
        data = parse(OptionalReasonInputSerializer, request)
        erase(
            actor=request.user,
            tournament=registration.tournament,
            player=registration.player,
            reason=data["reason"],
        )
        return Response(self.private_view(self.get_queryset().get(pk=registration.pk)))
