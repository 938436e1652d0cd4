"""FIDE tie-breaks (Handbook C.07), with Article 16 on unplayed rounds, by the edition the event follows.

The edition is `swiss.rules.c07_edition` of the event's settings: the one it names, else the one in force on its
start date. What follows is the edition of March 2026; the edition of August 2024 differs where marked (2024).

Pure Python and exact: every value is a `Fraction`; ARO, TPR and PTP are whole numbers, rounded as the
regulation says (half up) from the exact figures.

Article 16, as this module applies it to a Swiss event:

* Every round of the event so far is a *slot* for every player: a game played over the board, or an
  unplayed round of one kind: pairing-allocated bye (`bye`), full-point bye, requested half-point or
  zero-point bye, unpaired loss (kept as a zero-point bye), forfeit win or loss, double forfeit, or an
  absence (the player is in no match of the round: before a late entry, after a withdrawal). A pairing
  whose result is not yet entered is no slot at all.
* Voluntary unplayed rounds (VUR, 16.1.2): requested byes (half-point, zero-point, an unpaired loss, an
  absence) and forfeit losses (a double forfeit is one for both players).
* An opponent's score as others see it (16.3): the points they were given, except that a requested bye
  followed only by voluntary unplayed rounds, or in the last round (16.2.5), counts as a draw.
* A participant's own unplayed round (16.4) is a game against a dummy opponent whose score is the
  participant's own score, but no more than the scheduled opponent's adjusted score for a forfeit (16.4.1)
  and no more than a draw's points times the number of rounds for any other unplayed round (16.4.2; the
  rounds counted so far: standings after round k are those of an event that ended there). The result is
  the points the participant got for the round; the scheduled opponent of a forfeit is no opponent.
  (2024: the dummy's score is the participant's own, neither cap applies.)
* Cut modifiers (14.1-14.4, 16.5): each cut of the least significant value takes, for Buchholz, the lowest
  voluntary unplayed round first; for Sonneborn-Berger the lowest VUR contribution unless the least
  significant value is higher (then that); again for every further cut (16.5.2). Then the most significant
  values go. (2024: when the two are equal, the least significant value goes.)
* Fore Buchholz (8.3): every pairing of the last round counted (a game, finished or not, or a forfeit) is
  a draw. (2024: a forfeit of the last round stays a forfeit.)
* Perfect tournament performance (10.3) of a perfect score: the lowest rating expected to score it, 736 above
  the highest-rated opponent. (2024: 800 above.)
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction
from math import lcm
from typing import NamedTuple, cast

from swiss.model import (
    BYE,
    DOUBLE_LOSS,
    DREW,
    FORFEIT,
    FULL_BYE,
    HALF_BYE,
    LOSS,
    LOST,
    PLAYED,
    SWISS,
    WON,
    ZERO_BYE,
    Event,
)
from swiss.numbers import pairing_numbers
from swiss.rules import C07_2024, c07_edition

# Slot kinds.
GAME = "game"
PAB = "pab"  # pairing-allocated bye
FPB = "fpb"  # full-point bye (also a pre-awarded bye)
HPB = "hpb"  # requested half-point bye
ZPB = "zpb"  # requested zero-point bye, or an unpaired loss
FORFEIT_WIN = "forfeit_win"
FORFEIT_LOSS = "forfeit_loss"
ABSENT = "absent"

REQUESTED = frozenset({HPB, ZPB, ABSENT})
# STD: a round's result in half points on the 1, ½, 0 scale.
_STANDARD = {WON: 2, DREW: 1, LOST: 0}
VOLUNTARY = REQUESTED | {FORFEIT_LOSS}
FORFEITS = frozenset({FORFEIT_WIN, FORFEIT_LOSS})
KOYA_ROUNDS = FORFEITS | {GAME}
# The cut modifiers (14.1-14.4): how many least and most significant values each leaves out.
CUTS = {"": (0, 0), "C1": (1, 0), "C2": (2, 0), "M1": (1, 1), "M2": (2, 2)}

# FIDE B.02 table 8.1(a): the rating difference dp for a fractional score p (in hundredths, 50..100).
_DP = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166,
    175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401,
    422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip


def dp(p: Fraction) -> int:
    """The B.02 rating difference for a fractional score p, rounded to hundredths (half up)."""
    hundredths = int(p * 100 + Fraction(1, 2))
    return _DP[hundredths - 50] if hundredths >= 50 else -_DP[50 - hundredths]


# B.02 table 8.1(b): the largest rating difference for each expected score from 0.50 to 0.99 (above 735: 1).
_PD_UPPER = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162, 170, 179,
    188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374, 391, 411, 432, 456,
    484, 517, 559, 619, 735,
)  # fmt: skip


def _expected_hundredths(difference: int) -> int:
    k = 50 + bisect_left(_PD_UPPER, difference if difference >= 0 else -difference)
    return k if difference >= 0 else 100 - k


def expected(difference: int) -> Fraction:
    """B.02 table 8.1(b): the expected score for a rating difference (negative: the lower-rated side)."""
    return Fraction(_expected_hundredths(difference), 100)


def round_half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


class Slot(NamedTuple):
    """One round of one player: what kind, against whom (games and forfeits), as what colour, for how much
    (in units of 1/unit of a point, so that every score is an integer)."""

    round: int
    kind: str
    opponent: int | None
    outcome: int  # WON, DREW, LOST
    points: int
    black: bool = False
    voluntary: bool = False


class Tiebreaks:
    """C.07 tie-breaks of every player of `event` after Swiss round `after_round`, on the given points.

    Scores are integers in units of 1/unit of a point (Sonneborn-Berger in half units); exact Fractions are
    built once per value.
    """

    def __init__(self, event: Event, after_round: int, points: list[Fraction], fore: bool = False):
        self.event = event
        self.after_round = after_round
        # The edition of August 2024 (swiss.rules): Article 16's dummy uncapped, and the other changes below.
        self.old = c07_edition(event.settings) == C07_2024
        s = event.settings.scoring
        unit = lcm(s.win.denominator, s.draw.denominator, s.loss.denominator)
        self.unit = unit
        self.draw = int(s.draw * unit)
        self.win = int(s.win * unit)
        self.slots = _slots(event, after_round, int(s.win * unit), self.draw, int(s.loss * unit), fore, self.old)
        if fore:
            # The Fore Buchholz's event has its own scores: those its slots add up to.
            self.points = [sum(x.points for x in slots) for slots in self.slots]
        else:
            self.points = [int(p * unit) for p in points]
        self.ratings = [p.rating for p in event.players]
        self._cache: dict[str, list[Fraction]] = {}
        self._adjusted: list[int] | None = None
        self._terms: list[list[tuple[int, int, bool]]] | None = None

    # ------------------------------------------------------------ Article 16

    def _adjusted_units(self) -> list[int]:
        if self._adjusted is None:
            draw = self.draw
            out = []
            for i, slots in enumerate(self.slots):
                total = self.points[i]
                for slot in reversed(slots):
                    if not slot.voluntary:
                        break
                    if slot.kind in REQUESTED:
                        total += draw - slot.points
                out.append(total)
            self._adjusted = out
        return self._adjusted

    def adjusted(self) -> list[Fraction]:
        """Each player's score as their opponents' tie-breaks see it (16.3 with 16.2.5)."""
        return [Fraction(a, self.unit) for a in self._adjusted_units()]

    def terms(self) -> list[list[tuple[int, int, bool]]]:
        """Per player, per slot: (the opponent's or the dummy's score, twice the SB contribution, voluntary)."""
        if self._terms is None:
            adjusted = self._adjusted_units()
            # 16.4.2: a dummy's score is at most a draw's points times the number of rounds.
            half_of_all = self.draw * self.after_round
            out = []
            for i, slots in enumerate(self.slots):
                own = self.points[i]
                row = []
                for slot in slots:
                    if slot.kind == GAME:
                        value = adjusted[cast(int, slot.opponent)]
                    elif self.old:
                        value = own  # 2024: the dummy scores the participant's own score
                    elif slot.kind in FORFEITS and slot.opponent is not None:
                        value = min(own, adjusted[slot.opponent])  # 16.4.1
                    else:
                        value = min(own, half_of_all)
                    twice = 2 * value if slot.outcome == WON else value if slot.outcome == DREW else 0
                    row.append((value, twice, slot.voluntary))
                out.append(row)
            self._terms = out
        return self._terms

    def opponent_scores(self, i: int) -> list[Fraction]:
        """The scores player i's Buchholz adds, one per round (a dummy's for an unplayed round)."""
        return [Fraction(t[0], self.unit) for t in self.terms()[i]]

    # ------------------------------------------------------------ the tie-breaks

    def values(self, code: str) -> list[Fraction]:
        v = self._cache.get(code)
        if v is None:
            v = self._cache[code] = self._compute(code)
        return v

    def _compute(self, code: str) -> list[Fraction]:
        unit = self.unit
        base, _, modifier = code.partition("-")
        if base == "BH":
            return _fractions([_buchholz(t, *CUTS[modifier]) for t in self.terms()], unit)
        if base == "FB":
            # Buchholz (with its cuts) as if every pairing of the last round had been drawn.
            fore = Tiebreaks(self.event, self.after_round, [], fore=True)
            return fore.values("BH" + code[2:])
        if code == "AOB":
            bh = [_buchholz(t, 0, 0) for t in self.terms()]
            out = []
            for slots in self.slots:
                opps = [bh[cast(int, s.opponent)] for s in slots if s.kind == GAME]
                out.append(Fraction(sum(opps), unit * len(opps)) if opps else Fraction(0))
            return out
        if base == "SB":
            terms = self.terms()
            return _fractions([_sonneborn_berger(t, *CUTS[modifier], self.old) for t in terms], 2 * unit)
        if code == "KS":
            return _fractions(self._koya(), unit)
        if code == "WIN":
            return _fractions([sum(1 for s in slots if s.outcome == WON) for slots in self.slots], 1)
        if code == "WON":
            return _fractions([sum(1 for s in slots if s.kind == GAME and s.outcome == WON) for slots in self.slots], 1)
        if code == "BPG":
            return _fractions([sum(1 for s in slots if s.kind == GAME and s.black) for slots in self.slots], 1)
        if code == "BWG":
            return _fractions(
                [sum(1 for s in slots if s.kind == GAME and s.black and s.outcome == WON) for slots in self.slots], 1
            )
        if code in ("REP", "GE"):
            # Rounds elected to play (REP; GE before March 2026): every round but the voluntary unplayed ones.
            return _fractions([sum(1 for s in slots if not s.voluntary) for slots in self.slots], 1)
        if code == "STD":
            # Standard points: each round's result on the 1, ½, 0 scale (a bye as what it gave: a win, a draw
            # or nothing), whatever the event scores.
            return _fractions([sum(_STANDARD[s.outcome] for s in slots) for slots in self.slots], 2)
        if code == "RTNG":
            return [Fraction(r or 0) for r in self.ratings]
        if code == "TPN":
            numbers = pairing_numbers(self.event)
            return [Fraction(numbers[p.id]) for p in self.event.players]
        if code in ("PS", "PS-C1"):
            totals: list[int] = []
            for slots in self.slots:
                running = total = 0
                for k, s in enumerate(slots):
                    running += s.points
                    if code == "PS" or k > 0:
                        total += running
                totals.append(total)
            return _fractions(totals, unit)
        if base == "ARO":
            low, high = CUTS[modifier]
            out = []
            for slots in self.slots:
                rated = sorted(r for r, _ in self._rated_games(slots))[low:]
                rated = rated[: len(rated) - high]
                out.append(Fraction(round_half_up(Fraction(sum(rated), len(rated)))) if rated else Fraction(0))
            return out
        if code == "TPR":
            return [self._tpr(slots) for slots in self.slots]
        if code == "PTP":
            return [self._ptp(slots) for slots in self.slots]
        if code in ("APRO", "APPO"):
            # The average of the opponents' TPR (APRO) or PTP (APPO), over the games played, rounded half up.
            own = self.values("TPR" if code == "APRO" else "PTP")
            out = []
            for slots in self.slots:
                met: list[Fraction] = [own[cast(int, s.opponent)] for s in slots if s.kind == GAME]
                out.append(Fraction(round_half_up(sum(met, Fraction(0)) / len(met))) if met else Fraction(0))
            return out
        raise KeyError(code)

    def _koya(self) -> list[int]:
        """KS (9.2): the points scored against the participants who scored at least half of the most an event
        of these rounds gives (a win's points each round); a forfeit counts, as a pre-determined event's."""
        most = self.win * self.after_round
        strong = [2 * p >= most for p in self.points]
        return [
            sum(s.points for s in slots if s.kind in KOYA_ROUNDS and s.opponent is not None and strong[s.opponent])
            for slots in self.slots
        ]

    def _rated_games(self, slots: list[Slot]) -> list[tuple[int, int]]:
        """(opponent's rating, half points scored) of the games played over the board against rated opponents."""
        ratings = self.ratings
        return [
            (r, 2 if s.outcome == WON else 1 if s.outcome == DREW else 0)
            for s in slots
            if s.kind == GAME and (r := ratings[cast(int, s.opponent)]) is not None
        ]

    def _tpr(self, slots: list[Slot]) -> Fraction:
        games = self._rated_games(slots)
        if not games:
            return Fraction(0)
        aro = Fraction(sum(r for r, _ in games), len(games))
        return Fraction(round_half_up(aro + dp(Fraction(sum(h for _, h in games), 2 * len(games)))))

    def _ptp(self, slots: list[Slot]) -> Fraction:
        games = self._rated_games(slots)
        if not games:
            return Fraction(0)
        ratings = [r for r, _ in games]
        halves = sum(h for _, h in games)
        if halves == 0:
            return Fraction(min(ratings) - 800)
        if self.old and halves == 2 * len(games):
            return Fraction(max(ratings) + 800)  # 2024: a perfect score is 800 above the highest
        # The lowest rating whose expected score (in hundredths) against these opponents reaches the score (10.3;
        # a perfect score: 736 above the highest, where the table's expected score reaches 1).
        need = 50 * halves
        lo, hi = min(ratings) - 800, max(ratings) + 800
        while lo < hi:
            mid = (lo + hi) // 2
            if sum(_expected_hundredths(mid - r) for r in ratings) >= need:
                hi = mid
            else:
                lo = mid + 1
        return Fraction(lo)


def _fractions(values: list[int], den: int) -> list[Fraction]:
    cache: dict[int, Fraction] = {}
    out = []
    for v in values:
        f = cache.get(v)
        if f is None:
            f = cache[v] = Fraction(v, den)
        out.append(f)
    return out


def _buchholz(terms: list[tuple[int, int, bool]], cut_low: int, cut_high: int) -> int:
    if not cut_low and not cut_high:
        return sum(t[0] for t in terms)
    # Least significant first: voluntary unplayed rounds (16.5.1), then the lowest scores.
    kept = sorted(terms, key=lambda t: (not t[2], t[0]))[cut_low:]
    if cut_high:
        kept = sorted(kept, key=lambda t: t[0])[: max(len(kept) - cut_high, 0)]
    return sum(t[0] for t in kept)


def _sonneborn_berger(terms: list[tuple[int, int, bool]], cut_low: int, cut_high: int, old: bool = False) -> int:
    kept = list(terms)
    for _ in range(min(cut_low, len(kept))):
        # 16.5.1 (again for every cut, 16.5.2): the lowest contribution from a VUR unless it is lower than the
        # least significant value (the contribution of the opponent with the lowest score, the lower among
        # equals), which then goes: the higher of the two, the VUR's when they are equal (2024: the least
        # significant value's).
        least = min(kept, key=lambda t: (t[0], t[1]))
        vur = [t for t in kept if t[2]]
        lowest_vur = min(vur, key=lambda t: t[1]) if vur else None
        vur_goes = lowest_vur is not None and (lowest_vur[1] > least[1] if old else lowest_vur[1] >= least[1])
        kept.remove(cast(tuple[int, int, bool], lowest_vur) if vur_goes else least)
    for _ in range(min(cut_high, len(kept))):
        # The most significant: the opponent with the highest score, the higher contribution among equals.
        kept.remove(max(kept, key=lambda t: (t[0], t[1])))
    return sum(t[1] for t in kept)


def _slots(
    event: Event, after_round: int, win: int, draw: int, loss: int, fore: bool, old: bool = False
) -> list[list[Slot]]:
    """Every player's slots, round by round, up to `after_round` (Swiss rounds and pre-awarded byes)."""
    index: dict[str | None, int] = {p.id: i for i, p in enumerate(event.players)}
    n = len(event.players)
    rounds = [r for r in event.rounds if r.kind == SWISS and r.number <= after_round]
    scope = {r.number for r in rounds}
    for p in event.players:
        scope.update(range(1, min(p.byes, after_round) + 1))
    per_round: dict[int, dict[int | None, Slot | None]] = {k: {} for k in scope}  # a game's b is never None
    value = {WON: win, DREW: draw, LOST: loss}
    for rnd in rounds:
        seen = per_round[rnd.number]
        k = rnd.number
        for m in rnd.matches:
            ia = index[m.a]
            ib = index[m.b] if m.b is not None else None
            r = m.result
            if (
                fore
                and k == after_round
                and ib is not None
                and r in ((PLAYED,) if old else (PLAYED, FORFEIT, DOUBLE_LOSS))
            ):
                # Fore Buchholz: every pairing of the last round (finished or not, forfeited or not; 2024: a game
                # over the board, finished or not) is a draw.
                seen[ia] = Slot(k, GAME, ib, DREW, draw)
                seen[ib] = Slot(k, GAME, ia, DREW, draw, black=True)
            elif r == PLAYED:
                if m.games is None:
                    seen[ia] = None  # still being played: no slot, and not absent either
                    if ib is not None:
                        seen[ib] = None
                    continue
                oa, ob = cast(tuple[int, int], m.outcome())  # a played game with its games
                seen[ia] = Slot(k, GAME, ib, oa, value[oa])
                seen[ib] = Slot(k, GAME, ia, ob, value[ob], black=True)
            elif r == BYE:
                seen[ia] = Slot(k, PAB, None, WON, win)
            elif r == FULL_BYE:
                seen[ia] = Slot(k, FPB, None, WON, win)
            elif r == HALF_BYE:
                seen[ia] = Slot(k, HPB, None, DREW, draw, voluntary=True)
            elif r in (ZERO_BYE, LOSS):
                seen[ia] = Slot(k, ZPB, None, LOST, loss, voluntary=True)
            elif r == FORFEIT:
                seen[ia] = Slot(k, FORFEIT_WIN, ib, WON, win)
                if ib is not None:
                    seen[ib] = Slot(k, FORFEIT_LOSS, ia, LOST, loss, voluntary=True)
            elif r == DOUBLE_LOSS:
                seen[ia] = Slot(k, FORFEIT_LOSS, ib, LOST, loss, voluntary=True)
                seen[ib] = Slot(k, FORFEIT_LOSS, ia, LOST, loss, voluntary=True)
    # Pre-awarded byes the file does not list are full-point byes, as the standings count them.
    for i, p in enumerate(event.players):
        for k in range(max(1, p.joined_round), min(p.byes, after_round) + 1):
            if p.dropped_after is not None and k > p.dropped_after:
                break
            if i not in per_round[k]:
                per_round[k][i] = Slot(k, FPB, None, WON, win)
    out: list[list[Slot]] = [[] for _ in range(n)]
    for k in sorted(scope):
        seen = per_round[k]
        for i in range(n):
            if i in seen:
                if (slot := seen[i]) is not None:
                    out[i].append(slot)
            else:
                out[i].append(Slot(k, ABSENT, None, LOST, 0, voluntary=True))
    return out
