"""Tournaments over the API: list, read, create, settings, status, publish and the audit log.

Views parse input, call a service of tournaments.services, serialize. Which objects are public
is decided by tournaments.selectors; who may write by tournaments.api.permissions (both built on
tournaments.roles). POSTs honour `Idempotency-Key`. The tournament's resources are view sets of
their own beside this one: staff, registrations, sessions, seating, penalties, exports.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core import audit
from core.api.base import errors, parse
from core.api.permissions import IsAuthenticatedForWrites
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from scoring.api.serializers import AuditEntrySerializer
from tournaments import roles, services
from tournaments.api.permissions import RefereeOnly
from tournaments.api.serializers import (
    StatusInputSerializer,
    TournamentInputSerializer,
    TournamentSerializer,
    TournamentSettingsInputSerializer,
)
from tournaments.api.views.common import WRITE_ERRORS, TournamentResource, redact_private_reasons


@extend_schema_view(
    list=extend_schema(summary="Tournaments (drafts only for their staff)"),
    retrieve=extend_schema(
        summary="One tournament", responses={200: TournamentSerializer, **errors(404)}
    ),
)
class TournamentViewSet(TournamentResource, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    action_permissions = {"create": [IsAuthenticatedForWrites], "audit": [RefereeOnly]}

    @extend_schema(
        summary="Create a tournament (the creator becomes its organiser)",
        request=TournamentInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: TournamentSerializer, **errors(400, 403, 422)},
    )
    @idempotent
    def create(self, request: Request) -> Response:
        data = parse(TournamentInputSerializer, request)
        tournament = services.create_tournament(actor=request.user, **data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Change the tie-breaks or qualification-only (organisers); the standings and "
        "the EMA report are recomputed",
        request=TournamentSettingsInputSerializer,
        responses={200: TournamentSerializer, **WRITE_ERRORS},
    )
    def partial_update(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        data = parse(TournamentSettingsInputSerializer, request)
        tournament = services.update_tournament(actor=request.user, tournament=tournament, **data)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        summary="Change the tournament's status (organisers)",
        request=StatusInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: TournamentSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="status", url_name="status")
    @idempotent
    def set_status(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        data = parse(StatusInputSerializer, request)
        tournament = services.set_status(
            actor=request.user,
            tournament=tournament,
            status=data["status"],
            reason=data.get("reason", ""),
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        summary="Publish the results (organisers)",
        request=None,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: TournamentSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def publish(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        tournament = services.publish_results(actor=request.user, tournament=tournament)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        summary="The tournament's audit log (its referees and organisers)",
        responses={200: AuditEntrySerializer(many=True), **errors(403, 404)},
    )
    @action(detail=True, methods=["get"])
    def audit(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        entries = audit.audit_for_tournament(tournament.pk)
        page = self.paginate_queryset(entries)
        data: list[dict] = [dict(e) for e in AuditEntrySerializer(page, many=True).data]
        if not roles.is_organiser(request.user, tournament):
            data = [redact_private_reasons(entry) for entry in data]
        return self.get_paginated_response(data)
