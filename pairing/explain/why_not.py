"""Why two players of a round are not paired together (docs/explanations.md#why-not): the first rule of the
round's engine that keeps them apart, as a Message with its facts.

    why_not(inp, result, a, b)  # inp: the PairingInput or DutchInput given to pairing.pair, result its Pairing

Plain facts first: one is not in the round, they are paired, they met before (the Dutch system; a forfeit is
not a game played), their absolute colour preferences clash (Dutch C.3), they are in different score groups
with no float between them. Otherwise the best round that does pair them is built and compared with the real
one by the engine's own order of criteria:

- the optimal engine: exactly its optimum with the pair forced (the pair, and the rest paired by the engine's
  own solver on the costs of the whole field), compared cost by cost: rematches, second byes, the squared point
  differences (the bye as a pair with the bottom of the field), the bye's rank, colour trouble; all equal, the
  seed chose (`lot`).
- the Dutch system: the pair, and the rest paired by the Dutch system as if the two were not in the round;
  compared on the bye's score (C.5), then bracket by bracket from the top, at the first bracket the two rounds
  pair differently, criterion by criterion (C.6-C.21, as pairing/dutch/system.py numbers them, measured as its
  weights measure them); none differs, the Dutch order of transpositions and exchanges decided (`dutch_order`).
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from pairing import optimal
from pairing.dutch import DutchInput, pair_dutch
from pairing.dutch.colours import WHITE, colour_bits
from pairing.dutch.players import DOWN, UP, Player, Round
from pairing.types import Pairing, PairingError, PairingInput
from swiss.messages import Message

__all__ = ["CARD_RULES", "RULE_WORDS", "why_not"]

# The optimal engine's costs, in its order.
CARD_RULES = ("rematches", "second_byes", "spread", "bye_rank", "colour")
BYE_RULES = frozenset({"second_byes", "bye_rank", "C.5", "C.9"})
# What each rule measures, as the English sentences name it (tournament/text/engine_text.py translates them).
RULE_WORDS = {
    "rematches": "rematches",
    "second_byes": "second byes",
    "spread": "the sum of squared point differences",
    "bye_rank": "the players ranked below the bye",
    "colour": "colour trouble",
    "C.5": "C.5, the score of the bye",
    "C.6": "C.6, the number of downfloaters",
    "C.7": "C.7, the scores of the downfloaters",
    "C.8": "C.8, the scores of the downfloaters not paired in the next score group",
    "C.9": "C.9, the unplayed games of the bye",
    "C.10": "C.10, pairs whose colour difference would pass 2",
    "C.11": "C.11, pairs where a player would have the same colour a third time",
    "C.12": "C.12, players without their colour preference",
    "C.13": "C.13, players without their strong colour preference",
    "C.14": "C.14, players floating down again after last round's downfloat",
    "C.15": "C.15, players floating up again after last round's upfloat",
    "C.16": "C.16, players floating down again after a downfloat two rounds ago",
    "C.17": "C.17, players floating up again after an upfloat two rounds ago",
    "C.18": "C.18, the scores of the players floating down again after last round's downfloat",
    "C.19": "C.19, the scores of the opponents of the players floating up again after last round's upfloat",
    "C.20": "C.20, the scores of the players floating down again after a downfloat two rounds ago",
    "C.21": "C.21, the scores of the opponents of the players floating up again after an upfloat two rounds ago",
}
COLOUR_WORDS = {"W": "white", "B": "black"}


def why_not(inp: PairingInput | DutchInput, result: Pairing, a: str, b: str) -> Message:
    """Why a and b do not play each other in the round `result` (the pairing of `inp`): a Message whose code
    names the first rule that keeps them apart and whose params are its facts."""
    if a == b:
        raise PairingError(Message("why_not_same_player", "choose two different players"))
    if isinstance(inp, DutchInput):
        paired = {p.id for p in inp.players if p.id in inp.present}
    else:
        paired = {e.id for e in inp.entrants}
    shown = [x for p in result.pairs for x in (p.a, p.b)] + [x for x in result.byes if x not in result.awarded_byes]
    if sorted(shown) != sorted(paired):
        raise ValueError(
            Message("why_not_other_players", "the pairing's players are not the round's: it cannot be explained")
        )
    if isinstance(inp, DutchInput):
        return _Dutch(inp, result, a, b).answer()
    return _Card(inp, result, a, b).answer()


# ------------------------------------------------------------------ shared


def _score(x: Fraction) -> str:
    """A score as people write it: 3, 1.5, 0.25 (a fraction only where no decimal is exact)."""
    if x.denominator == 1:
        return str(x.numerator)
    decimal = Decimal(x.numerator) / Decimal(x.denominator)
    return format(decimal, "f") if Fraction(decimal) == x else str(x)


def _rows(pairs: list[tuple[str, str]], bye: str | None, awarded: tuple[str, ...]) -> list[dict[str, Any]]:
    """A round as the command line's JSON lists it: the games by table, then the byes."""
    rows: list[dict[str, Any]] = [{"table": t, "a": x, "b": y} for t, (x, y) in enumerate(pairs, 1)]
    rows += [{"table": None, "a": pid, "b": None} for pid in ((bye,) if bye else ()) + awarded]
    return rows


