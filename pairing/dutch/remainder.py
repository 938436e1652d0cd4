"""S1 against S2 in a bracket's remainder (C.04.3 B.4-B.6, D): once the moved-down players' pairs are decided
(pairing/dutch/system.py), the remainder's players are split into S1 and S2 with the fewest exchanges, the
Dutch order of them, and then S1's opponents are chosen (the transpositions): by prices on S1 against S2 when
every S2 player is paired (pairing/dutch/assign.py), with the floater when one S2 player floats down
(pairing/dutch/floater.py), otherwise by matchings that weigh S1's order, a chunk of S1 at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from pairing.dutch.assign import Edges, first_transposition
from pairing.dutch.brackets import Bracket, Brackets
from pairing.dutch.floater import one_floater
from pairing.dutch.tiers import match


def pair_remainder(br: Brackets, bracket: Bracket, counted: bool = False) -> None:
    """S1 against S2 in the remainder: fewest exchanges, the Dutch order of them, then transpositions.
    counted: the last matching was the remainder's with the fewest exchanges, and it needs none."""
    rem = _Remainder(br, bracket)
    if rem.alike_to_the_end():
        return
    exchanges = 0 if counted else rem.count_exchanges()
    rem.exchange_s1_lowest(exchanges)
    rem.exchange_s2_highest(exchanges)
    rem.transpositions()


def one_moved_down_with_remainder(br: Brackets, bracket: Bracket) -> bool:
    """A lone moved-down player's opponent and the remainder's fewest exchanges in one matching. True when
    that matching settles both and the remainder needs no exchange: the opponent is settled, and the remainder
    can go straight to its transpositions (pair_remainder(counted=True)). Otherwise False, with the opponent
    settled when the moved-down player is paired; the caller goes on as after a matching of it alone.

    Its order among the residents (in the bracket's weights, as when it is matched alone) weighs above the
    exchanges (a bonus below every weight), so a maximum of the two together pairs it as alone, and among the
    matchings that pair it so, has the fewest exchanges. S1 is the remainder's first half, the residents
    without its opponent: whoever that opponent is, when it is among the first pairs + 1 residents, S1 is the
    others of them (the exchanges are counted on the pairs of the remainder, never the opponent's)."""
    vertices, end, base, sb = bracket.vertices, bracket.end, bracket.base, br.size_bits
    v = vertices[0]
    pairs = (end - 2) // 2  # the remainder's, when it is paired
    # exchange_weight()'s order, without the BSN differences: by the higher player of each pair of residents
    rows = {vertices[ka]: ((ka <= pairs + 1) + 1 << (2 * sb)) << 1 for ka in range(1, end)}
    add = len(vertices)
    for o in range(end - 1, 0, -1):
        w = base.get(o, 0)
        if w:
            br.set(v, vertices[o], w + add)
            add += 1
    matched = match(br, room=2 * sb + 3 + pairs.bit_length(), wide=False, rows=rows)
    if not matched:
        match(br)  # too wide for the two together: the moved-down player alone
    mate = br.get_mate(v)
    if mate in bracket.residents:
        br.settle(v, mate)
        if not matched or vertices.index(mate) > pairs + 1:
            return False
        rem = _Remainder(br, bracket)
        return rem.pairs == pairs and all(rem.down(x) for x in rem.vertices[:pairs])
    for o in range(1, end):  # it floats on: its pairs weigh as before
        br.set(v, vertices[o], base.get(o, 0))
    return False


