from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Games and hands"

    def ready(self) -> None:
        # In ready(): core.api.base imports DRF, which reads Django's settings.
        from core.api.base import register_input_error
        from scoring.engine import RecordError
        from scoring.tiles import TileError

        # Engine and tile errors reaching an API view are 400 naming the field at fault.
        register_input_error(RecordError)
        register_input_error(TileError)
