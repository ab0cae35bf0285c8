"""Standings as CSV (for the standings page's download button)."""

from __future__ import annotations

import csv
import io

from tournaments.models import Tournament
from tournaments.spreadsheet import SafeCsvWriter

from .ranking import tie_breaks_of
from .selectors import public_standings, session_numbers
from .teams import team_standings


def thousands(points: int | None) -> str:
    """Points as the score sheets write them: in thousands, e.g. 45300 -> "45.3"."""
    if points is None:
        return ""
    sign = "-" if points < 0 else ""
    whole, rest = divmod(abs(points), 1000)
    return f"{sign}{whole}" + (f".{rest:03d}".rstrip("0") if rest else "")


def tie_break_header(name: str) -> str:
    """A tie-break's column header as people read it: "most_firsts" -> "Most firsts"."""
    return name.replace("_", " ").capitalize()


def standings_csv(tournament: Tournament) -> str:
    """One row per player: rank, name, EMA number, country, total, penalties, games, average
    placement, one column per session (the game result), tie-break values, flags.

    Every score is in points, as the standings page shows them (26300, a penalty -3000).
    The public standings (issue 32.3: before the hidden session while results are hidden).
    """
    rows = public_standings(tournament).rows
    sessions = session_numbers(rows)
    tie_breaks = tie_breaks_of(tournament.tie_breaks)
    out = io.StringIO()
    writer = SafeCsvWriter(out, quoting=csv.QUOTE_ALL, lineterminator="\n")  # issue 16.1
    writer.writerow(
        [
            "Rank",
            "First name",
            "Last name",
            "EMA number",
            "Country",
            "Total",
            "Penalties",
            "Games",
            "Average placement",
            *[f"Session {n}" for n in sessions],
            *[tie_break_header(t) for t in tie_breaks],
            "Substitute",
            "Dropped",
            "Disqualified",
            # Issue 31: the registration's role and whether a substitute played a seat.
            "Role",
            "Substituted",
            # Issue 32.2: still in after the last cut, or the cut the player went out at.
            "Qualified",
            "Out after session",
        ]
    )
    for row in rows:
        by_session: dict[int, int] = {}
        for e in row.per_session:
            if not e.get("as_substitute"):
                by_session[int(e["session"])] = by_session.get(int(e["session"]), 0) + int(
                    e["result"]
                )
        p = row.player
        writer.writerow(
            [
                row.rank if row.rank is not None else "",
                p.first_name,
                p.last_name,
                p.ema_number or "",
                p.country,
                row.total,
                # Tournament penalties and chombos (EMA 2025 3.4.6), as the page's column.
                -row.all_penalties or 0,
                row.games,
                "" if row.average_placement is None else f"{row.average_placement:.2f}",
                *[by_session.get(n, "") for n in sessions],
                *["" if v is None else v for v in row.tie_break_values],
                "yes" if row.is_substitute else "no",
                "yes" if row.dropped else "no",
                "yes" if row.disqualified else "no",  # EMA 2025 6.12: shown, not ranked
                row.role,
                "yes" if row.substituted else "no",  # EMA 2025 7.3
                "yes" if row.qualified else "no",
                "" if row.out_after_session is None else row.out_after_session,
            ]
        )
    return out.getvalue()


def team_standings_csv(tournament: Tournament) -> str:
    """One row per team (issue 32.1): rank, team, total (in points), games, tie-break values,
    the members counted ("Name (total)", best first) and those not counted."""
    rows = team_standings(tournament)
    try:
        tie_breaks = tie_breaks_of(tournament.tie_breaks)
    except ValueError:
        tie_breaks = ()
    out = io.StringIO()
    writer = SafeCsvWriter(out, quoting=csv.QUOTE_ALL, lineterminator="\n")  # issue 16.1
    writer.writerow(
        [
            "Rank",
            "Team",
            "Total",
            "Games",
            *[tie_break_header(t) for t in tie_breaks],
            "Counted members",
            "Other members",
        ]
    )
    for team in rows:
        writer.writerow(
            [
                team.rank if team.rank is not None else "",
                team.name,
                team.total,
                team.games,
                *["" if v is None else v for v in team.tie_break_values],
                "; ".join(f"{m.name} ({m.total})" for m in team.members if m.counted),
                "; ".join(f"{m.name} ({m.total})" for m in team.members if not m.counted),
            ]
        )
    return out.getvalue()
