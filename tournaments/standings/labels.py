"""The tie-breaks as pages, forms and exports name them (translated; the rules are in
tournaments.standings.ranking, which stays plain Python)."""

from django.utils.translation import gettext_lazy

TIE_BREAK_LABELS = {
    "best_game": gettext_lazy("best game"),
    "most_firsts": gettext_lazy("first places"),
    "fewest_lasts": gettext_lazy("last places"),
    "average_placement": gettext_lazy("average placement"),
    "total_table_score": gettext_lazy("table scores"),
    "head_to_head": gettext_lazy("head to head"),
}
