"""Each tie-breaker as one figure for every player, exact: the presets' own (docs/engines.md) as the functions of
`METHODS`, FIDE C.07's through `standings.fide`.

Every figure is kept as an integer numerator over a denominator shared by all players (the lcm of the
denominators that actually occur), so ranking compares plain integers; `Fraction`s are built once per
figure for the result. That keeps an 8192-player event well under a second.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import lcm

from standings import fide
from standings.tally import LOST, WIN, Tally
from swiss.tiebreakers import TIEBREAKERS

Value = Fraction | tuple[Fraction, ...]


class Figure:
    """One figure for every player: integer keys that compare exactly, and the denominator that makes them values."""

    __slots__ = ("keys", "den", "vector", "_values")

    def __init__(self, keys: list, den: int, vector: bool = False):
        self.keys = keys
        self.den = den
        self.vector = vector
        self._values: dict = {}

    def value(self, i: int) -> Value:
        # Many players share a figure (points, mw, ...): build each Fraction once.
        k = self.keys[i]
        v = self._values.get(k)
        if v is None:
            v = tuple(Fraction(x, self.den) for x in k) if self.vector else Fraction(k, self.den)
            self._values[k] = v
        return v


class Figures:
    """The figures of one tally, each computed once (omw is made of every opponent's mw)."""

    def __init__(self, tally: Tally):
        self.tally = tally
        self._made: dict[str, Figure] = {}
        self._sorted_terms: list[list[int]] | None = None
        self._fide: fide.Tiebreaks | None = None

    def get(self, code: str) -> Figure:
        """The match points ("points") or a tie-breaker that depends on the player alone."""
        f = self._made.get(code)
        if f is None:
            if code != "points" and TIEBREAKERS[code].fide:
                f = exact_figure(self.fide().values(code))
            else:
                f = METHODS[code](self)
            self._made[code] = f
        return f

    def fide(self) -> fide.Tiebreaks:
        """FIDE C.07 tie-breaks, on the same points as the standings."""
        if self._fide is None:
            t = self.tally
            points = [Fraction(p, t.unit) for p in t.points]
            self._fide = fide.Tiebreaks(t.event, t.after_round, points)
        return self._fide

    def terms(self) -> list[list[int]]:
        """Buchholz terms, highest first: one per round, an opponent's match points, 0 for a round without one."""
        if self._sorted_terms is None:
            t = self.tally
            r, get = t.num_rounds, t.points.__getitem__
            self._sorted_terms = [
                sorted([*map(get, opps), *[0] * (r - len(opps))], reverse=True) for opps in t.opponents
            ]
        return self._sorted_terms

    def best_sums(self) -> list[list[int]]:
        """Per player, the sums of the best 1, 2, ..., R terms."""
        out = []
        for t in self.terms():
            acc, sums = 0, []
            for x in t:
                acc += x
                sums.append(acc)
            out.append(sums)
        return out


def points(f: Figures) -> Figure:
    return Figure(f.tally.points, f.tally.unit)


def mw(f: Figures) -> Figure:
    t = f.tally
    s = t.settings
    w = t.win
    if s.preset == "pokemon":
        # Play! Pokémon: byes count in neither the points nor the rounds; capped at 1, or 0.75 once dropped.
        planned = s.planned_rounds
        nums = [p - b * w for p, b in zip(t.points, t.byes, strict=True)]
        dens = [w * (r - b) for r, b in zip(t.played, t.byes, strict=True)]
        caps = [
            Fraction(3, 4)
            if p.dropped_after is not None and (planned is None or p.dropped_after < planned)
            else Fraction(1)
            for p in t.players
        ]
    else:
        nums = t.points
        dens = [w * r for r in t.played]
        caps = None
    return _clamped_ratios(nums, dens, s.floor, caps)


def gw(f: Figures) -> Figure:
    t = f.tally
    return _clamped_ratios(t.game_points, [3 * g for g in t.games], t.settings.floor, None)


def _mean_over_opponents(f: Figures, of: Figure) -> Figure:
    opponents = f.tally.opponents
    counts = {len(o) for o in opponents}
    counts.discard(0)
    per = lcm(*counts) if counts else 1
    keys = of.keys
    den = of.den * per
    # A player who met no opponent gets the floor; of.den is a multiple of the floor's denominator.
    fl = f.tally.settings.floor
    floor_key = fl.numerator * (den // fl.denominator)
    out = []
    get = keys.__getitem__
    for opps in opponents:
        if opps:
            out.append(sum(map(get, opps)) * (per // len(opps)))
        else:
            out.append(floor_key)
    return Figure(out, den)


def omw(f: Figures) -> Figure:
    return _mean_over_opponents(f, f.get("mw"))


def ogw(f: Figures) -> Figure:
    return _mean_over_opponents(f, f.get("gw"))


def oomw(f: Figures) -> Figure:
    return _mean_over_opponents(f, f.get("omw"))


def buchholz(f: Figures) -> Figure:
    return Figure([sum(t) for t in f.terms()], f.tally.unit)


def buchholz_cut1(f: Figures) -> Figure:
    return Figure([sum(t[:-1]) for t in f.terms()], f.tally.unit)


def median_buchholz(f: Figures) -> Figure:
    cut = 2 if f.tally.num_rounds >= 9 else 1
    return Figure([sum(t[cut:-cut]) for t in f.terms()], f.tally.unit)


def buchholz_cuts(f: Figures) -> Figure:
    return Figure([tuple(reversed(s)) for s in f.best_sums()], f.tally.unit, vector=True)


def buchholz_variant(f: Figures) -> Figure:
    r = f.tally.num_rounds
    # best R-2, best R-1, best R, then best, ..., 1 (the Danish backgammon federation's tie-break guide, its "Variant 1").
    order = [k for k in (r - 2, r - 1, r) if k >= 1] + list(range(r - 3, 0, -1))
    return Figure([tuple(s[k - 1] for k in order) for s in f.best_sums()], f.tally.unit, vector=True)


def sonneborn_berger(f: Figures) -> Figure:
    t = f.tally
    pts = t.points
    keys = []
    for opps, outs in zip(t.opponents, t.outcomes, strict=True):
        keys.append(sum(2 * pts[o] if oc == WIN else pts[o] for o, oc in zip(opps, outs, strict=True) if oc != LOST))
    return Figure(keys, 2 * t.unit)


def rating_sum(f: Figures) -> Figure:
    t = f.tally
    ratings = [p.rating or 0 for p in t.players]
    bye = t.settings.bye_rating
    return Figure([sum(map(ratings.__getitem__, o)) + bye * b for o, b in zip(t.opponents, t.byes, strict=True)], 1)


def wins(f: Figures) -> Figure:
    # Over the board: byes and forfeit wins are not wins here.
    t = f.tally
    return Figure([w - b for w, b in zip(t.wins, t.unplayed_wins, strict=True)], 1)


def cumulative(f: Figures) -> Figure:
    return Figure(f.tally.cumulative, f.tally.unit)


# Each figure by its code (swiss/tiebreakers.py), and the match points the standings rank by first.
METHODS: dict[str, Callable[[Figures], Figure]] = {
    "points": points,
    "mw": mw,
    "gw": gw,
    "omw": omw,
    "ogw": ogw,
    "oomw": oomw,
    "buchholz": buchholz,
    "buchholz_cut1": buchholz_cut1,
    "median_buchholz": median_buchholz,
    "buchholz_cuts": buchholz_cuts,
    "buchholz_variant": buchholz_variant,
    "sonneborn_berger": sonneborn_berger,
    "rating_sum": rating_sum,
    "wins": wins,
    "cumulative": cumulative,
}


def exact_figure(values: list[Fraction]) -> Figure:
    """Exact fractions as integer keys over their common denominator."""
    den = lcm(*{v.denominator for v in values}) if values else 1
    return Figure([v.numerator * (den // v.denominator) for v in values], den)


def _clamped_ratios(nums: list[int], dens: list[int], floor: Fraction, caps: list[Fraction] | None) -> Figure:
    """num/den per player over one common denominator, at least `floor` (also for den 0), at most the cap."""
    ds = {d for d in dens if d > 0}
    ds.add(floor.denominator)
    if caps is not None:
        ds.update(c.denominator for c in caps)
    common = lcm(*ds)
    floor_key = floor.numerator * (common // floor.denominator)
    keys = []
    for k, (num, den) in enumerate(zip(nums, dens, strict=True)):
        key = num * (common // den) if den > 0 else floor_key
        if key < floor_key:
            key = floor_key
        if caps is not None:
            cap = caps[k]
            cap_key = cap.numerator * (common // cap.denominator)
            if key > cap_key:
                key = cap_key
        keys.append(key)
    return Figure(keys, common)