def _paired(result: Pairing, a: str, b: str) -> Message | None:
    for p in result.pairs:
        if {p.a, p.b} == {a, b}:
            return Message("paired", "{a} and {b} are paired together (table {table})", a=a, b=b, table=p.table)
    return None


def _not_in_round(round_: int, a: str, b: str, paired: set[str]) -> Message | None:
    for pid in (a, b):
        if pid not in paired:
            return Message(
                "not_in_round",
                "{player} is not paired in round {round} (absent, or holding a pre-awarded bye)",
                player=pid,
                round=round_,
                a=a,
                b=b,
            )
    return None


def _worse(a: str, b: str, rule: str, this: Any, other: Any, rows: list, bye: str | None, **more: Any) -> Message:
    """The round with a and b paired loses at `rule`: `this` is its measure in the real round, `other` in that
    round; `bye` names whichever of a and b holds the real round's bye when the rule is about the bye."""
    facts = dict(a=a, b=b, rule=rule, this_round=this, with_pair=other, pairings=rows, **more)
    where = " in the bracket of score {bracket}" if "bracket" in more else ""
    if bye is not None and rule in BYE_RULES:
        return Message(
            "bye",
            "{player} has this round's bye: a round pairing {a} with {b} is worse by "
            + RULE_WORDS[rule]
            + where
            + " ({this_round} in this round, {with_pair} with the pair)",
            player=bye,
            **facts,
        )
    return Message(
        "worse",
        "pairing {a} with {b} makes the round worse by "
        + RULE_WORDS[rule]
        + where
        + " ({this_round} in this round, {with_pair} with the pair)",
        **facts,
    )


def _better(a: str, b: str, rule: str, this: Any, other: Any, rows: list, **more: Any) -> Message:
    """The round with a and b paired comes out better at `rule` by the measures here: the round asked about is not
    the best by them (changed by hand, or colour trouble beyond optimal.COLOUR_EXACT_MAX players, which the optimal
    engine lowers by local exchanges only). Said as it is, never as a reason."""
    return Message(
        "better_found",
        "a round pairing {a} with {b} measures better by "
        + RULE_WORDS[rule]
        + " ({with_pair} against {this_round} in this round): this round is not the best by that measure",
        a=a,
        b=b,
        rule=rule,
        this_round=this,
        with_pair=other,
        pairings=rows,
        **more,
    )


def _inside(bracket: list[str], mates: dict[str, str | None]) -> set[frozenset[str]]:
    """The pairs a round makes among the players of a bracket."""
    inside = set(bracket)
    return {frozenset((p, m)) for p in bracket if (m := mates[p]) is not None and m in inside}


def _score_of(players: dict[str, Player], pid: str | None) -> int | float:
    """A player's score in the round's unit; the bye's opponent below every score."""
    return players[pid].score if pid is not None else float("-inf")


