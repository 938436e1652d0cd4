"""Fewer stand-ins for the players below a bracket (pairing/dutch/tiers.py, match_bounded) lose nothing.

The bound a bracket's matching is checked against replaces the players below by interchangeable
stand-ins: each local player that can float gets an edge to every stand-in, and stand-ins pair among
themselves. The engine starts with few stand-ins and adds more only while the matching uses them all.
The claim: once a maximum-weight matching with k stand-ins pairs two stand-ins together, k + 2j stand-ins
give exactly j stand-in pairs more. pairing/dutch/tiers.py stands in for the next score group the same way,
beside the players below: two kinds of copies, with edges between the kinds, and the claim holds for each
kind. Checked here on random graphs against networkx's exact blossom.
"""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st


def _best(local_edges, floats, pair_value, k):
    """One kind of stand-in: the next group's copies of _best_two_kinds, with no players below."""
    total, paired = _best_two_kinds(local_edges, floats, {}, pair_value, 0, 0, k, 0)
    return total, "g" in paired


@st.composite
def brackets(draw):
    n = draw(st.integers(1, 9))
    local_edges = [(i, j, draw(st.integers(1, 40))) for i in range(n) for j in range(i + 1, n) if draw(st.booleans())]
    floats = {x: draw(st.integers(1, 40)) for x in range(n) if draw(st.integers(0, 3))}
    return local_edges, floats, draw(st.integers(1, 40)), draw(st.integers(0, 4))


@settings(max_examples=300, deadline=None)
@given(brackets())
def test_more_stand_ins_add_only_their_own_pairs(case):
    local_edges, floats, pair_value, k = case
    total, paired = _best(local_edges, floats, pair_value, k)
    if not paired:
        return
    for extra in (1, 2, 3):
        more, _ = _best(local_edges, floats, pair_value, k + 2 * extra)
        assert more == total + extra * pair_value


def _best_two_kinds(local_edges, to_g, to_b, gg, gb, bb, kg, kb):
    g = nx.Graph()
    g.add_weighted_edges_from(local_edges)
    group = [("g", t) for t in range(kg)]
    below = [("b", t) for t in range(kb)]
    g.add_weighted_edges_from((x, s, w) for x, w in to_g.items() for s in group)
    g.add_weighted_edges_from((x, s, w) for x, w in to_b.items() for s in below)
    g.add_weighted_edges_from((s, t, gg) for a, s in enumerate(group) for t in group[a + 1 :])
    g.add_weighted_edges_from((s, t, bb) for a, s in enumerate(below) for t in below[a + 1 :])
    g.add_weighted_edges_from((s, t, gb) for s in group for t in below)
    mate = nx.max_weight_matching(g)
    total = sum(g[u][v]["weight"] for u, v in mate)

    def kind(u):
        return u[0] if isinstance(u, tuple) else None

    paired = {kind(u) for u, v in mate if kind(u) and kind(u) == kind(v)}
    return total, paired


@st.composite
def two_kinds(draw):
    n = draw(st.integers(1, 8))
    local_edges = [(i, j, draw(st.integers(1, 40))) for i in range(n) for j in range(i + 1, n) if draw(st.booleans())]
    to_g = {x: draw(st.integers(1, 40)) for x in range(n) if draw(st.integers(0, 2))}
    to_b = {x: draw(st.integers(1, 40)) for x in range(n) if draw(st.integers(0, 2))}
    weights = [draw(st.integers(1, 40)) for _ in range(3)]
    return local_edges, to_g, to_b, *weights, draw(st.integers(0, 5)), draw(st.integers(0, 5))


@settings(max_examples=400, deadline=None)
@given(two_kinds())
def test_two_kinds_of_copies_add_only_their_own_pairs(case):
    local_edges, to_g, to_b, gg, gb, bb, kg, kb = case
    total, paired = _best_two_kinds(local_edges, to_g, to_b, gg, gb, bb, kg, kb)
    if "g" in paired:
        assert _best_two_kinds(local_edges, to_g, to_b, gg, gb, bb, kg + 2, kb)[0] == total + gg
    if "b" in paired:
        assert _best_two_kinds(local_edges, to_g, to_b, gg, gb, bb, kg, kb + 2)[0] == total + bb
