"""Why a Dutch round is paired as it is (docs/explanations.md), from the engine's input and its pairing: the
groups the pairing shows (groups.py), each float's cause checked against who may meet whom in that group (the
engine's own Round.compatible: C.1 and C.3, with the topscorers' exception), the bye's cause checked against the
players below, and each colour by the steps of C.04.3 E as pairing/dutch/colours.py takes them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

import rustworkx as rx

from pairing.dutch.colours import WHITE, compatible_prefs, invert
from pairing.dutch.players import DutchInput, Player, Round
from pairing.explain import texts as t
from pairing.explain.groups import Bracket, Group, brackets
from pairing.types import Pairing
from swiss.messages import Message

# The bye's completion is checked by re-pairing the rest without each lower-ranked candidate (a matching of the
# whole field each): only in fields and for candidates this small; otherwise a weaker true sentence.
COMPLETION_FIELD_MAX = 160
COMPLETION_CANDIDATES_MAX = 6


def explain_dutch(
    inp: DutchInput, result: Pairing, names: Mapping[str, str]
) -> tuple[dict[str, list[Message]], list[Group]]:
    """The reasons by player, and the groups; names: the players' names for the sentences (else their ids)."""

    def label(pid: str) -> str:
        return names.get(pid) or pid

    rnd = Round.of(inp)
    players = rnd.players
    order = sorted(
        (pid for pid in inp.present if pid in players), key=lambda pid: (-players[pid].score, players[pid].rank)
    )
    mate: dict[str, str | None] = {}
    for g in result.pairs:
        mate[g.a], mate[g.b] = g.b, g.a
    for pid in result.byes:
        if pid not in result.awarded_byes:
            mate[pid] = None
    if set(mate) != set(order):
        raise ValueError("the pairing is not of this input: its players differ from the players present")
    score = {pid: players[pid].score for pid in order}
    text_of: dict[int, str] = {}
    for pid in order:
        if players[pid].score not in text_of:
            text_of[players[pid].score] = t.score_text(rnd.score(players[pid], 0))
    shown = {pid: text_of[score[pid]] for pid in order}
    found, own = brackets(order, score, mate)
    why = _Why(rnd, found, text_of, label)

    reasons: dict[str, list[Message]] = {pid: [] for pid in (*order, *result.awarded_byes)}
    for pid in order:
        x = players[pid]
        added = x.accelerations[rnd.done] if rnd.done < len(x.accelerations) else Fraction(0)
        extra = {"acceleration": t.score_text(added)} if added else {}
        reasons[pid].append(t.score_group(shown[pid], **extra))
    for pid in order:
        m = mate[pid]
        if m is None or score[m] == score[pid]:
            continue
        high, low = (pid, m) if score[pid] > score[m] else (m, pid)
        cause = why.float_cause(found[own[high]], high)
        if cause is None:
            continue
        name, because, facts = cause
        span = {"from": shown[pid], "to": shown[m], "cause": name, "opponent": m, "opponent_name": label(m)}
        if pid == high:
            reasons[pid].append(t.float_down(because, **span, **facts))
        else:
            reasons[pid].append(t.float_up(because, **span, **facts))
    for pid in result.byes:
        if pid in result.awarded_byes:
            reasons[pid].append(t.bye(t.why_bye_requested(), cause="requested"))
        else:
            reasons[pid].append(why.bye(pid, order))
    for g in result.pairs:
        for pid, message in _colours(rnd, players[g.a], players[g.b], g.table, label):
            reasons[pid].extend(message)
    return reasons, [why.group(b) for b in found]


