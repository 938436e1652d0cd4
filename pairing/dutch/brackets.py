"""The state of a Dutch round's pairing, shared by the stages that pair it: the weighted graph of the players
to pair (Brackets), and the bracket being paired (Bracket, with its pairs' weights by the criteria in
BaseWeights).

An edge's weight is a long integer whose fields, most significant first, encode the criteria in the rules'
order (completion and the bye [C.4, C.5], the pairs and the scores of the current bracket [C.6, C.7], of the
next one [C.8], the bye assignee's unplayed games [C.9], colours [C.10-C.13], floats [C.14-C.21]), with room
below for the Dutch order of transpositions and exchanges: base() builds them, field by field.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSet, Sequence
from dataclasses import dataclass, field
from itertools import compress as select
from itertools import repeat

from pairing.dutch.colours import colour_bits
from pairing.dutch.players import DOWN, UP, Player, Round


@dataclass(eq=False)
class Brackets:
    """The weighted graph of a round's players, by vertex (vertex i is order[i]), and where its pairing stands:
    the current bracket's view of the graph, the pairs decided, the last matching, and what the stages keep
    from one matching to the next. start.py sets the bye's score and the weights' widths; system.py pairs
    the brackets from the top, remainder.py the remainder of each; tiers.py matches (match())."""

    round: Round
    order: list[Player]  # by score, then rank
    n: int = field(init=False)
    # Score groups, lowest first: each gets a bit field wide enough for its size (C.7 weighs the scores).
    shift: dict[int, int] = field(init=False)
    groups_bits: int = field(init=False)
    size_bits: int = field(init=False)
    # What compatible() asks, by vertex: the opponents met, and the colour an absolute preference names.
    met: list[set[int]] = field(init=False)
    absolute: list[str] = field(init=False)
    colour_key: list[tuple] = field(init=False)  # the facts of the colour state the colour fields depend on
    # The graph: (i, j), i < j, but for the current bracket: its pairs by position (view[h][lo - h - 1], h < lo),
    # pos the positions of its players.
    weights: dict[tuple[int, int], int] = field(default_factory=dict)
    view: list[list[int]] = field(default_factory=list)
    pos: dict[int, int] = field(default_factory=dict)
    fixed: dict[int, int] = field(default_factory=dict)  # pairs decided, both ways
    matched: list[bool] = field(init=False)  # paired in its bracket (its opponent perhaps still open)
    mates: dict[int, int] = field(default_factory=dict)  # the last matching, the fixed pairs included
    # Set by the first matching (start.py).
    bye_score: int = 0
    single_bye: bool = False  # C.9 applies: the bye assignee comes from the one remaining bracket
    unplayed_rank: dict[int, int] = field(default_factory=dict)
    tail_bits: int = 0  # the colour and float fields and the room for the Dutch order, in base()
    one: int = 0  # one pair: the top field of every weight
    potential: list[int] = field(default_factory=list)  # each end's part of an untouched edge's weight
    small_unit: int = 0
    small_potential: list[int] = field(default_factory=list)  # the same in machine integers
    # While a bracket is paired.
    local: list[int] = field(default_factory=list)  # the bracket and the next score group
    local_set: set[int] = field(default_factory=set)
    group_set: set[int] = field(default_factory=set)  # the next score group
    uniform: bool = False  # every pair of the current bracket allowed and weighing alike
    chunk_room: int = 128  # bits for S1's order in one matching: what the last chunks fitted in
    # tiers.py's: what the players below the bracket can absorb (the same for a whole bracket), and the last
    # completion of the real players, and the pairs among the next group and below it tries.
    below_key: tuple[int, int] | None = None
    reach: dict[int, bool] = field(default_factory=dict)
    below_set: set[int] = field(default_factory=set)
    below_list: list[int] = field(default_factory=list)
    below_near: list[tuple[int, int]] | None = None  # tiers.py's _near_below()
    tier_memo: dict = field(default_factory=dict)
    tier_near: dict = field(default_factory=dict)
    tails: dict[tuple, int] = field(default_factory=dict)  # _tail_of()'s, by the facts they depend on
    kinds: dict[tuple, int] = field(default_factory=dict)  # _kind()'s
    kind_tails: list[dict[int, int]] = field(default_factory=list)  # _tail() by the two players' kinds
    near_after: dict[int, list[int]] = field(default_factory=dict)  # near_after_all()'s
    share_memo: dict[tuple, tuple[int, int]] = field(default_factory=dict)  # _shares()'s, by what they depend on
    colour_memo: dict[tuple, int] = field(default_factory=dict)  # _tail()'s colour fields, by the colour states
    float_memo: dict[tuple, int] = field(default_factory=dict)  # _tail()'s float fields, by floats and scores

    def __post_init__(self) -> None:
        order = self.order
        self.n = len(order)
        self.shift = {}
        width, biggest = 0, 0
        sizes: dict[int, int] = {}
        for x in order:
            sizes[x.score] = sizes.get(x.score, 0) + 1
        for s in sorted(sizes):
            self.shift[s] = width
            width += sizes[s].bit_length()
            biggest = max(biggest, sizes[s])
        self.groups_bits = width
        self.size_bits = biggest.bit_length()
        index = {x.id: i for i, x in enumerate(order)}
        self.met = [{index[o] for o in self.round.met[x.id] if o in index} for x in order]
        self.absolute = [x.pref if x.absolute else "" for x in order]
        self.colour_key = [(x.pref, x.imbalance, x.absolute, x.strong, x.repeated) for x in order]
        self.matched = [False] * self.n

    # The edge weight, field by field

    def base(self, h: int, lo: int, current: bool) -> int:
        """The pair's weight (h above lo): in the current bracket, or lo in the next score group."""
        if not self.compatible(h, lo):
            return 0
        w = (self._shares(h, current)[0] + self._shares(lo, current)[1]) << self.tail_bits
        return w | self._tail_of(h, lo) if current else w

    def _shares(self, v: int, current: bool) -> tuple[int, int]:
        """A player's part of a pair's own fields, as its higher player and as its lower: the pair and who
        may not have the bye [C.4, C.5], the pair in the current bracket and its score [C.6, C.7], or in
        the next one [C.8], the bye assignee's unplayed games [C.9]. Kept by the facts they depend on, which
        many players share."""
        x = self.order[v]
        key = (x.score, x.bye_eligible, x.played, current, self.single_bye)
        shares = self.share_memo.get(key)
        if shares is None:
            shares = self.share_memo[key] = self._shares_of(x, current)
        return shares

    def _shares_of(self, x: Player, current: bool) -> tuple[int, int]:
        sb, gb = self.size_bits, self.groups_bits
        nc = not self.bye_candidate(x)
        rank = self.unplayed_rank[x.played] if self.single_bye and x.score == self.bye_score else 0
        score = 1 << self.shift[x.score]
        w = ((1 + nc) << sb) | current
        w = (w << gb) | (score if current else 0)
        w = (w << sb) | (not current)
        w = (w << gb) | (0 if current else score)
        return (w << 2 * sb) + rank, (nc << (4 * sb + 2 * gb)) + rank

    def _tail_of(self, h: int, lo: int) -> int:
        """The colour and float fields, which depend on a few facts of each player shared by many: worked
        out once for each combination."""
        x, y = self.order[h], self.order[lo]
        key = (self.colour_key[h], self.colour_key[lo], x.floats, y.floats, x.score, y.score)
        tail = self.tails.get(key)
        if tail is None:
            tail = self.tails[key] = self._tail(x, y)
        return tail

    def enter_bracket(self, bracket: list[int], moved: int, end: int) -> BaseWeights:
        """A bracket (bracket[:end], its first `moved` players moved down) is paired next: base() of every pair
        of it with a resident as its lower player, by position (the column of each higher player h:
        base[h][lo - h - 1]; 0 for two moved-down players), each player's shares worked out once. The graph
        takes them as the bracket's view; the pairs of moved-down players keep the weights they had."""
        shares = [self._shares(v, True) for v in bracket[:end]]
        tail_bits, met, absolute, order = self.tail_bits, self.met, self.absolute, self.order
        highs = [high << tail_bits for high, _ in shares]
        lows = [low << tail_bits for _, low in shares]
        # Each player's kind: the facts _tail() depends on; the tails of a bracket's pairs by the two kinds.
        kinds = [self._kind(v) for v in bracket[:end]]
        columns, view = [], []
        first, uniform = None, not moved  # uniform: every pair of the bracket allowed and weighing alike
        # The residents' shares as lower players are alike as a rule (they differ in the bye's bracket): then a
        # pair's weight is one of a few by the higher player's share and the two kinds, looked up at C speed.
        alike = len(set(lows[moved:end])) == 1
        by_kind: dict[tuple[int, int], list[int]] = {}
        place = {v: k for k, v in enumerate(bracket[:end])}
        with_colour: dict[str, list[int]] = {}  # the residents with an absolute colour preference, by colour
        for k in range(moved, end):
            if absolute[bracket[k]]:
                with_colour.setdefault(absolute[bracket[k]], []).append(k)
        one_of = {kind: bracket[k] for k, kind in enumerate(kinds) if k >= moved}  # a player of each kind
        for h in range(end):
            vh, high, after = bracket[h], highs[h], max(h + 1, moved)
            kept = [self.weight(vh, vl) for vl in bracket[h + 1 : after]]
            met_h, colour_h, tails = met[vh], absolute[vh], self.kind_tails[kinds[h]]
            if alike:
                value = by_kind.get((high, kinds[h]))
                if value is None:
                    value = [0] * len(self.kinds)
                    for kind, vl in one_of.items():
                        tail = tails.get(kind)
                        if tail is None:
                            tail = tails[kind] = self._tail(order[vh], order[vl])
                        value[kind] = high + lows[moved] | tail
                    by_kind[(high, kinds[h])] = value
                column = list(map(value.__getitem__, kinds[after:end]))
                for vl in met_h:  # not compatible()
                    k = place.get(vl, -1)
                    if k >= after:
                        column[k - after] = 0
                for k in with_colour.get(colour_h, ()) if colour_h else ():
                    if k >= after and not self.round.compatible(order[vh], order[bracket[k]]):
                        column[k - after] = 0
            else:
                column = []
                for vl, low, kind in zip(bracket[after:end], lows[after:end], kinds[after:end], strict=True):
                    if vl in met_h or (
                        colour_h and colour_h == absolute[vl] and not self.round.compatible(order[vh], order[vl])
                    ):
                        column.append(0)  # not compatible()
                        continue
                    tail = tails.get(kind)
                    if tail is None:
                        tail = tails[kind] = self._tail(order[vh], order[vl])
                    column.append(high + low | tail)
            if uniform and column:
                first = column[0] if first is None else first
                uniform = first != 0 and column.count(first) == len(column)
            columns.append([0] * len(kept) + column)
            view.append(kept + column)
        self.view, self.pos = view, {v: k for k, v in enumerate(bracket[:end])}
        self.uniform = uniform
        return BaseWeights(columns, end)

    def _kind(self, v: int) -> int:
        """A number for the facts of v that _tail() depends on (its colour state, floats and score), the same for
        every player who shares them."""
        x = self.order[v]
        key = (self.colour_key[v], x.floats, x.score)
        kind = self.kinds.get(key)
        if kind is None:
            kind = self.kinds[key] = len(self.kinds)
            self.kind_tails.append({})
        return kind

    def leave_bracket(self, rest: list[int]) -> None:
        """The bracket is paired: the pairs of the players it moves down go back into the graph."""
        for a, i in enumerate(rest):
            for j in rest[a + 1 :]:
                self.weights[(i, j)] = self.weight(i, j)
        self.view, self.pos = [], {}

    def _tail(self, x: Player, y: Player) -> int:
        """base()'s fields below the pair's own, for a pair in the current bracket: colours (C.10-C.13),
        floats (C.14-C.21), and the room for the Dutch order of exchanges and transpositions."""
        sb, gb = self.size_bits, self.groups_bits
        # The colour fields depend on the two colour states alone, which fewer pairs of players differ in.
        key = (x.pref, x.imbalance, x.repeated, x.strong, y.pref, y.imbalance, y.repeated, y.strong)
        w = self.colour_memo.get(key)
        if w is None:
            w = 0
            for bit in colour_bits(y, x):
                w = (w << sb) | bit
            self.colour_memo[key] = w
        backs = range(min(self.round.done, 2))
        # The float fields, by the two players' floats and scores.
        at = (x.floats, y.floats, x.score, y.score)
        floats = self.float_memo.get(at)
        if floats is None:
            floats = 0
            for f in backs:
                floats = (floats << sb) | ((y.floats[f] == DOWN) + (x.score <= y.score and x.floats[f] == DOWN))
                floats = (floats << sb) | (not (x.score > y.score and y.floats[f] == UP))
            for f in backs:
                floats <<= gb
                floats += (y.floats[f] == DOWN) << self.shift[y.score]
                floats += (x.floats[f] == DOWN) << self.shift[x.score]
                floats <<= gb
                if not (y.floats[f] == UP and x.score > y.score):
                    floats |= 1 << self.shift[x.score]
            self.float_memo[at] = floats
        return ((w << (len(backs) * 2 * (sb + gb))) | floats) << (3 * sb + 2)

    def bye_candidate(self, x: Player) -> bool:
        return x.bye_eligible and x.score <= self.bye_score

    def exchange_weight(self, base: int, rem_index: int, rem_pairs: int, fine: bool = True) -> int:
        """The base weight plus the exchange order: fewest exchanges, then the smallest BSN differences
        (without them when not fine)."""
        if not base:
            return 0
        sb = self.size_bits
        # Counted up from one, never below zero: a borrow would reach into the criteria's bits and spoil
        # their compression (pairing/matching.py). The same amount on every pair of the remainder, whose
        # number the criteria fix, changes no choice.
        return base + ((((rem_index < rem_pairs) + 1 << (2 * sb)) - (rem_index if fine else 0)) << 1)

    # The graph. An edge no bracket has touched keeps its first weight, which is a sum over its two ends
    # (one pair, plus each end's `potential`: a non-candidate for the bye, its unplayed-games rank);
    # such edges are not stored.

    def set(self, i: int, j: int, w: int) -> None:
        a = self.pos.get(i)
        if a is not None:
            b = self.pos.get(j)
            if b is not None:
                if a < b:
                    self.view[a][b - a - 1] = w
                else:
                    self.view[b][a - b - 1] = w
                return
        self.weights[(i, j) if i < j else (j, i)] = w

    def weight(self, i: int, j: int) -> int:
        a = self.pos.get(i)
        if a is not None:
            b = self.pos.get(j)
            if b is not None:
                return self.view[a][b - a - 1] if a < b else self.view[b][a - b - 1]
        key = (i, j) if i < j else (j, i)
        w = self.weights.get(key)
        if w is not None:
            return w
        if (i in self.group_set or j in self.group_set) and i in self.local_set and j in self.local_set:
            w = self.weights[key] = self.base(key[0], key[1], False)  # with the next score group
            return w
        return self.one + self.potential[i] + self.potential[j] if self.compatible(i, j) else 0

    def weight_sum(self, pairs: Iterable[tuple[int, int]]) -> int:
        """The sum of weight() over pairs, most of them pairs no bracket has touched (the players below one): as
        weight() gives each, in one loop."""
        pos, weights, potential, one, met, absolute = (
            self.pos,
            self.weights,
            self.potential,
            self.one,
            self.met,
            self.absolute,
        )
        total = 0
        for i, j in pairs:
            if i in pos and j in pos:
                total += self.weight(i, j)
                continue
            w = weights.get((i, j) if i < j else (j, i))
            if w is not None:
                total += w
            elif i in self.group_set or j in self.group_set:
                total += self.weight(i, j)
            elif j not in met[i] and (not absolute[i] or absolute[i] != absolute[j] or self.compatible(i, j)):
                total += one + potential[i] + potential[j]
        return total

    def compatible(self, i: int, j: int) -> bool:
        if j in self.met[i]:
            return False
        c = self.absolute[i]
        return not c or c != self.absolute[j] or self.round.compatible(self.order[i], self.order[j])

    def get_mate(self, i: int) -> int:
        return self.mates.get(i, i)

    def settle(self, i: int, j: int) -> None:
        """i and j play each other: paired in their bracket, and out of every matching from now on."""
        self.matched[i] = self.matched[j] = True
        self.fixed[i], self.fixed[j] = j, i
        self.mates[i], self.mates[j] = j, i

    def edges_inside(
        self, players: list[int], bonus: dict, room: int, numbered: bool = False, rows: dict[int, int] | None = None
    ) -> list[tuple[int, int, int]]:
        """The edges among players of the current bracket (in the order): weight() shifted by room, plus
        bonus (by (i, j), i < j) or rows (by i, to each of its edges); those that weigh nothing left out.
        numbered: each end by its index in players."""
        rows = rows or {}
        at = [self.pos[v] for v in players]
        extra: dict[int, dict[int, int]] = {}
        for (i, j), b in bonus.items():
            extra.setdefault(i, {})[j] = b
        edges: list[tuple[int, int, int]] = []
        for a, i in enumerate(players):
            pa, later = at[a] + 1, players[a + 1 :]
            ends, me = (range(a + 1, len(players)), a) if numbered else (later, i)
            weights = map(self.view[at[a]].__getitem__, [pb - pa for pb in at[a + 1 :]])
            more, row = extra.get(i), rows.get(i)
            if row is not None:
                edges.extend((me, e, (w << room) + row) for e, w in zip(ends, weights, strict=True) if w > 0)
            elif more is not None:
                edges.extend(
                    (me, e, (w << room) + more.get(j, 0)) for e, j, w in zip(ends, later, weights, strict=True) if w > 0
                )
            elif room:
                edges.extend((me, e, w << room) for e, w in zip(ends, weights, strict=True) if w > 0)
            else:
                edges.extend((me, e, w) for e, w in zip(ends, weights, strict=True) if w > 0)
        return edges

    def edge_columns(
        self, players: list[int], room: int = 0, rows: dict[int, int] | None = None
    ) -> tuple[list[int], list[int], list[int]]:
        """edges_inside(players, {}, room, numbered=True, rows=rows) by column: the first ends, the second ends
        and the weights. A player's pairs with the later players, when they sit right after it in the bracket
        (as a rule), are a slice of its row of the view, read at C speed."""
        rows = rows or {}
        at = [self.pos[v] for v in players]
        count = len(players)
        firsts: list[int] = []
        seconds: list[int] = []
        weights: list[int] = []
        for a in range(count - 1):
            pa, later, view = at[a], count - a - 1, self.view[at[a]]
            row = view[:later] if at[-1] - pa == later else [view[pb - pa - 1] for pb in at[a + 1 :]]
            chosen = list(select(range(a + 1, count), row))  # the pairs that weigh something (never less than 0)
            if not chosen:
                continue
            firsts.extend(repeat(a, len(chosen)))
            seconds.extend(chosen)
            add = rows.get(players[a])
            if add is not None:
                weights.extend([(w << room) + add for w in row if w])
            elif room:
                weights.extend([w << room for w in row if w])
            else:
                weights.extend(filter(None, row))
        return firsts, seconds, weights

    def take(self, pairs: Iterable[tuple[int, int]]) -> None:
        """A matching's pairs, with the fixed ones, become the mates."""
        mates = dict(self.fixed)
        for i, j in pairs:
            mates[i], mates[j] = j, i
        self.mates = mates

    def in_turn(self, order: Sequence[int], taken: MutableSet[int]) -> list[tuple[int, int]]:
        """Each player of order not in taken, in turn, with the first player after it not in taken that it may
        meet (whether they may meet, not what their pair weighs); taken gains them."""
        compatible = self.compatible
        pairs = []
        for t, a in enumerate(order):
            if a in taken:
                continue
            for u in range(t + 1, len(order)):
                b = order[u]
                if b not in taken and compatible(a, b):
                    taken.add(a)
                    taken.add(b)
                    pairs.append((a, b))
                    break
        return pairs

    def near_after_all(self) -> dict[int, list[int]]:
        """near() of every player among all after it (12 of them), worked out when first asked for."""
        if len(self.near_after) != self.n:
            everyone = range(self.n)
            self.near_after = {i: self.near(everyone, i, 12) for i in everyone}
        return self.near_after

    def near(self, below: Sequence[int], k: int, count: int = 8) -> list[int]:
        """The next few players after below[k] in the order it can be paired with."""
        a = below[k]
        met, colour, absolute = self.met[a], self.absolute[a], self.absolute
        near = []
        for b in below[k + 1 :]:  # compatible(a, b), inline: asked for every player
            if b in met or (
                colour and colour == absolute[b] and not self.round.compatible(self.order[a], self.order[b])
            ):
                continue
            near.append(b)
            if len(near) == count:
                break
        return near


class BaseWeights:
    """The criteria's weight of each pair of a bracket (Brackets.base(), as the stages change it), by position:
    the column of the higher player h holds its pairs with each later player lo."""

    __slots__ = ("columns", "end")

    def __init__(self, columns: list[list[int]], end: int):
        self.columns, self.end = columns, end

    def get(self, lo: int, h: int) -> int:
        """The pair of positions lo (lower) and h; 0 for a pair with the next score group."""
        return self.columns[h][lo - h - 1] if h < lo < self.end else 0

    def clear(self, lo: int, h: int) -> None:
        if h < lo < self.end:
            self.columns[h][lo - h - 1] = 0


@dataclass(eq=False)
class Bracket:
    """The bracket being paired, by position: vertices holds its moved-down players (the first `moved`), its
    residents (up to `end`: the score group's vertices `residents`), then the next score group."""

    vertices: list[int]
    moved: int
    end: int
    residents: range
    base: BaseWeights
