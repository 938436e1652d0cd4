"""The Dutch engine's quicker ways give what the slower ones they stand for give, on random rounds: each bracket's
weights as Brackets.base() builds them pair by pair, the players below a bracket's near neighbours as
Brackets.near() finds them, the players' scores as sums of Fractions, and pairing/matching.py's bound and its
choice of weight blocks as the plain definitions count them.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pairing.dutch.brackets import Brackets
from pairing.dutch.players import Round
from pairing.dutch.start import start
from pairing.dutch.tiers import _below_cache, _near_below
from pairing.event import dutch_from_event
from pairing.matching import _matchable_numpy, _matchable_python, _runs, _significant, _Table, _Weights
from pairing.tools.generate import Options, generate
from pairing.types import PairingError
from standings import points_by_player
from swiss import trf


def _round(players: int, played: int, seed: int, baku: bool):
    """A generated tournament's next round: its facts (Round) and the Brackets the engine starts from."""
    try:
        text = generate(Options(players=players, rounds=played, seed=seed, baku=baku, half_byes=2, forfeits=3))
    except PairingError:  # too few players for so many rounds
        assume(False)
    text = text.replace(f"XXR {played}\n", f"XXR {played + 3}\n", 1)
    inp = dutch_from_event(trf.loads(text.encode(), points_by_player), played + 1)
    rnd = Round(inp)
    present = [rnd.players[pid] for pid in inp.present if pid in rnd.players]
    br = Brackets(rnd, sorted(present, key=lambda x: (-x.score, x.rank)))
    return inp, rnd, br


def _started(players: int, played: int, seed: int, baku: bool) -> Brackets | None:
    """_round()'s Brackets after the round's first matching (start()); None when the round cannot be paired."""
    _, _, br = _round(players, played, seed, baku)
    try:
        start(br)
    except PairingError:
        return None
    return br


rounds = st.tuples(st.integers(10, 48), st.integers(1, 6), st.integers(0, 10**6), st.booleans())


@settings(max_examples=25, deadline=None)
@given(rounds, st.integers(0, 3))
def test_a_brackets_weights_are_base_pair_by_pair(case, moved):
    """enter_bracket() numbers the players' kinds and checks compatibility inline: base() of every pair, and
    the moved-down players' pairs as the graph holds them."""
    br = _started(*case)
    if br is None:
        return
    n = br.n
    moved = min(moved, n - 1)
    vertices = list(range(n))
    base = br.enter_bracket(vertices, moved, n)
    for h in range(n):
        for lo in range(h + 1, n):
            if lo >= moved:
                assert base.columns[h][lo - h - 1] == br.base(h, lo, True)
                assert br.view[h][lo - h - 1] == br.base(h, lo, True)
            else:
                assert base.columns[h][lo - h - 1] == 0
                assert br.view[h][lo - h - 1] == br.weights.get((h, lo), br.weight(h, lo))


@settings(max_examples=25, deadline=None)
@given(rounds)
def test_the_players_below_have_the_near_neighbours_near_finds(case):
    """The pairs tried among the players below a bracket come from the near neighbours of each player among all
    after it."""
    br = _started(*case)
    if br is None:
        return
    for first in range(br.n):
        below = list(range(first, br.n))
        direct = [(a, b) for k, a in enumerate(below) for b in br.near(below, k)]
        assert [(a, b) for a in below for b in br.near_after_all()[a][:8]] == direct


@settings(max_examples=25, deadline=None)
@given(rounds, st.integers(0, 10**6))
def test_the_pairs_below_worked_out_when_first_asked_are_near_finds(case, seed):
    """The pairs among the players below are worked out only when match_bounded() first asks, from the players
    below as _below_cache() saw them: each with the next 8 in the order it may meet, as Brackets.near() finds."""
    br = _started(*case)
    if br is None:
        return
    rng = random.Random(seed)
    first = rng.randrange(1, br.n)
    br.local = list(range(first))
    below = [v for v in range(first, br.n) if rng.random() < 0.8] or [br.n - 1]
    _below_cache(br, below)
    assert br.below_near is None
    assert _near_below(br) == [(a, b) for k, a in enumerate(below) for b in br.near(below, k)]
    assert br.below_set == set(below)
    assert br.reach == {x: any(br.compatible(x, r) for r in below) for x in br.local}


@settings(max_examples=25, deadline=None)
@given(rounds)
def test_scores_in_units_are_the_sums_of_the_points(case):
    inp, rnd, _ = _round(*case)
    for x in rnd.players.values():
        for back in range(rnd.done + 1):
            r = rnd.done - back
            points = sum((g.points for g in x.history[:r]), Fraction(0))
            acceleration = x.accelerations[r] if r < len(x.accelerations) else Fraction(0)
            assert rnd.score(x, back) == points + acceleration
        assert Fraction(x.score, rnd.unit) == rnd.score(x, 0)


