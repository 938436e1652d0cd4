"""Why a round of the optimal engine is paired as it is (docs/explanations.md), from its input and its pairing.

The engine minimises, in this order, rematches, second byes, the sum of squared point differences (the bye
against the bottom of the field), the rank of the bye and colour trouble, exactly (pairing/optimal.py): so a
float is the price of the fewest rematches and byes and the smallest spread, a bye given above a player ranked
lower who has not had one means every pairing giving it lower costs more of those, and a rematch means no
pairing of the round avoids every rematch. Colours follow the engine's own colour costs (colour_costs).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from pairing.explain import texts as t
from pairing.explain.groups import Bracket, Group, brackets
from pairing.optimal import colour_costs
from pairing.types import Entrant, Pairing, PairingInput
from swiss.messages import Message


def explain_optimal(
    inp: PairingInput, result: Pairing, names: Mapping[str, str]
) -> tuple[dict[str, list[Message]], list[Group]]:
    """The reasons by player, and the groups; names: the players' names for the sentences (else their labels)."""
    by_id = {e.id: replace(e, name=names[e.id]) if names.get(e.id) else e for e in inp.entrants}
    mate: dict[str, str | None] = {}
    table: dict[str, int] = {}
    for g in result.pairs:
        mate[g.a], mate[g.b] = g.b, g.a
        table[g.a] = table[g.b] = g.table
    for pid in result.byes:
        if pid not in result.awarded_byes:
            mate[pid] = None
    if set(mate) != set(by_id):
        raise ValueError("the pairing is not of this input: its players differ from the entrants")
    # Points as integers in the smallest unit they share: compared thousands of times, Fractions are slow.
    exact = {e.points for e in inp.entrants}
    scale = math.lcm(*(Fraction(p).denominator for p in exact)) if exact else 1
    unit = {p: int(p * scale) for p in exact}
    points = {e.id: unit[e.points] for e in inp.entrants}
    shown = {v: t.score_text(p) for p, v in unit.items()}
    order = [e.id for e in sorted(inp.entrants, key=lambda e: (-points[e.id], e.rank, e.id))]
    found, own = brackets(order, points, mate)
    low = min(points.values(), default=0)
    squares = sum((points[g.a] - points[g.b]) ** 2 for g in result.pairs)
    squares += sum((points[pid] - low) ** 2 for pid, m in mate.items() if m is None)
    spread = Fraction(squares, scale * scale)

    reasons: dict[str, list[Message]] = {pid: [] for pid in (*order, *(e.id for e in inp.awarded_byes))}
    for pid in order:
        reasons[pid].append(t.score_group(shown[points[pid]]))
    for pid in order:
        m = mate[pid]
        if m is None or points[m] == points[pid] or inp.method == "rating":
            continue
        high = pid if points[pid] > points[m] else m
        name, because, facts = _float_cause(by_id[high], found[own[high]], mate, points, shown, spread)
        span = {"from": shown[points[pid]], "to": shown[points[m]], "cause": name}
        span |= {"opponent": m, "opponent_name": by_id[m].label}
        reasons[pid].append((t.float_down if pid == high else t.float_up)(because, **span, **facts))
    for pid in result.byes:
        if pid in result.awarded_byes:
            reasons[pid].append(t.bye(t.why_bye_requested(), cause="requested"))
        else:
            reasons[pid].append(_bye(inp, by_id[pid]))
    for g in result.pairs:
        a, b = by_id[g.a], by_id[g.b]
        if b.id in a.opponents:
            reason = _rematch_reason(inp, a, b)
            for p, q in ((a, b), (b, a)):
                reasons[p.id].append(
                    t.rematch(reason, table=g.table, a=a.label, b=b.label, opponent=q.id, opponent_name=q.label)
                )
        if inp.colours:
            for pid, messages in _colours(a, b, g.table):
                reasons[pid].extend(messages)
    groups = [_group(b, shown, by_id, spread) for b in found]
    return reasons, groups


def _float_cause(
    x: Entrant,
    b: Bracket,
    mate: dict[str, str | None],
    points: dict[str, int],
    shown: dict[int, str],
    spread: Fraction,
) -> tuple[str, Message, dict]:
    """Why x left its own group (b, where it is a resident)."""
    pid = x.id
    group = b.residents
    facts: dict = {"group": shown[points[pid]], "size": len(group)}
    if len(group) > 1 and all(o in x.opponents for o in group if o != pid):
        return "no_opponent", t.why_no_unmet(**facts), facts
    outside = [o for o in group if mate[o] is None or points[mate[o] or o] != points[o]]
    if len(group) % 2 == 1 and outside == [pid]:
        return "odd_group", t.why_odd_group(**facts), facts
    facts = {"spread": t.score_text(spread)}
    return "fewest_floats", t.why_fewest_floats(**facts), facts


