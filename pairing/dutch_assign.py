"""S1 against S2 when every player of both is paired: the Dutch order of transpositions, without a matching.

Once a bracket's S1 and S2 are settled and every one of them is paired with the other half (no S2 player
floats down), what is left to choose is a perfect matching of S1 against S2 of the greatest weight (the
criteria, pair by pair), and among those the one where S1's first player gets the highest S2 player
possible, then the second, and so on (C.04.3 D: the first transposition of S2 that the criteria allow).

The weights are integers hundreds of bits wide. Given one maximum-weight perfect matching, prices that
certify it follow by longest paths (Bellman-Ford on the S1 players: no positive cycle exists, or the
matching was not the best); the edges those prices make tight hold every maximum-weight perfect matching
and nothing else. The lexicographic choice is then made on tight edges only: S1's players in order take
the highest S2 player for whom an alternating cycle of tight edges frees the way. Exact, in Python
integers, in about the time of one matching of the remainder alone.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from pairing.matching import max_weight_matching


def first_transposition(
    s1: list[int], s2: list[int], weight: Callable[[int, int], int], mate: dict[int, int]
) -> dict[int, int] | None:
    """S1 player -> S2 player: the maximum-weight perfect matching first in S1's order of preference.

    s1 in order (first chooses first), s2 in order of preference (highest first); weight(a, b) > 0 for a
    pair allowed; mate holds a maximum-weight perfect matching of the two (both ways). None when mate is
    not one (a price cannot be found), so the caller can fall back on matchings."""
    rank = {c: k for k, c in enumerate(s2)}
    edges = {s: {c: w for c in s2 if (w := weight(s, c)) > 0} for s in s1}
    held = {s: mate[s] for s in s1}
    owner = {c: s for s, c in held.items()}
    if len(owner) != len(s1) or any(held[s] not in edges[s] for s in s1):
        return None
    # Prices u on S1 (v on S2 follows: v[c] = w(owner c, c) - u[owner c]); u[s] >= u[t] + w(s, c) - w(t, c)
    # for every c, t = owner[c]. Longest paths from zero; a change in the len(s1)-th pass is a positive cycle.
    u = dict.fromkeys(s1, 0)
    arcs = [(owner[c], s, w - edges[owner[c]][c]) for s in s1 for c, w in edges[s].items() if c != held[s]]
    for _ in range(len(s1)):
        changed = False
        for t, s, gain in arcs:
            if u[t] + gain > u[s]:
                u[s] = u[t] + gain
                changed = True
        if not changed:
            break
    else:
        return None
    tight = {
        s: sorted((c for c, w in edges[s].items() if u[s] - u[owner[c]] == w - edges[owner[c]][c]), key=rank.get)
        for s in s1
    }
    fixed: set[int] = set()
    for s in s1:
        for c in tight[s]:
            if c == held[s]:
                break
            if c in owner and owner[c] in fixed:
                continue
            path = _freeing(s, c, tight, held, owner, fixed)
            if path is not None:
                for x, y in path:
                    held[x], owner[y] = y, x
                break
        fixed.add(s)
    return held


def _freeing(s, c, tight, held, owner, fixed) -> list[tuple[int, int]] | None:
    """The reassignments (S1 player, S2 player) that give c to s: from c's holder, a path of tight edges
    through unfixed players that ends at the player taking s's old opponent; None if there is none."""
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
                while back[x] is not None:
                    x, y = back[x]
                    moves.append((x, y))
                return moves
            z = owner[y]
            if z in fixed or z == s or z in back:
                continue
            back[z] = (x, y)
            queue.append(z)
    return None


def first_with_one_floater(
    s1: list[int], s2: list[int], weight: Callable[[int, int], int], float_value: dict[int, int]
) -> dict[int, int] | None:
    """As first_transposition, when S2 has one player more than S1 and that player floats down:
    float_value[f] is what the rest of the round is worth with f floating. A stand-in at the end of S1,
    vertex -1, takes the floater; its edges weigh what floating is worth, so the best perfect matching of
    S1 and the stand-in against S2 is the best pairing of the round, and the first in S1's order of
    preference is the Dutch one. Returns every S1 player's opponent and, under -1, the floater."""
    low = min(float_value.values())
    edges = [(s, c, w) for s in s1 for c in s2 if (w := weight(s, c)) > 0]
    edges += [(-1, f, v - low + 1) for f, v in float_value.items()]
    # One amount more on every edge than all the edges weigh together: the matching pairs everyone first.
    extra = sum(w for _, _, w in edges) + 1
    pairs = max_weight_matching([(a, b, w + extra) for a, b, w in edges])
    if pairs is None or len(pairs) != len(s1) + 1:
        return None
    mate = {}
    for a, b in pairs:
        mate[a], mate[b] = b, a

    def priced(a: int, b: int) -> int:
        if a == -1:
            return float_value[b] - low + 1 + extra
        w = weight(a, b)
        return w + extra if w > 0 else 0

    return first_transposition([*s1, -1], s2, priced, mate)
