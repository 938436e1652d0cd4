"""The exact outlook: every combination of the open tables' results, ranked by the event's own standings.

Match results first: each combination of how the open tables end gives every player their points, and a
player whose points alone put them inside or outside the line needs nothing more. Only where the line falls
among players level on points is the standings engine run (`standings.engine.compute`, so tie-breakers
count exactly as the event's own); game scores are expanded only when a game-score tie-breaker (GW%,
OGW%) is what can still separate the player from someone level with them on everything before it, and
only at the tables those figures read.

A player's place in one combination is IN (inside the line), OUT (the line is full without them) or TIE
(level on every figure with players across the line: not safely in, not out). UNKNOWN marks a
combination left unsettled because it would take more work than the budgets allow; it reads as
"depends".
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from typing import cast

from standings.engine import compute
from standings.figures import Figures
from standings.outlook_round import DRAW, GAME_OPPONENTS, GAME_OWN, LOSS, WIN, RoundState
from standings.tally import tally

IN, OUT, TIE, UNKNOWN = 1, 2, 4, 8
_FLIP = {WIN: LOSS, DRAW: DRAW, LOSS: WIN}
# The most game-score combinations tried for one combination of match results, and engine runs in all.
VARIANT_BUDGET = 4096
ENGINE_BUDGET = 60_000
SUMS_BUDGET = 50_000


class _OverBudget(Exception):
    """More game-score combinations than the budgets allow."""


@dataclass
class Cell:
    """What one (player, outcome of their own match) can come to: the places seen and the deciding tables."""

    seen: dict[tuple[str, ...], int] = field(default_factory=dict)
    tables: set[int] = field(default_factory=set)

    @property
    def mask(self) -> int:
        m = 0
        for v in self.seen.values():
            m |= v
        return m


@dataclass(frozen=True)
class Final:
    """One way the round can end: how each open table ends for its player a (`combo`, in the tables' order),
    a game score for each open table (by table number) and every player's points then, in units."""

    combo: tuple[str, ...]
    games: dict[int, tuple[int, int, int]]
    points: dict[str, int]


def combinations(state: RoundState) -> Iterator[tuple[tuple[str, ...], dict[str, int]]]:
    """Every combination of match results of the open tables, with every player's points then, in units:
    the one enumeration the outlook ranks, and `finals` hands on."""
    value = state.value
    deltas = [{o: ((t.a, value[o]), (t.b, value[_FLIP[o]])) for o in t.outcomes()} for t in state.tables]
    for combo in itertools.product(*(t.outcomes() for t in state.tables)):
        pts = dict(state.base)
        for k, o in enumerate(combo):
            (a, da), (b, db) = deltas[k][o]
            pts[a] += da
            pts[b] += db
        yield combo, pts


def finals(state: RoundState, by_games: bool) -> Iterator[Final]:
    """The hook for whatever else reads the round's final standings (standings.prize_outlook): each
    combination of `combinations` with a game score for every open table: every game score its result
    allows when `by_games` (what a game-score tie-breaker reads), else the first. `state.with_games(games)`
    is the event as it would stand, for the standings engine to rank."""
    for combo, pts in combinations(state):
        options = [t.scores[o] if by_games else t.scores[o][:1] for t, o in zip(state.tables, combo, strict=True)]
        for choice in itertools.product(*options):
            yield Final(combo, {t.number: g for t, g in zip(state.tables, choice, strict=True)}, pts)


def final_count(state: RoundState, by_games: bool) -> int:
    """How many `finals` yields."""
    n = 1
    for t in state.tables:
        n *= sum(len(t.scores[o]) for o in t.outcomes()) if by_games else len(t.outcomes())
    return n


def scenario_count(state: RoundState) -> int:
    n = 1
    for t in state.tables:
        n *= len(t.outcomes())
    return n


def place(ahead: int, level: int, line: int) -> int:
    """IN, OUT or TIE for a player with `ahead` competitors ranked above and `level` tied with them."""
    if ahead >= line:
        return OUT
    return IN if ahead + level < line else TIE


class Scan:
    """Every combination of match results of the open tables, for the (player, outcome) pairs asked."""

    def __init__(self, state: RoundState, line: int, wanted: Iterable[tuple[str, str]]):
        self.state = state
        self.line = line
        self.tables = state.tables
        self.table_index = {pid: k for k, t in enumerate(self.tables) for pid in (t.a, t.b)}
        self.cells: dict[tuple[str, str], Cell] = {w: Cell() for w in wanted}
        self.engine_runs = 0
        self.unsettled = False
        codes = state.event.settings.tiebreakers
        self.codes = codes
        # The game-score tie-breakers, with their places in the event's order.
        self.game_levels = [(k, c) for k, c in enumerate(codes) if c in GAME_OWN or c in GAME_OPPONENTS]
        self._budget = VARIANT_BUDGET
        self._refs: dict[tuple, tuple[dict, Fraction]] = {}
        self._steps: dict[tuple, Fraction] = {}
        self._signs: dict[tuple, dict[int, tuple]] = {}
        self._index = {p.id: i for i, p in enumerate(state.event.players)}
        by_div: dict[str, list[str]] = {}
        for pid, div in state.division.items():
            by_div.setdefault(div, []).append(pid)
        self.members = by_div
        self.opponents = _opponents(state) if any(c in GAME_OPPONENTS for c in codes) else {}

    def run(self) -> dict[tuple[str, str], Cell]:
        state, tables = self.state, self.tables
        wanted: dict[str, list[tuple[str, Cell]]] = {}
        for (pid, o), cell in self.cells.items():
            wanted.setdefault(pid, []).append((o, cell))
        for combo, pts in combinations(state):
            sorted_by_div = {d: sorted(pts[m] for m in ms) for d, ms in self.members.items()}
            need: list[tuple[str, Cell]] = []
            for pid, cells in wanted.items():
                at = self.table_index.get(pid)
                own = state.decided.get(pid) if at is None else tables[at].side_of(pid, combo[at])
                for o, cell in cells:
                    if o != own:
                        continue
                    row = sorted_by_div[state.division[pid]]
                    x = pts[pid]
                    lo, hi = bisect.bisect_left(row, x), bisect.bisect_right(row, x)
                    ahead, level = len(row) - hi, hi - lo - 1
                    if ahead >= self.line:
                        cell.seen[combo] = OUT
                    elif ahead + level < self.line:
                        cell.seen[combo] = IN
                    else:
                        need.append((pid, cell))
            if need:
                self._ranked(combo, need)
        for (pid, _), cell in self.cells.items():
            if cell.mask not in (IN, OUT):
                cell.tables |= self._flips(pid, cell)
        return self.cells

    def _flips(self, pid: str, cell: Cell) -> set[int]:
        """The open tables (not the player's own) whose match result alone changes what the player can come to."""
        own = self.table_index.get(pid)
        found = set()
        for j, t in enumerate(self.tables):
            if j == own:
                continue
            groups: dict[tuple[str, ...], int] = {}
            for combo, m in cell.seen.items():
                key = combo[:j] + combo[j + 1 :]
                prev = groups.setdefault(key, m)
                if prev != m:
                    found.add(t.number)
                    break
        return found

    def _ranked(self, combo: tuple[str, ...], need: list[tuple[str, Cell]]) -> None:
        """The places of the players whose line falls among players level on points, by the standings engine."""
        if self.engine_runs >= ENGINE_BUDGET:
            self._give_up(combo, need)
            return
        reps = {t.number: t.scores[o][0] for t, o in zip(self.tables, combo, strict=True)}
        ranks, rows = self._rank(reps)
        for pid, cell in need:
            if not self.game_levels:
                cell.seen[combo] = self._place(pid, ranks)
                continue
            self._budget = VARIANT_BUDGET
            try:
                m, tables = self._level(pid, combo, reps, rows, ranks, 0, frozenset())
            except _OverBudget:
                self._give_up(combo, [(pid, cell)])
                continue
            cell.seen[combo] = m
            cell.tables |= tables

    def _level(self, pid, combo, games, rows, ranks, level, done) -> tuple[int, set[int]]:
        """The places `pid` can come to when the game scores of the tables in `done` (by index) are as in
        `games`, from the game-score tie-breaker `self.game_levels[level]` on: the tables that tie-breaker
        reads for the players still level with `pid` on everything before it are tried in every game score,
        and each again from the next such tie-breaker. With the tables that alone change it."""
        if level == len(self.game_levels):
            return self._place(pid, ranks), set()
        pos, code = self.game_levels[level]
        before = self.codes[:pos]
        key = {r.player_id: (r.points, *(r.tiebreakers[c] for c in before)) for r in rows}
        mine = key[pid]
        alike = [m for m in self.members[self.state.division[pid]] if key[m] == mine]
        if len(alike) == 1:
            return self._place(pid, ranks), set()
        reads = sorted(self._tables_read(alike, code) - done)
        if not reads:
            return self._level(pid, combo, games, rows, ranks, level + 1, done)
        options = [self.tables[k].scores[combo[k]] for k in reads]
        if len(alike) == 2:
            other = next(m for m in alike if m != pid)
            ahead = sum(1 for m in self.members[self.state.division[pid]] if m != other and ranks[m] < ranks[pid])
            return self._pair(pid, other, code, combo, games, reads, options, level, done, ahead)
        seen: dict[tuple, int] = {}
        found: set[int] = set()
        mask = 0
        for choice in itertools.product(*options):
            trial = dict(games)
            for k, g in zip(reads, choice, strict=True):
                trial[self.tables[k].number] = g
            self._budget -= 1
            if self._budget < 0 or self.engine_runs >= ENGINE_BUDGET:
                raise _OverBudget
            ranks2, rows2 = self._rank(trial)
            m, deeper = self._level(pid, combo, trial, rows2, ranks2, level + 1, done | set(reads))
            seen[choice] = m
            found |= deeper
            mask |= m
            if mask not in (IN, OUT, TIE):
                # Two places seen: the claim is "depends" already. The tables read here are the ones named.
                return mask, found | {self.tables[k].number for k in reads}
        if mask not in (IN, OUT, TIE):
            for j, k in enumerate(reads):
                groups: dict[tuple, int] = {}
                for choice, v in seen.items():
                    if groups.setdefault(choice[:j] + choice[j + 1 :], v) != v:
                        found.add(self.tables[k].number)
                        break
        return mask, found

    def _diff(self, pid: str, other: str, code: str, games: dict[int, tuple[int, int, int]]) -> Fraction:
        """`code`'s figure of `pid` minus `other`'s with the open tables at `games`. A player's GW% reads their
        own table alone and OGW% is a mean of the opponents' GW%, each reading one table: the difference is a
        constant plus one term per table, each found once (by the engine's own figures) and kept."""
        key = (pid, other, code)
        ref = self._refs.get(key)
        if ref is None:
            ref = (dict(games), self._figure_diff(pid, other, code, games))
            self._refs[key] = ref
        base_games, base = ref
        total = base
        for number, g in games.items():
            if g != base_games[number]:
                step_key = (pid, other, code, number, g)
                step = self._steps.get(step_key)
                if step is None:
                    step = self._figure_diff(pid, other, code, {**base_games, number: g}) - base
                    self._steps[step_key] = step
                total += step
        return total

    def _figure_diff(self, pid: str, other: str, code: str, games: dict[int, tuple[int, int, int]]) -> Fraction:
        self.engine_runs += 1
        index = self._index
        figure = Figures(tally(self.state.with_games(games), self.state.number)).get(code)
        return cast(Fraction, figure.value(index[pid])) - cast(Fraction, figure.value(index[other]))

    def _pair(self, pid, other, code, combo, games, reads, options, level, done, ahead) -> tuple[int, set[int]]:
        """The game-score tie-breaker `code` between two players level on everything before it: every
        combination of the read tables' game scores is sorted by the sign of the difference of the two
        figures (`_diff`, without ranking); the engine ranks one combination for each sign, and where they
        stay level the next tie-breaker is tried (for each such combination when it reads the same tables)."""
        last = level == len(self.game_levels) - 1
        if last:
            key = (
                pid,
                other,
                code,
                tuple((k, combo[k]) for k in reads),
                tuple(games[self.tables[t].number] for t in sorted(done)),
            )
            signs = self._signs.get(key)
            if signs is None:
                signs = self._signs[key] = self._reachable_signs(pid, other, code, games, reads, options)
            groups = {sign: [w] for sign, w in signs.items()}
        else:
            groups = {}
            for choice in itertools.product(*options):
                trial = dict(games)
                for k, g in zip(reads, choice, strict=True):
                    trial[self.tables[k].number] = g
                t = self._diff(pid, other, code, trial)
                groups.setdefault((t > 0) - (t < 0), []).append(choice)
            following = self._tables_read([pid, other], self.game_levels[level + 1][1])
            if 0 in groups and not following & set(reads):
                groups[0] = groups[0][:1]
        mask = 0
        found: set[int] = set()
        for sign, choices in groups.items():
            if sign != 0:
                # The figure separates the two: everyone else is separated from `pid` already (`ahead` of them
                # above it, by figures these tables do not change), so the place needs no ranking.
                mask |= place(ahead + (sign < 0), 0, self.line)
                if mask not in (IN, OUT, TIE):
                    return mask, found | {self.tables[k].number for k in reads}
                continue
            for choice in choices:
                trial = dict(games)
                for k, g in zip(reads, choice, strict=True):
                    trial[self.tables[k].number] = g
                self._budget -= 1
                if self._budget < 0 or self.engine_runs >= ENGINE_BUDGET:
                    raise _OverBudget
                ranks, rows = self._rank(trial)
                if not last:
                    m, deeper = self._level(pid, combo, trial, rows, ranks, level + 1, done | set(reads))
                    found |= deeper
                else:
                    m = self._place(pid, ranks)
                mask |= m
                if mask not in (IN, OUT, TIE):
                    return mask, found | {self.tables[k].number for k in reads}
        return mask, found

    def _reachable_signs(self, pid, other, code, games, reads, options) -> dict[int, tuple]:
        """Each sign (1, 0, -1) the difference of the two figures reaches over the read tables' game scores,
        with a combination reaching it. The difference is `games`' plus one change per table: the largest and
        the smallest sums give the signs; zero, when it lies between, is looked for table by table."""
        base = self._diff(pid, other, code, games)
        steps = []
        for k, choices in zip(reads, options, strict=True):
            number = self.tables[k].number
            steps.append([(self._diff(pid, other, code, {**games, number: g}) - base, g) for g in choices])
        den = base.denominator
        for row in steps:
            for step, _ in row:
                den = den * step.denominator // gcd(den, step.denominator)
        start = int(base * den)
        ints: list[list[tuple[int, tuple[int, int, int]]]] = [
            sorted((int(d * den), g) for d, g in row) for row in steps
        ]
        top = start + sum(row[-1][0] for row in ints)
        bottom = start + sum(row[0][0] for row in ints)
        out: dict[int, tuple] = {}
        if top > 0:
            out[1] = tuple(row[-1][1] for row in ints)
        if bottom < 0:
            out[-1] = tuple(row[0][1] for row in ints)
        if top == 0:
            out[0] = tuple(row[-1][1] for row in ints)
        elif bottom == 0:
            out[0] = tuple(row[0][1] for row in ints)
        elif bottom < 0 < top:
            sums: dict[int, tuple] = {start: ()}
            for int_row in ints:
                merged: dict[int, tuple] = {}
                for total, witness in sums.items():
                    for change, g in int_row:
                        merged.setdefault(total + change, (*witness, g))
                sums = merged
                if len(sums) > SUMS_BUDGET:
                    raise _OverBudget
            if 0 in sums:
                out[0] = sums[0]
        return out

    def _give_up(self, combo: tuple[str, ...], need: list[tuple[str, Cell]]) -> None:
        self.unsettled = True
        for pid, cell in need:
            cell.seen[combo] = UNKNOWN
            mine = self.table_index.get(pid)
            cell.tables |= {t.number for k, t in enumerate(self.tables) if k != mine}

    def _tables_read(self, players: list[str], code: str) -> set[int]:
        """The open tables (by index) whose game scores the tie-breaker `code` of `players` reads."""
        out = set()
        for pid in players:
            if code in GAME_OWN and pid in self.table_index:
                out.add(self.table_index[pid])
            if code in GAME_OPPONENTS:
                for o in self.opponents.get(pid, ()):
                    if o in self.table_index:
                        out.add(self.table_index[o])
        return out

    def _rank(self, games: dict[int, tuple[int, int, int]]):
        self.engine_runs += 1
        rows = compute(self.state.with_games(games), after_round=self.state.number).rows
        return {r.player_id: r.rank for r in rows}, rows

    def _place(self, pid: str, ranks: dict[str, int]) -> int:
        mine = ranks[pid]
        ahead = level = 0
        for m in self.members[self.state.division[pid]]:
            r = ranks[m]
            if r < mine:
                ahead += 1
            elif r == mine and m != pid:
                level += 1
        return place(ahead, level, self.line)


def _opponents(state: RoundState) -> dict[str, set[str]]:
    """Everyone each player has met in the Swiss up to this round, this round's open tables included."""
    out: dict[str, set[str]] = {}
    for r in state.event.swiss_rounds():
        if r.number > state.number:
            continue
        for m in r.matches:
            if m.b is not None:
                out.setdefault(m.a, set()).add(m.b)
                out.setdefault(m.b, set()).add(m.a)
    return out
