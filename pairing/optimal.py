"""Optimal Swiss pairing (docs/engines.md) as a minimum-cost perfect matching.

Among all pairings of the eligible players (plus one bye for an odd field) the engine picks one
that minimises, in this order: rematches, second byes, the sum of squared match-point differences
(the bye counts as a pairing with the bottom of the field: the odd player floats down to the end), the rank of the bye (lowest-ranked first), chess colour trouble; then random from the seed.

Every priority is an integer weight tier large enough that no amount of the lower tiers can
outweigh one unit of it, and rustworkx's blossom maximises the complement of that cost with
max_cardinality=True. Rematch and second-bye edges exist (at prohibitive cost) whenever they may be
needed, so pairing never fails.

Speed: blossom is cubic, so a large field is first solved on a sparse candidate graph, block by
block. The result is accepted only when it meets an exact lower bound (squared differences on a
line are minimised by pairing sorted neighbours; a DP over the bye recipient adds priorities 2 and
4); otherwise the graph is densified to every edge that could still beat the solution found, and
in the last resort to the complete graph. The answer is always the exact optimum, except that
beyond COLOUR_EXACT_MAX players chess colour trouble (the lowest priority) is improved by local
exchanges rather than proven minimal.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction

import rustworkx as rx

from pairing.types import Entrant, Pair, Pairing, PairingError, PairingInput
from swiss.messages import Message

# Fields up to this size are solved on the complete graph at once; it is exact and fast enough.
FULL_GRAPH_MAX = 160
BLOCK_SIZE = 512  # players per independently solved block of a large field
SPARSE_DEGREE = 8  # random partners per player in the sparse candidate graph
DENSE_NEIGHBOURHOOD = 24  # below this many candidates a player gets all of them
COLOUR_EXACT_MAX = 400  # beyond this many players colours are improved locally, not proven optimal
DEEP_INSIDE_GROUP = 64  # a block may cut a score group with this many of its players on each side

# Chess colour costs, per player: a third same colour in a row or |whites - blacks| > 2 (hard),
# not alternating (soft).
_HARD_COLOUR, _SOFT_COLOUR = 4, 1


def pair(
    inp: PairingInput,
    *,
    seed: int | None = None,
    full_graph_max: int = FULL_GRAPH_MAX,
    block_size: int = BLOCK_SIZE,
) -> Pairing:
    """The optimal pairing of the round; seed, when given, replaces inp.seed."""
    if seed is not None:
        inp = replace(inp, seed=seed)
    ids = [e.id for e in inp.entrants] + [e.id for e in inp.awarded_byes]
    if len(set(ids)) != len(ids):
        raise PairingError(Message("duplicate_entrant", "a player appears twice in the pairing input"))
    if len(inp.entrants) < 2 and not inp.awarded_byes:
        raise PairingError(
            Message(
                "too_few_players", "at least two players are needed to pair a round; register or re-activate players"
            )
        )
    rng = random.Random(inp.seed)
    if inp.method == "rating":
        solved = _by_rating(inp.entrants)
    else:
        solved = _Solver(inp, rng, full_graph_max, block_size).solve()
    return _finish(inp, solved)


# ------------------------------------------------------------------ round one by rating


def _by_rating(entrants: tuple[Entrant, ...]) -> list[tuple[Entrant, Entrant | None]]:
    order = sorted(entrants, key=lambda e: (-(e.rating or 0), e.rank, e.id))
    pairs: list[tuple[Entrant, Entrant | None]] = []
    if len(order) % 2:
        # Among the unrated or lowest rated, the bye goes to one who has not had one.
        bye = min(reversed(order), key=lambda e: e.byes > 0)
        order.remove(bye)
        pairs.append((bye, None))
    half = len(order) // 2
    pairs.extend(zip(order[:half], order[half:], strict=True))
    return pairs


# ------------------------------------------------------------------ the solver


class _Solver:
    def __init__(self, inp: PairingInput, rng: random.Random, full_graph_max: int, block_size: int):
        self.rng = rng
        self.full_graph_max = full_graph_max
        self.block_size = block_size
        players = list(inp.entrants)
        rng.shuffle(players)  # the random choice among equal options starts here
        points = {p: Fraction(p) for p in {e.points for e in players}}
        scale = math.lcm(*(p.denominator for p in points.values())) if points else 1
        scaled = {p: int(f * scale) for p, f in points.items()}  # integer points: exact weights
        # Sorted by points (then rank), which is the line the spread lower bound lives on.
        players.sort(key=lambda e: (-scaled[e.points], e.rank))
        self.players = players
        self.n = len(players)
        self.value = [scaled[e.points] for e in players]
        self.scale = scale
        self.index = {e.id: i for i, e in enumerate(players)}
        self.low = min(self.value) if players else 0
        self.odd = self.n % 2 == 1
        self.bye_node = self.n  # the virtual opponent of the bye
        ranks = sorted(e.rank for e in players)
        # Priority 4: the number of players ranked strictly below the bye.
        self.below = [self.n - bisect_right(ranks, e.rank) for e in players]
        self.had_bye = [e.byes > 0 for e in players]
        self.met = [frozenset(self.index[o] for o in e.opponents if o in self.index) for e in players]
        self.colour_cost = [colour_costs(e.colours) for e in players] if inp.colours else None
        # No pairing has less colour trouble than every player (but the bye) getting their better colour.
        self.colour_floor = 0
        if self.colour_cost:
            least = [min(c) for c in self.colour_cost]
            self.colour_floor = sum(least) - (max(least) if self.odd else 0)
        distinct = sorted(set(self.value), reverse=True)
        self.level = {v: k for k, v in enumerate(distinct)}
        self.distinct = distinct
        self.gap_sq = [0]
        for k in range(1, len(distinct)):
            self.gap_sq.append(self.gap_sq[-1] + (distinct[k - 1] - distinct[k]) ** 2)

    # ---- costs of single edges

    def edge_cost(self, i: int, j: int) -> tuple[int, int, int, int, int]:
        """(rematches, second byes, spread, players ranked below the bye, colour trouble) of an edge."""
        if j == self.bye_node:
            return (0, int(self.had_bye[i]), (self.value[i] - self.low) ** 2, self.below[i], 0)
        colour = 0
        if self.colour_cost is not None:
            ci, cj = self.colour_cost[i], self.colour_cost[j]
            colour = min(ci[0] + cj[1], ci[1] + cj[0])
        return (int(j in self.met[i]), 0, (self.value[i] - self.value[j]) ** 2, 0, colour)

    # ---- the lower bound (priorities 2, 3 and 4, ignoring rematches)

    def lower_bound(self) -> tuple[tuple[int, int, int], int | None, int]:
        """((second byes, spread, bye rank), bye recipient, spread ignoring byes received)."""
        v, n = self.value, self.n
        pe = [0] * (n + 1)  # pe[i]: v[0..i) paired as (0,1),(2,3)... for even i
        for i in range(2, n + 1, 2):
            pe[i] = pe[i - 2] + (v[i - 2] - v[i - 1]) ** 2
        so = [0] * (n + 2)  # so[i]: v[i..n) paired as (i,i+1)... for even n-i
        for i in range(n - 2, -1, -1):
            if (n - i) % 2 == 0:
                so[i] = so[i + 2] + (v[i] - v[i + 1]) ** 2
        if not self.odd:
            return (0, pe[n], 0), None, pe[n]
        best, best_x, plain = None, None, None
        for x in range(n):
            s = pe[x] + so[x + 1] if x % 2 == 0 else pe[x - 1] + (v[x - 1] - v[x + 1]) ** 2 + so[x + 2]
            s += (v[x] - self.low) ** 2
            plain = s if plain is None else min(plain, s)
            key = (int(self.had_bye[x]), s, self.below[x])
            if best is None or key < best:
                best, best_x = key, x
        assert best is not None and plain is not None  # an odd field has a player to take the bye
        return best, best_x, plain

    # ---- solving

    def solve(self) -> list[tuple[Entrant, Entrant | None]]:
        if self.n == 0:
            return []
        if self.n <= self.full_graph_max:
            mate = self.match(range(self.n), self.complete_edges(), rematches=True)
            return self.as_pairs(mate)
        bound, bye_x, plain = self.lower_bound()
        mate = self.blocks(bye_x)
        if mate is None or self.cost(mate)[:4] != (0, *bound):
            edges = self.sparse_edges(range(self.n), bye_x, wide=True)
            mate = self.match(range(self.n), edges, rematches=False, colours=False)
        cost = self.cost(mate) if mate is not None else None
        exact_colours = self.n <= COLOUR_EXACT_MAX
        if mate is not None and cost is not None and cost[:4] == (0, *bound):
            if cost[4] == self.colour_floor:
                return self.as_pairs(mate)
            if not exact_colours:
                return self.as_pairs(self.improve_colours(mate))
        if cost is not None and cost[1] == bound[0]:
            # Every matching at least as good as this one uses only edges whose excess fits in the
            # slack above the bound; the optimum over those edges is the optimum.
            slack = cost[2] - plain
            mate2 = self.match(range(self.n), self.edges_within(slack), rematches=False, colours=exact_colours)
            if mate2 is not None:
                return self.as_pairs(mate2 if exact_colours else self.improve_colours(mate2))
        mate = self.match(range(self.n), self.complete_edges(), rematches=True)
        return self.as_pairs(mate)

    def improve_colours(self, mate: dict[int, int]) -> dict[int, int]:
        """Lower the colour trouble of a large field by exchanging players on equal points between
        games, which leaves rematches, byes and floats exactly as they are."""
        if self.colour_cost is None:
            return mate
        mate = dict(mate)
        same_points: dict[int, list[int]] = {}
        for i in range(self.n):
            if mate[i] != self.bye_node:
                same_points.setdefault(self.value[i], []).append(i)
        for _ in range(4):
            improved = False
            for u in range(self.n):
                x = mate[u]
                if x == self.bye_node or self.edge_cost(u, x)[4] == 0:
                    continue
                peers = same_points[self.value[u]]
                for v in self.rng.sample(peers, min(len(peers), 48)):
                    y = mate[v]
                    if v in (u, x) or y == u or y in self.met[u] or x in self.met[v]:
                        continue
                    if (
                        self.edge_cost(v, x)[4] + self.edge_cost(u, y)[4]
                        < self.edge_cost(u, x)[4] + self.edge_cost(v, y)[4]
                    ):
                        mate[u], mate[y], mate[v], mate[x] = y, u, x, v
                        improved = True
                        break
            if not improved:
                break
        return mate

    def blocks(self, bye_x: int | None) -> dict[int, int] | None:
        """Solve contiguous blocks of the sorted field separately. Cuts fall where the bound's
        neighbour pairing does not cross (after an even number of players), preferably between
        score groups or deep inside a large one, so the blocks together can still meet the bound."""
        line = [i for i in range(self.n) if i != bye_x]
        mate: dict[int, int] = {}
        for start, end in self.cuts(line):
            block = line[start:end]
            holds_bye = bye_x is not None and (
                (start == 0 or line[start - 1] < bye_x) and (end == len(line) or bye_x < line[end])
            )
            if holds_bye and bye_x is not None:
                block = sorted([*block, bye_x])
            edges = self.sparse_edges(block, bye_x if holds_bye else None)
            part = self.match(block, edges, rematches=False, colours=False)
            if part is None:
                return None
            mate.update(part)
        return mate

    def cuts(self, line: list[int]) -> list[tuple[int, int]]:
        size, total = self.block_size, len(line)
        values = [self.value[i] for i in line]
        run_start = [0] * total  # where each player's score group begins and ends in the line
        run_end = [total] * total
        for k in range(1, total):
            run_start[k] = k if values[k] != values[k - 1] else run_start[k - 1]
        for k in range(total - 2, -1, -1):
            run_end[k] = k + 1 if values[k] != values[k + 1] else run_end[k + 1]
        spans = []
        start = 0
        while total - start > size + size // 2:
            best = None
            for c in range(start + max(2, size // 2 - size // 2 % 2), start + size + size // 2, 2):
                if values[c - 1] != values[c]:
                    quality = 0
                elif min(c - run_start[c], run_end[c] - c) >= DEEP_INSIDE_GROUP:
                    quality = 1
                else:
                    continue
                candidate = (quality, abs(c - start - size), c)
                best = candidate if best is None else min(best, candidate)
            if best is None:
                break
            spans.append((start, best[2]))
            start = best[2]
        spans.append((start, total))
        return spans

    def complete_edges(self) -> list[tuple[int, int]]:
        edges = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        if self.odd:
            edges.extend((i, self.bye_node) for i in range(self.n))
        return edges

    def edges_within(self, slack: int) -> list[tuple[int, int]]:
        # Players are sorted by points, so each score group is a contiguous run of indices and
        # the excess grows with the distance between groups.
        ends = [0] * len(self.distinct)
        for i, v in enumerate(self.value):
            ends[self.level[v]] = i + 1
        edges: list[tuple[int, int]] = []
        for i in range(self.n):
            a = self.level[self.value[i]]
            b = a
            while b + 1 < len(self.distinct) and self._level_excess(a, b + 1) <= slack:
                b += 1
            met = self.met[i]
            edges.extend((i, j) for j in range(i + 1, ends[b]) if j not in met)
        if self.odd:
            edges.extend((i, self.bye_node) for i in range(self.n))
        return edges

    def _level_excess(self, a: int, b: int) -> int:
        return (self.distinct[a] - self.distinct[b]) ** 2 - (self.gap_sq[b] - self.gap_sq[a])

    def sparse_edges(self, block: Iterable[int], bye_x: int | None, wide: bool = False) -> list[tuple[int, int]]:
        """Random partners from the player's own score group and from each neighbouring one (all of
        a small group), reaching further groups only for players short of partners."""
        block = list(block)
        groups: dict[int, list[int]] = {}
        for i in block:
            groups.setdefault(self.level[self.value[i]], []).append(i)
        levels = sorted(groups)
        position = {lv: k for k, lv in enumerate(levels)}
        own_degree = SPARSE_DEGREE * (2 if wide else 1)
        edges: set[tuple[int, int]] = set()
        rng = self.rng
        for i in block:
            k = position[self.level[self.value[i]]]
            met = self.met[i]
            found = 0
            for distance in range(len(levels)):
                for t in {k - distance, k + distance}:
                    if not 0 <= t < len(levels):
                        continue
                    group = groups[levels[t]]
                    if len(group) <= DENSE_NEIGHBOURHOOD:
                        partners = group
                    else:
                        partners = rng.sample(group, own_degree if distance == 0 else own_degree // 2)
                    for j in partners:
                        if j != i and j not in met:
                            edges.add((i, j) if i < j else (j, i))
                            found += 1
                if distance >= 1 and found >= 3:
                    break
        if bye_x is not None:
            edges.update((i, self.bye_node) for i in block)
        return list(edges)

    def match(
        self, nodes: Iterable[int], edges: list[tuple[int, int]], rematches: bool, colours: bool = True
    ) -> dict[int, int] | None:
        """The cheapest perfect matching of nodes over edges; None when there is none.

        colours=False leaves colour trouble out: the sparse first attempts stay coarse-weighted,
        which blossom solves far faster, and their colour trouble is checked afterwards."""
        nodes = list(nodes)
        if self.odd and self.bye_node not in nodes and any(j == self.bye_node for _, j in edges):
            nodes.append(self.bye_node)
        costs = [self.edge_cost(i, j) for i, j in edges]
        if not colours and self.colour_cost is not None:
            costs = [c[:4] + (0,) for c in costs]
        if not rematches:
            assert all(c[0] == 0 for c in costs)
        half = len(nodes) // 2 + 1
        # Tiers: each unit of a priority outweighs every possible total of the priorities below it.
        w_colour = 1
        w_bye_rank = w_colour * (half * max((c[4] for c in costs), default=0) + 1)
        w_spread = w_bye_rank * (self.n + 1)
        w_second_bye = w_spread * (half * max((c[2] for c in costs), default=0) + 1)
        w_rematch = w_second_bye * 2
        weights = [
            r * w_rematch + b * w_second_bye + s * w_spread + y * w_bye_rank + c * w_colour for r, b, s, y, c in costs
        ]
        top = max(weights, default=0) + 1
        # Node numbers in random order: blossom is far faster without the sorted structure, and
        # this is where the random choice among equal pairings comes from.
        order = list(nodes)
        self.rng.shuffle(order)
        node_of = {v: k for k, v in enumerate(order)}
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(order)
        triples = [(node_of[i], node_of[j], top - w) for (i, j), w in zip(edges, weights, strict=True)]
        self.rng.shuffle(triples)
        graph.add_edges_from(triples)
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        if 2 * len(matching) != len(order):
            return None
        mate = {}
        for u, v in matching:
            mate[order[u]] = order[v]
            mate[order[v]] = order[u]
        return mate

    def cost(self, mate: dict[int, int]) -> tuple[int, int, int, int, int]:
        """The objective of a matching: each term summed over its edges."""
        terms = [self.edge_cost(i, j) for i, j in mate.items() if i < j]
        rematches, byes, points, below, colours = (sum(t[k] for t in terms) for k in range(5))
        return rematches, byes, points, below, colours

    def as_pairs(self, mate: dict[int, int] | None) -> list[tuple[Entrant, Entrant | None]]:
        assert mate is not None and len(mate) == self.n + self.odd
        pairs: list[tuple[Entrant, Entrant | None]] = []
        for i, j in sorted(mate.items()):
            if i < j:
                pairs.append((self.players[i], None if j == self.bye_node else self.players[j]))
        return pairs


def colour_costs(history: str) -> tuple[int, int]:
    """The cost of giving this player (white, black) next."""
    played = [c for c in history.upper() if c in "WB"]
    balance = played.count("W") - played.count("B")
    result = []
    for colour, step in (("W", 1), ("B", -1)):
        cost = 0
        if played[-2:] == [colour, colour] or abs(balance + step) > 2:
            cost += _HARD_COLOUR
        if played and played[-1] == colour:
            cost += _SOFT_COLOUR
        result.append(cost)
    return result[0], result[1]


# ------------------------------------------------------------------ the result


def _orient(x: Entrant, y: Entrant, colours: bool) -> tuple[Entrant, Entrant]:
    """Who is player a: white in a colour event, otherwise the higher-placed player."""
    if colours:
        cx, cy = colour_costs(x.colours), colour_costs(y.colours)
        x_white, y_white = cx[0] + cy[1], cy[0] + cx[1]
        if x_white != y_white:
            return (x, y) if x_white < y_white else (y, x)
    return (x, y) if (-x.points, x.rank) <= (-y.points, y.rank) else (y, x)


def _finish(inp: PairingInput, solved: list[tuple[Entrant, Entrant | None]]) -> Pairing:
    games = [_orient(x, y, inp.colours) for x, y in solved if y is not None]
    byes = [x for x, y in solved if y is None]
    level = {p: k for k, p in enumerate(sorted({e.points for e in inp.entrants}, reverse=True))}
    games.sort(
        key=lambda p: (
            min(level[p[0].points], level[p[1].points]),
            max(level[p[0].points], level[p[1].points]),
            min(p[0].rank, p[1].rank),
        )
    )
    tables = _tables(games)
    seated = [(t, a, b) for (a, b), t in zip(games, tables, strict=True)]
    return _summarise(inp, sorted(seated, key=lambda g: g[0]), byes, _engine_reason)


def _engine_reason(inp: PairingInput, a: Entrant, b: Entrant | None) -> Message:
    """Why the engine had to accept a rematch (b given) or a second bye (b None)."""
    if b is None:
        if all(o.byes for o in inp.entrants):
            return Message("reason_all_had_bye", "every player in this round has already had one")
        return Message("reason_bye_forces_rematch", "giving it to a player without one would force a rematch")
    if inp.method == "rating":
        return Message("reason_round_one_rating", "round one by rating pairs top half against bottom half")
    for x in (a, b):
        if all(o.id in x.opponents for o in inp.entrants if o.id != x.id):
            return Message(
                "reason_played_everyone", "{player} has already played every other player in this round", player=x.label
            )
    return Message(
        "reason_no_rematch_free_pairing",
        "no pairing of these {count} players avoids every rematch",
        count=len(inp.entrants),
    )


def _summarise(inp: PairingInput, seated: list[tuple[int, Entrant, Entrant]], byes: list[Entrant], reason) -> Pairing:
    warnings: list[Message] = []
    rematches = second_byes = 0
    spread = Fraction(0)
    pairs: list[Pair] = []
    floats: list[Pair] = []
    for table, a, b in seated:
        pair_ = Pair(table, a.id, b.id)
        pairs.append(pair_)
        spread += (a.points - b.points) ** 2
        if a.points != b.points:
            floats.append(pair_)
        if b.id in a.opponents:
            rematches += 1
            warnings.append(
                Message(
                    "rematch",
                    "Rematch at table {table}: {a} and {b} have already played ({reason}).",
                    table=table,
                    a=a.label,
                    b=b.label,
                    reason=reason(inp, a, b),
                )
            )
    for e in byes:
        if e.byes:
            second_byes += 1
            warnings.append(
                Message(
                    "second_bye",
                    "{player} gets a bye again, having had {byes} ({reason}).",
                    player=e.label,
                    byes=e.byes,
                    reason=reason(inp, e, None),
                )
            )
    awarded = tuple(e.id for e in inp.awarded_byes)
    return Pairing(
        round=inp.round,
        seed=inp.seed,
        pairs=tuple(pairs),
        byes=tuple(e.id for e in byes) + awarded,
        awarded_byes=awarded,
        warnings=tuple(warnings),
        floats=tuple(floats),
        rematches=rematches,
        second_byes=second_byes,
        spread=spread,
        method=inp.method,
    )


# ------------------------------------------------------------------ swaps by hand


def swap(inp: PairingInput, pairing: Pairing, x: str, y: str) -> Pairing:
    """The pairing with players x and y exchanging seats (either may hold the computed bye).

    Its warnings name every rematch and second bye in the result; validate_swap lists the ones the
    swap itself creates.
    """
    by_id = {e.id: e for e in inp.entrants}
    for pid in (x, y):
        if pid in pairing.awarded_byes:
            raise PairingError(
                Message(
                    "swap_awarded_bye", "{player} holds a pre-awarded bye this round; it cannot be swapped", player=pid
                )
            )
        if pid not in by_id:
            raise PairingError(
                Message("swap_not_paired", "{player} is not paired in round {round}", player=pid, round=pairing.round)
            )
    if x == y:
        raise PairingError(Message("swap_same_player", "choose two different players to swap"))

    def other(pid: str) -> str:
        return y if pid == x else x if pid == y else pid

    seated = [(p.table, by_id[other(p.a)], by_id[other(p.b)]) for p in pairing.pairs]
    byes = [by_id[other(pid)] for pid in pairing.byes if pid not in pairing.awarded_byes]
    touched = {x, y}

    def reason(inp_: PairingInput, a: Entrant, b: Entrant | None) -> Message:
        if a.id in touched or (b is not None and b.id in touched):
            return Message("reason_swapped_by_hand", "swapped by hand")
        return _engine_reason(inp_, a, b)

    return _summarise(inp, seated, byes, reason)


def validate_swap(inp: PairingInput, pairing: Pairing, x: str, y: str) -> tuple[Message, ...]:
    """The rematches and second byes that swapping x and y would create (empty: a clean swap)."""
    after = swap(inp, pairing, x, y)
    by_id = {e.id: e for e in inp.entrants}
    problems = [
        Message(
            "swap_rematch",
            "{a} and {b} have already played (table {table})",
            a=by_id[p.a].label,
            b=by_id[p.b].label,
            table=p.table,
        )
        for p in after.pairs
        if {p.a, p.b} & {x, y} and p.b in by_id[p.a].opponents
    ]
    problems += [
        Message(
            "swap_second_bye",
            "{player} would get a bye again, having had {byes}",
            player=by_id[b].label,
            byes=by_id[b].byes,
        )
        for b in after.byes
        if b in (x, y) and by_id[b].byes
    ]
    return tuple(problems)


def _tables(games: list[tuple[Entrant, Entrant]]) -> list[int]:
    """Table numbers from the top pairing down; fixed tables are honoured first."""
    tables: list[int | None] = [None] * len(games)
    taken: set[int] = set()
    for k, (a, b) in enumerate(games):
        wanted = [t for t in (a.fixed_table, b.fixed_table) if t is not None and t not in taken]
        if wanted:
            tables[k] = min(wanted)
            taken.add(min(wanted))
    free = (t for t in range(1, len(games) + len(taken) + 1) if t not in taken)
    return [t if t is not None else next(free) for t in tables]
