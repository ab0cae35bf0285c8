"""OPTIONS answers (DRF's metadata) for every API view.

DRF's SimpleMetadata describes the POST/PUT body by building the view's serializer. Action
views that read their input through their own serializers (extend, referee calls, online log,
hand confirmation, ...) have no `serializer_class`, and that build raised: OPTIONS was a 500
(found by the live API fuzzing). Such views answer OPTIONS without the body description."""

from __future__ import annotations

from typing import Any

from rest_framework.metadata import SimpleMetadata


class Metadata(SimpleMetadata):
    def determine_actions(self, request: Any, view: Any) -> dict[str, Any]:
        # Imported here: DRF loads this class while rest_framework.generics is importing.
        from rest_framework.generics import GenericAPIView

        has_serializer = getattr(view, "serializer_class", None) is not None or (
            type(view).get_serializer_class is not GenericAPIView.get_serializer_class
        )
        if not has_serializer:
            return {}
        return super().determine_actions(request, view)
