"""Divisions ranked apart (Play! Pokémon's age-modified Swiss, docs/sections.md): players of two divisions
paired together in one Swiss are ranked one table per division, each from 1.

The figures are those of the whole Swiss: a player's opponents from either division count in their
tie-breakers, as Pokémon's own software counts them; only the ranks are the division's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from standings.engine import Standings


@dataclass(frozen=True)
class Division:
    name: str
    standings: Standings


def split(result: Standings, division_of: Mapping[str, str], order: Sequence[str] = ()) -> tuple[Division, ...]:
    """One standings per division, in `order` (divisions it does not name follow by name), each ranked from 1.

    A row's rank in its division is one more than the division's rows ranked strictly ahead of it overall,
    so players tied overall stay tied (1, 2, 2, 4). A player `division_of` does not know is in division "".
    """
    rows: dict[str, list] = {}
    for row in result.rows:
        rows.setdefault(division_of.get(row.player_id, ""), []).append(row)
    known = [name for name in order if name in rows]
    names = known + sorted(name for name in rows if name not in known)
    divisions = []
    for name in names:
        ranked, last_overall, rank = [], None, 0
        for ahead, row in enumerate(rows[name]):
            if row.rank != last_overall:
                rank, last_overall = ahead + 1, row.rank
            ranked.append(replace(row, rank=rank))
        divisions.append(Division(name, replace(result, rows=tuple(ranked))))
    return tuple(divisions)
