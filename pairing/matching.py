"""Maximum-weight matching on integer weights of any width, as fast as the weights allow.

The Dutch system's edge weights are long integers whose bit fields encode the rules' criteria in order
(pairing/dutch/): several hundred bits at a few hundred players. rustworkx's blossom, compiled, takes
128-bit integers; networkx's, exact on Python integers of any size, is a hundred times slower. In any one
matching, though, few of the fields are in use, and a field needs room only for its sum over one matching,
not for the whole event. So the weights are compressed before they are matched:

- the bits any weight sets form runs; a run's sum over a matching is bounded by its largest value times the
  most edges a matching can take: first half the graph's vertices, the same for every run and known at once;
  only when the blocks do not fit so, half the endpoints of the edges that set the run (or one if all share
  one), counted run by run;
- runs whose bound would reach into the next run stay together as one block, bits as they were;
- the blocks keep their order, each placed just above the room the block below needs.

A matching's compressed total is then its original total with each block's sum moved to its new place, and
as no block's sum reaches the next in either layout, both order any two matchings the same way: the same
maximum-weight matchings, exactly. Which of several equally good matchings rustworkx returns depends on the
integers it is given (and on the order of the vertices and edges); the Dutch system's stages decide by what every
maximum-weight matching has in common, so their pairing does not (tests/engines/test_dutch_ties.py). When the
compressed weights fit well inside 128 bits (rustworkx doubles
them on the way), rustworkx matches them; otherwise networkx does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain
from itertools import compress as select
from math import gcd
from operator import itemgetter

import rustworkx as rx

# From this many edges a bound is counted by numpy (imported then): a large bracket's is counted several times
# sooner, and a small event's pairing never pays numpy's import (more CPU than all its own work).
NUMPY_EDGES = 10_000
FIT_BITS = 124  # rustworkx takes 128-bit integers; its duals reach twice the largest weight (checked to 2**125)


Edge = tuple[int, int, int]
_FIRST, _SECOND, _WEIGHT = itemgetter(0), itemgetter(1), itemgetter(2)


def max_weight_matching(
    edges: Iterable[Edge], wide: bool = True, count: int | None = None
) -> list[tuple[int, int]] | None:
    """A maximum-weight matching (not necessarily of maximum cardinality) of edges (u, v, weight > 0), each
    pair of vertices at most once. count: the vertices are already 0..count-1 (no numbering needed), and
    every weight is positive.

    None when the weights do not compress into rustworkx's integers and wide is False (the caller would
    rather split the problem than wait for networkx)."""
    edges = [e for e in edges if e[2] > 0] if count is None else list(edges)
    return _matching(_Weights(edges), wide, count)


def max_weight_matching_columns(
    firsts: list[int], seconds: list[int], weights: list[int], count: int, wide: bool = True
) -> list[tuple[int, int]] | None:
    """max_weight_matching() of the edges (firsts[e], seconds[e], weights[e]), given by column: the vertices
    0..count-1, every weight positive."""
    return _matching(_Weights.of_columns(firsts, seconds, weights), wide, count)


def _matching(weights: _Weights, wide: bool, count: int | None) -> list[tuple[int, int]] | None:
    if not weights.which:
        return []
    small = weights.compressed(count)
    firsts, seconds = weights.firsts, weights.seconds
    if small is None:
        if not wide:
            return None
        import networkx as nx  # only for weights too wide for rustworkx: its import is most of a command's start

        g = nx.Graph()
        g.add_weighted_edges_from(zip(firsts, seconds, map(weights.rows.__getitem__, weights.which), strict=True))
        return list(nx.max_weight_matching(g))
    # The vertices in order, each edge by their indices, with its compressed weight (the weights as they are
    # when they fit).
    weighed = map(small.__getitem__, weights.which)
    if count is not None:
        return _rustworkx(range(count), list(zip(firsts, seconds, weighed, strict=True)))
    vertex = sorted({*firsts, *seconds})
    index = dict(zip(vertex, range(len(vertex)), strict=True)).__getitem__
    return _rustworkx(vertex, list(zip(map(index, firsts), map(index, seconds), weighed, strict=True)))


def _rustworkx(vertex: Sequence[int], edges: list[Edge]) -> list[tuple[int, int]]:
    """rustworkx's maximum-weight matching of the edges (indices into vertex), as pairs of vertices."""
    # A multigraph: a simple graph looks for the pair's edge before adding each one, a scan of its
    # neighbours that made a dense bracket's graph slower to build than to match. Each pair comes once.
    g = rx.PyGraph()
    g.add_nodes_from(vertex)
    g.add_edges_from(edges)
    return [(vertex[a], vertex[b]) for a, b in rx.max_weight_matching(g, weight_fn=int)]


def compress(edges: list[Edge]) -> list[Edge] | None:
    """The same edges with weights that order every matching as the originals do, in FIT_BITS; None if
    they do not fit."""
    weights = _Weights(edges)
    small = weights.compressed()
    if small is None:
        return None
    return [(u, v, small[i]) for (u, v, _), i in zip(edges, weights.which, strict=True)]


