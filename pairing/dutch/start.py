"""The first matching of a Dutch round (pairing/dutch/system.py): can the round be paired at all, and which score
does the bye get? Then every pair's first weight, as its two players' potentials.
"""

from __future__ import annotations

import rustworkx as rx

from pairing.dutch.brackets import Brackets
from pairing.types import PairingError
from swiss.messages import Message


def start(br: Brackets) -> None:
    """The first matching: can the round be paired at all, and which score does the bye get?"""
    p, n = br.order, br.n
    odd = n % 2 == 1
    top = p[0].score
    flag_bits = n.bit_length() + 1
    sum_bits = (n * 2 * max(br.shift.values(), default=0) + 1).bit_length() + 1

    def weight(i: int, j: int) -> int:  # i above j
        x, y = p[j], p[i]
        w = 1 + (not x.bye_eligible) + (not y.bye_eligible)
        w = (w << sum_bits) + br.shift[x.score] + br.shift[y.score]
        return ((w << flag_bits) | (x.score >= top)) if odd else 1

    # A first matching settles the question when it reaches what no matching can exceed (everyone paired; when
    # odd, the bye to the lowest score a bye can go to and the top group paired within itself as far as it can
    # be). Tried in turn: each player with the first player after it left that it may meet (a round of an even
    # number of players is usually settled so); then the matching of near neighbours in the order; only
    # otherwise every pair.
    br.take(br.in_turn(range(n), set()))
    if not _is_best(br, odd, top):
        near = br.near_after_all()
        for pairs in ([(i, j) for i in range(n) for j in near[i]], None):
            if pairs is None:
                pairs = [(i, j) for j in range(n) for i in range(j) if br.compatible(i, j)]
            g = rx.PyGraph()
            g.add_nodes_from(range(n))
            g.add_edges_from([(i, j, weight(i, j)) for i, j in pairs])
            br.take(rx.max_weight_matching(g, max_cardinality=not odd, weight_fn=int))
            if _is_best(br, odd, top):
                break
    unmatched = [i for i in range(n) if br.get_mate(i) == i]
    if len(unmatched) > 1 or (unmatched and not p[unmatched[0]].bye_eligible):
        raise PairingError(
            Message(
                "dutch_no_pairing",
                "no pairing of round {round} meets the absolute criteria (no rematch, colour rules, "
                "one bye to a player who has had none)",
                round=br.round.inp.round,
            )
        )
    if odd:
        br.bye_score = p[unmatched[0]].score
        br.single_bye = br.bye_score >= top and all(
            p[br.get_mate(i)].score >= top for i in range(n) if p[i].score >= top
        )
        counts = sorted((x.played for x in p if x.score == br.bye_score), reverse=True)
        br.unplayed_rank = {c: k for k, c in enumerate(counts)}
    # Every edge's first weight, as base(i, j, False, False) gives it: one pair and the two potentials.
    sb, gb, m = br.size_bits, br.groups_bits, min(br.round.done, 2)
    rest = 4 * sb + m * 2 * sb + m * 2 * gb + 3 * sb + 2
    br.tail_bits = rest  # the colour and float fields and the room for the Dutch order, in base()
    top_shift = rest + 4 * sb + 2 * gb
    br.one = 1 << top_shift
    ranks = [br.unplayed_rank[x.played] if br.single_bye and x.score == br.bye_score else 0 for x in p]
    br.potential = [((not br.bye_candidate(x)) << top_shift) + (r << rest) for x, r in zip(p, ranks, strict=True)]
    br.small_unit = 1 << (2 * n * n + 1).bit_length()
    br.small_potential = [(not br.bye_candidate(x)) * br.small_unit + r for x, r in zip(p, ranks, strict=True)]


def _is_best(br: Brackets, odd: bool, top: int) -> bool:
    """The first matching pairs everyone, or when odd, all but one eligible player of the lowest score
    any eligible player has, with the top score group paired within itself as far as it can be."""
    p, n = br.order, br.n
    unmatched = [i for i in range(n) if br.get_mate(i) == i]
    if len(unmatched) != odd:
        return False
    if not odd:
        return True
    zi = unmatched[0]
    z = p[zi]
    if not z.bye_eligible or z.score != min(x.score for x in p if x.bye_eligible):
        return False
    in_top = sum(1 for x in p if x.score >= top) - (z.score >= top)
    inside = sum(1 for i in range(n) if p[i].score >= top and p[br.get_mate(i)].score >= top and i != zi)
    return inside == in_top - in_top % 2
