"""The rules engine: plain Python, no Django. See formats/game-record.md for the contract and
README.md here for the engine's extensions of it (the EMA 2025 7.4 ``time_signal`` hand key).
"""

from .errors import RecordError, RulesError
from .points import HandPayment, base_points, hand_payment, limit_name
from .replay import preview_hand, replay
from .results import check_final_scores, final_results
from .rules import PRESETS, Chombo, Ruleset, load_ruleset, preset_sources
from .validate import check_penalty_amounts, penalty_amount_problem

__all__ = [
    "PRESETS",
    "Chombo",
    "HandPayment",
    "RecordError",
    "RulesError",
    "Ruleset",
    "base_points",
    "check_final_scores",
    "check_penalty_amounts",
    "final_results",
    "hand_payment",
    "limit_name",
    "load_ruleset",
    "penalty_amount_problem",
    "preset_sources",
    "preview_hand",
    "replay",
]
