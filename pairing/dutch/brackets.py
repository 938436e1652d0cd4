"""The FIDE (Dutch) system (Handbook C.04.3, the 2025 text, with C.04.1 and C.04.2) as a pairing system.

Pure Python, exact: for a history it gives the pairs, colours and bye a FIDE-endorsed Dutch engine gives
(bbpPairings is the reference the test corpus was recorded with).

How: the Dutch rules are a lexicographic order of criteria, so they are an order of maximum-weight
matchings. One graph holds every player to pair; an edge's weight is a long integer whose fields,
most significant first, encode the criteria in the rules' order (completion and the bye [C.4, C.5], the
pairs and the scores of the current bracket [C.6, C.7], of the next one [C.8], the bye assignee's
unplayed games [C.9], colours [C.10-C.13], floats [C.14-C.21]), with room below for the Dutch order of
transpositions and exchanges. Brackets are paired from the top: each one is decided by a short series of
matchings that fix, in the rules' order, which moved-down players are paired, their opponents, how many
and which players are exchanged between S1 and S2; a fixed pair leaves the graph. Then S1's opponents
(the transpositions) are chosen by prices on S1 against S2 (pairing/dutch/assign.py; with the floater,
when one S2 player floats down, pairing/dutch/floater.py).

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

from collections.abc import Iterable
from fractions import Fraction

from pairing.dutch.assign import first_transposition
from pairing.dutch.colours import WHITE, colour_bits
from pairing.dutch.floater import one_floater
from pairing.dutch.players import DOWN, UP, DutchInput, Player, Round
from pairing.dutch.start import start
from pairing.dutch.tiers import match_bounded, match_tiered
from pairing.matching import max_weight_matching
from pairing.types import Pair, Pairing, PairingError
from standings.messages import Message


def pair_dutch(inp: DutchInput) -> Pairing:
    """The Dutch pairing of the round; PairingError when no pairing meets the absolute criteria."""
    rnd = Round(inp)
    present = [rnd.players[pid] for pid in inp.present if pid in rnd.players]
    if len(present) < 2:
        raise PairingError(
            Message(
                "too_few_players",
                "at least two players are needed to pair a round; register or re-activate players",
            )
        )
    order = sorted(present, key=lambda x: (-x.score, x.rank))
    mates = _Brackets(rnd, order).solve()
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
    points = {x.id: rnd.score(x, 0) - x.accelerations[rnd.done] for x in present}

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
        spread=sum(((points[g.a] - points[g.b]) ** 2 for g in games), Fraction(0)),
        method="dutch",
    )


class _Brackets:
    """The weighted graph and the bracket-by-bracket series of matchings over it."""

    def __init__(self, rnd: Round, order: list[Player]):
        self.r = rnd
        self.p = order  # vertex i is order[i]
        n = len(order)
        # Score groups, lowest first: each gets a bit field wide enough for its size (C.7 weighs the scores).
        self.shift: dict[int, int] = {}
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
        self.weights: dict[tuple[int, int], int] = {}  # the graph: (i, j), i < j, but for the current bracket:
        # its pairs by position (view[h][lo - h - 1], h < lo), pos the positions of its players
        self.view: list[list[int]] = []
        self.pos: dict[int, int] = {}
        # What compatible() asks, by vertex: the opponents met, and the colour an absolute preference names.
        index = {x.id: i for i, x in enumerate(order)}
        self.met = [{index[o] for o in rnd.met[x.id] if o in index} for x in order]
        self.absolute = [x.pref if x.absolute else "" for x in order]
        self.fixed: dict[int, int] = {}  # pairs decided, both ways
        self.mates: dict[int, int] = {}
        self.bye_score = 0
        self.single_bye = False  # C.9 applies: the bye assignee comes from the one remaining bracket
        self.unplayed_rank: dict[int, int] = {}
        self.n = n
        self.one = 0
        self.potential: list[int] = []
        self.small_unit = 0
        self.small_potential: list[int] = []
        self.local: list[int] = []  # the bracket and the next score group, while a bracket is paired
        self.local_set: set[int] = set()
        self._below_key: tuple[int, int] | None = None
        self._reach: dict[int, bool] = {}
        self._below_set: set[int] = set()
        self.group_set: set[int] = set()  # the next score group, while a bracket is paired
        self.tier_memo: dict = {}  # pairing/dutch/tiers.py's last completion of the real players
        self.tier_near: dict = {}  # and the pairs among the next group and below it tries, for the bracket
        self._below_near: list[tuple[int, int]] = []
        self.chunk_room = 128  # bits for S1's order in one matching: what the last chunks fitted in
        self.tail_bits = 0
        self.uniform = False  # every pair of the current bracket allowed and weighing alike
        self._tails: dict[tuple, int] = {}
        self.colour_key = [(x.pref, x.imbalance, x.absolute, x.strong, x.repeated) for x in order]

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
        the next one [C.8], the bye assignee's unplayed games [C.9]."""
        x = self.p[v]
        sb, gb = self.size_bits, self.groups_bits
        nc = not self._bye_candidate(x)
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
        x, y = self.p[h], self.p[lo]
        key = (self.colour_key[h], self.colour_key[lo], x.floats, y.floats, x.score, y.score)
        tail = self._tails.get(key)
        if tail is None:
            tail = self._tails[key] = self._tail(x, y)
        return tail

    def _current_weights(self, bracket: list[int], moved: int, end: int) -> list[list[int]]:
        """base() of every pair of the bracket with a resident as its lower player, by position (the column
        of each higher player h: base[h][lo - h - 1]; 0 for two moved-down players), each player's shares
        worked out once. The graph takes them as the bracket's view; the pairs of moved-down players keep
        the weights they had."""
        shares = [self._shares(v, True) for v in bracket[:end]]
        compatible, tail_of, tail_bits = self.compatible, self._tail_of, self.tail_bits
        columns, view = [], []
        first, uniform = None, not moved  # uniform: every pair of the bracket allowed and weighing alike
        for h in range(end):
            vh, high, after = bracket[h], shares[h][0], max(h + 1, moved)
            kept = [self.weight(vh, vl) for vl in bracket[h + 1 : after]]
            column = [
                ((high + share[1]) << tail_bits) | tail_of(vh, vl) if compatible(vh, vl) else 0
                for vl, share in zip(bracket[after:end], shares[after:end], strict=True)
            ]
            if uniform and column:
                first = column[0] if first is None else first
                uniform = first != 0 and column.count(first) == len(column)
            columns.append([0] * len(kept) + column)
            view.append(kept + column)
        self.view, self.pos = view, {v: k for k, v in enumerate(bracket[:end])}
        self.uniform = uniform
        return columns

    def _leave_bracket(self, rest: list[int]) -> None:
        """The bracket is paired: the pairs of the players it moves down go back into the graph."""
        for a, i in enumerate(rest):
            for j in rest[a + 1 :]:
                self.weights[(i, j)] = self.weight(i, j)
        self.view, self.pos = [], {}

    def _tail(self, x: Player, y: Player) -> int:
        """base()'s fields below the pair's own, for a pair in the current bracket: colours (C.10-C.13),
        floats (C.14-C.21), and the room for the Dutch order of exchanges and transpositions."""
        sb, gb = self.size_bits, self.groups_bits
        w = 0
        for bit in colour_bits(y, x):
            w = (w << sb) | bit
        backs = range(min(self.r.done, 2))
        for f in backs:
            w = (w << sb) | ((y.floats[f] == DOWN) + (x.score <= y.score and x.floats[f] == DOWN))
            w = (w << sb) | (not (x.score > y.score and y.floats[f] == UP))
        for f in backs:
            w <<= gb
            w += (y.floats[f] == DOWN) << self.shift[y.score]
            w += (x.floats[f] == DOWN) << self.shift[x.score]
            w <<= gb
            if not (y.floats[f] == UP and x.score > y.score):
                w |= 1 << self.shift[x.score]
        return w << (3 * sb + 2)

    def _bye_candidate(self, x: Player) -> bool:
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

    def compatible(self, i: int, j: int) -> bool:
        if j in self.met[i]:
            return False
        c = self.absolute[i]
        return not c or c != self.absolute[j] or self.r.compatible(self.p[i], self.p[j])

    def get_mate(self, i: int) -> int:
        return self.mates.get(i, i)

    def solve(self) -> dict[int, int]:
        start(self)
        return self._brackets()

    def fix(self, i: int, j: int) -> None:
        self.fixed[i], self.fixed[j] = j, i
        self.mates[i], self.mates[j] = j, i

    def match(self, bonus: dict[tuple[int, int], int] | None = None, room: int = 0, wide: bool = True) -> bool:
        """A maximum-weight matching of the players not yet paired; bonus adds below the weights (room bits).

        Only the bracket carries its criteria pair by pair; the next score group's players weigh alike but
        for their potentials and who may meet whom, and the players below them only have to be paired among
        themselves and with whoever floats down. So the matching is first solved with both replaced by
        interchangeable copies (pairing/dutch/tiers.py), then with the next group in full and stand-ins
        below, each accepted only when the real players complete it at its bound; otherwise on the whole
        graph. False, with nothing matched, when the weights are too wide for rustworkx and wide is False.
        """
        bonus = bonus or {}
        local = [v for v in self.local if v not in self.fixed]
        below = [v for v in range(self.n) if v not in self.fixed and v not in self.local_set]
        if below:
            self._below_cache(below)
        group = [v for v in local if v in self.group_set]
        if group:
            inner = [v for v in local if v not in self.group_set]
            done = match_tiered(self, inner, group, below, bonus, room, wide)
            if done is not False:
                return bool(done)
        if len(below) > 1:
            done = match_bounded(self, local, below, bonus, room, wide)
            if done is not False:
                return bool(done)
        alive = [v for v in range(self.n) if v not in self.fixed]
        inside = [v for v in alive if v in self.pos]
        outside = [v for v in alive if v not in self.pos]
        edges = self.edges_inside(inside, bonus, room)
        for a, i in enumerate(outside):
            for j in inside + outside[a + 1 :]:
                w = self.weight(i, j)
                if w > 0:
                    edges.append((i, j, (w << room) + bonus.get((i, j) if i < j else (j, i), 0)))
        pairs = max_weight_matching(edges, wide)
        if pairs is None:
            return False
        self._take(pairs)
        return True

    def edges_inside(self, players: list[int], bonus: dict, room: int) -> list[tuple[int, int, int]]:
        """The edges among players of the current bracket (in the order): weight() shifted by room, plus
        bonus (by (i, j), i < j); those that weigh nothing left out."""
        at = [self.pos[v] for v in players]
        extra: dict[int, dict[int, int]] = {}
        for (i, j), b in bonus.items():
            extra.setdefault(i, {})[j] = b
        edges = []
        for a, i in enumerate(players):
            pa, later = at[a] + 1, players[a + 1 :]
            weights = map(self.view[at[a]].__getitem__, [pb - pa for pb in at[a + 1 :]])
            more = extra.get(i)
            if more is not None:
                edges.extend((i, j, (w << room) + more.get(j, 0)) for j, w in zip(later, weights, strict=True) if w > 0)
            elif room:
                edges.extend((i, j, w << room) for j, w in zip(later, weights, strict=True) if w > 0)
            else:
                edges.extend((i, j, w) for j, w in zip(later, weights, strict=True) if w > 0)
        return edges

    def _take(self, pairs: Iterable[tuple[int, int]]) -> None:
        mates = dict(self.fixed)
        for i, j in pairs:
            mates[i], mates[j] = j, i
        self.mates = mates

    def _below_cache(self, below: list[int]) -> None:
        if self._below_key != (len(below), below[0]):
            # The players below are the same for a whole bracket: what they can absorb is worked out once.
            self._below_key = (len(below), below[0])
            self._reach = {x: any(self.compatible(x, r) for r in below) for x in self.local}
            self._below_near = [(a, b) for k, a in enumerate(below) for b in self._near(below, k)]
            self._below_set = set(below)

    def _near(self, below: list[int], k: int, count: int = 8) -> list[int]:
        """The next few players after below[k] in the order it can be paired with."""
        near = []
        for b in below[k + 1 :]:
            if self.compatible(below[k], b):
                near.append(b)
                if len(near) == count:
                    break
        return near

    def _brackets(self) -> dict[int, int]:
        p, n = self.p, self.n
        pairs: dict[int, int] = {}
        nxt = 0  # the next score group's first vertex
        bracket: list[int] = []  # the bracket's vertices: moved-down players, residents, then the next group
        while nxt < n and p[nxt].score >= p[0].score:
            bracket.append(nxt)
            nxt += 1
        moved = 0  # moved-down players at the head of the bracket
        group_start = 0  # the first vertex of the current score group
        matched = [False] * n
        while len(bracket) > 1 or nxt < n:
            end = len(bracket)  # the current bracket is bracket[:end]
            group_end = group_start + (end - moved)  # residents are vertices group_start..group_end-1
            following = nxt
            while nxt < n and p[nxt].score >= p[following].score:
                bracket.append(nxt)
                nxt += 1
            self.local, self.local_set = list(bracket), set(bracket)
            self.group_set = set(bracket[end:])

            # The bracket's pairs now; those with the next group when first asked for (weight()).
            base = _Base(self._current_weights(bracket, moved, end), end)

            if moved == 1:
                self._one_moved_down(bracket, end, base, matched, range(group_start, group_end))
            elif moved:  # a homogeneous bracket goes straight to its remainder
                self.match()
                self._moved_down(bracket, moved, end, base, matched, range(group_start, group_end))
            # The opponents of the moved-down players: the highest resident possible (C.04.3 B.3).
            for k in range(moved if moved > 1 else 0):
                v = bracket[k]
                if not matched[v]:
                    continue
                add = len(bracket)
                for o in range(end - 1, moved - 1, -1):
                    vo = bracket[o]
                    if matched[vo] or not base.get(o, k):
                        continue
                    self.set(v, vo, base.get(o, k) + add)
                    add += 1
                self.match()
                mate = self.get_mate(v)
                matched[mate] = True
                self.fix(v, mate)
            self._remainder(bracket, moved, end, base, matched, group_start, group_end)
            # The next bracket: whoever is left floats down into the next score group.
            self._leave_bracket([v for v in bracket[:end] if not matched[v]])
            single = self.n % 2 == 1 and following < n and self.bye_score >= p[following].score
            rest = []
            moved = 0
            for k, v in enumerate(bracket):
                if k < end and matched[v]:
                    pairs[v] = self.get_mate(v)
                    pairs[self.get_mate(v)] = v
                    continue
                rest.append(v)
                if k < end:
                    moved += 1
                if single and following < n and p[self.get_mate(v)].score < p[following].score:
                    single = False
            self.single_bye = single
            bracket = rest
            group_start = group_end
        return pairs

    def _one_moved_down(self, bracket, end, base, matched, residents: range) -> None:
        """A lone moved-down player: paired if it can be (the criteria say so in every best matching), with
        the highest resident possible, both in one matching (its order among residents weighs below them)."""
        v = bracket[0]
        add = len(bracket)
        for o in range(end - 1, 0, -1):
            w = base.get(o, 0)
            if w:
                self.set(v, bracket[o], w + add)
                add += 1
        self.match()
        mate = self.get_mate(v)
        if mate in residents:
            matched[v] = matched[mate] = True
            self.fix(v, mate)
            return
        for o in range(1, end):  # it floats on: its pairs weigh as before
            self.set(v, bracket[o], base.get(o, 0))

    def _moved_down(self, bracket, moved, end, base, matched, residents: range) -> None:
        """Which moved-down players are paired in the bracket: the highest first (C.04.3 B.3)."""
        p = self.p
        left = left_matched = 0
        score = None
        for k in range(moved):
            v = bracket[k]
            if score is None or p[v].score < score:
                score = p[v].score
                left = left_matched = 0
                m = k
                while m < len(bracket) and p[bracket[m]].score >= score:
                    left += 1
                    left_matched += self.get_mate(bracket[m]) in residents
                    m += 1
            if not left_matched:
                continue
            if left <= left_matched:
                matched[v] = True
                continue
            left -= 1
            if self.get_mate(v) not in residents:
                for o in range(moved, end):
                    w = base.get(o, k)
                    if w:
                        self.set(v, bracket[o], w | 1)
                self.match()
            if self.get_mate(v) in residents:
                matched[v] = True
                left_matched -= 1
                for o in range(moved, end):
                    w = base.get(o, k)
                    if w:
                        self.set(v, bracket[o], (w | (end - moved)) + 1)

    def _remainder(self, bracket, moved, end, base, matched, group_start, group_end) -> None:
        """S1 against S2 in the remainder: fewest exchanges, the Dutch order of them, then transpositions."""

        def down(v: int) -> bool:  # paired with a lower resident: an S1 player
            m = self.get_mate(v)
            return v < m < group_end

        def pairs_inside() -> int:
            return sum(1 for k in rem if self.get_mate(bracket[k]) < bracket[k])

        # In a homogeneous bracket the remainder is every resident, and its number of pairs, the first of
        # the criteria, is taken to be all it can hold, then counted in the matching that follows: when
        # fewer, the matching is made again with that number.
        rem = [k for k in range(moved, end) if not moved or self.get_mate(bracket[k]) >= group_start]
        rem_pairs = pairs_inside() if moved else len(rem) // 2
        if not moved and len(bracket) == end == self.n - len(self.fixed) and self.uniform:
            # The last bracket, every pair of it allowed and alike (round 1, as a rule): no criterion tells
            # one pairing from another, so the Dutch order alone decides: S1's players in order against S2's,
            # the last of S2 left over.
            for a in range(rem_pairs):
                v, mate = bracket[rem[a]], bracket[rem[rem_pairs + a]]
                matched[v] = matched[mate] = True
                self.fix(v, mate)
            return

        def ew(h_pos: int, lo_pos: int, index: int) -> int:
            return self.exchange_weight(base.get(lo_pos, h_pos), index, rem_pairs)

        vertices = [bracket[k] for k in rem]  # in the order, so each pair's key is (higher, lower)
        # Where each remainder player's pairs with the later ones sit in its column of base and of the view.
        cells = [[kc - ka - 1 for kc in rem[a + 1 :]] for a, ka in enumerate(rem)]
        sb = self.size_bits
        # First without the order among exchanges (S1's players alike): when that matching needs no exchange,
        # no matching with one is as good, and the order among exchanges has nothing to choose. Its weights
        # take far fewer values, which the blossom settles several times faster.
        fine = False
        while True:
            for a, ka in enumerate(rem):  # exchange_weight() of each pair, a column at a time
                add = (((a < rem_pairs) + 1 << (2 * sb)) - (a if fine else 0)) << 1
                column, view = base.columns[ka], self.view[ka]
                for at in cells[a]:
                    w = column[at]
                    view[at] = w + add if w else 0
            self.match()
            if not moved and pairs_inside() != rem_pairs:
                rem_pairs = pairs_inside()
                continue
            if fine or all(down(bracket[k]) for k in rem[:rem_pairs]):
                break
            fine = True
        exchanges = sum(1 for k in rem[:rem_pairs] if not down(bracket[k]))
        # S1's lowest players go to S2 first.
        left = exchanges
        a = rem_pairs
        while a > 0 and left:
            a -= 1
            v = bracket[rem[a]]
            if down(v):
                for c in range(a + 1, len(rem)):
                    w = ew(rem[a], rem[c], a)
                    if w:
                        self.set(v, bracket[rem[c]], w - 1)
                self.match()
            exchanged = not down(v)
            left -= exchanged
            for c in range(a + 1, len(rem)):
                if exchanged:
                    base.clear(rem[c], rem[a])
                self.set(v, bracket[rem[c]], ew(rem[a], rem[c], a))
        # S2's highest players go to S1 first.
        left = exchanges
        a = rem_pairs
        while a < len(rem) and left > 1:
            v = bracket[rem[a]]
            already = down(v)
            if not already:
                for c in range(a + 1, len(rem)):
                    w = ew(rem[a], rem[c], a)
                    if w:
                        self.set(v, bracket[rem[c]], w + 1)
                self.match()
            if down(v):
                left -= 1
                for c in range(a):
                    base.clear(rem[a], rem[c])
                    self.set(v, bracket[rem[c]], 0)
                for o in range(end, len(bracket)):
                    self.set(v, bracket[o], 0)
            if not already:
                for c in range(a + 1, len(rem)):
                    self.set(v, bracket[rem[c]], ew(rem[a], rem[c], a))
            a += 1
        # S1 and S2 are settled. Each S1 player, from the top, gets the highest S2 player the rest allows.
        is_s1 = [down(v) for v in vertices]
        s1 = [k for k, first in zip(rem, is_s1, strict=True) if first]
        if 2 * len(s1) == len(rem):  # no S2 player floats: S1 against S2 is all that is left to choose
            at = {v: a for a, v in enumerate(vertices)}

            def s1_s2(v: int, vo: int) -> int:  # S1 player v against S2 player vo, as the remainder weighs it
                a, c = at[v], at[vo]
                return base.get(rem[c], rem[a]) if a < c else 0

            chosen = first_transposition(
                [bracket[k] for k in s1],
                [v for v, first in zip(vertices, is_s1, strict=True) if not first],
                s1_s2,
                self.mates,
            )
            if chosen is not None:
                for v, mate in chosen.items():
                    matched[v] = matched[mate] = True
                    self.fix(v, mate)
                return
        # Only S1-against-S2 edges remain in the remainder, for the matchings below.
        for a, ka in enumerate(rem):
            column, view = base.columns[ka], self.view[ka]
            for c, at in enumerate(cells[a], a + 1):
                if not is_s1[a] or is_s1[c]:
                    column[at] = 0
                view[at] = column[at]
        s2 = [bracket[k] for k in rem if not down(bracket[k])]
        if len(s2) == len(s1) + 1:  # one S2 player floats: which one is chosen with S1's opponents
            chosen = one_floater(self, [bracket[k] for k in s1], s2)
            if chosen is not None:
                for v, mate in chosen.items():
                    matched[v] = matched[mate] = True
                    self.fix(v, mate)
                return
        width = (len(rem) + 1).bit_length()
        # The room the last bracket's chunks fitted in is the first guess: a refused try costs a whole
        # build of the weights.
        chunk = max(1, min(len(s1), self.chunk_room // width))
        while s1:
            # As many S1 players at once as rustworkx's integers hold; the first ones' opponents, once fixed,
            # leave the later ones the same choice the single matching would have.
            head = s1[:chunk]
            bonus: dict[tuple[int, int], int] = {}
            for t, k in enumerate(head):
                v = bracket[k]
                shift = (len(head) - 1 - t) * width
                add = 0
                for o in reversed(rem):
                    vo = bracket[o]
                    if o <= k or matched[vo]:
                        continue
                    if base.get(o, k):
                        bonus[(v, vo) if v < vo else (vo, v)] = add << shift
                    add += 1
            if not self.match(bonus, len(head) * width, wide=chunk == 1):
                chunk = (chunk + 1) // 2
                self.chunk_room = chunk * width
                continue
            if len(head) == chunk:
                self.chunk_room = max(self.chunk_room, chunk * width)
            for k in head:
                v = bracket[k]
                mate = self.get_mate(v)
                matched[v] = matched[mate] = True
                self.fix(v, mate)
            s1 = s1[len(head) :]


class _Base:
    """The criteria's weight of each pair of a bracket (pairing/dutch/brackets.py's base(), as the stages change it),
    by position: the column of the higher player h holds its pairs with each later player lo."""

    __slots__ = ("columns", "end")

    def __init__(self, columns: list[list[int]], end: int):
        self.columns, self.end = columns, end

    def get(self, lo: int, h: int) -> int:
        """The pair of positions lo (lower) and h; 0 for a pair with the next score group."""
        return self.columns[h][lo - h - 1] if h < lo < self.end else 0

    def clear(self, lo: int, h: int) -> None:
        if h < lo < self.end:
            self.columns[h][lo - h - 1] = 0
