"""S1 against S2 by prices (pairing/dutch/assign.py): the same choice as trying every perfect matching.

The reference enumerates every perfect matching of a small S1 against S2, keeps those of the greatest
weight, and takes the first in S1's order of preference; the engine starts from any perfect matching (S1's first player's opponent highest, then the
second's...). Weights are long integers with fields far apart, as the Dutch system builds them, and many
ties, which is where the order of preference decides.
"""

from __future__ import annotations

from itertools import permutations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.dutch.assign import edges_of, first_transposition, first_with_one_floater


@st.composite
def brackets(draw):
    n = draw(st.integers(1, 6))
    s1, s2 = list(range(n)), list(range(n, 2 * n))
    fields = draw(st.integers(0, 3))
    weight = {}
    for a in s1:
        for b in s2:
            if draw(st.integers(0, 5)) == 0:
                continue  # not allowed (a rematch, say)
            w = 1 << 300
            for f in range(fields):
                w += draw(st.integers(0, 2)) << (200 - 60 * f)
            weight[(a, b)] = w
    return s1, s2, weight


def _reference(s1, s2, weight):
    best, choice = None, None
    for perm in permutations(s2):
        if any((a, b) not in weight for a, b in zip(s1, perm, strict=True)):
            continue
        total = sum(weight[(a, b)] for a, b in zip(s1, perm, strict=True))
        order = [s2.index(b) for b in perm]  # lexicographically smallest is first in S1's preference
        if best is None or total > best or (total == best and order < choice[1]):
            best, choice = total, (dict(zip(s1, perm, strict=True)), order)
    return None if choice is None else choice[0]


@settings(max_examples=400, deadline=None)
@given(brackets())
def test_first_transposition_is_the_first_optimum_in_s1_order(case):
    s1, s2, weight = case
    expected = _reference(s1, s2, weight)
    if expected is None:
        return  # no perfect matching: the engine never asks
    mate = _any_pairing(s1, s2, weight)  # not always the best: improved from there
    got = first_transposition(s1, s2, edges_of(s1, s2, lambda a, b: weight.get((a, b), 0)), mate)
    assert got == expected


def test_a_matching_that_is_not_the_best_is_improved():
    # 0-2 and 1-3 weigh 2; 0-3 and 1-2 weigh 10: the cycle through the four is taken.
    weight = {(0, 2): 1, (1, 3): 1, (0, 3): 5, (1, 2): 5}
    mate = {0: 2, 2: 0, 1: 3, 3: 1}
    assert first_transposition([0, 1], [2, 3], edges_of([0, 1], [2, 3], lambda a, b: weight.get((a, b), 0)), mate) == {
        0: 3,
        1: 2,
    }


def test_ties_go_to_the_first_s1_player():
    # Every pairing weighs the same: S1's first player takes S2's first, though the matching given did not.
    weight = {(a, b): 7 for a in (0, 1, 2) for b in (3, 4, 5)}
    mate = {0: 5, 5: 0, 1: 4, 4: 1, 2: 3, 3: 2}
    got = first_transposition(
        [0, 1, 2], [3, 4, 5], edges_of([0, 1, 2], [3, 4, 5], lambda a, b: weight.get((a, b), 0)), mate
    )
    assert got == {0: 3, 1: 4, 2: 5}


@st.composite
def brackets_with_a_floater(draw):
    s1, s2, weight = draw(brackets())
    s2 = [*s2, len(s1) * 2]  # one S2 player more: one of them floats down
    for a in s1:
        if draw(st.booleans()):
            weight[(a, s2[-1])] = (1 << 300) + (draw(st.integers(0, 2)) << 200)
    float_value = {f: draw(st.sampled_from([1 << 250, (1 << 250) + (1 << 140), 1 << 249])) for f in s2}
    return s1, s2, weight, float_value


def _reference_floating(s1, s2, weight, float_value):
    best, choice = None, None
    for perm in permutations(s2, len(s1)):
        if any((a, b) not in weight for a, b in zip(s1, perm, strict=True)):
            continue
        (floater,) = set(s2) - set(perm)
        total = sum(weight[(a, b)] for a, b in zip(s1, perm, strict=True)) + float_value[floater]
        order = [s2.index(b) for b in perm]
        if best is None or total > best or (total == best and order < choice[1]):
            best, choice = total, ({**dict(zip(s1, perm, strict=True)), -1: floater}, order)
    return None if choice is None else choice[0]


@settings(max_examples=300, deadline=None)
@given(brackets_with_a_floater())
def test_one_floater_is_chosen_with_s1_as_the_rules_order(case):
    s1, s2, weight, float_value = case
    expected = _reference_floating(s1, s2, weight, float_value)
    if expected is None:
        return  # no pairing of every S1 player: the engine never asks
    allowed = {**weight, **{(-1, f): 1 for f in s2}}
    start = _any_pairing([*s1, -1], s2, allowed)
    got = first_with_one_floater(s1, s2, edges_of(s1, s2, lambda a, b: weight.get((a, b), 0)), float_value, start)
    assert got == expected


def _any_pairing(s1, s2, allowed):
    """Some perfect matching of S1 into S2 over the allowed pairs, whatever it weighs."""
    g = nx.Graph()
    g.add_edges_from((("s", a), ("t", b)) for a, b in allowed if a in s1 and b in s2)
    mate = {}
    for u, v in nx.max_weight_matching(g, maxcardinality=True):
        (_, a), (_, b) = sorted((u, v))
        mate[a], mate[b] = b, a
    return mate
