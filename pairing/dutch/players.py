"""The players of a Dutch round and the facts the rules ask of them (pairing/dutch/system.py pairs them).

Scores with the round's acceleration (the Baku method's, or the players' own: TRF XXA), colour preferences
and their strength (C.04.3 A.6, A.7), floats one and two rounds back (A.4), who may meet whom (C.04.3
C.1-C.3, with the topscorers' exception of A.7) and the colour each pair's players get (C.04.3 E, with
C.04.2's initial colour).
"""

from __future__ import annotations

import copy
import math
from collections import OrderedDict
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import cast

from pairing.dutch.colours import BLACK, WHITE, invert, neutral_colour
from swiss.messages import Message

DOWN, UP = "down", "up"
ZERO = Fraction(0)


@dataclass(frozen=True)
class Game:
    """A player's round: a game, a forfeit, a bye, or absence."""

    points: Fraction = Fraction(0)
    opponent: str | None = None  # the opponent paired (a forfeit too); None for a bye or absence
    colour: str = ""  # WHITE or BLACK for a game played
    played: bool = False  # the game was played (a forfeit was not)
    pairing_bye: bool = False  # the pairing-allocated bye


@dataclass(frozen=True)
class DutchPlayer:
    id: str
    number: int  # the pairing number (C.04.2): rating, title, name; late entries re-numbered
    history: tuple[Game, ...] = ()  # exactly one Game a round before the one to pair, absences included
    # Manual acceleration (TRF XXA): the points added to the score when pairing round 1, 2, 3… (none: 0). Any
    # player's turns the Baku method off, as bbpPairings reads an XXA line.
    accelerations: tuple[Fraction, ...] = ()


@dataclass(frozen=True)
class DutchInput:
    round: int  # the round to pair
    rounds: int  # the rounds planned (the last round relaxes colours for topscorers)
    players: tuple[DutchPlayer, ...]  # every player of the event
    present: frozenset[str]  # who is paired this round
    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    initial_colour: str = WHITE  # the colour of pairing number 1 in round 1 (XXC "white1")
    initial_by_lot: bool = False  # initial_colour was drawn by lot for this pairing (nobody chose it)
    baku: bool = False  # accelerated pairings, Baku method (C.04.5.1), unless a player has manual ones
    awarded_byes: tuple[str, ...] = ()  # players holding a pre-awarded bye: listed after the bye, never paired
    seed: int = 0  # reported with the pairing: the Dutch system draws nothing (initial_colour holds the lot)
    notes: tuple[Message, ...] = ()  # what the pairing says first (who is left out of it, pairing.event)
    # Pairs who must not meet (team-mates, family; TRF-2026 260): as if they had played each other (C.04.3 C.1).
    forbidden: tuple[tuple[str, str], ...] = ()


@dataclass
class Player:
    id: str
    number: int
    history: tuple[Game, ...]
    rank: int = 0  # among the players taking part, by pairing number
    score: int = 0  # with the acceleration of this round, in the round's unit of points (see _Round)
    played: int = 0
    pref: str = ""
    imbalance: int = 0
    repeated: str = ""  # the colour had twice or more in a row, if so
    strong: bool = False
    bye_eligible: bool = True
    accelerations: tuple[Fraction, ...] = ()
    floats: tuple[str | None, str | None] = (None, None)  # one and two rounds ago

    @property
    def absolute(self) -> bool:
        return self.imbalance > 1 or self.repeated != ""