class _Why:
    """The causes of one round's floats and bye, each checked against the group it names."""

    def __init__(self, rnd: Round, found: list[Bracket], text_of: dict[int, str], label: Callable[[str], str]):
        self.rnd, self.found, self.text_of, self.label = rnd, found, text_of, label
        self._most: dict[int, int] = {}

    def most_pairs(self, k: int) -> int:
        """The most pairs group k's players could make among themselves, every pair with a resident (a pair of
        two players from above belongs to a group above)."""
        if k not in self._most:
            b = self.found[k]
            members = b.members
            moved = len(b.moved_down)
            players = self.rnd.players
            graph = rx.PyGraph()
            graph.add_nodes_from(range(len(members)))
            graph.add_edges_from_no_data(
                [
                    (i, j)
                    for j in range(moved, len(members))
                    for i in range(j)
                    if self.rnd.compatible(players[members[i]], players[members[j]])
                ]
            )
            self._most[k] = len(rx.max_weight_matching(graph, max_cardinality=True))
        return self._most[k]

    def float_cause(self, b: Bracket, pid: str) -> tuple[str, Message, dict] | None:
        """Why pid, a resident of b, left it unpaired: (cause, sentence, facts)."""
        k = self.found.index(b)
        group, size, pairs, left = self.text_of[b.score], len(b.members), len(b.pairs), len(b.floated) - 1
        facts = {"group": group, "size": size}
        if left == 0 and size % 2 == 1:
            return "odd_group", t.why_odd_group(**facts), facts
        most = self.most_pairs(k)
        if pairs < most:
            facts |= {"pairs": pairs, "most": most}
            return "lower_group", t.why_lower_group(**facts), facts
        players = self.rnd.players
        x = players[pid]
        if any(self.rnd.compatible(x, players[o]) for o in b.floated if o != pid):
            return None  # not a maximum matching of the group: nothing true to say that is short
        facts |= {"left": left}
        return "no_opponent", t.why_no_opponent(**facts), facts

    def bye(self, pid: str, order: list[str]) -> Message:
        players = self.rnd.players
        lower = order[order.index(pid) + 1 :]
        candidates = [o for o in lower if players[o].bye_eligible]
        if not candidates:
            return t.bye(t.why_bye_lowest(below=len(lower)), cause="lowest_without_bye", below=len(lower))
        small = len(order) <= COMPLETION_FIELD_MAX and len(candidates) <= COMPLETION_CANDIDATES_MAX
        if small and not any(self._completes(order, o) for o in candidates):
            facts = {"count": len(candidates), "candidates": candidates}
            return t.bye(t.why_bye_completion(**facts), cause="completion", **facts)
        last = self.found[-1]
        facts = {"group": self.text_of[last.score], "size": len(last.members), "candidates": candidates}
        played = players[pid].played
        if all(players[o].played < played for o in candidates):
            facts["played"] = played
            return t.bye(t.why_bye_unplayed(**facts), cause="unplayed_games", **facts)
        return t.bye(t.why_bye_last_group(**facts), cause="last_group", **facts)

    def _completes(self, order: list[str], without: str) -> bool:
        """Whether every player but `without` can be paired, with no rematch and no absolute colour clash."""
        players = self.rnd.players
        rest = [players[o] for o in order if o != without]
        graph = rx.PyGraph()
        graph.add_nodes_from(range(len(rest)))
        graph.add_edges_from_no_data(
            [(i, j) for j in range(len(rest)) for i in range(j) if self.rnd.compatible(rest[i], rest[j])]
        )
        return 2 * len(rx.max_weight_matching(graph, max_cardinality=True)) == len(rest)

    def group(self, b: Bracket) -> Group:
        k = self.found.index(b)
        group = self.text_of[b.score]
        pairs, floated = len(b.pairs), len(b.floated)
        notes = [t.note_group(score=group, size=len(b.members), moved_down=len(b.moved_down), pairs=pairs)]
        if b.bye is not None:
            notes.append(t.note_bye(player=b.bye, player_name=self.label(b.bye)))
        elif floated == 1 and len(b.members) % 2 == 1:
            notes.append(t.note_odd(score=group, size=len(b.members)))
        elif floated:
            most = self.most_pairs(k)
            if pairs < most:
                notes.append(t.note_completion(score=group, pairs=pairs, most=most, left=floated))
            else:
                notes.append(t.note_most_pairs(score=group, pairs=pairs, left=floated))
        return b.shown(group, notes)


# ---------------------------------------------------------------- colours (C.04.3 E)

# The rule of C.04.3 E that gives the colour, by cause: E.1 both preferences granted (or the one there is), E.2 the
# stronger preference, E.3 the last game in which the colours differed, E.4 the higher-ranked player's
# preference, E.5 the initial colour by the higher-ranked player's pairing number.
COLOUR_RULES = {
    "absolute": "E.1",
    "balance": "E.1",
    "alternation": "E.1",
    "opponent_preference": "E.1",
    "stronger_preference": "E.2",
    "history": "E.3",
    "higher_ranked": "E.4",
    "initial": "E.5",
    "lot": "E.5",
}


