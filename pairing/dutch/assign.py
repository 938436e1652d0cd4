"""S1 against S2 when every player of both is paired: the Dutch order of transpositions, without a matching.

Once a bracket's S1 and S2 are settled and every one of them is paired with the other half (no S2 player
floats down), what is left to choose is a perfect matching of S1 against S2 of the greatest weight (the
criteria, pair by pair), and among those the one where S1's first player gets the highest S2 player
possible, then the second, and so on (C.04.3 D: the first transposition of S2 that the criteria allow).

The weights are integers hundreds of bits wide. From any perfect matching, prices follow by longest paths
(Bellman-Ford on the S1 players); a positive cycle is a better matching, taken before the prices are sought
again, and prices found certify that the matching has the maximum weight. The edges they make tight hold
every maximum-weight perfect matching and nothing else. The lexicographic choice is then made on tight edges only: S1's players in order take
the highest S2 player for whom an alternating cycle of tight edges frees the way. Exact, in Python
integers, in about the time of one matching of the remainder alone.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

FEW = 8  # a stand-in's choices tried one by one at most


# S1 player -> S2 player -> the pair's weight: the pairs allowed only, each S1 player's in S2's order.
Edges = dict[int, dict[int, int]]


def edges_of(s1: list[int], s2: list[int], weight: Callable[[int, int], int]) -> Edges:
    """The pairs of S1 and S2 players with weight(a, b) > 0, and their weights."""
    return {s: {c: w for c in s2 if (w := weight(s, c)) > 0} for s in s1}


def first_transposition(
    s1: list[int], s2: list[int], edges: Edges, mate: dict[int, int], last_free: bool = False
) -> dict[int, int] | None:
    """S1 player -> S2 player: the maximum-weight perfect matching first in S1's order of preference.

    s1 in order (first chooses first), s2 in order of preference (highest first); edges the pairs allowed,
    with their weights (> 0); mate holds a perfect matching of the two (S1 to S2 at least), improved here to
    one of maximum weight. None when there is none in reach, so the caller can fall back on matchings.
    last_free: the last of s1 stands in for whoever is left over, its own choice no part of the order."""
    rank = {c: k for k, c in enumerate(s2)}
    held = {s: mate[s] for s in s1}
    owner = {c: s for s, c in held.items()}
    if len(owner) != len(s1) or any(held[s] not in edges[s] for s in s1):
        return None
    # Prices u on S1 (v on S2 follows: v[c] = w(owner c, c) - u[owner c]); u[s] >= u[t] + w(s, c) - w(t, c)
    # for every c, t = owner[c]. Longest paths from zero. A positive cycle is a better matching: it is
    # taken, and the prices sought again.
    for _ in range(4 * len(s1) + 4):
        u, cycle = _prices(s1, edges, held, owner)
        if cycle is None:
            break
        for s, c in cycle:
            held[s], owner[c] = c, s
    else:
        return None
    # The tight edges of each S1 player, in S2's order as edges lists them: w(s, c) - w(owner c, c) is u[s] -
    # u[owner c], written v[c] = w(owner c, c) - u[owner c] + u[s] == w(s, c).
    v = {c: edges[t][c] - u[t] for c, t in owner.items()}
    tight = {s: [c for c, w in edges[s].items() if v[c] + u[s] == w] for s in s1}
    # Each S1 player in turn taking the highest S2 player left on a tight edge: when that pairs them all, it is
    # the first (every choice was the highest a pairing of all of them allows); otherwise cycle by cycle.
    taken: dict[int, int] = {}
    for s in s1:
        c = next((c for c in tight[s] if c not in taken), None)
        if c is not None:
            taken[c] = s
    if len(taken) == len(s1):
        return {s: c for c, s in taken.items()}
    if last_free and len(tight[s1[-1]]) <= FEW:
        # Whom the stand-in takes, tried one by one, the rest in turn: the first of those pairings.
        best, best_order = None, None
        place = {s: k for k, s in enumerate(s1)}
        for left in tight[s1[-1]]:
            taken = {left: s1[-1]}
            for s in s1[:-1]:
                c = next((c for c in tight[s] if c not in taken), None)
                if c is None:
                    break
                taken[c] = s
            else:
                order = sorted((place[s], rank[c]) for c, s in taken.items() if s != s1[-1])
                if best_order is None or order < best_order:
                    best, best_order = {s: c for c, s in taken.items()}, order
                continue
            break  # one of them did not pair everyone in turn: cycle by cycle below
        else:
            if best is not None:
                return best
    return _cycle_by_cycle(s1, tight, held, owner, taken)


def _cycle_by_cycle(s1, tight, held, owner, taken) -> dict[int, int]:
    """The first pairing from a partial one taken in turn (S2 player -> S1 player) and a maximum-weight one
    (held, owner): the players left out join by augmenting paths, and that pairing, mostly the first
    already, is improved cycle by cycle: a player whose opponent is the highest its predecessors left needs
    none."""
    greedy_held = {s: c for c, s in taken.items()}
    greedy_owner = dict(taken)
    if all(_augment(s, tight, greedy_held, greedy_owner) for s in s1 if s not in greedy_held):
        held, owner = greedy_held, greedy_owner
    fixed: set[int] = set()
    for s in s1:
        # Players from whom s's old opponent cannot be reached: whoever a failed search met (all they reach,
        # it reached), so no later candidate of s held by one of them is searched again.
        stuck: set[int] = set()
        for c in tight[s]:
            if c == held[s]:
                break
            if c in owner and (owner[c] in fixed or owner[c] in stuck):
                continue
            path, met = _freeing(s, c, tight, held, owner, fixed)
            if path is not None:
                for x, y in path:
                    held[x], owner[y] = y, x
                break
            stuck |= met
        fixed.add(s)
    return held


def _augment(s, tight, held, owner) -> bool:
    """s paired by an augmenting path of tight edges to an S2 player nobody holds; False if none."""
    back: dict[int, tuple[int, int] | None] = {s: None}  # S1 player -> (who reached it, through which S2)
    queue = deque([s])
    while queue:
        x = queue.popleft()
        for c in tight[x]:
            y = owner.get(c)
            if y is None:
                while True:  # x takes c; whoever reached x takes what x held
                    previous = back[x]
                    held[x], owner[c] = c, x
                    if previous is None:
                        return True
                    x, c = previous
            if y not in back:
                back[y] = (x, c)
                queue.append(y)
    return False


def _prices(s1, edges, held, owner) -> tuple[dict, list | None]:
    """The longest paths over the arcs t -> s (s takes t's opponent c), from zero: the prices, or a positive
    cycle as the (S1 player, S2 player) moves that make it.

    A player's arcs are followed again only when its price rose (the longest paths are the same whatever order
    they are found in); a price rising more often than there are players means a positive cycle, which
    _cycle() then finds by passes over every arc."""
    held_weight = {c: edges[t][c] for c, t in owner.items()}
    out: dict[int, list[tuple[int, int]]] = {s: [] for s in s1}  # t -> (s, the gain of s taking t's opponent)
    for s in s1:
        for c, w in edges[s].items():
            if c != held[s]:
                out[owner[c]].append((s, w - held_weight[c]))
    u = dict.fromkeys(s1, 0)
    rises = dict.fromkeys(s1, 0)
    waiting = deque(s1)
    queued = set(s1)
    while waiting:
        t = waiting.popleft()
        queued.discard(t)
        price = u[t]
        for s, gain in out[t]:
            if price + gain > u[s]:
                u[s] = price + gain
                rises[s] += 1
                if rises[s] > len(s1):
                    return _cycle(s1, edges, held, owner)
                if s not in queued:
                    waiting.append(s)
                    queued.add(s)
    return u, None


def _cycle(s1, edges, held, owner) -> tuple[dict, list | None]:
    """Bellman-Ford for the longest paths over the arcs t -> s (s takes t's opponent c): the prices, or a
    positive cycle as the (S1 player, S2 player) moves that make it."""
    u = dict.fromkeys(s1, 0)
    pred: dict[int, tuple[int, int]] = {}
    held_weight = {c: edges[t][c] for c, t in owner.items()}
    arcs = [(owner[c], s, w - held_weight[c], c) for s in s1 for c, w in edges[s].items() if c != held[s]]
    last = None
    for _ in range(len(s1)):
        last = None  # the last player whose price rose in this pass
        for t, s, gain, c in arcs:
            if u[t] + gain > u[s]:
                u[s] = u[t] + gain
                pred[s] = (t, c)
                last = s
        if last is None:
            return u, None
    if last is None:  # no S1 player at all
        return u, None
    x = last
    for _ in range(len(s1)):
        x = pred[x][0]
    cycle, start = [], x
    while True:
        t, c = pred[x]
        cycle.append((x, c))
        x = t
        if x == start:
            return u, cycle


def _freeing(s, c, tight, held, owner, fixed) -> tuple[list[tuple[int, int]] | None, set[int]]:
    """The reassignments (S1 player, S2 player) that give c to s: from c's holder, a path of tight edges
    through unfixed players that ends at the player taking s's old opponent; None if there is none, with
    the players the search met."""
    free = held[s]
    start = owner[c]
    back: dict[int, tuple[int, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for y in tight[x]:
            if y == c or y == held[x]:
                continue
            if y == free:
                moves = [(s, c), (x, y)]
                while (step := back[x]) is not None:
                    x, y = step
                    moves.append((x, y))
                return moves, set()
            z = owner[y]
            if z in fixed or z == s or z in back:
                continue
            back[z] = (x, y)
            queue.append(z)
    return None, set(back)


def first_with_one_floater(
    s1: list[int], s2: list[int], edges: Edges, float_value: dict[int, int], mate: dict[int, int]
) -> dict[int, int] | None:
    """As first_transposition, when S2 has one player more than S1 and that player floats down:
    float_value[f] is what the rest of the round is worth with f floating, mate a pairing of every S1
    player (any; the best is found from it) and, under -1, its floater. A stand-in at the end of S1,
    vertex -1, takes the floater; its edges weigh what floating is worth, so the best perfect matching of
    S1 and the stand-in against S2 is the best pairing of the round, and the first in S1's order of
    preference is the Dutch one. Returns every S1 player's opponent and, under -1, the floater."""
    low = min(float_value.values())
    stand_in = {b: float_value[b] - low + 1 for b in s2}
    return first_transposition([*s1, -1], s2, {**edges, -1: stand_in}, mate, last_free=True)