def _bye(inp: PairingInput, x: Entrant) -> Message:
    if inp.method == "rating":
        return t.bye(t.why_bye_rating(), cause="lowest_rating")
    if x.byes:
        if all(e.byes for e in inp.entrants):
            return t.bye(t.why_bye_all_had(), cause="all_had_bye", byes=x.byes)
        return t.bye(t.why_bye_forced(), cause="completion", byes=x.byes)
    below = [e for e in inp.entrants if e.rank > x.rank]
    if all(e.byes for e in below):
        return t.bye(t.why_bye_lowest(below=len(below)), cause="lowest_without_bye", below=len(below))
    return t.bye(t.why_bye_fewest_floats(), cause="fewest_floats")


def _rematch_reason(inp: PairingInput, a: Entrant, b: Entrant) -> Message:
    """The engine's own reason for a rematch it could not avoid (pairing/optimal.py's warning)."""
    for x in (a, b):
        if all(o.id in x.opponents for o in inp.entrants if o.id != x.id):
            return t.reason_played_everyone(player=x.label)
    return t.reason_no_rematch_free_pairing(count=len(inp.entrants))


def _played(e: Entrant) -> list[str]:
    return [c for c in e.colours.upper() if c in "WB"]


def _history_facts(e: Entrant) -> dict:
    played = _played(e)
    return {"whites": played.count("W"), "blacks": played.count("B"), "last": "".join(played[-2:])}


def _colours(white: Entrant, black: Entrant, table: int) -> list[tuple[str, list[Message]]]:
    """Each player's colour reasons, by the engine's colour costs (pairing/optimal.py's _orient)."""
    cw, cb = colour_costs(white.colours), colour_costs(black.colours)
    as_paired, flipped = cw[0] + cb[1], cb[0] + cw[1]
    if as_paired > flipped:
        return []  # not the engine's colours (flipped by hand): no reason is true
    out = []
    for p, q, c in ((white, black, "W"), (black, white, "B")):
        mine = colour_costs(p.colours)
        k = 0 if c == "W" else 1
        cause: str
        if as_paired == flipped:
            if (-white.points, white.rank) == (-black.points, black.rank):
                cause, because = "seed", t.why_seed()
            elif (-white.points, white.rank) < (-black.points, black.rank):
                cause, because = "higher_placed", t.why_higher_placed(higher=white.id, higher_name=white.label)
            else:
                return []  # the lower-placed player has White with the costs equal: not the engine's choice
        elif mine[k] < mine[1 - k]:
            played = _played(p)
            other = "B" if c == "W" else "W"
            balance = played.count("W") - played.count("B") + (1 if other == "W" else -1)
            if abs(balance) > 2:
                cause, because = "balance", t.why_balance(**_history_facts(p))
            else:
                cause, because = "alternation", t.why_alternation(**_history_facts(p))
        elif mine[k] == mine[1 - k]:
            cause, because = "opponent_preference", t.why_opponent_preference()
        else:
            cause = "stronger_preference"
            because = t.why_stronger_preference(stronger=q.id, stronger_name=q.label)
        messages = [t.colour(c, because, cause=cause, **_history_facts(p))]
        played = _played(p)
        if played[-2:] == [c, c]:
            messages.append(t.colour_repeat(c, player=p.label, table=table))
        difference = played.count("W") - played.count("B") + (1 if c == "W" else -1)
        if abs(difference) > 2:
            messages.append(
                t.colour_difference(player=p.label, difference=abs(difference), table=table, colour=t.colour_word(c))
            )
        out.append((p.id, messages))
    return out


def _group(b: Bracket, shown: dict[int, str], by_id: dict[str, Entrant], spread: Fraction) -> Group:
    group = shown[b.score]
    notes = [t.note_group(score=group, size=len(b.members), moved_down=len(b.moved_down), pairs=len(b.pairs))]
    if b.bye is not None:
        notes.append(t.note_bye(player=b.bye, player_name=by_id[b.bye].label))
    if b.floated:
        notes.append(t.note_fewest_floats(score=group, spread=t.score_text(spread)))
    return b.shown(group, notes)
