from django.apps import AppConfig
from django.db.models.signals import post_delete


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # In ready(): these import models, which load only once the app registry is ready.
        from core.players import register_player_policy
        from core.roles import forget_roles_when_changed
        from core.signals import player_changed
        from scoring.policy import register_game_policy
        from scoring.signals import game_changed, record_extensions, record_imported

        from .api.serializers import standings_json
        from .game_records import add_record_extensions, keep_imported_extensions
        from .models import StaffRole, Table, delete_game_with_table
        from .policy import TournamentGamePolicy, TournamentPlayerPolicy
        from .standings import receivers
        from .standings.cache import API_JSON, prerender

        # Standings follow the games (scoring announces, never imports tournaments: issue 14).
        # Every new standings table is rendered once for the API by the task that made it.
        prerender(API_JSON, standings_json)
        # Who may change its games and when (scoring.policy).
        register_game_policy(TournamentGamePolicy())
        game_changed.connect(receivers.game_changed, dispatch_uid="tournaments.standings")
        # A table's game record carries the tournament's extensions (issue 20).
        record_extensions.connect(add_record_extensions, dispatch_uid="tournaments.records")
        record_imported.connect(keep_imported_extensions, dispatch_uid="tournaments.records")
        # Organisers create and correct players; running fixes their identity (core.players).
        # The standings show players' names (core.signals).
        register_player_policy(TournamentPlayerPolicy())
        player_changed.connect(receivers.player_changed, dispatch_uid="tournaments.standings")
        # A role granted or taken away within a request is seen by that request's next check.
        forget_roles_when_changed(StaffRole)
        # A table's game goes with the table (the table holds the link: issue 14).
        post_delete.connect(delete_game_with_table, sender=Table, dispatch_uid="table.game")
