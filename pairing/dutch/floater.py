"""S1's opponents when one S2 player floats down (pairing/dutch/remainder.py, pairing/dutch/assign.py's
choice by prices): what the rest of the round is worth with each S2 player floating, as far as it is needed.
"""

from __future__ import annotations

from pairing.dutch.assign import Edges, first_with_one_floater
from pairing.dutch.brackets import Brackets
from pairing.dutch.tiers import match


def one_floater(br: Brackets, s1: list[int], s2: list[int], edges: Edges) -> dict[int, int] | None:
    """S1's opponents when one S2 player floats down (pairing/dutch/assign.py), or None to use matchings. edges:
    S1 against S2 as the graph weighs them (only S1's pairs with the S2 players below them are left in it).

    What the rest of the round is worth with f floating is known for the floater of the matching in
    hand and for the floater of a matching where S1 takes any S2 player at all (the most any floater
    gives, so also for every player who can take that one's place outside the bracket). Any other
    floater is taken to give that most until it is chosen, when it is matched alone and its worth
    corrected: the choice is final only when its floater's worth is known."""
    held = {br.get_mate(v) for v in s1}
    first = next(c for c in s2 if c not in held)
    witness = {first: (br.mates, first)}  # the floater -> a matching it floats in, and as whom
    value = {first: _rest_value(br, br.mates, s1)}
    if len({br.potential[c] for c in s2}) == 1:
        # The matching in hand already floats a best floater: every S1 player takes an S2 player in it (S1 is
        # who it pairs down), and the pairs outside S1 weigh more than all that S1's own pairs can tell apart
        # (colours, floats, the order), while what S1's pairs weigh above those fields is the same whichever
        # S2 player floats, all of them alike in the bye's criteria (their potentials).
        anyone, best_floater, most = br.mates, first, value[first]
    else:
        anyone = _absorbed(br, s1, s2, set(s2))
        best_floater = next(c for c in s2 if anyone.get(c, c) not in s1)
        most = _rest_value(br, anyone, s1)
        if most < value[first]:
            return None
    value[best_floater], witness[best_floater] = most, (anyone, best_floater)
    for known in (first, best_floater):
        if value[known] != most:
            continue  # a player taking its place gives at least as much, perhaps more
        source, _ = witness[known]
        partner = source.get(known, known)
        for f in s2:
            if f not in value and (partner == known or br.weight(f, partner) == br.weight(known, partner)):
                value[f], witness[f] = value[known], (source, known)
    while True:
        start = {v: br.get_mate(v) for v in s1}
        start[-1] = first
        chosen = first_with_one_floater(s1, s2, edges, {f: value.get(f, most) for f in s2}, start)
        if chosen is None:
            return None
        floater = chosen.pop(-1)
        if floater in value:
            break
        alone = _absorbed(br, s1, s2, set(s2) - {floater})
        value[floater], witness[floater] = _rest_value(br, alone, s1), (alone, floater)
    # The matching of the rest that floater floats in, with floater in its place.
    source, known = witness[floater]
    mates = dict(br.fixed)
    for v, c in chosen.items():
        mates[v], mates[c] = c, v
    for i, j in source.items():
        if i in br.fixed or i in s1 or j in s1 or i == j:
            continue
        i, j = (floater if i == known else i), (floater if j == known else j)
        mates[i] = j
    br.mates = mates
    return chosen


def _absorbed(br: Brackets, s1: list[int], s2: list[int], keep: set[int]) -> dict[int, int]:
    """A maximum-weight matching in which S1's players take S2's players in keep, whoever they are."""
    saved = {}
    big = br.one << 4  # more than any two edges weigh: S1 always takes them
    for v in s1:
        for c in s2:
            saved[(v, c)] = br.weight(v, c)
            br.set(v, c, big if c in keep else 0)
    before = br.mates
    match(br)
    result = br.mates
    br.mates = before
    for (v, c), w in saved.items():
        br.set(v, c, w)
    return result


def _rest_value(br: Brackets, mates: dict[int, int], s1: list[int]) -> int:
    """What a matching's pairs outside S1 and the fixed pairs weigh."""
    skip = set(s1)
    fixed = br.fixed
    return br.weight_sum(
        [(i, j) for i, j in mates.items() if i < j and i not in skip and j not in skip and i not in fixed]
    )
