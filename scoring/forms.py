"""The referee's hand-entry form: a few taps turned into one game-record hand object.

Seats are the fixed seat indices of the game record (0 = the player who began as East).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

OUTCOMES = [
    ("ron", _("Ron")),
    ("tsumo", _("Tsumo")),
    ("draw", _("Draw")),
    ("chombo", _("Chombo")),
    ("nagashi", _("Nagashi")),
    ("abortive", _("Abortive")),
]
HAN_CHOICES = [(str(n), str(n)) for n in range(1, 14)]
FU_CHOICES = [(str(f), str(f)) for f in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)]
YAKUMAN_CHOICES = [("", "—"), ("1", _("Yakuman")), ("2", _("Double yakuman"))]


def _seat_choices(players: list[str]) -> list[tuple[str, str]]:
    return [(str(i), name) for i, name in enumerate(players)]


class HandEntryForm(forms.Form):
    """Parses the entry page's POST into ``self.hand`` (a game-record hand) in ``clean``."""

    outcome = forms.ChoiceField(choices=OUTCOMES, widget=forms.RadioSelect)
    winners = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    loser = forms.ChoiceField(required=False, widget=forms.RadioSelect)
    riichi = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    tenpai = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    nagashi = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    offender = forms.ChoiceField(required=False, widget=forms.RadioSelect)
    tiles = forms.CharField(required=False, max_length=120)
    expected_version = forms.IntegerField(
        min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput
    )

    def __init__(
        self,
        *args: Any,
        players: list[str],
        offer_time_signal: bool = False,
        rules: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        if rules is not None:
            # Outcomes the rules do not know are not offered (nagashi mangan and abortive
            # draws are not in the EMA 2025 rules, for instance).
            self.fields["outcome"].choices = [  # type: ignore[attr-defined]
                (value, label)
                for value, label in OUTCOMES
                if (value != "nagashi" or rules.nagashi_mangan)
                and (value != "abortive" or rules.abortive_draws != "none")
            ]
        if offer_time_signal:
            # EMA 2025 7.4: the hand in progress when the 15-minutes-left signal sounded. Only
            # under rules with time_limit "ema" (the views decide); sent only when checked.
            self.fields["time_signal"] = forms.BooleanField(
                required=False, label=_("Time signal sounded during this hand (EMA 7.4)")
            )
        seats = _seat_choices(players)
        for name in ("winners", "riichi", "tenpai", "nagashi"):
            self.fields[name].choices = seats  # type: ignore[attr-defined]
        for name in ("loser", "offender"):
            self.fields[name].choices = [("", "—"), *seats]  # type: ignore[attr-defined]
        # One han / fu / yakuman / pao block per seat; shown only for the seats marked as winners.
        for seat in range(len(players)):
            self.fields[f"han_{seat}"] = forms.ChoiceField(
                required=False, choices=[("", "—"), *HAN_CHOICES], widget=forms.RadioSelect
            )
            self.fields[f"fu_{seat}"] = forms.ChoiceField(
                required=False, choices=[("", "—"), *FU_CHOICES], widget=forms.RadioSelect
            )
            self.fields[f"yakuman_{seat}"] = forms.ChoiceField(
                required=False, choices=YAKUMAN_CHOICES, widget=forms.RadioSelect
            )
            self.fields[f"pao_{seat}"] = forms.ChoiceField(
                required=False, choices=[("", "—"), *seats]
            )
        self.hand: dict[str, Any] = {}

    def seat_blocks(self) -> list[dict[str, Any]]:
        """Per-seat bound fields for the template (han, fu, yakuman, pao)."""
        return [
            {
                "seat": seat,
                "name": name,
                "han": self[f"han_{seat}"],
                "fu": self[f"fu_{seat}"],
                "yakuman": self[f"yakuman_{seat}"],
                "pao": self[f"pao_{seat}"],
            }
            for seat, name in enumerate(self.players)
        ]

    def _win(self, seat: int, *, tsumo: bool) -> dict[str, Any] | None:
        data = self.cleaned_data
        win: dict[str, Any] = {"winner": seat}
        yakuman = data.get(f"yakuman_{seat}") or ""
        han = data.get(f"han_{seat}") or ""
        fu = data.get(f"fu_{seat}") or ""
        if yakuman:
            win["yakuman"] = int(yakuman)
        elif han:
            win["han"] = int(han)
            if fu:
                win["fu"] = int(fu)
            elif int(han) < 5:
                self.add_error(f"fu_{seat}", _("Choose the fu (below 5 han they count)."))
                return None
        else:
            self.add_error(f"han_{seat}", _("Choose the han, or yakuman."))
            return None
        pao = data.get(f"pao_{seat}") or ""
        if pao:
            if int(pao) == seat:
                self.add_error(f"pao_{seat}", _("The winner cannot be liable for their own hand."))
                return None
            win["pao"] = int(pao)
        return win

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        outcome = data.get("outcome")
        if not outcome:
            return data
        riichi = sorted(int(s) for s in data.get("riichi") or [])
        hand: dict[str, Any] = {"outcome": outcome, "riichi": riichi}
        winners = sorted(int(s) for s in data.get("winners") or [])
        if outcome in ("ron", "tsumo"):
            if not winners:
                self.add_error("winners", _("Choose who won."))
                return data
            if outcome == "tsumo" and len(winners) > 1:
                self.add_error("winners", _("A tsumo has exactly one winner."))
                return data
            if outcome == "ron":
                loser = data.get("loser") or ""
                if loser == "":
                    self.add_error("loser", _("Choose who dealt in."))
                    return data
                if int(loser) in winners:
                    self.add_error("loser", _("The player who dealt in cannot also win."))
                    return data
                hand["loser"] = int(loser)
            wins = [self._win(seat, tsumo=outcome == "tsumo") for seat in winners]
            if any(w is None for w in wins):
                return data
            hand["wins"] = wins
        elif outcome in ("draw", "nagashi"):
            hand["tenpai"] = sorted(int(s) for s in data.get("tenpai") or [])
            if outcome == "nagashi":
                hand["nagashi"] = sorted(int(s) for s in data.get("nagashi") or [])
                if not hand["nagashi"]:
                    self.add_error("nagashi", _("Choose who made nagashi mangan."))
                    return data
        elif outcome == "chombo":
            offender = data.get("offender") or ""
            if offender == "":
                self.add_error("offender", _("Choose who made the chombo."))
                return data
            hand["offender"] = int(offender)
        if data.get("tiles") and (outcome not in ("ron", "tsumo") or len(winners) != 1):
            self.add_error("tiles", _("Tiles can be checked for a single win only."))
            return data
        if data.get("time_signal"):
            hand["time_signal"] = True  # never False: unmarked hands stay as they were
        self.hand = hand
        return data


class ReasonForm(forms.Form):
    """Editing or deleting a recorded hand needs a reason (kept in the audit trail)."""

    reason = forms.CharField(max_length=500, widget=forms.TextInput)
    expected_version = forms.IntegerField(
        min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput
    )


class VersionForm(forms.Form):
    expected_version = forms.IntegerField(
        min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput
    )


# Hand keys whose engine errors belong to the form field of the same name ("wins": winners;
# "time_signal", EMA 2025 7.4, only when the form offers it, else the error goes on top).
_TOP_LEVEL_FIELDS = frozenset(
    {"outcome", "loser", "riichi", "tenpai", "nagashi", "offender", "wins", "time_signal"}
)


# Map an engine field path ("wins[0].fu") to the form field it came from.
def field_for_engine_error(path: str, hand: dict[str, Any]) -> str | None:
    if not path:
        return None
    # Services may prefix the engine's path with "hand." or "hands[3].".
    if path.startswith("hand."):
        path = path[len("hand.") :]
    elif path.startswith("hands[") and "]." in path:
        path = path.split("].", 1)[1]
    head = path.split(".")[0]
    if head.startswith("wins["):
        try:
            index = int(head[5 : head.index("]")])
            seat = hand["wins"][index]["winner"]
        except (ValueError, KeyError, IndexError):
            return "winners"
        leaf = path.split(".")[-1]
        if leaf in ("han", "fu", "yakuman", "pao"):
            return f"{leaf}_{seat}"
        return "winners"
    if head in _TOP_LEVEL_FIELDS:
        return "winners" if head == "wins" else head
    return None


class PaperSheetForm(forms.Form):
    """A table that played on paper: the final scores from its sheet (EMA 2025 7.5), riichi
    sticks left on the table and, under rules with a chombo deduction, each player's chombos."""

    riichi_sticks_left = forms.IntegerField(
        min_value=0, max_value=40, initial=0, label=_("Riichi sticks left on the table")
    )
    expected_version = forms.IntegerField(
        min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput
    )

    def __init__(
        self, *args: Any, players: list[str], chombo_points: int | None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for seat, name in enumerate(players):
            self.fields[f"score_{seat}"] = forms.IntegerField(
                min_value=-500_000, max_value=500_000, label=name
            )
            if chombo_points is not None:
                self.fields[f"chombo_{seat}"] = forms.IntegerField(
                    min_value=0, max_value=5, initial=0, required=False, label=name
                )

    def rows(self) -> list[dict[str, Any]]:
        return [
            {"score": self[f"score_{seat}"], "chombo": self[f"chombo_{seat}"]}
            if f"chombo_{seat}" in self.fields
            else {"score": self[f"score_{seat}"], "chombo": None}
            for seat in range(len(self.players))
        ]

    def scores(self) -> list[int]:
        return [int(self.cleaned_data[f"score_{seat}"]) for seat in range(len(self.players))]

    def chombos(self) -> list[int] | None:
        if "chombo_0" not in self.fields:
            return None
        return [
            seat
            for seat in range(len(self.players))
            for _ in range(int(self.cleaned_data.get(f"chombo_{seat}") or 0))
        ]