def _history_facts(x: Player) -> dict:
    played = [g.colour for g in x.history if g.played]
    return {"whites": played.count(WHITE), "blacks": played.count("B"), "last": "".join(played[-2:])}


def _own(x: Player) -> tuple[str, Message]:
    """The kind of x's own preference, as the cause of x having it."""
    facts = _history_facts(x)
    if x.absolute:
        return "absolute", t.why_absolute(**facts)
    if x.strong:
        return "balance", t.why_balance(**facts)
    return "alternation", t.why_alternation(**facts)


def _colours(
    rnd: Round, x: Player, y: Player, table: int, label: Callable[[str], str]
) -> list[tuple[str, list[Message]]]:
    """Each player's colour reasons for the pair x (White) and y (Black)."""
    a, b = (x, y) if x.number < y.number else (y, x)  # the engine asks colour() of the smaller number first
    got = {a.id: rnd.colour(a, b)}
    got[b.id] = invert(got[a.id])
    if got[x.id] != WHITE:
        return []  # not the engine's colours (flipped by hand): no reason is true
    causes: dict[str, tuple[str, Message]] = {}
    if compatible_prefs(a.pref, b.pref) and (a.pref or b.pref):
        for p in (a, b):
            causes[p.id] = _own(p) if p.pref else ("opponent_preference", t.why_opponent_preference())
    elif not a.pref:  # neither has a preference: E.5
        high = a if rnd.higher(a, b) else b
        kind = "lot" if rnd.inp.initial_by_lot else "initial"
        facts = {"initial": t.colour_word(rnd.inp.initial_colour), "higher": high.id, "number": high.rank + 1}
        because = (t.why_lot if kind == "lot" else t.why_initial)(rnd.inp.initial_colour, **facts)
        causes = {a.id: (kind, because), b.id: (kind, because)}
    else:
        winner = _stronger(a, b)
        if winner is not None:
            because = t.why_stronger_preference(stronger=winner.id, stronger_name=label(winner.id))
            causes = {a.id: ("stronger_preference", because), b.id: ("stronger_preference", because)}
        else:
            back = _differed(a, b)
            if back:
                because = t.why_history(back=back)
                causes = {a.id: ("history", because), b.id: ("history", because)}
            else:
                high = a if rnd.higher(a, b) else b
                because = t.why_higher_ranked(higher=high.id, higher_name=label(high.id))
                causes = {a.id: ("higher_ranked", because), b.id: ("higher_ranked", because)}
    out = []
    for p in (x, y):
        cause, because = causes[p.id]
        c = got[p.id]
        messages = [t.colour(c, because, cause=cause, rule=COLOUR_RULES[cause], **_history_facts(p))]
        played = [g.colour for g in p.history if g.played]
        if played[-2:] == [c, c]:
            messages.append(t.colour_repeat(c, player=label(p.id), table=table))
        difference = played.count(WHITE) - played.count("B") + (1 if c == WHITE else -1)
        if abs(difference) > 2:
            messages.append(
                t.colour_difference(
                    player=label(p.id), difference=abs(difference), table=table, colour=t.colour_word(c)
                )
            )
        out.append((p.id, messages))
    return out


def _stronger(a: Player, b: Player) -> Player | None:
    """Of two players due the same colour, the one whose preference is the stronger (C.04.3 E.2, E.3), if so."""
    if a.absolute and (a.imbalance > b.imbalance or not b.absolute):
        return a
    if b.absolute and (b.imbalance > a.imbalance or not a.absolute):
        return b
    if a.strong and not b.strong:
        return a
    if b.strong and not a.strong:
        return b
    return None


def _differed(a: Player, b: Player) -> int:
    """How many games back (counting each player's games played) the two last had different colours; 0: never."""
    xs = [g.colour for g in a.history if g.played]
    ys = [g.colour for g in b.history if g.played]
    back = 1
    while xs and ys and xs[-1] == ys[-1]:
        xs.pop()
        ys.pop()
        back += 1
    return back if xs and ys else 0


__all__ = ["explain_dutch"]