@dataclass(eq=False)
class _Remainder:
    """The remainder of the bracket: its players, by position in the bracket and as vertices, in the order,
    and how many pairs it holds (S1's size). A player's index in the remainder is its place in both lists."""

    br: Brackets
    bracket: Bracket
    positions: list[int] = field(init=False)
    vertices: list[int] = field(init=False)  # in the order, so each pair's key is (higher, lower)
    pairs: int = field(init=False)

    def __post_init__(self) -> None:
        b, get_mate = self.bracket, self.br.get_mate
        # In a homogeneous bracket the remainder is every resident, and its number of pairs, the first of
        # the criteria, is taken to be all it can hold, then counted in the matching that follows: when
        # fewer, the matching is made again with that number.
        self.positions = [
            k for k in range(b.moved, b.end) if not b.moved or get_mate(b.vertices[k]) >= b.residents.start
        ]
        self.vertices = [b.vertices[k] for k in self.positions]
        self.pairs = self.pairs_inside() if b.moved else len(self.positions) // 2

    @cached_property
    def cells(self) -> list[list[int]]:
        """Where each player's pairs with the later ones sit in its column of the bracket's base and of the view."""
        return [[kc - ka - 1 for kc in self.positions[a + 1 :]] for a, ka in enumerate(self.positions)]

    @cached_property
    def index(self) -> dict[int, int]:
        """Each player's index in the remainder, by vertex."""
        return {v: a for a, v in enumerate(self.vertices)}

    def down(self, v: int) -> bool:
        """v is paired with a lower resident: an S1 player."""
        m = self.br.get_mate(v)
        return v < m < self.bracket.residents.stop

    def pairs_inside(self) -> int:
        get_mate = self.br.get_mate
        return sum(1 for v in self.vertices if get_mate(v) < v)

    def weight(self, h: int, lo: int, index: int) -> int:
        """The pair of remainder players h and lo (positions in the bracket), as exchange_weight() weighs it
        for the index-th player of the remainder."""
        return self.br.exchange_weight(self.bracket.base.get(lo, h), index, self.pairs)

    def alike_to_the_end(self) -> bool:
        """The last bracket, every pair of it allowed and alike (round 1, as a rule): no criterion tells one
        pairing from another, so the Dutch order alone decides: S1's players in order against S2's, the last
        of S2 left over. False, with nothing paired, for any other bracket."""
        br, b = self.br, self.bracket
        if b.moved or not len(b.vertices) == b.end == br.n - len(br.fixed) or not br.uniform:
            return False
        for a in range(self.pairs):
            br.settle(self.vertices[a], self.vertices[self.pairs + a])
        return True

    def count_exchanges(self) -> int:
        """The matching of the remainder with the fewest exchanges: how many it makes.

        First without the order among exchanges (S1's players alike): when that matching needs no exchange,
        no matching with one is as good, and the order among exchanges has nothing to choose. Its weights
        take far fewer values, which the blossom settles several times faster."""
        br, b, cells = self.br, self.bracket, self.cells
        sb = br.size_bits
        fine = False
        while True:
            for a, ka in enumerate(self.positions):  # exchange_weight() of each pair, a column at a time
                add = (((a < self.pairs) + 1 << (2 * sb)) - (a if fine else 0)) << 1
                column, view = b.base.columns[ka], br.view[ka]
                for at in cells[a]:
                    w = column[at]
                    view[at] = w + add if w else 0
            match(br)
            if not b.moved and self.pairs_inside() != self.pairs:
                self.pairs = self.pairs_inside()
                continue
            if fine or all(self.down(v) for v in self.vertices[: self.pairs]):
                break
            fine = True
        return sum(1 for v in self.vertices[: self.pairs] if not self.down(v))

    def exchange_s1_lowest(self, exchanges: int) -> None:
        """S1's lowest players go to S2 first."""
        br, base, rem, vertices = self.br, self.bracket.base, self.positions, self.vertices
        left = exchanges
        a = self.pairs
        while a > 0 and left:
            a -= 1
            v = vertices[a]
            if self.down(v):
                for c in range(a + 1, len(rem)):
                    w = self.weight(rem[a], rem[c], a)
                    if w:
                        br.set(v, vertices[c], w - 1)
                match(br)
            exchanged = not self.down(v)
            left -= exchanged
            for c in range(a + 1, len(rem)):
                if exchanged:
                    base.clear(rem[c], rem[a])
                br.set(v, vertices[c], self.weight(rem[a], rem[c], a))

    def exchange_s2_highest(self, exchanges: int) -> None:
        """S2's highest players go to S1 first."""
        br, b, rem, vertices = self.br, self.bracket, self.positions, self.vertices
        left = exchanges
        a = self.pairs
        while a < len(rem) and left > 1:
            v = vertices[a]
            already = self.down(v)
            if not already:
                for c in range(a + 1, len(rem)):
                    w = self.weight(rem[a], rem[c], a)
                    if w:
                        br.set(v, vertices[c], w + 1)
                match(br)
            if self.down(v):
                left -= 1
                for c in range(a):
                    b.base.clear(rem[a], rem[c])
                    br.set(v, vertices[c], 0)
                for o in range(b.end, len(b.vertices)):
                    br.set(v, b.vertices[o], 0)
            if not already:
                for c in range(a + 1, len(rem)):
                    br.set(v, vertices[c], self.weight(rem[a], rem[c], a))
            a += 1

    def transpositions(self) -> None:
        """S1 and S2 are settled. Each S1 player, from the top, gets the highest S2 player the rest allows."""
        br, vertices = self.br, self.vertices
        is_s1 = [self.down(v) for v in vertices]
        s1 = [a for a, first in enumerate(is_s1) if first]
        s2 = [v for v, first in zip(vertices, is_s1, strict=True) if not first]
        chosen = None
        if len(s2) == len(s1):  # no S2 player floats: S1 against S2 is all that is left to choose
            chosen = first_transposition([vertices[a] for a in s1], s2, self.s1_s2(s1, is_s1), br.mates)
        if chosen is None:
            self.only_s1_against_s2(is_s1)
            if len(s2) == len(s1) + 1:  # one S2 player floats: which one is chosen with S1's opponents
                chosen = one_floater(br, [vertices[a] for a in s1], s2, self.s1_s2(s1, is_s1))
        if chosen is None:
            self.in_chunks(s1)
            return
        for v, mate in chosen.items():
            br.settle(v, mate)

    def s1_s2(self, s1: list[int], is_s1: list[bool]) -> Edges:
        """S1's players (by index in the remainder) against the S2 players below them, as the remainder weighs
        them: the pairs allowed."""
        columns, positions, vertices = self.bracket.base.columns, self.positions, self.vertices
        edges = {}
        for a in s1:
            ka, column = positions[a], columns[positions[a]]
            edges[vertices[a]] = {
                vertices[c]: w
                for c in range(a + 1, len(positions))
                if not is_s1[c] and (w := column[positions[c] - ka - 1]) > 0
            }
        return edges

    def only_s1_against_s2(self, is_s1: list[bool]) -> None:
        """Only S1-against-S2 edges remain in the remainder, for the matchings that follow."""
        columns, view = self.bracket.base.columns, self.br.view
        for a, ka in enumerate(self.positions):
            column, row = columns[ka], view[ka]
            for c, cell in enumerate(self.cells[a], a + 1):
                if not is_s1[a] or is_s1[c]:
                    column[cell] = 0
                row[cell] = column[cell]

    def in_chunks(self, s1: list[int]) -> None:
        """S1's opponents by matchings that weigh S1's order: as many S1 players (indices in the remainder) at
        once as rustworkx's integers hold; the first ones' opponents, once fixed, leave the later ones the same
        choice the single matching would have."""
        br, base, rem, vertices, matched = self.br, self.bracket.base, self.positions, self.vertices, self.br.matched
        width = (len(rem) + 1).bit_length()
        # The room the last bracket's chunks fitted in is the first guess: a refused try costs a whole
        # build of the weights.
        chunk = max(1, min(len(s1), br.chunk_room // width))
        while s1:
            head = s1[:chunk]
            bonus: dict[tuple[int, int], int] = {}
            for t, a in enumerate(head):
                v, k = vertices[a], rem[a]
                shift = (len(head) - 1 - t) * width
                add = 0
                for c in range(len(rem) - 1, a, -1):
                    vo = vertices[c]
                    if matched[vo]:
                        continue
                    if base.get(rem[c], k):
                        bonus[(v, vo) if v < vo else (vo, v)] = add << shift
                    add += 1
            if not match(br, bonus, len(head) * width, wide=chunk == 1):
                chunk = (chunk + 1) // 2
                br.chunk_room = chunk * width
                continue
            if len(head) == chunk:
                br.chunk_room = max(br.chunk_room, chunk * width)
            for a in head:
                v = vertices[a]
                br.settle(v, br.get_mate(v))
            s1 = s1[len(head) :]
