"""Self-registration over the API (issue 35): anyone signs up while registration is open;
the organisers read the list (with e-mail addresses, theirs only)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import errors, parse
from core.errors import PermissionDenied
from core.lockout import client_ip
from tournaments import roles
from tournaments.api.signup_serializers import (
    SignUpAnswerSerializer,
    SignUpInputSerializer,
    SignUpSerializer,
)
from tournaments.api.views.common import TournamentResource
from tournaments.services import signups
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
