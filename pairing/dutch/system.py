"""The FIDE (Dutch) system (Handbook C.04.3, the 2025 text, with C.04.1 and C.04.2) as a pairing system.

Pure Python, exact: for a history it gives the pairs, colours and bye a FIDE-endorsed Dutch engine gives
(bbpPairings is the reference the test corpus was recorded with).

How: the Dutch rules are a lexicographic order of criteria, so they are an order of maximum-weight
matchings. One graph holds every player to pair; an edge's weight is a long integer whose fields,
most significant first, encode the criteria in the rules' order (completion and the bye [C.4, C.5], the
pairs and the scores of the current bracket [C.6, C.7], of the next one [C.8], the bye assignee's
unplayed games [C.9], colours [C.10-C.13], floats [C.14-C.21]), with room below for the Dutch order of
transpositions and exchanges (pairing/dutch/brackets.py holds the graph and builds the weights). Brackets are
paired from the top, here: each one is decided by a short series of matchings that fix, in the rules' order,
which moved-down players are paired, their opponents, how many and which players are exchanged between S1
and S2 (pairing/dutch/remainder.py); a fixed pair leaves the graph. Then S1's opponents (the transpositions)
are chosen by prices on S1 against S2 (pairing/dutch/assign.py; with the floater, when one S2 player floats
down, pairing/dutch/floater.py).

Each matching is solved on the bracket alone, with interchangeable copies standing in for the next score
group and for the players below (pairing/dutch/tiers.py): the copies' optimum is a bound, and a pairing of
the real players that reaches it, summed exactly, is a maximum-weight matching of the round; the next group
in full, then the whole graph, when none does. The weights are integers hundreds of bits wide;
pairing/matching.py compresses each matching's weights, exactly, into the 128 bits rustworkx's blossom
takes (networkx's, on Python integers, is left for what does not fit).

Colours (C.04.3 E and C.04.2): the stronger preference, then the higher imbalance, then the last round
the two colours differed, then the higher-ranked player's preference; a round with no preference at all
goes by the pairing number's parity from the event's initial colour.
"""

from __future__ import annotations

import gc
from fractions import Fraction

from pairing.dutch.brackets import Bracket, Brackets
from pairing.dutch.colours import WHITE
from pairing.dutch.players import DutchInput, Player, Round
from pairing.dutch.remainder import one_moved_down_with_remainder, pair_remainder
from pairing.dutch.start import start
from pairing.dutch.tiers import match
from pairing.types import Pair, Pairing, PairingError
from swiss.messages import Message