def _other_group(a: str, b: str, points: dict[str, Fraction], games: list[tuple[str, str | None]]) -> Message | None:
    """Different scores, and the round pairs nobody (the bye: nobody) from the higher one's score down to the
    lower one's: no float was needed between them."""
    high, low = max(points[a], points[b]), min(points[a], points[b])
    if high == low:
        return None
    bottom = min(points.values())
    for x, y in games:
        py = points[y] if y is not None else bottom - 1
        if max(points[x], py) >= high and min(points[x], py) <= low:
            return None
    return Message(
        "other_group",
        "{a} ({score_a}) and {b} ({score_b}) are in different score groups, and no float was needed between them",
        a=a,
        b=b,
        score_a=_score(points[a]),
        score_b=_score(points[b]),
    )


# ------------------------------------------------------------------ the optimal engine


class _Card:
    def __init__(self, inp: PairingInput, result: Pairing, a: str, b: str):
        self.inp, self.result, self.a, self.b = inp, result, a, b
        self.by_id = {e.id: e for e in inp.entrants}

    def answer(self) -> Message:
        inp, result, a, b = self.inp, self.result, self.a, self.b
        found = _not_in_round(inp.round, a, b, set(self.by_id)) or _paired(result, a, b)
        if found:
            return found
        bye = next((pid for pid in result.byes if pid in (a, b) and pid not in result.awarded_byes), None)
        if inp.method == "rating":
            order = sorted(inp.entrants, key=lambda e: (-(e.rating or 0), e.rank, e.id))
            return Message(
                "by_rating",
                "round one by rating pairs the top half against the bottom half in order of rating: "
                "{a} is {place_a} and {b} is {place_b} of {count}",
                a=a,
                b=b,
                place_a=order.index(self.by_id[a]) + 1,
                place_b=order.index(self.by_id[b]) + 1,
                count=len(order),
            )
        solver = optimal._Solver(inp, random.Random(inp.seed), optimal.FULL_GRAPH_MAX, optimal.BLOCK_SIZE)
        real = self._games(result)
        forced = [(a, b), *self._rest(solver)]
        cost_real, cost_forced = self.cost(solver, real), self.cost(solver, forced)
        rows = self.rows(forced)
        for rule, x, y in zip(CARD_RULES, cost_real, cost_forced, strict=True):
            if x == y:
                continue
            shown = (self._shown(solver, rule, x), self._shown(solver, rule, y))
            if y > x:
                if rule == "rematches" and b in self.by_id[a].opponents:
                    return Message(
                        "met_before",
                        "{a} and {b} have played each other before (rematches: {this_round} in this round, "
                        "{with_pair} with the pair)",
                        a=a,
                        b=b,
                        round=None,  # the optimal engine's input knows who met, not in which round
                        rule=rule,
                        this_round=x,
                        with_pair=y,
                        pairings=rows,
                    )
                if rule == "spread" and bye is None:
                    points = {e.id: e.points for e in inp.entrants}
                    group = _other_group(a, b, points, real)
                    if group:
                        return group
                return _worse(a, b, rule, *shown, rows, bye)
            return _better(a, b, rule, *shown, rows)
        return Message(
            "lot",
            "pairing {a} with {b} gives a round exactly as good by every cost; the seed ({seed}) chose this one",
            a=a,
            b=b,
            seed=inp.seed,
            pairings=rows,
        )

    def _games(self, result: Pairing) -> list[tuple[str, str | None]]:
        return [(p.a, p.b) for p in result.pairs] + [
            (pid, None) for pid in result.byes if pid not in result.awarded_byes
        ]

    def _rest(self, solver: optimal._Solver) -> list[tuple[str, str | None]]:
        """The optimal pairing of everyone but a and b, on the whole field's costs: the bye's spread from the
        bottom of the whole field, its rank among the whole field (as an order among the rest)."""
        rest = tuple(e for e in self.inp.entrants if e.id not in (self.a, self.b))
        if not rest:
            return []
        inp = replace(self.inp, entrants=rest, awarded_byes=())
        part = optimal._Solver(inp, random.Random(self.inp.seed), optimal.FULL_GRAPH_MAX, optimal.BLOCK_SIZE)
        if part.scale != solver.scale:  # a's or b's points set the whole field's unit: the rest in it too
            part.scale, factor = solver.scale, solver.scale // part.scale
            part.value = [v * factor for v in part.value]
            part.distinct = [v * factor for v in part.distinct]
            part.level = {v: k for k, v in enumerate(part.distinct)}
            part.gap_sq = [g * factor * factor for g in part.gap_sq]
        part.low = solver.low
        full_below = [solver.below[solver.index[e.id]] for e in part.players]
        level = {v: k for k, v in enumerate(sorted(set(full_below)))}
        part.below = [level[v] for v in full_below]
        return [(x.id, y.id if y is not None else None) for x, y in part.solve()]

    def cost(self, solver: optimal._Solver, games: list[tuple[str, str | None]]) -> tuple[int, ...]:
        index = solver.index
        mate = {}
        for x, y in games:
            i, j = index[x], (index[y] if y is not None else solver.bye_node)
            mate[i], mate[j] = j, i
        return solver.cost(mate)

    def _shown(self, solver: optimal._Solver, rule: str, value: int) -> Any:
        if rule == "spread":
            return _score(Fraction(value, solver.scale**2))
        return value

    def rows(self, games: list[tuple[str, str | None]]) -> list[dict[str, Any]]:
        by_id = self.by_id
        pairs = []
        bye = None
        for x, y in games:
            if y is None:
                bye = x
                continue
            ex, ey = optimal._orient(by_id[x], by_id[y], self.inp.colours)
            pairs.append((ex, ey))
        pairs.sort(key=lambda p: (-max(p[0].points, p[1].points), -min(p[0].points, p[1].points)))
        return _rows([(x.id, y.id) for x, y in pairs], bye, self.result.awarded_byes)


