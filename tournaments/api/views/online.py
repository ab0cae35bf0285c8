"""Online sessions over the API (issue 32.5): a table's game imported from its Tenhou or
Mahjong Soul log, and the stored comparison with what the site paid."""

from __future__ import annotations

import json

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import ServiceViewSet, errors, parse
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from core.limits import upload_problem
from scoring.services.online import MAX_LOG_BYTES
from tournaments.api.permissions import RefereeOnly
from tournaments.api.serializers import OnlineLogInputSerializer, OnlineLogSerializer
from tournaments.models import OnlineTableLog, Table
from tournaments.selectors import visible_tournaments
from tournaments.services.online import import_table_log, log_report


class TableOnlineLogViewSet(ServiceViewSet):
    queryset = Table.objects.none()
    permission_classes = [RefereeOnly]

    def get_queryset(self) -> QuerySet[Table]:
        return Table.objects.filter(
            session__tournament__in=visible_tournaments(self.request.user).values("pk")
        ).select_related("session", "game")

    @extend_schema(
        methods=["GET"],
        summary="The online log this table's game was imported from (referees, organisers)",
        description="404 while no log was imported.",
        responses={200: OnlineLogSerializer, **errors(403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Import this table's game from its Tenhou or Mahjong Soul log (referees, "
        "organisers; the session must be online)",
        description='JSON `{"log": "...", "players": {"site name": registration id}}` '
        "or multipart with the file under `log` (and `players` as a JSON text). Names are "
        "mapped by `players`, else by the tournament's remembered names, else by a seated "
        "player's own name; a log whose players are not this table's is refused with 400, "
        "field `players`, naming them in the message and in `errors` (`seat`, `name`, "
        "`registration`). The hands are replayed under the tournament's rules (the engine's "
        "scores are kept) and compared hand by hand with what the site paid (`comparison`); "
        "the table's winds follow the log. A hand those rules cannot score: 400 on `log`.",
        request={
            "application/json": OnlineLogInputSerializer,
            "multipart/form-data": OnlineLogInputSerializer,
        },
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: OnlineLogSerializer, **errors(400, 403, 404, 422)},
    )
    @action(detail=True, methods=["get", "post"], url_path="online-log", url_name="online-log")
    @idempotent
    def online_log(self, request: Request, pk: str) -> Response:
        table = self.get_object()
        if request.method == "GET":
            log = OnlineTableLog.objects.filter(table=table).first()
            if log is None:
                raise Http404("No online log was imported for this table.")
            game = table.game
            return Response(
                {
                    "table": table.pk,
                    "session": table.session.number,
                    "table_number": table.number,
                    **log_report(log),
                    "game": game.pk if game is not None else None,
                    "status": game.status if game is not None else None,
                }
            )
        upload = request.FILES.get("log")
        if upload is not None:
            problem = upload_problem(upload, MAX_LOG_BYTES)
            if problem:  # seen while it streamed in (issue 16.8)
                raise ValidationError({"log": [problem]})
            players = request.POST.get("players") or "{}"  # a multipart form's text
            try:
                mapping = json.loads(players) if isinstance(players, str) else players
            except json.JSONDecodeError:
                raise ValidationError({"players": ["players must be a JSON object."]}) from None
            data = parse(OnlineLogInputSerializer, request, {"log": "-", "players": mapping})
            data["log"] = upload.read(MAX_LOG_BYTES + 1)
        else:
            data = parse(OnlineLogInputSerializer, request)
        done = import_table_log(
            actor=request.user, table=table, data=data["log"], players=data["players"]
        )
        return Response(done.to_dict(), status=status.HTTP_201_CREATED)