class Round:
    @classmethod
    def of(cls, inp: DutchInput) -> Round:
        """The round of this very input: the one built for it when it is the same object and among the last few
        asked for (the explanation of a pairing and "why not", pairing/explain, ask about the input just
        paired, question after question), else a new one. Nothing changes a Round's facts once built."""
        kept = _KEPT.get(id(inp))
        if kept is not None and kept[0] is inp:
            _KEPT.move_to_end(id(inp))
            return kept[1]
        return cls._keep(inp, cls(inp))

    @classmethod
    def _keep(cls, inp: DutchInput, rnd: Round) -> Round:
        _KEPT[id(inp)] = (inp, rnd)  # the input held too: its id is not given to another object while kept
        _KEPT.move_to_end(id(inp))
        while len(_KEPT) > KEPT_ROUNDS:
            _KEPT.popitem(last=False)
        return rnd

    def with_present(self, inp: DutchInput) -> Round:
        """The round of `inp`, this round's input with fewer or other players present (and no pre-awarded byes
        or notes): these very facts when the same players take part (everyone whose presence changed was paired
        in an earlier round), else built anew; kept for Round.of(inp) either way."""
        mine = self.inp
        same = replace(inp, present=mine.present, awarded_byes=mine.awarded_byes, notes=mine.notes) == mine
        changed = mine.present ^ inp.present
        if same and all(pid in self.players and self._took_part(pid) for pid in changed):
            rnd = copy.copy(self)
            rnd.inp = inp
        else:
            rnd = Round(inp)
        return Round._keep(inp, rnd)

    def _took_part(self, pid: str) -> bool:
        return any(_paired(g) for g in self.players[pid].history)

    def __init__(self, inp: DutchInput):
        self.inp = inp
        done = inp.round - 1
        self.done = done
        by_number = sorted(inp.players, key=lambda p: p.number)
        # The players taking part (C.04.2): present now, or paired in some round before.
        taking_part = [p for p in by_number if p.id in inp.present or any(_paired(g) for g in p.history)]
        self.players: dict[str, Player] = {}
        self._totals: dict[str, list[int]] = {}  # each player's score after each round, in units
        self._acc_units: dict[int, list[int]] = {}  # accelerations, in units
        self._points: dict[str, int] = {}  # each player's points now, without acceleration, in units
        manual = any(p.accelerations for p in inp.players)
        accelerated = set()
        if inp.baku and not manual:
            accelerated = {p.id for p in by_number[: (len(by_number) - 1) // 2 + 1]}
        last_acc = (inp.rounds - 1) // 2
        last_full = last_acc // 2
        none = (ZERO,) * (done + 1)
        baku = tuple(inp.win if r <= last_full else inp.draw if r <= last_acc else ZERO for r in range(done + 1))
        for rank, p in enumerate(taking_part):
            if manual:
                acc = tuple(p.accelerations[r] if r < len(p.accelerations) else ZERO for r in range(done + 1))
            else:
                acc = baku if p.id in accelerated else none
            self.players[p.id] = Player(p.id, p.number, p.history, rank=rank, accelerations=acc)
        # Scores as integers in the smallest unit every score is a whole number of: the weights compare and
        # look them up hundreds of thousands of times.
        denominators = {Fraction(q).denominator for q in (inp.win, inp.draw, inp.loss)}
        # Each distinct object once (a file's reader shares them: a few in all).
        points = {id(g.points): g.points for p in taking_part for g in p.history}
        accelerations = {id(x.accelerations): x.accelerations for x in self.players.values()}
        denominators.update(q.denominator for q in points.values())
        denominators.update(a.denominator for many in accelerations.values() for a in many)
        unit = math.lcm(*denominators)
        self.unit = unit
        self.threshold = self.done * max(inp.win, inp.draw) / 2 * unit  # topscorers (C.04.3 A.7)
        for x in self.players.values():
            self._colour_data(x)
            x.bye_eligible = not any(not g.played and (g.points >= inp.win or g.pairing_bye) for g in x.history)
            x.score = self._units(x, 0)
        for x in self.players.values():
            x.floats = (self._float(x, 1), self._float(x, 2))
        self.met = {pid: {g.opponent for g in x.history if g.played} for pid, x in self.players.items()}
        for a, b in inp.forbidden:
            if a in self.met and b in self.met:
                self.met[a].add(b)
                self.met[b].add(a)

    # Facts about the players

    def score(self, x: Player, back: int) -> Fraction:
        """x's score `back` rounds ago (0: now), with the acceleration of that round."""
        return Fraction(self._units(x, back), self.unit)

    def points(self, x: Player) -> int:
        """x's points now, without acceleration, in units (score() is in points, with it)."""
        if x.id not in self._points:
            self._units(x, 0)
        return self._points[x.id]

    def _units(self, x: Player, back: int) -> int:
        """score(), in units."""
        row = self._totals.get(x.id)
        if row is None:  # the score after each round, with that round's acceleration, worked out once
            unit, total = self.unit, 0
            totals = [0]
            for g in x.history[: self.done]:
                points = g.points
                total += points.numerator * (unit // points.denominator)
                totals.append(total)
            # By the tuple itself (a Fraction's hash is slow), which the player holds: few kinds, shared but
            # for a file's own lines (none, Baku's).
            acc = self._acc_units.get(id(x.accelerations))
            if acc is None:
                acc = self._acc_units[id(x.accelerations)] = [
                    a.numerator * (unit // a.denominator) for a in x.accelerations
                ]
            last = len(totals) - 1
            if any(acc):
                row = [totals[min(r, last)] + (acc[r] if r < len(acc) else 0) for r in range(self.done + 1)]
            else:  # as a rule
                row = totals + [totals[last]] * (self.done - last)
            self._totals[x.id] = row
            self._points[x.id] = totals[min(self.done, last)]
        return row[self.done - back]

    def _float(self, x: Player, back: int) -> str | None:
        if self.done < back:
            return None
        g = x.history[self.done - back]
        if not g.played:
            return DOWN if g.points > self.inp.loss else None
        # Every player's scores are summed before the floats are asked for (__init__).
        r = self.done - back
        mine, theirs = self._totals[x.id][r], self._totals[cast(str, g.opponent)][r]
        return DOWN if mine > theirs else UP if mine < theirs else None

    @staticmethod
    def _colour_data(x: Player) -> None:
        whites = blacks = run = 0
        last = ""
        for g in x.history:
            if not g.played:
                continue
            x.played += 1
            whites += g.colour == WHITE
            blacks += g.colour == BLACK
            run = run + 1 if run and g.colour == last else 1
            last = g.colour
        lower = BLACK if whites > blacks else WHITE
        x.imbalance = abs(whites - blacks)
        x.pref = (
            lower
            if x.imbalance > 1
            else invert(last)
            if run > 1
            else lower
            if x.imbalance > 0
            else invert(last)
            if run
            else ""
        )
        x.repeated = last if run > 1 else ""
        x.strong = not x.absolute and x.imbalance > 0

    def compatible(self, a: Player, b: Player) -> bool:
        if b.id in self.met[a.id]:
            return False
        if not (a.absolute and b.absolute and a.pref == b.pref):
            return True
        # Topscorers in the last round may break the colour rules (C.04.3 A.7).
        return self.done >= self.inp.rounds - 1 and (a.score > self.threshold or b.score > self.threshold)

    def higher(self, a: Player, b: Player) -> bool:
        """a ranks above b: more points, then the smaller pairing number."""
        return (a.score, -a.rank) > (b.score, -b.rank)

    # The pairing

    def colour(self, x: Player, y: Player) -> str:
        """The colour x gets against y (C.04.3 E)."""
        c = neutral_colour(x, y)
        if c:
            return c
        initial = self.inp.initial_colour
        if not x.pref:
            if self.higher(y, x):
                return initial if y.rank % 2 else invert(initial)
            return invert(initial) if x.rank % 2 else initial
        return invert(y.pref) if self.higher(y, x) else x.pref


# Round.of()'s: the last inputs asked for (by object) and their rounds, the most recent last. A few: the
# explanation of a round, "why not" about it and the rounds it builds, a few rounds asked about at once (web).
KEPT_ROUNDS = 6
_KEPT: OrderedDict[int, tuple[DutchInput, Round]] = OrderedDict()


def _paired(g: Game) -> bool:
    return g.opponent is not None or g.pairing_bye