# ------------------------------------------------------------------ the Dutch system


class _Dutch:
    def __init__(self, inp: DutchInput, result: Pairing, a: str, b: str):
        self.inp, self.result, self.a, self.b = inp, result, a, b
        self.rnd = Round.of(inp)  # the pairing just made built it, as a rule
        self.ids = [pid for pid in inp.present if pid in self.rnd.players]

    def answer(self) -> Message:
        inp, rnd, a, b = self.inp, self.rnd, self.a, self.b
        found = _not_in_round(inp.round, a, b, set(self.ids)) or _paired(self.result, a, b)
        if found:
            return found
        x, y = rnd.players[a], rnd.players[b]
        if b in rnd.met[a]:
            number = next(k for k, g in enumerate(x.history, 1) if g.played and g.opponent == b)
            return Message("met_before", "{a} and {b} played each other in round {round}", a=a, b=b, round=number)
        if not rnd.compatible(x, y):
            return Message(
                "colour_clash",
                "{a} and {b} both must have {colour} (an absolute colour preference), so they may not meet",
                a=a,
                b=b,
                colour=COLOUR_WORDS[x.pref],
            )
        real = self._mates(self.result)
        bye = next((pid for pid in (a, b) if real[pid] is None), None)
        group = None
        if bye is None:
            points = {pid: self._points(pid) for pid in self.ids}
            group = _other_group(a, b, points, [(p, q) for p, q in real.items() if q is None or p < q])
            # A plain fact, answered before the round is paired again where the rest surely can be paired: the
            # real round with a's and b's opponents paired together instead.
            if group and self._completes(real):
                return group
        rest = replace(inp, present=frozenset(self.ids) - {a, b}, awarded_byes=(), notes=())
        try:
            if len(rest.present) > 1:
                rnd.with_present(rest)  # the rest's facts are this round's: Round.of(rest) finds them
                other = self._mates(pair_dutch(rest))
            elif all(rnd.players[p].bye_eligible for p in rest.present):
                other = dict.fromkeys(self.ids)
            else:
                raise PairingError("the bye to a player who may not have it")
        except PairingError:
            return Message(
                "no_completion",
                "with {a} and {b} paired together, the rest of the round cannot be paired by the absolute "
                "criteria (C.4)",
                a=a,
                b=b,
                rule="C.4",
            )
        if group:
            return group
        other[a], other[b] = b, a
        rows = self.rows(other)
        rule, bracket, this, that = self.compare(real, other)
        more = {} if bracket is None else {"bracket": bracket}
        if rule == "order":
            return Message(
                "dutch_order",
                "every criterion is equal in the bracket of score {bracket}: the Dutch order of transpositions and "
                "exchanges comes to this round's pairs there ({this_round}) before the pairs of the round with "
                "{a} and {b} ({with_pair})",
                a=a,
                b=b,
                this_round=this,
                with_pair=that,
                pairings=rows,
                **more,
            )
        if rule.startswith("better "):
            return _better(a, b, rule.split()[1], this, that, rows, **more)
        return _worse(a, b, rule, this, that, rows, bye, **more)

    # Facts

    def _completes(self, real: dict[str, str | None]) -> bool:
        """The round with a and b paired can be completed by the absolute criteria (C.4), shown by one such
        round: the real one, a's and b's opponents paired together (every other pair compatible, the bye to a
        player who may have it: a round changed by hand need not be)."""
        rnd, players, a, b = self.rnd, self.rnd.players, self.a, self.b
        x, y = real[a], real[b]
        if x is None or y is None or not rnd.compatible(players[x], players[y]):
            return False
        for p, q in real.items():
            if p in (a, b, x, y):
                continue
            if q is None and not players[p].bye_eligible:
                return False
            if q is not None and p < q and not rnd.compatible(players[p], players[q]):
                return False
        return True

    def _points(self, pid: str) -> Fraction:
        """The score the round is paired by (with its acceleration)."""
        return self.rnd.score(self.rnd.players[pid], 0)

    def _mates(self, result: Pairing) -> dict[str, str | None]:
        mates: dict[str, str | None] = dict.fromkeys(self.ids)
        for p in result.pairs:
            mates[p.a], mates[p.b] = p.b, p.a
        return mates

    def rows(self, mates: dict[str, str | None]) -> list[dict[str, Any]]:
        rnd = self.rnd
        pairs, bye = [], None
        for pid, mate in mates.items():
            if mate is None:
                bye = pid
            elif pid < mate:
                x, y = rnd.players[pid], rnd.players[mate]
                pairs.append((x, y) if rnd.colour(x, y) == WHITE else (y, x))

        def key(pair: tuple[Player, Player]):
            hi, lo = sorted(pair, key=lambda p: (-p.score, p.rank))
            return (-hi.score, -lo.score, hi.rank)

        pairs.sort(key=key)
        return _rows([(x.id, y.id) for x, y in pairs], bye, self.result.awarded_byes)

    # The comparison

    def compare(self, real: dict[str, str | None], other: dict[str, str | None]) -> tuple[str, str | None, Any, Any]:
        """The first criterion the round `other` loses at against `real`: (rule, bracket score or None, the
        measure in real, in other); ("order", bracket, its pairs in each) when none differs."""
        players = self.rnd.players
        bye_real = next((p for p, m in real.items() if m is None), None)
        bye_other = next((p for p, m in other.items() if m is None), None)
        if bye_real is not None and bye_other is not None and players[bye_real].score != players[bye_other].score:
            return (
                ("C.5" if players[bye_other].score > players[bye_real].score else "better C.5"),
                None,
                _score(self._points(bye_real)),
                _score(self._points(bye_other)),
            )
        order = sorted((players[p] for p in self.ids), key=lambda x: (-x.score, x.rank))
        scores = sorted({x.score for x in order}, reverse=True)
        moved: list[str] = []
        for k, s in enumerate(scores):
            bracket = moved + [x.id for x in order if x.score == s]
            inside = set(bracket)
            pairs_real = _inside(bracket, real)
            pairs_other = _inside(bracket, other)
            if pairs_real == pairs_other:
                moved = [p for p in bracket if real[p] not in inside]
                continue
            following = scores[k + 1] if k + 1 < len(scores) else None
            last = following is None
            shown = _score(self._points(bracket[-1]))
            m_real = self.measures(bracket, real, following, last)
            m_other = self.measures(bracket, other, following, last)
            for (rule, key_r, show_r), (_, key_o, show_o) in zip(m_real, m_other, strict=True):
                if key_r != key_o:
                    return (rule if key_o > key_r else f"better {rule}"), shown, show_r, show_o
            return "order", shown, self._pairs_text(pairs_real), self._pairs_text(pairs_other)
        raise AssertionError("two different rounds pair some bracket differently")

    def _pairs_text(self, pairs: set[frozenset[str]]) -> str:
        rank = {pid: x.rank for pid, x in self.rnd.players.items()}
        ordered = sorted((sorted(p, key=rank.__getitem__) for p in pairs), key=lambda p: rank[p[0]])
        return ", ".join(f"{x}-{y}" for x, y in ordered)

    def measures(
        self, bracket: list[str], mates: dict[str, str | None], following: int | None, last: bool
    ) -> list[tuple[str, Any, Any]]:
        """The bracket's criteria C.6-C.21 in the round `mates`: (rule, key, shown), a smaller key better."""
        rnd, players = self.rnd, self.rnd.players
        inside = set(bracket)

        def score(pid: str) -> int:
            return players[pid].score

        def scores_key(pids: list[str]) -> tuple[int, ...]:
            return tuple(sorted((score(p) for p in pids), reverse=True))

        def scores_shown(pids: list[str]) -> str:
            return ", ".join(_score(self._points(p)) for p in sorted(pids, key=lambda p: -score(p)))

        down = [p for p in bracket if mates[p] not in inside]
        pairs = []  # (higher, lower)
        for pair in _inside(bracket, mates):
            x, y = sorted(pair, key=lambda p: (-score(p), players[p].rank))
            pairs.append((x, y))
        out: list[tuple[str, Any, Any]] = [
            ("C.6", len(down), len(down)),
            ("C.7", scores_key(down), scores_shown(down)),
        ]
        on = [p for p in down if following is None or _score_of(players, mates[p]) != following]
        out.append(("C.8", (len(on), scores_key(on)), scores_shown(on)))
        bye = next((p for p in bracket if mates[p] is None), None)
        unplayed = rnd.done - players[bye].played if last and bye is not None else 0
        out.append(("C.9", unplayed, unplayed))
        bits = [list(colour_bits(players[y], players[x])) for x, y in pairs]
        for k in range(4):
            failed = sum(not b[k] for b in bits)
            out.append((f"C.{10 + k}", failed, failed))
        backs = range(min(rnd.done, 2))
        counts: list[tuple[str, Any, Any]] = []
        sizes: list[tuple[str, Any, Any]] = []
        for f in (0, 1):
            if f not in backs:
                counts += [(f"C.{14 + 2 * f}", 0, 0), (f"C.{15 + 2 * f}", 0, 0)]
                sizes += [(f"C.{18 + 2 * f}", (), ""), (f"C.{19 + 2 * f}", (), "")]
                continue
            again_down = [
                p for p in bracket if players[p].floats[f] == DOWN and _score_of(players, mates[p]) < score(p)
            ]
            again_up = [(x, y) for x, y in pairs if players[y].floats[f] == UP and score(x) > score(y)]
            counts += [(f"C.{14 + 2 * f}", len(again_down), len(again_down))]
            counts += [(f"C.{15 + 2 * f}", len(again_up), len(again_up))]
            out_down = [p for p in bracket if players[p].floats[f] == DOWN and mates[p] not in inside]
            sizes += [(f"C.{18 + 2 * f}", scores_key(out_down), scores_shown(out_down))]
            opponents = [x for x, _ in again_up]
            sizes += [(f"C.{19 + 2 * f}", scores_key(opponents), scores_shown(opponents))]
        return out + counts + sizes  # C.14-C.17, then C.18-C.21