def pair_dutch(inp: DutchInput) -> Pairing:
    """The Dutch pairing of the round; PairingError when no pairing meets the absolute criteria.

    Without the cyclic garbage collector while it runs: the pairing makes hundreds of thousands of short-lived
    tuples and lists but no cycle, and each collection they set off walks every object the process holds (the
    whole event, in a command), a tenth of the pairing's CPU at 500 players. It runs again as it did before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _pair(inp)
    finally:
        if enabled:
            gc.enable()


def _pair(inp: DutchInput) -> Pairing:
    rnd = Round.of(inp)
    present = [rnd.players[pid] for pid in inp.present if pid in rnd.players]
    if len(present) < 2:
        raise PairingError(
            Message(
                "too_few_players",
                "at least two players are needed to pair a round; register or re-activate players",
            )
        )
    order = sorted(present, key=lambda x: (-x.score, x.rank))
    br = Brackets(rnd, order)
    start(br)
    mates = pair_brackets(br)
    pairs: list[tuple[Player, Player]] = []
    bye = None
    for i, x in enumerate(order):
        j = mates.get(i)
        if j is None:
            bye = x
        elif i < j:
            a, b = order[i], order[j]
            if b.number < a.number:
                a, b = b, a
            white = a if rnd.colour(a, b) == WHITE else b
            pairs.append((white, b if white is a else a))
    points = {x.id: rnd.points(x) for x in present}  # in the round's units of points

    def table_order(pair: tuple[Player, Player]):
        top, low = pair if (points[pair[0].id], -pair[0].rank) >= (points[pair[1].id], -pair[1].rank) else pair[::-1]
        return (-points[top.id], -points[low.id], top.rank)

    pairs.sort(key=table_order)
    games = tuple(Pair(t, w.id, b.id) for t, (w, b) in enumerate(pairs, 1))
    return Pairing(
        round=inp.round,
        seed=inp.seed,
        pairs=games,
        byes=((bye.id,) if bye else ()) + inp.awarded_byes,
        awarded_byes=inp.awarded_byes,
        floats=tuple(g for g in games if points[g.a] != points[g.b]),
        spread=Fraction(sum((points[g.a] - points[g.b]) ** 2 for g in games), rnd.unit**2),
        method="dutch",
    )


def pair_brackets(br: Brackets) -> dict[int, int]:
    """The brackets from the top, after the first matching (start.py): vertex -> its opponent's vertex (the bye
    has none)."""
    p, n = br.order, br.n
    pairs: dict[int, int] = {}
    nxt = 0  # the next score group's first vertex
    vertices: list[int] = []  # the bracket's vertices: moved-down players, residents, then the next group
    while nxt < n and p[nxt].score >= p[0].score:
        vertices.append(nxt)
        nxt += 1
    moved = 0  # moved-down players at the head of the bracket
    group_start = 0  # the first vertex of the current score group
    while len(vertices) > 1 or nxt < n:
        end = len(vertices)  # the current bracket is vertices[:end]
        group_end = group_start + (end - moved)  # residents are vertices group_start..group_end-1
        following = nxt
        while nxt < n and p[nxt].score >= p[following].score:
            vertices.append(nxt)
            nxt += 1
        br.local, br.local_set = list(vertices), set(vertices)
        br.group_set = set(vertices[end:])
        # The bracket's pairs now; those with the next group when first asked for (weight()).
        base = br.enter_bracket(vertices, moved, end)
        bracket = Bracket(vertices, moved, end, range(group_start, group_end), base)
        counted = False
        if moved == 1:
            counted = one_moved_down_with_remainder(br, bracket)
        elif moved:  # a homogeneous bracket goes straight to its remainder
            match(br)
            _moved_down(br, bracket)
            _moved_down_opponents(br, bracket)
        pair_remainder(br, bracket, counted)
        vertices, moved = _leave(br, bracket, following, pairs)
        group_start = group_end
    return pairs


def _leave(br: Brackets, bracket: Bracket, following: int, pairs: dict[int, int]) -> tuple[list[int], int]:
    """The bracket is paired: its pairs go into pairs, and whoever is left floats down into the next score
    group (from vertex following), the next bracket's vertices and its number of moved-down players."""
    p, matched, vertices, end = br.order, br.matched, bracket.vertices, bracket.end
    br.leave_bracket([v for v in vertices[:end] if not matched[v]])
    single = br.n % 2 == 1 and following < br.n and br.bye_score >= p[following].score
    rest = []
    moved = 0
    for k, v in enumerate(vertices):
        if k < end and matched[v]:
            pairs[v] = br.get_mate(v)
            pairs[br.get_mate(v)] = v
            continue
        rest.append(v)
        if k < end:
            moved += 1
        if single and following < br.n and p[br.get_mate(v)].score < p[following].score:
            single = False
    br.single_bye = single
    return rest, moved


def _moved_down(br: Brackets, bracket: Bracket) -> None:
    """Which moved-down players are paired in the bracket: the highest first (C.04.3 B.3)."""
    p, matched, get_mate = br.order, br.matched, br.get_mate
    vertices, moved, end, base, residents = (
        bracket.vertices,
        bracket.moved,
        bracket.end,
        bracket.base,
        bracket.residents,
    )
    left = left_matched = 0
    score = None
    for k in range(moved):
        v = vertices[k]
        if score is None or p[v].score < score:
            score = p[v].score
            left = left_matched = 0
            m = k
            while m < len(vertices) and p[vertices[m]].score >= score:
                left += 1
                left_matched += get_mate(vertices[m]) in residents
                m += 1
        if not left_matched:
            continue
        if left <= left_matched:
            matched[v] = True
            continue
        left -= 1
        if get_mate(v) not in residents:
            for o in range(moved, end):
                w = base.get(o, k)
                if w:
                    br.set(v, vertices[o], w | 1)
            match(br)
        if get_mate(v) in residents:
            matched[v] = True
            left_matched -= 1
            for o in range(moved, end):
                w = base.get(o, k)
                if w:
                    br.set(v, vertices[o], (w | (end - moved)) + 1)


def _moved_down_opponents(br: Brackets, bracket: Bracket) -> None:
    """The opponents of the moved-down players paired in the bracket: the highest resident possible (C.04.3 B.3)."""
    matched, vertices, moved, end, base = br.matched, bracket.vertices, bracket.moved, bracket.end, bracket.base
    for k in range(moved):
        v = vertices[k]
        if not matched[v]:
            continue
        add = len(vertices)
        for o in range(end - 1, moved - 1, -1):
            vo = vertices[o]
            if matched[vo] or not base.get(o, k):
                continue
            br.set(v, vo, base.get(o, k) + add)
            add += 1
        match(br)
        br.settle(v, br.get_mate(v))
