"""The Day-2 cut (docs/sections.md): after a given Swiss round only some players go on, as Magic and Pokémon
Day 2 do: those with at least X match points, or the top N, or whichever of the two groups is larger.

Pure Python, exact Fractions. `made_day_2` says who goes on from the standings order at the cut; `cut_standings`
lists the standings as pages show them once the cut is made: Day-2 players first, then the players who were
cut, in their order at the cut.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from standings.engine import Row, Standings

# How players level with the N-th player on match points are treated at the line of a top-N cut.
TIES_POINTS = "points"  # everyone level on match points with the N-th player makes it (N or more go on)
TIES_BREAKERS = "breakers"  # the tie-breakers decide: exactly N go on
TIES = (TIES_POINTS, TIES_BREAKERS)


@dataclass(frozen=True)
class CutStandings(Standings):
    """Standings listed with a Day-2 cut's line: the first `day_2` rows made Day 2 (`cut_standings`)."""

    cut_after: int = 0
    day_2: int = 0


@dataclass(frozen=True)
class CutRule:
    """At least `points` match points, or the `top` N (ties at the line as `ties` says); with both, whichever
    group is larger. At least one of `points` and `top` is set."""

    points: Fraction | None = None
    top: int | None = None
    ties: str = TIES_POINTS


@dataclass(frozen=True)
class Standing:
    """One player in the standings order at the cut: their match points, and their division ("" for none)."""

    player_id: str
    points: Fraction
    division: str = ""


def made_day_2(order: Sequence[Standing], rule: CutRule) -> set[str]:
    """The players who make Day 2, from the standings after the cut round in rank order (players who dropped
    left out: they take no place in the cut). Players in divisions (ranked apart though paired together) are
    cut by their own division's standings: the rule applies to each division separately."""
    divisions: dict[str, list[Standing]] = {}
    for s in order:
        divisions.setdefault(s.division, []).append(s)
    return {s.player_id for group in divisions.values() for s in _made(group, rule)}


def _made(order: list[Standing], rule: CutRule) -> list[Standing]:
    by_points = [s for s in order if s.points >= rule.points] if rule.points is not None else []
    by_rank: list[Standing] = []
    if rule.top is not None:
        by_rank = order[: rule.top]
        if rule.ties == TIES_POINTS and 0 < rule.top < len(order):
            line = order[rule.top - 1].points
            by_rank = [s for s in order if s.points >= line]
    # Both groups are the top of the order (it is by match points first), so the larger holds the other.
    return by_points if len(by_points) > len(by_rank) else by_rank


def cut_standings(final: Standings, at_cut: Standings, below: Iterable[str], cut_after: int) -> CutStandings:
    """The standings once the cut is made: Day-2 players first, as `final` ranks them (every round counts),
    then the players `below` the line (cut, or gone before the cut), in their order and with their figures at
    the cut (`at_cut`): their places follow every Day-2 player's. Players level on every figure share a place."""
    below = set(below)
    made = [r for r in final.rows if r.player_id not in below]
    at = at_cut.by_player()
    missed = [r for r in at_cut.rows if r.player_id in below]
    missed += [r for r in final.rows if r.player_id in below and r.player_id not in at]
    rows = [*_reranked(made, 0), *_reranked(missed, len(made))]
    return CutStandings(final.after_round, final.tiebreakers, tuple(rows), cut_after=cut_after, day_2=len(made))


def _reranked(rows: list[Row], before: int) -> list[Row]:
    """Rows renumbered from before + 1 in their order, keeping shared places shared."""
    out: list[Row] = []
    for k, r in enumerate(rows):
        shared = k > 0 and rows[k - 1].rank == r.rank
        out.append(replace(r, rank=out[-1].rank if shared else before + k + 1))
    return out
