"""A team event's standings over the API (issue 32.1, docs/teams.md): JSON with its ETag, or
CSV."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseNotModified
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import action
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from core.api.base import errors
from tournaments.api.serializers import TeamStandingSerializer
from tournaments.api.views.common import (
    FileFormatInQuery,
    TournamentResource,
    _download,
    _file_format,
)
from tournaments.models import Tournament
from tournaments.standings import cache as standings_cache
from tournaments.standings.asof import hidden_from
from tournaments.standings.exports import team_standings_csv
from tournaments.standings.teams import team_standings

TEAM_JSON = "team-api-json"


def team_standings_json(tournament: Tournament) -> bytes:
    rows = TeamStandingSerializer(team_standings(tournament), many=True).data
    return bytes(JSONRenderer().render(rows))


class TournamentTeamsViewSet(TournamentResource):
    @staticmethod
    def _team_body(tournament: Tournament) -> bytes:
        body: bytes = standings_cache.cached(
            tournament, TEAM_JSON, lambda: team_standings_json(tournament)
        )
        return body

    @extend_schema(
        summary="Team standings (public; empty unless teams_enabled); ?format=csv for CSV",
        parameters=[
            OpenApiParameter(
                "format",
                OpenApiTypes.STR,
                enum=["json", "csv"],
                description="csv: one quoted row per team, as the team standings download.",
            )
        ],
        responses={
            (200, "application/json"): TeamStandingSerializer(many=True),
            (200, "text/csv"): OpenApiTypes.STR,
            304: OpenApiResponse(
                description="JSON unchanged since the ETag sent in If-None-Match."
            ),
            **errors(400, 404),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="team-standings",
        url_name="team-standings",
        pagination_class=None,
        content_negotiation_class=FileFormatInQuery,
    )
    def team_standings(self, request: Request, slug: str) -> HttpResponse:
        tournament = self.get_object()
        if _file_format(request, ("json", "csv"), "json") == "csv":
            return _download(
                team_standings_csv(tournament),
                filename=f"{tournament.slug}-team-standings.csv",
                content_type="text/csv; charset=utf-8",
            )
        # Kept by the standings version, which every change of the players' rows, a team's
        # members or the team settings renews; while results are hidden (issue 32.3) tagged
        # by the answer's own bytes (standings_cache.etag).
        answer: HttpResponse
        body: bytes | None = None
        if hidden_from(tournament) is not None:
            body = self._team_body(tournament)
        tag = standings_cache.etag(tournament, body, kind="teams")
        if tag in request.headers.get("If-None-Match", ""):
            answer = HttpResponseNotModified()
        else:
            answer = HttpResponse(
                body if body is not None else self._team_body(tournament),
                content_type="application/json",
            )
        answer["ETag"] = tag
        answer["Cache-Control"] = "no-cache"
        return answer
