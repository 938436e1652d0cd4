"""A bracket's matching (match(), for every stage of pairing/dutch/system.py and remainder.py) with the next
score group, as well as the players below, stood in for.

A bracket is matched with the next score group beside it, because who floats down and how the next group
then pairs are criteria too (C.8, C.9). But the next group's players are alike in every weight
but one: a pair of them, or a bracket player with one of them, weighs the same whoever they are, apart
from each player's potential (whether the bye may go to them) and whether they may meet at all. So they can
stand in as interchangeable copies, as the players below already do: the bracket alone, a few copies of
the next group (each with the group's lowest potential) and a few of the players below. Its maximum weight
plus what the real players' potentials add is a bound no pairing can pass; a pairing of the real players
(the bracket's pairs as matched, the floaters among the next group and below as the copies said, the rest
among near neighbours in the order) that reaches it is a maximum-weight matching of the whole round.

Copies: as many as the last matching sent there, plus two, doubled until two copies of the kind are paired
together (then more of them would only add their own pairs; tests/test_dutch_stand_ins.py). A bracket
whose matching sends a floater where the real players cannot take it falls back to the next group in full
(match_bounded, with stand-ins for the players below only).
"""

from __future__ import annotations

from itertools import chain

import rustworkx as rx

from pairing.dutch.brackets import Brackets


def max_weight_matching(edges, wide: bool = True):
    """pairing.matching's, imported when a bracket is first matched (a command that pairs by the optimal engine,
    or only reads an event, never needs it)."""
    from pairing.matching import max_weight_matching as matching

    return matching(edges, wide)


def max_weight_matching_columns(firsts, seconds, weights, count: int, wide: bool = True):
    """pairing.matching's, imported as max_weight_matching() is."""
    from pairing.matching import max_weight_matching_columns as matching

    return matching(firsts, seconds, weights, count, wide)


NEAR = 8  # pairs tried per player among the next group and below, in the order


def match(
    br: Brackets,
    bonus: dict[tuple[int, int], int] | None = None,
    room: int = 0,
    wide: bool = True,
    rows: dict[int, int] | None = None,
) -> bool:
    """A maximum-weight matching of the players not yet paired; bonus adds below the weights (room bits), by
    pair, or rows by the higher player to each of its pairs with the later players of the bracket.

    Only the bracket carries its criteria pair by pair; the next score group's players weigh alike but
    for their potentials and who may meet whom, and the players below them only have to be paired among
    themselves and with whoever floats down. So the matching is first solved with both replaced by
    interchangeable copies (match_tiered), then with the next group in full and stand-ins
    below, each accepted only when the real players complete it at its bound; otherwise on the whole
    graph. False, with nothing matched, when the weights are too wide for rustworkx and wide is False.
    """
    bonus = bonus or {}
    local = [v for v in br.local if v not in br.fixed]
    below = [v for v in range(br.n) if v not in br.fixed and v not in br.local_set]
    if below:
        _below_cache(br, below)
    group = [v for v in local if v in br.group_set]
    inner = [v for v in local if v not in br.group_set]
    if group:
        done = match_tiered(br, inner, group, below, bonus, room, wide, rows)
        if done is not False:
            return bool(done)
    if rows:  # the ways below take a bonus by pair
        bonus = dict(bonus)
        for a, h in enumerate(inner):
            if h in rows:
                bonus.update(((h, j), rows[h]) for j in inner[a + 1 :])
    if len(below) > 1:
        done = match_bounded(br, local, below, bonus, room, wide)
        if done is not False:
            return bool(done)
    alive = [v for v in range(br.n) if v not in br.fixed]
    inside = [v for v in alive if v in br.pos]
    outside = [v for v in alive if v not in br.pos]
    edges = br.edges_inside(inside, bonus, room)
    for a, i in enumerate(outside):
        for j in inside + outside[a + 1 :]:
            w = br.weight(i, j)
            if w > 0:
                edges.append((i, j, (w << room) + bonus.get((i, j) if i < j else (j, i), 0)))
    pairs = max_weight_matching(edges, wide)
    if pairs is None:
        return False
    br.take(pairs)
    return True


