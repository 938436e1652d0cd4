"""FIDE tie-breaks (Handbook C.07, in force since 1 August 2024), with Article 16 on unplayed rounds.

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
  participant's own final score; the result is the points the participant got for the round. This
  applies to forfeits too (the scheduled opponent is no opponent for these tie-breaks).
* Cut modifiers (16.5): Buchholz cuts voluntary unplayed rounds first (16.5.1); Sonneborn-Berger cuts
  the higher of the lowest VUR contribution and the least significant value (16.5.2).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from fractions import Fraction

from standings.eventfile import (
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
from standings.presets import FIDE_CODES

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
VOLUNTARY = REQUESTED | {FORFEIT_LOSS}

# Codes computed here, by their C.07 names. DE (direct encounter) depends on who else is tied and is
# computed by the standings engine among the players still tied.
NAMES = {
    "BH": "Buchholz",
    "BH-C1": "Buchholz Cut-1",
    "BH-C2": "Buchholz Cut-2",
    "BH-M1": "Buchholz Median-1",
    "BH-M2": "Buchholz Median-2",
    "FB": "Fore Buchholz",
    "AOB": "Average of Opponents' Buchholz",
    "SB": "Sonneborn-Berger",
    "SB-C1": "Sonneborn-Berger Cut-1",
    "WIN": "Number of wins",
    "WON": "Number of games won",
    "BPG": "Games played with Black",
    "BWG": "Games won with Black",
    "GE": "Games elected to play",
    "PS": "Progressive score",
    "PS-C1": "Progressive score Cut-1",
    "ARO": "Average rating of opponents",
    "ARO-C1": "Average rating of opponents Cut-1",
    "TPR": "Tournament performance rating",
    "PTP": "Perfect tournament performance",
}
DIRECT_ENCOUNTER = "DE"
NAMES[DIRECT_ENCOUNTER] = "Direct encounter"
# Every FIDE code but DE, which the standings engine computes among the players still tied.
CODES = tuple(c for c in FIDE_CODES if c != DIRECT_ENCOUNTER)
assert set(NAMES) == set(FIDE_CODES)

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


def expected(difference: int) -> Fraction:
    """B.02 table 8.1(b): the expected score of the higher-rated side for a rating difference."""
    d = abs(difference)
    k = bisect_left(_PD_UPPER, d)
    p = Fraction(50 + k, 100)
    return p if difference >= 0 else 1 - p


def round_half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


@dataclass(frozen=True)
class Slot:
    """One round of one player: what kind, against whom (games and forfeits), as what colour, for how much."""

    round: int
    kind: str
    opponent: int | None
    outcome: int  # WON, DREW, LOST
    points: Fraction
    black: bool = False

    @property
    def voluntary(self) -> bool:
        return self.kind in VOLUNTARY


class Tiebreaks:
    """C.07 tie-breaks of every player of `event` after Swiss round `after_round`, on the given points."""

    def __init__(self, event: Event, after_round: int, points: list[Fraction], fore: bool = False):
        self.event = event
        self.after_round = after_round
        s = event.settings.scoring
        self.win, self.draw, self.loss = s.win, s.draw, s.loss
        self.slots = _slots(event, after_round, s.win, s.draw, s.loss, fore)
        # The Fore Buchholz's event has its own scores: those its slots add up to.
        self.points = [sum((x.points for x in slots), Fraction(0)) for slots in self.slots] if fore else points
        self.ratings = [p.rating for p in event.players]
        self._cache: dict[str, list[Fraction]] = {}
        self._adjusted: list[Fraction] | None = None
        self.fore = fore

    # ------------------------------------------------------------ Article 16

    def adjusted(self) -> list[Fraction]:
        """Each player's score as their opponents' tie-breaks see it (16.3 with 16.2.5)."""
        if self._adjusted is None:
            out = []
            for i, slots in enumerate(self.slots):
                total = self.points[i]
                trailing = True
                for slot in reversed(slots):
                    if not slot.voluntary:
                        trailing = False
                    elif trailing and slot.kind in REQUESTED:
                        total += self.draw - slot.points
                out.append(total)
            self._adjusted = out
        return self._adjusted

    def _opponent_terms(self, i: int, score: list[Fraction]) -> list[tuple[Fraction, Fraction, bool]]:
        """Per slot: (the opponent's or dummy's score, the SB contribution, voluntary)."""
        own = self.points[i]
        terms = []
        for slot in self.slots[i]:
            value = score[slot.opponent] if slot.kind == GAME else own
            factor = 1 if slot.outcome == WON else Fraction(1, 2) if slot.outcome == DREW else 0
            terms.append((value, value * factor, slot.voluntary))
        return terms

    # ------------------------------------------------------------ the tie-breaks

    def values(self, code: str) -> list[Fraction]:
        v = self._cache.get(code)
        if v is None:
            v = self._cache[code] = self._compute(code)
        return v

    def _compute(self, code: str) -> list[Fraction]:
        n = len(self.slots)
        if code.startswith("BH"):
            cut = {"BH": (0, 0), "BH-C1": (1, 0), "BH-C2": (2, 0), "BH-M1": (1, 1), "BH-M2": (2, 2)}[code]
            adjusted = self.adjusted()
            return [_buchholz(self._opponent_terms(i, adjusted), *cut) for i in range(n)]
        if code == "FB":
            # Buchholz as if every game of the last round, finished or not, had been drawn.
            fore = Tiebreaks(self.event, self.after_round, [], fore=True)
            return fore.values("BH")
        if code == "AOB":
            bh = self.values("BH")
            out = []
            for slots in self.slots:
                opps = [bh[s.opponent] for s in slots if s.kind == GAME]
                out.append(sum(opps, Fraction(0)) / len(opps) if opps else Fraction(0))
            return out
        if code in ("SB", "SB-C1"):
            adjusted = self.adjusted()
            return [_sonneborn_berger(self._opponent_terms(i, adjusted), code == "SB-C1") for i in range(n)]
        if code == "WIN":
            return [Fraction(sum(1 for s in slots if s.outcome == WON)) for slots in self.slots]
        if code == "WON":
            return [Fraction(sum(1 for s in slots if s.kind == GAME and s.outcome == WON)) for slots in self.slots]
        if code == "BPG":
            return [Fraction(sum(1 for s in slots if s.kind == GAME and s.black)) for slots in self.slots]
        if code == "BWG":
            return [
                Fraction(sum(1 for s in slots if s.kind == GAME and s.black and s.outcome == WON))
                for slots in self.slots
            ]
        if code == "GE":
            return [Fraction(sum(1 for s in slots if not s.voluntary)) for slots in self.slots]
        if code in ("PS", "PS-C1"):
            out = []
            for slots in self.slots:
                running, total = Fraction(0), Fraction(0)
                for k, s in enumerate(slots):
                    running += s.points
                    if code == "PS" or k > 0:
                        total += running
                out.append(total)
            return out
        if code in ("ARO", "ARO-C1"):
            out = []
            for slots in self.slots:
                rated = sorted(r for r in self._opponent_ratings(slots))
                if code == "ARO-C1":
                    rated = rated[1:]
                out.append(Fraction(round_half_up(Fraction(sum(rated), len(rated)))) if rated else Fraction(0))
            return out
        if code == "TPR":
            return [self._tpr(slots) for slots in self.slots]
        if code == "PTP":
            return [self._ptp(slots) for slots in self.slots]
        raise KeyError(code)

    def _opponent_ratings(self, slots: list[Slot]) -> list[int]:
        """Ratings of the opponents met over the board (unrated opponents are left out)."""
        return [r for s in slots if s.kind == GAME and (r := self.ratings[s.opponent]) is not None]

    def _rated_games(self, slots: list[Slot]) -> tuple[list[int], Fraction]:
        games = [s for s in slots if s.kind == GAME and self.ratings[s.opponent] is not None]
        score = sum((_fraction_of_win(s.outcome) for s in games), Fraction(0))
        return [self.ratings[s.opponent] for s in games], score

    def _tpr(self, slots: list[Slot]) -> Fraction:
        ratings, score = self._rated_games(slots)
        if not ratings:
            return Fraction(0)
        aro = Fraction(sum(ratings), len(ratings))
        return Fraction(round_half_up(aro + dp(score / len(ratings))))

    def _ptp(self, slots: list[Slot]) -> Fraction:
        ratings, score = self._rated_games(slots)
        if not ratings:
            return Fraction(0)
        if score == 0:
            return Fraction(min(ratings) - 800)
        if score == len(ratings):
            return Fraction(max(ratings) + 800)
        # The lowest rating whose expected score against these opponents reaches the score.
        lo, hi = min(ratings) - 800, max(ratings) + 800
        while lo < hi:
            mid = (lo + hi) // 2
            if sum((expected(mid - r) for r in ratings), Fraction(0)) >= score:
                hi = mid
            else:
                lo = mid + 1
        return Fraction(lo)


def _fraction_of_win(outcome: int) -> Fraction:
    return Fraction(1) if outcome == WON else Fraction(1, 2) if outcome == DREW else Fraction(0)


def _buchholz(terms: list[tuple[Fraction, Fraction, bool]], cut_low: int, cut_high: int) -> Fraction:
    # Least significant first: voluntary unplayed rounds (16.5.1), then the lowest scores.
    order = sorted(terms, key=lambda t: (not t[2], t[0]))
    kept = order[cut_low:]
    if cut_high:
        kept = sorted(kept, key=lambda t: t[0])[: max(len(kept) - cut_high, 0)]
    return sum((t[0] for t in kept), Fraction(0))


def _sonneborn_berger(terms: list[tuple[Fraction, Fraction, bool]], cut1: bool) -> Fraction:
    total = sum((t[1] for t in terms), Fraction(0))
    if not cut1 or not terms:
        return total
    # 16.5.2: the higher of the lowest contribution from a VUR and the least significant value (the
    # contribution of the opponent with the lowest score, the lower contribution among equal scores).
    least = min(terms, key=lambda t: (t[0], t[1]))[1]
    vur = [t[1] for t in terms if t[2]]
    return total - (max(least, min(vur)) if vur else least)


def _slots(
    event: Event, after_round: int, win: Fraction, draw: Fraction, loss: Fraction, fore: bool
) -> list[list[Slot]]:
    """Every player's slots, round by round, up to `after_round` (Swiss rounds and pre-awarded byes)."""
    index = {p.id: i for i, p in enumerate(event.players)}
    n = len(event.players)
    rounds = [r for r in event.rounds if r.kind == SWISS and r.number <= after_round]
    scope = {r.number for r in rounds}
    for p in event.players:
        scope.update(range(1, min(p.byes, after_round) + 1))
    per_round: dict[int, dict[int, Slot | None]] = {k: {} for k in scope}
    value = {WON: win, DREW: draw, LOST: loss}
    for rnd in rounds:
        seen = per_round[rnd.number]
        k = rnd.number
        for m in rnd.matches:
            ia = index[m.a]
            ib = index[m.b] if m.b is not None else None
            r = m.result
            if r == PLAYED:
                if m.games is None and fore and k == after_round:
                    # Fore Buchholz: a last-round game still being played counts as a draw.
                    seen[ia] = Slot(k, GAME, ib, DREW, draw)
                    seen[ib] = Slot(k, GAME, ia, DREW, draw, black=True)
                    continue
                if m.games is None:
                    seen[ia] = None  # still being played: no slot, and not absent either
                    if ib is not None:
                        seen[ib] = None
                    continue
                oa, ob = m.outcome()
                if fore and k == after_round:
                    oa = ob = DREW
                seen[ia] = Slot(k, GAME, ib, oa, value[oa])
                seen[ib] = Slot(k, GAME, ia, ob, value[ob], black=True)
            elif r == BYE:
                seen[ia] = Slot(k, PAB, None, WON, win)
            elif r == FULL_BYE:
                seen[ia] = Slot(k, FPB, None, WON, win)
            elif r == HALF_BYE:
                seen[ia] = Slot(k, HPB, None, DREW, draw)
            elif r in (ZERO_BYE, LOSS):
                seen[ia] = Slot(k, ZPB, None, LOST, loss)
            elif r == FORFEIT:
                seen[ia] = Slot(k, FORFEIT_WIN, ib, WON, win)
                if ib is not None:
                    seen[ib] = Slot(k, FORFEIT_LOSS, ia, LOST, loss)
            elif r == DOUBLE_LOSS:
                seen[ia] = Slot(k, FORFEIT_LOSS, ib, LOST, loss)
                seen[ib] = Slot(k, FORFEIT_LOSS, ia, LOST, loss)
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
                if seen[i] is not None:
                    out[i].append(seen[i])
            else:
                out[i].append(Slot(k, ABSENT, None, LOST, Fraction(0)))
    return out
