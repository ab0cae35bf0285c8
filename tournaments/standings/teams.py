"""Team standings (issue 32.1, docs/teams.md), computed from the player standings as read.

A team's total is the sum of its counted members' totals (each after uma, oka and penalties,
as the player standings have them): all ranked members, or the best
``Tournament.team_counted_members`` of them. Fill-ins, reserves and disqualified members are
listed but never counted (they are not ranked either: EMA 2025 7.3, 6.12). Teams are ranked
with the players' machinery (``ranking.rank_players``) on the counted members' games taken
together: best game (the best of them), first places and last places (added up), average
placement and table scores (over all those games), head to head (places above the members of
the other tied teams in games they shared).

Nothing is stored: the rows are built from the player rows on each read (a cached answer is
kept by the standings version, which every change of a team's members renews).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.engine import load_ruleset
from tournaments.models import Registration, StandingRow, Team, Tournament

from .ranking import Entry, Rankable, aggregate, rank_players, tie_breaks_of
from .selectors import public_standings


@dataclass
class TeamMember:
    player_id: int
    name: str
    total: int
    rank: int | None  # the player's own rank in the standings (None: none yet, or not ranked)
    games: int
    ranked: bool  # may count for the team: not a fill-in, reserve or disqualified
    counted: bool = False
    entries: list[Entry] = field(default_factory=list, repr=False)


@dataclass
class TeamStanding:
    team_id: int
    name: str
    slug: str
    members: list[TeamMember]
    rank: int | None = None
    total: int = 0
    games: int = 0
    tie_break_values: list[float | int | None] = field(default_factory=list)

    @property
    def counted(self) -> list[TeamMember]:
        return [m for m in self.members if m.counted]


def _counted_entries(entries: Iterable[Entry]) -> list[Entry]:
    return [e for e in entries if not e.get("as_substitute")]


def rank_teams(
    teams: Sequence[TeamStanding],
    *,
    tie_breaks: Sequence[str],
    counted_members: int | None,
    players_per_table: int = 4,
) -> list[TeamStanding]:
    """Mark the counted members, total and rank the teams (plain Python, no database).

    Members count when ranked; of those the best ``counted_members`` by
    total (their own rank breaking a tie), all when None. A team with no member to count is
    listed after the others, unranked."""
    entries_by_team: dict[int, list[Entry]] = {}
    rankables = []
    for team in teams:
        eligible = sorted(
            (m for m in team.members if m.ranked),
            key=lambda m: (-m.total, m.rank or 0, m.player_id),
        )
        chosen = eligible if counted_members is None else eligible[:counted_members]
        for member in team.members:
            member.counted = member in chosen
        entries = [e for m in chosen for e in _counted_entries(m.entries)]
        entries_by_team[team.team_id] = entries
        team.total = sum(m.total for m in chosen)
        summary = aggregate(entries, penalties=0, players_per_table=players_per_table)
        team.games = summary.games
        rankables.append(
            Rankable(
                player_id=team.team_id, total=team.total, keys=summary.keys, ranked=bool(chosen)
            )
        )
    ranks = rank_players(rankables, tie_breaks, lambda ids: {i: entries_by_team[i] for i in ids})
    for team in teams:
        ranked = ranks[team.team_id]
        team.rank = ranked.rank
        team.tie_break_values = ranked.tie_break_values
    return sorted(
        teams,
        key=lambda t: (t.rank is None, t.rank or 0, -t.total, t.name.casefold(), t.team_id),
    )


def team_standings(
    tournament: Tournament, rows: Sequence[StandingRow] | None = None
) -> list[TeamStanding]:
    """The tournament's teams ranked, from the player standings `rows` (default: the public
    ones, `public_standings`: while results are hidden, as they stood before the hidden
    session, issue 32.3). Empty when the tournament has no teams or team events are off."""
    if not tournament.teams_enabled:
        return []
    if rows is None:
        rows = public_standings(tournament).rows
    by_player: Mapping[int, StandingRow] = {row.player_id: row for row in rows}
    teams: dict[int, TeamStanding] = {}
    for team in Team.objects.filter(tournament=tournament).only("pk", "name", "slug"):
        teams[team.pk] = TeamStanding(team_id=team.pk, name=team.name, slug=team.slug, members=[])
    members = (
        Registration.objects.filter(tournament=tournament, team__isnull=False)
        .select_related("player")
        .order_by("pk")
    )
    for registration in members:
        row = by_player.get(registration.player_id)
        teams[registration.team_id].members.append(  # type: ignore[index]
            TeamMember(
                player_id=registration.player_id,
                name=str(registration.player),
                # Without a row yet (no game played): 0 points, ranked as registered.
                total=row.total if row is not None else 0,
                rank=row.rank if row is not None else None,
                games=row.games if row is not None else 0,
                ranked=registration.ranked if row is None else row.rank is not None,
                entries=list(row.per_session or []) if row is not None else [],
            )
        )
    for standing in teams.values():
        standing.members.sort(key=lambda m: (not m.ranked, -m.total, m.name, m.player_id))
    try:
        tie_breaks = tie_breaks_of(tournament.tie_breaks)
    except ValueError:
        tie_breaks = ()
    return rank_teams(
        [t for t in teams.values() if t.members],
        tie_breaks=tie_breaks,
        counted_members=tournament.team_counted_members,
        # Last places as the players' rows count them (tournaments.standings.services).
        players_per_table=load_ruleset(
            tournament.ruleset, tournament.rule_overrides or None
        ).players,
    )
