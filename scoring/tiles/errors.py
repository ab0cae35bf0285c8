"""The one error the tile evaluator raises: which input is wrong, in a referee's words."""

from __future__ import annotations


class TileError(ValueError):
    """``field`` names the input at fault (``tiles``, ``dora_indicators``, ``riichi``, ...)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}
