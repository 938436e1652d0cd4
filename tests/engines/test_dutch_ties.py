"""The Dutch pairing does not depend on how the blossom breaks ties between equally good matchings.

Each stage of a bracket (pairing/dutch/system.py, remainder.py, floater.py) decides by what every maximum-weight
matching has in common: the criteria's totals, which the weights order lexicographically. So neither the
compressed integers rustworkx is given (pairing/matching.py may place a field's bits anywhere its bound allows)
nor the order of the vertices and edges may change a round's pairing. Here rustworkx gets every matching of the
Dutch engine with its vertices renumbered and its edges shuffled, which changes which of several equally good
matchings it returns (most of them, counted below), and every round must still be paired as bbpPairings pairs it.
"""

from __future__ import annotations

import random

import pytest

import pairing.matching as matching
from pairing.dutch import pair_dutch
from pairing.event import dutch_from_event
from pairing.tools.generate import Options, generate
from standings import points_by_player
from swiss import trf
from tests.engines.test_dutch import CORPUS, DIVERGENT, _ours, _size, recorded

# Corpus tournaments of up to this many players: every one of their rounds, in a few seconds.
TIES_MAX_PLAYERS = 60


class Shuffled:
    """matching._rustworkx given the same graph renumbered and reordered; counts the matchings that came out
    otherwise than from the graph as built."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.original = matching._rustworkx
        self.calls = self.other = 0

    def __call__(self, vertex, edges):
        order = list(range(len(vertex)))
        self.rng.shuffle(order)
        new = {old: k for k, old in enumerate(order)}
        turned = [(new[b], new[a], w) if self.rng.random() < 0.5 else (new[a], new[b], w) for a, b, w in edges]
        self.rng.shuffle(turned)
        got = self.original([vertex[old] for old in order], turned)
        plain = self.original(vertex, edges)
        self.calls += 1
        self.other += {frozenset(p) for p in got} != {frozenset(p) for p in plain}
        return got


@pytest.mark.parametrize("seed", [1, 2])
def test_corpus_rounds_are_paired_alike_whichever_tie_the_blossom_takes(monkeypatch, seed):
    shuffled = Shuffled(seed)
    monkeypatch.setattr(matching, "_rustworkx", shuffled)
    rounds = 0
    for path in (p for p in CORPUS if _size(p) <= TIES_MAX_PLAYERS):
        event = trf.loads(path.read_text(), points_by_player)
        divergent = set(DIVERGENT.get(path.stem, []))
        for number, expected in recorded(path.with_suffix(".bbp")).items():
            if number not in divergent:
                assert _ours(event, number) == expected, f"{path.stem} round {number}"
                rounds += 1
    assert rounds > 300
    # Not vacuous: most matchings have several maximum-weight answers, and the shuffle picks others.
    assert shuffled.other > shuffled.calls // 4


def test_a_large_round_is_paired_alike_whichever_tie_the_blossom_takes(monkeypatch):
    text = generate(Options(players=300, rounds=5, seed=7, half_byes=1, forfeits=2))
    inp = dutch_from_event(trf.loads(text.replace("XXR 5\n", "XXR 9\n", 1).encode(), points_by_player), 6)
    plain = pair_dutch(inp)
    for seed in (1, 2, 3):
        shuffled = Shuffled(seed)
        monkeypatch.setattr(matching, "_rustworkx", shuffled)
        assert pair_dutch(inp) == plain
        assert shuffled.other > 0