def _below_cache(br: Brackets, below: list[int]) -> None:
    if br.below_key != (len(below), below[0]):
        # The players below are the same for a whole bracket: what they can absorb is worked out once.
        br.below_key = (len(below), below[0])
        br.reach = {x: any(br.compatible(x, r) for r in below) for x in br.local}
        br.below_set = set(below)
        br.below_list = below
        br.below_near = None  # when match_bounded() first asks (most brackets never do): _near_below()


def _near_below(br: Brackets) -> list[tuple[int, int]]:
    """The pairs among the players below the bracket (as _below_cache() last saw them) that match_bounded() tries
    first: each with the next few in the order it may meet; worked out once for them."""
    if br.below_near is None:
        below = br.below_list
        if len(below) == br.n - below[0]:  # every player from below[0] on
            near = br.near_after_all()
            br.below_near = [(a, b) for a in below for b in near[a][:8]]
        else:
            br.below_near = [(a, b) for k, a in enumerate(below) for b in br.near(below, k)]
    return br.below_near


def match_tiered(
    br: Brackets,
    inner: list[int],
    group: list[int],
    below: list[int],
    bonus: dict,
    room: int,
    wide: bool,
    rows: dict[int, int] | None = None,
):
    """True when matched; False when this way does not settle it; None when too wide (and wide is False).

    inner: the bracket's players not yet paired, group the next score group's, below the rest."""
    if len(group) < 2 or not set(inner).issuperset(chain(chain.from_iterable(bonus), rows or ())):
        return False
    pot, n = br.potential, br.n
    mu_g = min(pot[g] for g in group)
    mu_b = min((pot[r] for r in below), default=0)
    # What a bracket player's pair with the next group weighs without the partner's potential: the same
    # for every partner it may meet, as base() builds it, unless a stage has struck the pair out (0, and 0
    # when it may meet none).
    core = dict.fromkeys(inner, 0)
    for x in inner:
        for g in group:
            w = br.weight(x, g)
            if w:  # every such pair of x's weighs this (Brackets.base())
                core[x] = w - pot[g]
                break
    pair_g = next((br.weight(a, b) - pot[a] - pot[b] for a in group for b in group if a < b and br.weight(a, b)), 0)
    if not pair_g:
        return False
    reach_b = {x: bool(below) and br.reach.get(x, False) for x in inner}
    one = br.one
    # Each vertex by its index: the bracket's players, then the copies (n, n + 1, ...); the edges by column.
    if bonus:
        inside = br.edges_inside(inner, bonus, room, numbered=True, rows=rows)
        columns = [e[0] for e in inside], [e[1] for e in inside], [e[2] for e in inside]
    else:
        columns = br.edge_columns(inner, room, rows)
    index = {x: t for t, x in enumerate(inner)}
    into_group = sum(1 for x in inner if br.get_mate(x) in br.group_set)
    into_below = sum(1 for x in inner + group if br.get_mate(x) in br.below_set)
    k_g = _first_count(into_group, len(group))
    k_b = _first_count(into_below, len(below))
    while True:
        copies_g = range(n, n + k_g)
        copies_b = range(n + k_g, n + k_g + k_b)
        model = {}  # the copies' edges, by their weight before room
        for x in inner:
            if core[x]:
                for s in copies_g:
                    model[(x, s)] = core[x] + mu_g
            if reach_b[x]:
                for s in copies_b:
                    model[(x, s)] = one + pot[x] + mu_b
        for t, s in enumerate(copies_g):
            for u in copies_g[t + 1 :]:
                model[(s, u)] = pair_g + 2 * mu_g
            for u in copies_b:
                model[(s, u)] = one + mu_g + mu_b
        for t, s in enumerate(copies_b):
            for u in copies_b[t + 1 :]:
                model[(s, u)] = one + 2 * mu_b
        at = len(inner) - n  # a copy's index, less its number
        firsts, seconds, weights = columns
        firsts = firsts + [index[a] if a < n else a + at for a, _ in model]
        seconds = seconds + [b + at for _, b in model]
        weights = weights + [w << room for w in model.values()]
        found = max_weight_matching_columns(firsts, seconds, weights, len(inner) + k_g + k_b, wide)
        if found is None:
            return None
        labels = inner + list(range(n, n + k_g + k_b))
        upper = [(labels[a], labels[b]) for a, b in found]
        paired_g = any(a in copies_g and b in copies_g for a, b in upper)
        paired_b = any(a in copies_b and b in copies_b for a, b in upper)
        if (paired_g or k_g == len(group)) and (paired_b or k_b == len(below)):
            break
        if not (paired_g or k_g == len(group)):
            k_g = _first_count(2 * k_g, len(group))
        if not (paired_b or k_b == len(below)):
            k_b = _first_count(2 * k_b, len(below))
    # The bound: the copies' matching, the pairs of copies left out, and the real players' potentials.
    if (len(group) - k_g) % 2 or (len(below) - k_b) % 2:
        return False  # never: the copies left out must pair up for the bound to hold
    bound = 0
    for a, b in upper:
        bound += br.weight(a, b) if a < n and b < n else model[(a, b) if (a, b) in model else (b, a)]
    bound += (len(group) - k_g) // 2 * (pair_g + 2 * mu_g) + (len(below) - k_b) // 2 * (one + 2 * mu_b)
    bound += sum(pot[g] - mu_g for g in group) + sum(pot[r] - mu_b for r in below)
    pairs = [(a, b) for a, b in upper if a < n and b < n]
    to_group = [a if a < n else b for a, b in upper if (a < n) != (b < n) and (a in copies_g or b in copies_g)]
    to_below = [a if a < n else b for a, b in upper if (a < n) != (b < n) and (a in copies_b or b in copies_b)]
    completion = _at_bound(br, bound - br.weight_sum(pairs), to_group, to_below, group, below, core)
    if completion is None:
        return False
    br.take(pairs + completion)
    return True