class _Weights:
    """The edges' distinct weights (rows), which row each edge has, and the edges' ends. Plain Python, no numpy:
    a bracket's edges share few distinct weights (a hundred at most at a thousand players), and numpy's import
    alone cost a `swiss pair` more CPU than all its compressions."""

    def __init__(self, edges: list[Edge]):
        # Each column by itemgetter: zip(*edges) builds an iterator per edge.
        self._set(list(map(_FIRST, edges)), list(map(_SECOND, edges)), map(_WEIGHT, edges))

    @classmethod
    def of_columns(cls, firsts: list[int], seconds: list[int], weights: list[int]) -> _Weights:
        made = cls.__new__(cls)
        made._set(firsts, seconds, weights)
        return made

    def _set(self, firsts: list[int], seconds: list[int], weights: Iterable[int]) -> None:
        self.firsts, self.seconds = firsts, seconds
        # The rows by setdefault: a long weight's hash is worked out anew at each use, so once per edge, not twice.
        rows: dict[int, int] = {}
        self.which = [rows.setdefault(w, len(rows)) for w in weights]
        self.rows = list(rows)

    def compressed(self, count: int | None = None) -> list[int] | None:
        """Each row's compressed weight; None if they do not fit. count: no more vertices than that."""
        used = 0
        for w in self.rows:
            used |= w
        if used.bit_length() <= FIT_BITS:
            return self.rows
        # First with bounds known at once: a matching holds no more edges than half the vertices, each no more
        # than the run's bits can hold; then with each run's largest value; only when that does not fit,
        # with the edges each run is set on, counted.
        runs = _runs(used)
        tables = (
            _Table(self, rough=True, count=count, blind=True),
            _Table(self, rough=True, count=count),
            _Table(self),
        )
        for table in tables:
            placed = _placed(table, runs)
            if placed is not None:
                return table.moved(placed)
        return None


def _placed(table: _Table, runs: list[tuple[int, int]]) -> list[tuple[int, int, int]] | None:
    """Where each block of bits goes, (start, length, to), lowest first; None when they do not fit."""
    blocks = []  # (start, bits to copy, width with its room, a run of its own), lowest first
    k = 0
    while k < len(runs):
        start, length = runs[k]
        bound = table.bound(start, length)
        end = start + max(length, bound.bit_length())
        k += 1
        first = k
        while k < len(runs) and runs[k][0] < end:
            offset, length = runs[k]
            bound += table.bound(offset, length) << (offset - start)
            end = max(offset + length, start + bound.bit_length())
            k += 1
        blocks.append((start, runs[k - 1][0] + runs[k - 1][1] - start, end - start, k == first))
    if sum(block[2] for block in blocks) > FIT_BITS:
        blocks = _significant(table, blocks)
    placed = []
    to = 0
    for start, length, width, _ in blocks:
        placed.append((start, length, to))
        to += width
    return placed if to <= FIT_BITS else None


