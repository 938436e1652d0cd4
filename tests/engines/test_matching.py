"""Wide-weight matching (pairing/matching.py): compressed weights choose exactly the matchings the originals do.

The reference is networkx's blossom on the original Python integers; the weights are built as the Dutch
system builds them, fields of small counts far apart in a long integer, some set on many edges, some on
the edges of one vertex, some on a few.
"""

from __future__ import annotations

import random

import networkx as nx
import rustworkx as rx
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pairing.matching import (
    FIT_BITS,
    NUMPY_EDGES,
    _matchable,
    _matchable_numpy,
    _matchable_python,
    _runs,
    compress,
    max_weight_matching,
)


def _best(edges) -> int:
    g = nx.Graph()
    g.add_weighted_edges_from(edges)
    return sum(g[u][v]["weight"] for u, v in nx.max_weight_matching(g))


def _total(edges, pairs) -> int:
    weight = {frozenset((u, v)): w for u, v, w in edges}
    return sum(weight[frozenset(p)] for p in pairs)


@st.composite
def field_weights(draw):
    n = draw(st.integers(2, 14))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    kept = draw(st.lists(st.sampled_from(pairs), min_size=1, unique=True))
    fields = draw(st.integers(1, 12))
    weights = dict.fromkeys(kept, 1 << 400)  # one pair, the top priority, as the Dutch weights have
    offset = 0
    values: list[dict] = []  # each field's value on each pair
    for _ in range(fields):
        offset += draw(st.integers(1, 12))
        kind = draw(st.sampled_from(["many", "one vertex", "few", "a multiple of another"]))
        centre = draw(st.integers(0, n - 1))
        factor = draw(st.integers(1, 3))
        earlier = draw(st.integers(0, len(values))) if values else None
        field = {}
        for p in kept:
            if kind == "a multiple of another" and earlier is not None and earlier < len(values):
                field[p] = factor * values[earlier].get(p, 0)
            elif (kind == "one vertex" and centre not in p) or (kind == "few" and not draw(st.booleans())):
                field[p] = 0
            else:
                field[p] = draw(st.integers(0, 7))
            weights[p] += field[p] << offset
        values.append(field)
    return [(i, j, w) for (i, j), w in weights.items()]


@settings(max_examples=300, deadline=None)
@given(field_weights())
def test_compressed_weights_choose_a_matching_of_the_same_weight(edges):
    small = compress(edges)
    assume(small is not None)
    assert max(w for _, _, w in small).bit_length() <= max(w for _, _, w in edges).bit_length()
    g = rx.PyGraph()
    g.add_nodes_from(range(1 + max(max(u, v) for u, v, _ in edges)))
    g.add_edges_from(small)
    ours = rx.max_weight_matching(g, weight_fn=lambda w: w)
    assert _total(edges, ours) == _best(edges)


@settings(max_examples=200, deadline=None)
@given(field_weights())
def test_max_weight_matching_is_exact_whichever_engine_it_takes(edges):
    pairs = max_weight_matching(edges)
    assert pairs is not None
    ends = [v for p in pairs for v in p]
    assert len(ends) == len(set(ends))
    assert _total(edges, pairs) == _best(edges)


def test_a_lower_field_summed_over_many_edges_never_outweighs_one_unit_above_it():
    # An even cycle: one perfect matching has 1 in the field at bit 300 on one edge; the other has 7 in the
    # field at bit 200 on all sixteen of its edges. Compressed, the lower field keeps room for 16 * 7.
    k = 16
    edges = []
    for i in range(2 * k):
        j = (i + 1) % (2 * k)
        w = 1 << 400
        if i % 2 == 0:
            w += 7 << 200
        elif i == 1:
            w += 1 << 300
        edges.append((i, j, w))
    assert _total(edges, max_weight_matching(edges)) == _best(edges) == (k << 400) + (1 << 300)


def test_weights_too_wide_for_rustworkx_are_refused_or_left_to_networkx():
    # Sixty independent fields each set on many edges: no compression brings them under 128 bits.
    rng = random.Random(24)
    n = 20
    edges = [
        (i, j, sum(rng.randrange(2) << (20 * k) for k in range(60)) + (1 << 1300))
        for i in range(n)
        for j in range(i + 1, n)
    ]
    assert compress(edges) is None
    assert max_weight_matching(edges, wide=False) is None
    assert _total(edges, max_weight_matching(edges)) == _best(edges)


def test_fields_repeating_a_higher_one_take_no_room_when_room_is_short():
    # Forty fields, each 1 on every edge of a complete graph, as the criteria a whole bracket meets are: with
    # room for each one's sum they would not fit in rustworkx's integers.
    n = 30
    every = sum(1 << (20 * k) for k in range(40))
    edges = [(i, j, (1 << 1200) + every + ((i * j) % 5 << 1000)) for i in range(n) for j in range(i + 1, n)]
    small = compress(edges)
    assert small is not None
    assert max(w for _, _, w in small).bit_length() < 40
    assert _total(edges, max_weight_matching(edges)) == _best(edges)


def test_rustworkx_is_exact_up_to_the_width_it_is_given():
    # Weights just under 2**FIT_BITS on a graph where the best matching wins by one unit.
    top = 1 << FIT_BITS
    edges = [(0, 1, top - 1), (2, 3, top - 1), (1, 2, top - 1 + top // 2 + 1), (0, 3, 2)]
    assert _total(edges, max_weight_matching(edges)) == _best(edges)


def test_runs_are_the_set_bits_in_pieces_of_at_most_32():
    assert _runs(0b1011000) == [(3, 2), (6, 1)]
    assert _runs((1 << 70) - 1) == [(0, 32), (32, 32), (64, 6)]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 40), st.integers(0, 40)).filter(lambda e: e[0] != e[1]),
        min_size=1,
        max_size=300,
        unique_by=lambda e: frozenset(e),
    )
)
def test_the_bound_on_a_matchings_edges_is_the_same_counted_in_python_or_numpy(ends):
    """A small bracket's bound is counted in plain Python, a large one's by numpy (from NUMPY_EDGES edges): the
    same bound, and a bound: no matching holds more of the edges."""
    assert _matchable_python(ends) == _matchable_numpy(ends)
    assert len(nx.max_weight_matching(nx.Graph(ends), maxcardinality=True)) <= _matchable_python(ends)


def test_a_large_brackets_bound_is_the_same_counted_either_way():
    rng = random.Random(5)
    for vertices, star in ((300, False), (2000, False), (300, True)):
        ends = {tuple(sorted(rng.sample(range(vertices), 2))) for _ in range(12_000)}
        if star:  # most edges at a few busy vertices, as a bracket's floaters have them
            ends |= {(hub, v) for hub in range(3) for v in range(3, vertices)}
        ends = sorted(ends)
        assert len(ends) >= NUMPY_EDGES
        assert _matchable_python(ends) == _matchable_numpy(ends) == _matchable(ends)