def _matchable_reference(ends) -> int:
    """The bound by its definition: half the ends, or the greedy cover, the busiest vertex first."""
    degree: dict[int, int] = {}
    for u, v in ends:
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
    most = min(len(ends), len(degree) // 2)
    if most <= 1 or max(degree.values()) == len(ends):
        return min(most, 1)
    busiest = sorted(sorted(degree), key=lambda v: -degree[v])
    rank = {v: k for k, v in enumerate(busiest)}
    need = 1 + max(min(rank[u], rank[v]) for u, v in ends)
    return min(need, most)


@settings(max_examples=200, deadline=None)
@given(st.integers(4, 60), st.floats(0.05, 1.0), st.integers(0, 10**6))
def test_the_bound_on_dense_and_sparse_edges_is_the_greedy_cover(vertices, density, seed):
    """Dense brackets end the count early (an edge outside the first `most` busiest vertices): the same bound."""
    rng = random.Random(seed)
    ends = [(u, v) for u in range(vertices) for v in range(u + 1, vertices) if rng.random() < density]
    if not ends:
        return
    rng.shuffle(ends)
    assert _matchable_python(ends) == _matchable_reference(ends) == _matchable_numpy(ends)


def _significant_reference(table, blocks) -> list:
    """A one-run block is left out when its values are, row by row, the same multiple of a kept higher one's."""
    kept, higher = [], []
    for block in reversed(blocks):
        start_bit, length, _, alone = block
        if alone:
            part = table.bits(start_bit, length)
            top = max(part)
            if 0 < top < 1 << 16 and any(
                all(x * other_top == y * top for x, y in zip(part, other, strict=True)) for other, other_top in higher
            ):
                continue
            if 0 < top < 1 << 16:
                higher.append((part, top))
        kept.append(block)
    return kept[::-1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=6, max_size=6), min_size=1, max_size=8), st.data())
def test_repeated_blocks_are_left_out_as_the_definition_says(fields, data):
    """Fields (values by row, some multiples of others) far apart in each row's weight; every run a block."""
    for k in range(len(fields)):
        if data.draw(st.booleans()) and k:
            factor = data.draw(st.integers(1, 3))
            fields[k] = [factor * x for x in fields[data.draw(st.integers(0, k - 1))]]
    rows = [sum(field[r] << (8 * k) for k, field in enumerate(fields)) + (1 << 200) + r for r in range(6)]
    edges = [(r, r + 10, w) for r, w in enumerate(rows)]
    table = _Table(_Weights(edges))
    used = 0
    for w in rows:
        used |= w
    blocks = [(start_bit, length, length, True) for start_bit, length in _runs(used)]
    assert _significant(table, blocks) == _significant_reference(table, blocks)


@settings(max_examples=25, deadline=None)
@given(rounds, st.integers(0, 10**6))
def test_brackets_one_after_another_have_base_pair_by_pair(case, seed):
    """enter_bracket() keeps the tails of each two kinds of players for the brackets after it: every bracket of
    a round, entered in turn, still weighs base() pair by pair."""
    br = _started(*case)
    if br is None:
        return
    rng = random.Random(seed)
    vertices = list(range(br.n))
    while vertices:
        size = rng.randint(1, len(vertices))
        bracket, vertices = vertices[:size], vertices[size:]
        base = br.enter_bracket(bracket, 0, len(bracket))
        for h in range(len(bracket)):
            for lo in range(h + 1, len(bracket)):
                assert base.columns[h][lo - h - 1] == br.base(bracket[h], bracket[lo], True)
        br.leave_bracket([])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 30), st.integers(31, 60), st.sampled_from([1, 3, 1 << 300, 5 << 200])), max_size=40
    )
)
def test_the_weights_rows_are_the_distinct_weights_in_their_first_order(edges):
    """_Weights reads each column by itemgetter and numbers the distinct weights as they first come: the plain
    zip of the edges and the first index of each weight."""
    if not edges:
        return
    weights = _Weights(edges)
    firsts, seconds, values = zip(*edges, strict=True)
    distinct = list(dict.fromkeys(values))
    assert list(weights.firsts) == list(firsts)
    assert list(weights.seconds) == list(seconds)
    assert weights.rows == distinct
    assert [weights.rows[k] for k in weights.which] == list(values)
    assert weights.which == [distinct.index(w) for w in values]


@settings(max_examples=25, deadline=None)
@given(rounds, st.integers(0, 10**6))
def test_weight_sum_is_the_sum_of_weight_in_every_part_of_the_graph(case, seed):
    """weight_sum() inlines weight() for pairs no bracket has touched: the sum weight() gives, for pairs inside
    a bracket, with its next score group, below it, struck out, and of players who have met."""
    br = _started(*case)
    if br is None:
        return
    rng = random.Random(seed)
    n = br.n
    size = rng.randint(1, n)
    nxt = min(n, size + rng.randint(0, n - size))
    bracket = list(range(size))
    br.local, br.local_set, br.group_set = list(range(nxt)), set(range(nxt)), set(range(size, nxt))
    br.enter_bracket(bracket, 0, size)
    pairs = [tuple(sorted(rng.sample(range(n), 2))) for _ in range(60)]
    if n > 3:
        br.set(pairs[0][0], pairs[0][1], 0)  # a pair a stage struck out
    expected = sum(br.weight(a, b) for a, b in pairs)
    assert br.weight_sum(pairs) == expected
    assert br.weight_sum([(b, a) for a, b in pairs]) == expected


@settings(max_examples=25, deadline=None)
@given(rounds, st.integers(0, 10**6))
def test_edge_columns_are_the_edges_inside_by_column(case, seed):
    """edge_columns() reads a player's pairs as a slice of its row when the later players sit right after it:
    the edges edges_inside() lists, by column, with players left out of the bracket here and there."""
    br = _started(*case)
    if br is None:
        return
    rng = random.Random(seed)
    bracket = list(range(br.n))
    br.enter_bracket(bracket, 0, br.n)
    players = [v for v in bracket if rng.random() < 0.8] if rng.random() < 0.5 else bracket
    room = rng.choice([0, 3])
    rows = {v: rng.randrange(1, 50) for v in players if rng.random() < 0.5}
    edges = br.edges_inside(players, {}, room, numbered=True, rows=rows)
    assert br.edge_columns(players, room, rows) == (
        [e[0] for e in edges],
        [e[1] for e in edges],
        [e[2] for e in edges],
    )