def _at_bound(br: Brackets, bound: int, to_group, to_below, group, below, core) -> list[tuple[int, int]] | None:
    """The real players for the copies, the floaters where the copies sent them, weighing bound in all; None
    when not found. Each player in turn with the next it may meet usually reaches the bound; a matching of
    near neighbours is tried when it does not. Either is checked against the bound, exactly."""
    completion = _in_turn(br, to_group, to_below, group, below, core)
    if completion is None or br.weight_sum(completion) != bound:
        key = (tuple(sorted(to_group)), tuple(sorted(to_below)), tuple(group), len(below), below[0] if below else -1)
        if br.tier_memo.get("key") != key:  # a bracket's matchings often float the same players
            br.tier_memo = {"key": key, "completion": _complete(br, to_group, to_below, group, below, core)}
        completion = br.tier_memo["completion"]
        if completion is None or br.weight_sum(completion) != bound:
            return None
    return completion


def _in_turn(br, to_group, to_below, group, below, core) -> list[tuple[int, int]] | None:
    """The floaters, then the next group, then the players below, each taking the first player after it in
    the order it may meet (a floater into the group, one it weighs its full pair with); None when a floater
    finds nobody."""
    pot = br.potential
    taken: set[int] = set()
    pairs = []
    for x, among in [(x, group) for x in to_group] + [(x, below) for x in to_below]:
        for g in among:
            if g not in taken and br.weight(x, g) and (among is below or br.weight(x, g) - pot[g] == core[x]):
                taken.add(g)
                pairs.append((x, g))
                break
        else:
            return None
    order = [v for v in group + below if v not in taken]
    floating = len(pairs)
    # By whether they may meet (no stage strikes out their pairs; the completion's weight is checked against
    # the bound all the same).
    pairs.extend(br.in_turn(order, taken))
    # Two left over who may not meet (they met before, say): a recent pair takes them in, two for two.
    left = [v for v in order if v not in taken]
    while len(left) >= 2:
        u, w = left.pop(), left.pop()
        for k in range(len(pairs) - 1, max(floating, len(pairs) - 64) - 1, -1):
            a, b = pairs[k]
            if br.weight(a, u) and br.weight(b, w):
                pairs[k : k + 1] = [(a, u), (b, w)]
                break
            if br.weight(a, w) and br.weight(b, u):
                pairs[k : k + 1] = [(a, w), (b, u)]
                break
        else:
            break
    return pairs


