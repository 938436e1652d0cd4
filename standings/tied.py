"""Tie-breakers among the players still tied on everything before them: their value for a player depends on
who else is in the group, so the standings engine asks for them one group at a time.

Each function of `METHODS` gives every member of `group` (indices into the tally's players) an integer or
a Fraction of `tally.unit`s; equal values leave players tied, and a group it does not separate gets 0s.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from standings.tally import Tally


def direct_encounter(tally: Tally, group: list[int]) -> dict[int, int | Fraction]:
    """When every pair of the group has met: the points each scored in those matches."""
    zero: dict[int, int | Fraction] = dict.fromkeys(group, 0)
    members = set(group)
    points = tally.outcome_points
    values: dict[int, int | Fraction] = {}
    for i in group:
        scored, met = 0, set()
        for o, oc in zip(tally.opponents[i], tally.outcomes[i], strict=True):
            if o in members:
                scored += points[oc]
                met.add(o)
        if len(met) != len(group) - 1:
            # Not everybody in the group has met everybody else: it does not separate them.
            return zero
        values[i] = scored
    return values


def head_to_head(tally: Tally, group: list[int]) -> dict[int, int | Fraction]:
    """Exactly two players tied who met: the points each scored against the other."""
    return direct_encounter(tally, group) if len(group) == 2 else dict.fromkeys(group, 0)


def fide_direct_encounter(tally: Tally, group: list[int]) -> dict[int, int | Fraction]:
    """C.07 Article 6 among the tied `group`: the points each scored against the others (a forfeit counts;
    against an opponent met more than once, the average). When not every pair has met, a player who is alone
    at the top of that separate standings whatever the missing games give is ranked first, then the same
    for second place, and so on; the others stay tied (0)."""
    members = set(group)
    points = tally.outcome_points
    per_pair: dict[tuple[int, int], list[int]] = {}
    for i in group:
        for o, oc in zip(tally.opponents[i], tally.outcomes[i], strict=True):
            if o in members:
                per_pair.setdefault((i, o), []).append(points[oc])
    score = {i: sum((Fraction(sum(v), len(v)) for (a, _), v in per_pair.items() if a == i), Fraction(0)) for i in group}
    missing = {i: sum(1 for o in group if o != i and (i, o) not in per_pair) for i in group}
    if not any(missing.values()):
        return dict(score)
    values: dict[int, int | Fraction] = dict.fromkeys(group, 0)
    rest = list(group)
    while len(rest) > 1:
        best = max(rest, key=score.__getitem__)
        # Alone on top whatever the missing games give: better than every other's best possible score.
        if all(score[best] > score[o] + tally.win * missing[o] for o in rest if o != best):
            values[best] = score[best]
            rest.remove(best)
        else:
            break
    return values


# Each by its code (swiss/tiebreakers.py: the tie-breakers `among_tied`).
METHODS: dict[str, Callable[[Tally, list[int]], dict[int, int | Fraction]]] = {
    "direct_encounter": direct_encounter,
    "head_to_head": head_to_head,
    "DE": fide_direct_encounter,
}


def values(code: str, tally: Tally, group: list[int]) -> dict[int, int | Fraction]:
    """`code`'s value for every member of `group`; a player alone is not separated from anybody (0)."""
    if len(group) < 2:
        return dict.fromkeys(group, 0)
    return METHODS[code](tally, group)