def _significant(table: _Table, blocks: list) -> list:
    """The blocks without those that only repeat a higher one: a block of one run whose value is, on every
    edge, the same multiple of a higher one-run block's adds the same multiple of that block's sum to every
    matching, which that block has already compared (several criteria hold on every pair of a bracket, as
    its pair count does)."""
    kept = []
    # The one-run blocks kept (with a largest value of 0 < top < 2**16), each by its values divided by their
    # greatest common divisor: two blocks' values are multiples of each other's exactly when these are equal.
    higher: set[tuple[int, ...]] = set()
    for block in reversed(blocks):
        start, length, _, alone = block
        if alone:
            part = table.bits(start, length)
            top = max(part)
            if 0 < top < 1 << 16:
                divisor = gcd(*part)
                values = tuple(x // divisor for x in part)
                if values in higher:
                    continue
                higher.add(values)
        kept.append(block)
    kept.reverse()
    return kept


def _runs(used: int) -> list[tuple[int, int]]:
    """(offset, length) of each run of set bits, lowest first, none longer than 32 bits."""
    runs: list[tuple[int, int]] = []
    offset = 0
    while used:
        skip = (used & -used).bit_length() - 1
        used >>= skip
        offset += skip
        length = (~used & (used + 1)).bit_length() - 1
        runs.extend((offset + at, min(32, length - at)) for at in range(0, length, 32))
        used >>= length
        offset += length
    return runs


class _Table:
    """The distinct weights, to read bit ranges of every weight at once; which[e] is edge e's row (many edges
    share a weight: the stand-ins' edges all do)."""

    def __init__(self, weights: _Weights, rough: bool = False, count: int | None = None, blind: bool = False):
        self.rows = weights.rows
        self.weights = weights
        # rough: every field's edges are taken to be all of them, and a matching to hold half the vertices at
        # most (count, when known).
        if count is None and rough:
            count = len({*weights.firsts, *weights.seconds})
        self.rough = count // 2 if rough and count else 0
        self.blind = blind  # each run's largest value taken to be all its bits set
        self._by_row: list[tuple[list[int], list[int]]] | None = None  # each row's edges' first and second ends
        self.matchable: dict[tuple[int, ...], int] = {}  # how many of the edges of some rows one matching holds

    def ends_of(self, rows: tuple[int, ...]) -> tuple[Sequence[int], Sequence[int]]:
        """The first and the second ends of the edges of these rows (of every edge when they are all)."""
        w = self.weights
        if len(rows) == len(self.rows):
            return w.firsts, w.seconds
        if self._by_row is None:
            self._by_row = [([], []) for _ in self.rows]
            for u, v, row in zip(w.firsts, w.seconds, w.which, strict=True):
                ends = self._by_row[row]
                ends[0].append(u)
                ends[1].append(v)
        by_row = self._by_row
        return (
            list(chain.from_iterable(by_row[k][0] for k in rows)),
            list(chain.from_iterable(by_row[k][1] for k in rows)),
        )

    def bits(self, offset: int, length: int) -> list[int]:
        """Bits offset..offset+length (at most 32) of every distinct weight."""
        mask = (1 << length) - 1
        return [(w >> offset) & mask for w in self.rows]

    def bound(self, offset: int, length: int) -> int:
        """The most a matching's edges can add up to in bits offset..offset+length: the largest part
        times the most edges of those with a part that one matching can hold."""
        if self.blind:
            return ((1 << length) - 1) * self.rough
        part = self.bits(offset, length)
        top = max(part)
        if not top:
            return 0
        if self.rough:
            return top * self.rough
        # Many runs are set on the same rows: on every edge, as the pair count is.
        key = tuple(k for k, x in enumerate(part) if x)
        most = self.matchable.get(key)
        if most is None:
            most = self.matchable[key] = _matchable_split(*self.ends_of(key))
        return top * most

    def moved(self, blocks: list[tuple[int, int, int]]) -> list[int]:
        """Every distinct weight with each block's bits (start, length) moved to its new offset (below 128
        bits)."""
        moved = [0] * len(self.rows)
        for start, length, to in blocks:
            mask = (1 << length) - 1
            for k, w in enumerate(self.rows):
                moved[k] |= ((w >> start) & mask) << to
        return moved


def _matchable(ends: Sequence[tuple[int, int]]) -> int:
    """An upper bound on how many of these edges (pairs of ends) one matching can hold: no more than half
    their ends, nor more than the vertices of a cover (taken greedily, the busiest first)."""
    return _matchable_numpy(ends) if len(ends) >= NUMPY_EDGES else _matchable_python(ends)


def _matchable_python(ends: Sequence[tuple[int, int]]) -> int:
    firsts, seconds = zip(*ends, strict=True)
    return _matchable_split(firsts, seconds, numpy=False)


def _matchable_split(firsts: Sequence[int], seconds: Sequence[int], numpy: bool = True) -> int:
    """_matchable() of the edges (firsts[e], seconds[e])."""
    count = len(firsts)
    if numpy and count >= NUMPY_EDGES:
        return _matchable_numpy(list(zip(firsts, seconds, strict=True)))
    degree = Counter(firsts)
    degree.update(seconds)
    most = min(count, len(degree) // 2)
    if most <= 1 or max(degree.values()) == count:
        return min(most, 1)
    # The busiest first; among equals, the lower vertex first.
    busiest = sorted(sorted(degree), key=degree.__getitem__, reverse=True)  # a stable sort, reversed or not
    # The fewest of the busiest vertices that touch every edge: an edge is touched by the first k once its
    # busier end is among them, so k is one more than the latest such end. The bound is that many only when
    # fewer than `most`: an edge with neither end among the first `most` (often among the last edges of a
    # dense bracket, its least busy players') settles that it is `most`.
    rank = dict(zip(busiest, range(len(busiest)), strict=True)).__getitem__
    rest = set(busiest[most:])
    for k in range(count - 1, max(-1, count - 65), -1):
        if firsts[k] in rest and seconds[k] in rest:
            return most
    if any(map(rest.__contains__, select(seconds, map(rest.__contains__, firsts)))):
        return most
    need = 1 + max(map(min, map(rank, firsts), map(rank, seconds)))
    return need if need <= min(most, len(busiest)) else most


def _matchable_numpy(ends: Sequence[tuple[int, int]]) -> int:
    """_matchable of many edges (a large bracket's, at a thousand players), by numpy: the same bound, sooner."""
    import numpy as np

    pairs = np.fromiter(chain.from_iterable(ends), dtype=np.int64, count=2 * len(ends)).reshape(-1, 2)
    count = len(pairs)
    degree = np.bincount(pairs.ravel())
    vertices = np.flatnonzero(degree)
    most = min(count, len(vertices) // 2)
    if most <= 1 or degree.max() == count:
        return min(most, 1)
    busiest = vertices[np.argsort(-degree[vertices], kind="stable")]  # among equals, the lower vertex first
    rank = np.empty(len(degree), dtype=np.int64)
    rank[busiest] = np.arange(len(busiest))
    need = 1 + int(rank[pairs].min(axis=1).max())
    return need if need <= min(most, len(busiest)) else most