def _first_count(sent: int, size: int) -> int:
    """sent copies plus two, of the real players' parity (the bound counts the copies left out in pairs),
    and no more than the real players."""
    k = sent + 2
    return min(size, k + (k - size) % 2)


def _complete(br, to_group, to_below, group, below, core) -> list[tuple[int, int]] | None:
    """The real players for the copies: every floater paired where the copies sent it (into the next group
    with a partner it weighs its full pair with), then the most pairs in the next group, then the most pairs,
    the least potential left over; among near neighbours in the order, with every floater's partners."""
    # Weights in machine integers, fields as in the long weights: the floaters first, then the pairs with
    # who may not have the bye, then the pairs in the next group, then the unplayed games' ranks.
    size = len(br.small_potential)
    follow = 1 << (2 * size * size + 1).bit_length()
    top = follow << (size + 1).bit_length()
    must = top << (3 * size + 1).bit_length()
    unit = br.small_unit
    head = [top * (1 + s // unit) for s in br.small_potential]  # the pair's share, and this player's
    rank = [s % unit for s in br.small_potential]

    def value(a: int, b: int, following: bool) -> int:
        return head[a] + head[b] - top + rank[a] + rank[b] + (follow if following else 0)

    order = group + below
    ends = order + to_group + to_below
    index = {v: t for t, v in enumerate(ends)}
    pot = br.potential
    near_key = (tuple(group), len(below), below[0] if below else -1)
    if br.tier_near.get("key") != near_key:  # the same for a whole bracket
        br.tier_near = {"key": near_key, "edges": _near_pairs(br, group, below, value)}
    edges = list(br.tier_near["edges"])
    for x in to_group:
        edges.extend(
            (index[x], index[g], must + value(x, g, True))
            for g in group
            if br.weight(x, g) and br.weight(x, g) - pot[g] == core[x]
        )
    for x in to_below:
        edges.extend((index[x], index[r], must + value(x, r, False)) for r in below if br.compatible(x, r))
    g = rx.PyGraph(multigraph=False)
    g.add_nodes_from(ends)
    g.add_edges_from(edges)
    matched = rx.max_weight_matching(g, weight_fn=int)
    mates = {}
    for a, b in matched:
        mates[ends[a]], mates[ends[b]] = ends[b], ends[a]
    if any(x not in mates for x in to_group + to_below):
        return None
    return [(a, b) for a, b in mates.items() if a < b]


def _near_pairs(br, group: list[int], below: list[int], value) -> list[tuple[int, int, int]]:
    """Pairs among the next group and the players below, by position in group + below: each player with
    the next few it may meet in the order, and each group player with the first few below it may meet."""
    order = group + below
    in_group = set(group)
    edges = []
    for t, a in enumerate(order):
        found = 0
        for u in range(t + 1, len(order)):
            if found == NEAR:
                break
            b = order[u]
            if br.weight(a, b):
                found += 1
                edges.append((t, u, value(a, b, a in in_group and b in in_group)))
        if a in in_group:
            found = 0
            for u in range(len(group), len(order)):
                if found == NEAR:
                    break
                if br.compatible(a, order[u]):
                    found += 1
                    edges.append((t, u, value(a, order[u], False)))
    return edges


def match_bounded(br: Brackets, local: list[int], below: list[int], bonus: dict, room: int, wide: bool) -> bool | None:
    """The older way, for a bracket whose next score group cannot stand in as copies (match()): the bracket
    with its next group in full and stand-ins for the players below. True when matched; False when the bound
    is not met; None when too wide (and wide is False)."""
    mu = min(br.potential[r] for r in below)
    local_edges = []
    for a, i in enumerate(local):
        for j in local[a + 1 :]:
            w = br.weight(i, j)
            if w > 0:
                local_edges.append((i, j, (w << room) + bonus.get((i, j) if i < j else (j, i), 0)))
    # Stand-ins: enough for every local player to float, of the parity of the players below. Fewer do
    # when the matching leaves two of them paired together: two more could only float two more local
    # players, and that exchange, worth no more than the stand-ins' own pair here, is worth no more
    # with more of them (the floaters' paths in the two matchings, flipped either way, gain the same
    # and lose the same). So start from the floaters of the last matching and double until it holds.
    full = min(len(below), len(local) + 1 + (len(below) - len(local) - 1) % 2)
    floats_now = sum(1 for x in local if br.get_mate(x) in br.below_set)
    k = min(full, floats_now + 2 + (floats_now + len(below)) % 2)
    while True:
        edges = list(local_edges)
        stand_ins = range(br.n, br.n + k)
        for x in local:
            if br.reach[x]:
                w = (br.one + br.potential[x] + mu) << room
                edges.extend((x, s, w) for s in stand_ins)
        w = (br.one + 2 * mu) << room
        edges.extend((s, t, w) for s in stand_ins for t in range(s + 1, br.n + k))
        upper = max_weight_matching(edges, wide)
        if upper is None:
            return None
        if k == full or any(i >= br.n and j >= br.n for i, j in upper):
            break
        k = min(full, 2 * k + 2 + (len(below) % 2))  # of the parity of the players below
    inside = [(i, j) for i, j in upper if i < br.n and j < br.n]
    floating = [i if i < br.n else j for i, j in upper if (i < br.n) != (j < br.n)]
    lone_stand_in = (k - len(floating)) % 2
    # The real players below, with the floaters: every floater must be paired, and at most the one
    # player below the bound allows left over. Which of them pairs whom is decided again later, so
    # a completion found among near neighbours in the order will do; only when none is found there
    # is every pair below tried.
    for pairs_below in (_near_below(br), None):
        completion = _complete_below(br, floating, below, pairs_below)
        if completion is None:
            continue
        left = [r for r in below if r not in completion]
        if len(left) == lone_stand_in and not (left and br.potential[left[0]] != mu):
            br.take(inside + list(completion.items()))
            return True
    return False


def _complete_below(br: Brackets, floating: list[int], below: list[int], pairs_below) -> dict[int, int] | None:
    """A matching of the floaters and the players below (all their compatible pairs when pairs_below is
    None) that pairs every floater and leaves over the least potential; None if a floater is left."""
    if pairs_below is None:
        pairs_below = [(a, b) for k, a in enumerate(below) for b in below[k + 1 :] if br.compatible(a, b)]
    ends = floating + below
    index = {v: t for t, v in enumerate(ends)}
    rg = rx.PyGraph()
    rg.add_nodes_from(ends)
    # The same potentials in machine integers: a non-candidate weighs more than all unplayed ranks.
    small = br.small_potential
    must = 1 << (3 * len(small) * (br.small_unit + 1)).bit_length()
    edges = [
        (index[x], index[r], must + small[x] + small[r] + 1) for x in floating for r in below if br.compatible(x, r)
    ]
    edges.extend((index[a], index[b], small[a] + small[b] + 1) for a, b in pairs_below)
    rg.add_edges_from(edges)
    completion = rx.max_weight_matching(rg, max_cardinality=True, weight_fn=int)
    mates = {}
    for a, b in completion:
        mates[ends[a]], mates[ends[b]] = ends[b], ends[a]
    return None if any(x not in mates for x in floating) else mates
