"""Standings: match points, then the event's tie-breakers in order, with exact rational arithmetic (docs/engines.md).

Every figure is kept as an integer numerator over a denominator shared by all players (the lcm of the
denominators that actually occur), so ranking compares plain integers; `Fraction`s are built once per
figure for the result. That keeps an 8192-player event well under a second.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm

from standings import fide
from swiss.messages import Message
from swiss.model import BYE, DOUBLE_LOSS, FORFEIT, FULL_BYE, HALF_BYE, LOSS, SWISS, ZERO_BYE, Event
from swiss.names import sort_form

PERCENTAGES = ("mw", "gw", "omw", "ogw", "oomw")
# Tie-breakers whose value depends on who else is still tied, not on the player alone.
GROUP_DEPENDENT = ("direct_encounter", "head_to_head", "DE")

Value = Fraction | tuple[Fraction, ...]

WIN, DRAW, LOST = 2, 1, 0


class StandingsError(ValueError):
    """The event contradicts itself (a match names a player who is not registered)."""


@dataclass(frozen=True)
class Row:
    """One player's line. Players equal on every figure share a rank (1, 2, 2, 4) and are listed by name, then id.

    `wins` counts byes (the record W-L-D); unpaired and double losses are losses. `tiebreakers` maps each of
    the event's codes, in order, to an exact Fraction, or a tuple of them for buchholz_cuts/buchholz_variant.
    `dropped`: the player dropped in or before the round the standings are after.
    """

    rank: int
    player_id: str
    name: str
    points: Fraction
    wins: int
    losses: int
    draws: int
    rounds_played: int
    tiebreakers: dict[str, Value]
    dropped: bool = False


@dataclass(frozen=True)
class Standings:
    """The ranked rows after Swiss round `after_round` (0: before any result), with the tie-breakers used."""

    after_round: int
    tiebreakers: tuple[str, ...]
    rows: tuple[Row, ...]

    def by_player(self) -> dict[str, Row]:
        return {r.player_id: r for r in self.rows}


class _Figure:
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


def last_round_with_result(event: Event) -> int:
    """The number of the last Swiss round with any result entered, 0 when there is none."""
    return max(
        (r.number for r in event.rounds if r.kind == SWISS and any(m.has_result for m in r.matches)),
        default=0,
    )


def compute(event: Event, after_round: int | None = None) -> Standings:
    """The standings of `event` after Swiss round `after_round` (default: the last round with a result)."""
    if after_round is None:
        after_round = last_round_with_result(event)
    known = {p.id for p in event.players}
    for r in event.rounds:
        for m in r.matches:
            for pid in (m.a, m.b):
                if pid is not None and pid not in known:
                    raise StandingsError(
                        Message(
                            "unregistered_player",
                            "round {round}: player {player} is not registered in the event",
                            round=r.number,
                            player=repr(pid),
                        )
                    )
    return _Computation(event, after_round).standings()


def points_by_player(event: Event) -> dict[str, Fraction]:
    """Every player's points after the event's last Swiss round, by id: the standings without tie-breakers
    (quick; what the TRF reader checks a file's points column against)."""
    bare = replace(event, settings=replace(event.settings, tiebreakers=()))
    last = max((r.number for r in event.rounds if r.kind == SWISS), default=0)
    return {row.player_id: row.points for row in compute(bare, after_round=last).rows}


class _Computation:
    def __init__(self, event: Event, after_round: int):
        self.after_round = after_round
        s = event.settings
        self.settings = s
        players = event.players
        self.players = players
        n = len(players)
        self.n = n
        index = {p.id: i for i, p in enumerate(players)}

        # Match points in units of 1/unit, so that every score is an integer.
        sc = s.scoring
        unit = lcm(sc.win.denominator, sc.draw.denominator, sc.loss.denominator)
        self.unit = unit
        w, d, lo = int(sc.win * unit), int(sc.draw * unit), int(sc.loss * unit)
        self.w = w
        need = s.games_to_win

        rounds = [r for r in event.rounds if r.kind == SWISS and r.number <= after_round]
        scope = {r.number for r in rounds}
        for p in players:
            scope.update(range(1, min(p.byes, after_round) + 1))
        scope_sorted = sorted(scope)
        self.num_rounds = len(scope_sorted)
        # A result in round r adds its points to the running score of every later round (cumulative).
        weight = {r: len(scope_sorted) - k for k, r in enumerate(scope_sorted)}

        pts = [0] * n
        wins = [0] * n
        losses = [0] * n
        draws = [0] * n
        byes = [0] * n
        # Wins without a game: byes and forfeit wins (the `wins` figure counts only wins over the board).
        unplayed_wins = [0] * n
        gpts = [0] * n
        games = [0] * n
        cumul = [0] * n
        # One entry per match against an opponent, rematches twice: who, and how it ended for this player.
        opponents: list[list[int]] = [[] for _ in range(n)]
        outcomes: list[list[int]] = [[] for _ in range(n)]

        def bye(i: int, wr: int) -> None:
            byes[i] += 1
            unplayed_wins[i] += 1
            wins[i] += 1
            pts[i] += w
            cumul[i] += w * wr
            # A bye is a match won by the games needed to win it (2-0 in best of 3).
            gpts[i] += 3 * need
            games[i] += need

        for rnd in rounds:
            wr = weight[rnd.number]
            for m in rnd.matches:
                g = m.games
                if g is not None:
                    ia = index[m.a]
                    ib = index[m.b]
                    ga, gb, gd = g
                    gpts[ia] += 3 * ga + gd
                    gpts[ib] += 3 * gb + gd
                    total = ga + gb + gd
                    games[ia] += total
                    games[ib] += total
                    if ga > gb:
                        wins[ia] += 1
                        losses[ib] += 1
                        pts[ia] += w
                        pts[ib] += lo
                        cumul[ia] += w * wr
                        cumul[ib] += lo * wr
                        opponents[ia].append(ib)
                        outcomes[ia].append(WIN)
                        opponents[ib].append(ia)
                        outcomes[ib].append(LOST)
                    elif gb > ga:
                        wins[ib] += 1
                        losses[ia] += 1
                        pts[ib] += w
                        pts[ia] += lo
                        cumul[ib] += w * wr
                        cumul[ia] += lo * wr
                        opponents[ib].append(ia)
                        outcomes[ib].append(WIN)
                        opponents[ia].append(ib)
                        outcomes[ia].append(LOST)
                    else:
                        draws[ia] += 1
                        draws[ib] += 1
                        pts[ia] += d
                        pts[ib] += d
                        cumul[ia] += d * wr
                        cumul[ib] += d * wr
                        opponents[ia].append(ib)
                        outcomes[ia].append(DRAW)
                        opponents[ib].append(ia)
                        outcomes[ib].append(DRAW)
                elif m.result == BYE or m.result == FULL_BYE:
                    bye(index[m.a], wr)
                elif m.result == LOSS or m.result == ZERO_BYE:
                    ia = index[m.a]
                    losses[ia] += 1
                    pts[ia] += lo
                    cumul[ia] += lo * wr
                elif m.result == HALF_BYE:
                    # A requested half-point bye: the draw's points, no game and no opponent.
                    ia = index[m.a]
                    draws[ia] += 1
                    pts[ia] += d
                    cumul[ia] += d * wr
                elif m.result == FORFEIT:
                    # Won without playing, by the games needed to win (as a bye); the absent player lost them.
                    ia = index[m.a]
                    wins[ia] += 1
                    unplayed_wins[ia] += 1
                    pts[ia] += w
                    cumul[ia] += w * wr
                    gpts[ia] += 3 * need
                    games[ia] += need
                    if m.b is not None:
                        ib = index[m.b]
                        losses[ib] += 1
                        pts[ib] += lo
                        cumul[ib] += lo * wr
                        games[ib] += need
                        opponents[ia].append(ib)
                        outcomes[ia].append(WIN)
                        opponents[ib].append(ia)
                        outcomes[ib].append(LOST)
                elif m.result == DOUBLE_LOSS:
                    ia, ib = index[m.a], index[m.b]
                    for i, j in ((ia, ib), (ib, ia)):
                        losses[i] += 1
                        pts[i] += lo
                        cumul[i] += lo * wr
                        opponents[i].append(j)
                        outcomes[i].append(LOST)
                # else: a pairing whose result is still outstanding.

        # Pre-awarded byes: files may leave them out; the app stores them as matches.
        most = min(max((p.byes for p in players), default=0), after_round)
        listed = {r: {pid for m in rnd.matches for pid in (m.a, m.b)} for rnd in rounds if (r := rnd.number) <= most}
        for i, p in enumerate(players):
            for r in range(max(1, p.joined_round), min(p.byes, after_round) + 1):
                if p.dropped_after is not None and r > p.dropped_after:
                    break
                if p.id not in listed.get(r, ()):
                    bye(i, weight[r])

        self.pts, self.wins, self.losses, self.draws = pts, wins, losses, draws
        # Every round a player took part in is exactly one win (byes included), loss or draw.
        self.played = [a + b + c for a, b, c in zip(wins, losses, draws, strict=True)]
        self.byes, self.gpts, self.games = byes, gpts, games
        self.unplayed_wins = unplayed_wins
        self.event = event
        self.cumul, self.opponents, self.outcomes = cumul, opponents, outcomes
        self.outcome_points = {WIN: w, DRAW: d, LOST: lo}
        self.figures: dict[str, _Figure] = {}
        self._sorted_terms: list[list[int]] | None = None

    # ------------------------------------------------------------------ figures

    def figure(self, code: str) -> _Figure:
        f = self.figures.get(code)
        if f is None:
            if code in fide.CODES:
                f = self.figures[code] = _exact_figure(self._fide().values(code))
            else:
                f = self.figures[code] = getattr(self, "_" + code)()
        return f

    def _fide(self) -> fide.Tiebreaks:
        """FIDE C.07 tie-breaks, on the same points as the standings."""
        t = getattr(self, "_fide_tiebreaks", None)
        if t is None:
            points = [Fraction(p, self.unit) for p in self.pts]
            t = self._fide_tiebreaks = fide.Tiebreaks(self.event, self.after_round, points)
        return t

    def _points(self) -> _Figure:
        return _Figure(self.pts, self.unit)

    def _mw(self) -> _Figure:
        s = self.settings
        floor = s.floor
        w = self.w
        if s.preset == "pokemon":
            # Play! Pokémon: byes count in neither the points nor the rounds; capped at 1, or 0.75 once dropped.
            planned = s.planned_rounds
            nums = [p - b * w for p, b in zip(self.pts, self.byes, strict=True)]
            dens = [w * (r - b) for r, b in zip(self.played, self.byes, strict=True)]
            caps = [
                Fraction(3, 4)
                if p.dropped_after is not None and (planned is None or p.dropped_after < planned)
                else Fraction(1)
                for p in self.players
            ]
        else:
            nums = self.pts
            dens = [w * r for r in self.played]
            caps = None
        return _clamped_ratios(nums, dens, floor, caps)

    def _gw(self) -> _Figure:
        return _clamped_ratios(self.gpts, [3 * g for g in self.games], self.settings.floor, None)

    def _mean_over_opponents(self, of: _Figure) -> _Figure:
        counts = {len(o) for o in self.opponents}
        counts.discard(0)
        per = lcm(*counts) if counts else 1
        keys = of.keys
        den = of.den * per
        # A player who met no opponent gets the floor; of.den is a multiple of the floor's denominator.
        fl = self.settings.floor
        floor_key = fl.numerator * (den // fl.denominator)
        out = []
        get = keys.__getitem__
        for opps in self.opponents:
            if opps:
                out.append(sum(map(get, opps)) * (per // len(opps)))
            else:
                out.append(floor_key)
        return _Figure(out, den)

    def _omw(self) -> _Figure:
        return self._mean_over_opponents(self.figure("mw"))

    def _ogw(self) -> _Figure:
        return self._mean_over_opponents(self.figure("gw"))

    def _oomw(self) -> _Figure:
        return self._mean_over_opponents(self.figure("omw"))

    def _terms(self) -> list[list[int]]:
        """Buchholz terms, highest first: one per round, an opponent's match points, 0 for a round without one."""
        if self._sorted_terms is None:
            r, get = self.num_rounds, self.pts.__getitem__
            self._sorted_terms = [
                sorted([*map(get, opps), *[0] * (r - len(opps))], reverse=True) for opps in self.opponents
            ]
        return self._sorted_terms

    def _buchholz(self) -> _Figure:
        return _Figure([sum(t) for t in self._terms()], self.unit)

    def _buchholz_cut1(self) -> _Figure:
        return _Figure([sum(t[:-1]) for t in self._terms()], self.unit)

    def _median_buchholz(self) -> _Figure:
        cut = 2 if self.num_rounds >= 9 else 1
        return _Figure([sum(t[cut:-cut]) for t in self._terms()], self.unit)

    def _best_sums(self) -> list[list[int]]:
        """Per player, the sums of the best 1, 2, ..., R terms."""
        out = []
        for t in self._terms():
            acc, sums = 0, []
            for x in t:
                acc += x
                sums.append(acc)
            out.append(sums)
        return out

    def _buchholz_cuts(self) -> _Figure:
        return _Figure([tuple(reversed(s)) for s in self._best_sums()], self.unit, vector=True)

    def _buchholz_variant(self) -> _Figure:
        r = self.num_rounds
        # best R-2, best R-1, best R, then best, ..., 1 (seed 004 "Variant 1").
        order = [k for k in (r - 2, r - 1, r) if k >= 1] + list(range(r - 3, 0, -1))
        return _Figure([tuple(s[k - 1] for k in order) for s in self._best_sums()], self.unit, vector=True)

    def _sonneborn_berger(self) -> _Figure:
        pts = self.pts
        keys = []
        for opps, outs in zip(self.opponents, self.outcomes, strict=True):
            keys.append(
                sum(2 * pts[o] if oc == WIN else pts[o] for o, oc in zip(opps, outs, strict=True) if oc != LOST)
            )
        return _Figure(keys, 2 * self.unit)

    def _rating_sum(self) -> _Figure:
        ratings = [p.rating or 0 for p in self.players]
        bye = self.settings.bye_rating
        return _Figure(
            [sum(map(ratings.__getitem__, o)) + bye * b for o, b in zip(self.opponents, self.byes, strict=True)], 1
        )

    def _wins(self) -> _Figure:
        # Over the board: byes and forfeit wins are not wins here.
        return _Figure([w - b for w, b in zip(self.wins, self.unplayed_wins, strict=True)], 1)

    def _cumulative(self) -> _Figure:
        return _Figure(self.cumul, self.unit)

    # ------------------------------------------------------- group-dependent figures

    def _scored_against(self, i: int, members: set[int]) -> tuple[int, set[int]]:
        scored, met = 0, set()
        points = self.outcome_points
        for o, oc in zip(self.opponents[i], self.outcomes[i], strict=True):
            if o in members:
                scored += points[oc]
                met.add(o)
        return scored, met

    def group_values(self, code: str, group: list[int]) -> dict[int, int | Fraction]:
        zero = dict.fromkeys(group, 0)
        if len(group) < 2 or (code == "head_to_head" and len(group) != 2):
            return zero
        if code == "DE":
            return self._fide_direct_encounter(group)
        members = set(group)
        values = {}
        for i in group:
            scored, met = self._scored_against(i, members)
            if len(met) != len(group) - 1:
                # Not everybody in the group has met everybody else: it does not separate them.
                return zero
            values[i] = scored
        return values

    def _fide_direct_encounter(self, group: list[int]) -> dict[int, int | Fraction]:
        """C.07 Article 6 among the tied `group`: the points each scored against the others (a forfeit counts;
        against an opponent met more than once, the average). When not every pair has met, a player who is alone
        at the top of that separate standings whatever the missing games give is ranked first, then the same
        for second place, and so on; the others stay tied (0)."""
        members = set(group)
        points = self.outcome_points
        per_pair: dict[tuple[int, int], list[int]] = {}
        for i in group:
            for o, oc in zip(self.opponents[i], self.outcomes[i], strict=True):
                if o in members:
                    per_pair.setdefault((i, o), []).append(points[oc])
        score = {
            i: sum((Fraction(sum(v), len(v)) for (a, _), v in per_pair.items() if a == i), Fraction(0)) for i in group
        }
        missing = {i: sum(1 for o in group if o != i and (i, o) not in per_pair) for i in group}
        if not any(missing.values()):
            return score
        values: dict[int, int | Fraction] = dict.fromkeys(group, 0)
        rest = list(group)
        while len(rest) > 1:
            best = max(rest, key=score.__getitem__)
            # Alone on top whatever the missing games give: better than every other's best possible score.
            if all(score[best] > score[o] + self.w * missing[o] for o in rest if o != best):
                values[best] = score[best]
                rest.remove(best)
            else:
                break
        return values

    # ------------------------------------------------------------------ ranking

    def standings(self) -> Standings:
        players = self.players
        codes = self.settings.tiebreakers
        order = sorted(
            range(self.n),
            key=lambda i: (sort_form(players[i].name, players[i].family_name, players[i].given_name), players[i].id),
        )
        groups = [order] if order else []
        group_dep: dict[str, dict[int, int]] = {c: {} for c in codes if c in GROUP_DEPENDENT}

        # Consecutive player-only criteria are applied in one sort; group-dependent ones one at a time.
        runs: list[list[str]] = [["points"]]
        for c in codes:
            if c in GROUP_DEPENDENT or runs[-1][0] in GROUP_DEPENDENT:
                runs.append([c])
            else:
                runs[-1].append(c)

        for run in runs:
            if run[0] in GROUP_DEPENDENT:
                code = run[0]
                values = group_dep[code]
                key_lists = None
            else:
                key_lists = [self.figure(c).keys for c in run]
            new_groups = []
            for g in groups:
                if key_lists is None:
                    vals = self.group_values(code, g)
                    values.update(vals)
                    if len(g) == 1:
                        new_groups.append(g)
                        continue
                    keyf = vals.__getitem__
                elif len(g) == 1:
                    new_groups.append(g)
                    continue
                elif len(key_lists) == 1:
                    keyf = key_lists[0].__getitem__
                else:
                    keyf = _tuple_key(key_lists)
                g = sorted(g, key=keyf, reverse=True)
                start = 0
                prev = keyf(g[0])
                for k in range(1, len(g)):
                    cur = keyf(g[k])
                    if cur != prev:
                        new_groups.append(g[start:k])
                        start, prev = k, cur
                new_groups.append(g[start:])
            groups = new_groups

        if self.settings.rating_breaks_ties:
            # Players C.07's tie-breaks leave equal are ranked by rating, highest first (as Vega does);
            # an unrated player counts as rated 0, and equal ratings still share a rank.
            groups = [part for g in groups for part in _split_by_rating(g, players)]

        unit = self.unit
        figs = {c: self.figure(c) for c in codes if c not in GROUP_DEPENDENT}
        points = self.figure("points")
        dropped_limit = self.after_round
        rows = []
        rank = 1
        for g in groups:
            for i in g:
                p = players[i]
                tbs: dict[str, Value] = {}
                for c in codes:
                    if c in group_dep:
                        tbs[c] = Fraction(group_dep[c][i], unit)
                    else:
                        tbs[c] = figs[c].value(i)
                rows.append(
                    Row(
                        rank=rank,
                        player_id=p.id,
                        name=p.name,
                        points=points.value(i),
                        wins=self.wins[i],
                        losses=self.losses[i],
                        draws=self.draws[i],
                        rounds_played=self.played[i],
                        tiebreakers=tbs,
                        dropped=p.dropped_after is not None and p.dropped_after <= dropped_limit,
                    )
                )
            rank += len(g)
        return Standings(after_round=self.after_round, tiebreakers=tuple(codes), rows=tuple(rows))


def _split_by_rating(group: list[int], players) -> list[list[int]]:
    if len(group) == 1:
        return [group]
    parts: dict[int, list[int]] = {}
    for i in group:
        parts.setdefault(players[i].rating or 0, []).append(i)
    return [parts[r] for r in sorted(parts, reverse=True)]


def _exact_figure(values: list[Fraction]) -> _Figure:
    """Exact fractions as integer keys over their common denominator."""
    den = lcm(*{v.denominator for v in values}) if values else 1
    return _Figure([v.numerator * (den // v.denominator) for v in values], den)


def _tuple_key(key_lists: list[list]):
    def key(i: int) -> tuple:
        return tuple(k[i] for k in key_lists)

    return key


def _clamped_ratios(nums: list[int], dens: list[int], floor: Fraction, caps: list[Fraction] | None) -> _Figure:
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
    return _Figure(keys, common)
