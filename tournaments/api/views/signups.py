"""Self-registration over the API (issue 35): anyone signs up while registration is open;
the organisers read the list (with e-mail addresses, theirs only), decide pending sign-ups and
erase a registrant's data on request (/sign-ups/{id}/, as the console's Sign-ups page)."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import ServiceViewSet, errors, parse
from core.errors import PermissionDenied
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from core.lockout import client_ip
from tournaments import roles
from tournaments.api.permissions import OrganiserOnly
from tournaments.api.serializers import OptionalReasonInputSerializer
from tournaments.api.signup_serializers import (
    SignUpAnswerSerializer,
    SignUpInputSerializer,
    SignUpSerializer,
)
from tournaments.api.views.common import WRITE_ERRORS, TournamentResource
from tournaments.models import SignUp
from tournaments.selectors import visible_tournaments
from tournaments.services import privacy, signups
from tournaments.signup_selectors import sign_ups_of, waiting_position


class TournamentSignUpsViewSet(TournamentResource):
    def get_permissions(self) -> list[BasePermission]:
        # Signing up needs no account; the list is checked in the view (organisers only).
        return [AllowAny()]

    @extend_schema(
        methods=["GET"],
        summary="Sign-ups with their states and e-mail addresses (organisers)",
        responses={200: SignUpSerializer(many=True), **errors(403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Sign up for a tournament (no login; registration must be open)",
        description="Answers `status`: `registered` (a place), `waiting` (the waiting list, "
        "first come first served) or `pending` (the organiser approves sign-ups). A "
        "confirmation e-mail carries the private link to the status page. Duplicates (same "
        "EMA number, or the same name ignoring case and accents) are refused naming the "
        "field; at most SIGNUP_RATE_PER_HOUR sign-ups per address and hour (429).",
        request=SignUpInputSerializer,
        responses={201: SignUpAnswerSerializer, **errors(400, 404, 429)},
    )
    @action(
        detail=True,
        methods=["get", "post"],
        url_path="sign-ups",
        url_name="sign-ups",
        pagination_class=None,
    )
    def sign_ups(self, request: Request, slug: str) -> Response:
        tournament = self._visible_tournament("pk", "slug", "status")
        if request.method == "GET":
            if not roles.is_organiser(request.user, tournament):
                raise PermissionDenied("Only the tournament's organisers see the sign-ups.")
            return Response(SignUpSerializer(sign_ups_of(tournament), many=True).data)
        try:
            signups.count_sign_up_attempt(client_ip(request))
        except signups.TooManySignUps as refused:
            return Response(
                {"field": None, "message": str(refused), "errors": []},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(refused.retry_after)},
            )
        data = parse(SignUpInputSerializer, request)
        if data.pop("website", ""):
            return Response(
                {"field": "website", "message": "Leave this field empty.", "errors": []},
                status=status.HTTP_400_BAD_REQUEST,
            )
        record = signups.sign_up(tournament=tournament, **data)
        body = {
            "status": record.status,
            "first_name": record.first_name,
            "last_name": record.last_name,
            "waiting_position": waiting_position(record),
        }
        return Response(body, status=status.HTTP_201_CREATED)


class SignUpViewSet(mixins.RetrieveModelMixin, ServiceViewSet):
    """One sign-up, for its tournament's organisers: read it, decide a pending one, erase the
    registrant's data on request (the console's Sign-ups page, over the API)."""

    serializer_class = SignUpSerializer
    permission_classes = [OrganiserOnly]

    def get_queryset(self) -> QuerySet[SignUp]:
        return SignUp.objects.filter(
            tournament__in=visible_tournaments(self.request.user).values("pk")
        ).select_related("tournament")

    @extend_schema(summary="One sign-up with its state and e-mail address (organisers)")
    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(SignUpSerializer(self.get_object()).data)

    def _decide(self, request: Request, approve: bool) -> Response:
        record = self.get_object()
        data = parse(OptionalReasonInputSerializer, request)
        record = signups.decide_sign_up(
            actor=request.user, sign_up=record, approve=approve, reason=data["reason"]
        )
        return Response(SignUpSerializer(record).data)

    @extend_schema(
        summary="Approve a pending sign-up (organisers): a place if one is free, else the "
        "waiting list; the registrant is told by e-mail",
        request=OptionalReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: SignUpSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def approve(self, request: Request, pk: str) -> Response:
        return self._decide(request, approve=True)

    @extend_schema(
        summary="Refuse a pending sign-up (organisers); the registrant is told by e-mail",
        request=OptionalReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: SignUpSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def refuse(self, request: Request, pk: str) -> Response:
        return self._decide(request, approve=False)

    @extend_schema(
        summary="Erase the registrant's personal data (organisers; docs/privacy.md)",
        description="The name becomes a pseudonym on the sign-up (and on the player once "
        "registered), the e-mail address, EMA number and club go; a player who also appears "
        "outside the tournament is erased by a site admin only (403).",
        request=OptionalReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: SignUpSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def erase(self, request: Request, pk: str) -> Response:
        record = self.get_object()
        data = parse(OptionalReasonInputSerializer, request)
        privacy.erase(
            actor=request.user, tournament=record.tournament, sign_up=record, reason=data["reason"]
        )
        record.refresh_from_db()
        return Response(SignUpSerializer(record).data)
