"""What each result of a player's own match would give in prizes, before the last round's results are in
(docs/prizes.md#before-the-last-results).

For every player at an open table and each result of their match (win, draw, loss), what they take from the
prize list (`standings.prizes`) over every way the other open tables can end (the combinations of the outlook's
`standings.outlook_exact.finals`, which `_plain` ranks one by one; `_Fast` reaches the same claims from far
fewer, leaving out the players who cannot reach any prize and ranking only where tie-breakers can change one):

- `certain`: the same prizes, shares and amounts in every combination ("a share of 1st–3rd prize, € 66.66");
- `none`: no prize in any combination;
- `depends`: the combinations disagree; with the least and the most money (and items) the player can take.

Claims are never wrong: each holds for every combination, every game score of the player's own match with
that result included. The standings are ranked by the engine (`standings.engine.compute`) when the tie rule
reads the order inside a group level on points (Hort, tie-break) and players in reach are level; under "shared"
the points alone decide who pools which prizes. Bounded as the outlook is (`standings.outlook.EXACT_WORK`): past it there is no answer
(None), never a guess. Only the last round's standings are final: the caller asks in the last round.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from standings.engine import compute
from standings.outlook import EXACT_WORK
from standings.outlook_exact import final_count, finals
from standings.outlook_round import (
    DRAW,
    GAME_OPPONENTS,
    GAME_OWN,
    LOSS,
    WIN,
    OutlookRefused,
    RoundState,
    Table,
    round_state,
)
from standings.prizes import Awards, Entrant, entrants_of, qualifies, split
from swiss.model import Event
from swiss.prizelist import record_points
from swiss.prizemodel import Category, Prize, PrizeRules

CERTAIN, NONE, DEPENDS = "certain", "none", "depends"
_FLIP = {WIN: LOSS, DRAW: DRAW, LOSS: WIN}


@dataclass(frozen=True)
class Share:
    """One award as one player takes it: its prizes' names, the places its block occupies (first, last),
    whether they share it with others or it is a record prize (every player with the record takes it whole),
    and their own money (None for an item prize alone) and items."""

    prizes: tuple[str, ...]
    first: int
    last: int
    shared: bool
    every: bool
    money: Fraction | None
    items: int | None
    unit: str = ""


@dataclass(frozen=True)
class PrizeClaim:
    """`certain` (what: the shares), `none`, or `depends` with the range of money and items taken."""

    code: str
    shares: tuple[Share, ...] = ()
    money: tuple[Fraction, Fraction] | None = None
    items: tuple[int, int] | None = None
    unit: str = ""

    def as_dict(self) -> dict:
        d: dict = {"code": self.code}
        if self.code == CERTAIN:
            d["shares"] = [
                {
                    "prizes": list(s.prizes),
                    "first": s.first,
                    "last": s.last,
                    "shared": s.shared,
                    "every": s.every,
                    "money": None if s.money is None else str(s.money),
                    "items": s.items,
                    "unit": s.unit,
                }
                for s in self.shares
            ]
        if self.money is not None:
            d["money"] = [str(self.money[0]), str(self.money[1])]
        if self.items is not None:
            d["items"] = list(self.items)
            d["unit"] = self.unit
        return d


def takes_of(awards: Awards, player_id: str) -> tuple[Share, ...]:
    """What the player takes from `awards`, one Share an award, in the list's order."""
    return tuple(
        Share(
            tuple(p.name for p in a.prizes),
            a.first_place,
            a.last_place,
            a.shared,
            a.every,
            money if a.has_money else None,
            items if a.has_items else None,
            a.unit,
        )
        for a, money, items in awards.of_player(player_id)
    )


def prize_outlook(event: Event, prizes: Sequence[Prize], rules: PrizeRules) -> dict[str, dict[str, PrizeClaim]] | None:
    """For each player at an open table of the event's last round, a claim for each result their match can
    still have; None when there is no round to look at, no prize list, or more work than the outlook's bound."""
    return counted_outlook(event, prizes, rules)[0]


def counted_outlook(
    event: Event, prizes: Sequence[Prize], rules: PrizeRules, plain: bool = False
) -> tuple[dict[str, dict[str, PrizeClaim]] | None, int]:
    """`prize_outlook` with the count of combinations examined (standings ranked or prizes split). `plain`:
    every combination of `finals` ranked, the enumeration the fast path (`_Fast`) is checked against."""
    if not prizes:
        return None, 0
    try:
        state = round_state(event)
    except OutlookRefused:
        return None, 0
    ranked = rules.ties != "shared"
    by_games = ranked and any(c in GAME_OWN or c in GAME_OPPONENTS for c in event.settings.tiebreakers)
    if plain:
        return _plain(state, prizes, rules, ranked, by_games)
    return _Fast(state, prizes, rules, ranked, by_games).run()


def _plain(state: RoundState, prizes, rules, ranked: bool, by_games: bool):
    event = state.event
    if final_count(state, by_games) * len(event.players) > EXACT_WORK:
        return None, 0
    scoring = event.settings.scoring
    at = [(t, pid) for t in state.tables for pid in (t.a, t.b)]
    index = {t.number: k for k, t in enumerate(state.tables)}
    seen: dict[tuple[str, str], set[tuple[Share, ...]]] = {}
    template = _template(event)
    examined = 0
    for final in finals(state, by_games):
        examined += 1
        if ranked:
            rows = compute(state.with_games(final.games), after_round=state.number).rows
            entrants = entrants_of(event, rows)
        else:
            entrants = _by_points(template, final.points, state.unit)
        awards = split(entrants, prizes, rules, scoring)
        for t, pid in at:
            own = t.side_of(pid, final.combo[index[t.number]])
            seen.setdefault((pid, own), set()).add(takes_of(awards, pid))
    return _claims(seen), examined


def _claims(seen: dict[tuple[str, str], set[tuple[Share, ...]]]) -> dict[str, dict[str, PrizeClaim]]:
    out: dict[str, dict[str, PrizeClaim]] = {}
    for (pid, o), takes in seen.items():
        out.setdefault(pid, {})[o] = _claim(takes)
    return out


def _template(event: Event) -> list[Entrant]:
    return [Entrant(p.id, p.name, Fraction(0), 0, p.rating, p.birth_date, p.sex, p.division) for p in event.players]


def _by_points(template: list[Entrant], points: dict[str, int], unit: int) -> list[Entrant]:
    """The entrants ordered by points alone: under "shared" a group's prizes go to the players level on
    points together, whatever order the tie-breakers put them in."""
    ordered = sorted(template, key=lambda e: -points[e.id])
    rank, last = 0, None
    out = []
    for k, e in enumerate(ordered, start=1):
        x = points[e.id]
        if x != last:
            rank, last = k, x
        out.append(Entrant(e.id, e.name, Fraction(x, unit), rank, e.rating, e.birth_date, e.sex, e.division))
    return out


def _claim(takes: set[tuple[Share, ...]]) -> PrizeClaim:
    if len(takes) == 1:
        (only,) = takes
        return PrizeClaim(CERTAIN, only) if only else PrizeClaim(NONE)
    money = [sum((s.money for s in t if s.money is not None), Fraction(0)) for t in takes]
    has_money = any(s.money is not None for t in takes for s in t)
    units = {s.unit for t in takes for s in t if s.items is not None}
    items = [sum(s.items for s in t if s.items is not None) for t in takes]
    one_unit = len(units) == 1
    return PrizeClaim(
        DEPENDS,
        money=(min(money), max(money)) if has_money else None,
        items=(min(items), max(items)) if one_unit else None,
        unit=next(iter(units)) if one_unit else "",
    )


class _Fast:
    """The same claims as `_plain`, from far fewer combinations.

    Out of reach: a player who can take no prize whatever happens. A group's prize goes to the group's next
    eligible player; before a player takes a prize of a group with k prizes, every eligible player of the
    group with more points has left it: at most k - 1 by the group's own awards (an award takes at least one
    of its prizes, and a block larger than what is left empties the group), and, with one prize per player,
    the players of at most as many point totals as the list has other prizes (every award is a block level
    on points). So when the group's players sure to finish above the player's best total are more than can
    have left, whatever totals they reach (`_leavers`), the group never reaches the player; a record prize
    can be reached whenever the best total makes the record. Such players take nothing in any combination,
    and since they never lead nor join a block, the awards of everyone else are the same without them.

    So under "shared" (points alone) the tables where nobody can reach a prize are left at one result, and the
    prizes are split among the players in reach alone: one split for each combination of the other tables.
    Under Hort and tie-break the standings engine ranks a combination only where two players in reach are
    level on points (the tie-breakers, which read every table, decide between them): then every result and
    game score of the other tables is ranked; otherwise the points alone order the players in reach, and one
    split says what each takes, for every game score and every result of the out-of-reach tables.
    """

    def __init__(self, state: RoundState, prizes: Sequence[Prize], rules: PrizeRules, ranked: bool, by_games: bool):
        self.state, self.prizes, self.rules, self.ranked, self.by_games = state, prizes, rules, ranked, by_games
        self.event = state.event
        self.scoring = self.event.settings.scoring
        flip = _FLIP
        self.low = dict(state.base)
        self.high = dict(state.base)
        for t in state.tables:
            for pid, outcomes in ((t.a, t.outcomes()), (t.b, [flip[o] for o in t.outcomes()])):
                self.low[pid] = state.base[pid] + min(state.value[o] for o in outcomes)
                self.high[pid] = state.base[pid] + max(state.value[o] for o in outcomes)
        self.template = _template(self.event)
        self.reach = self._in_reach()
        self._splits: dict[tuple, Awards] = {}

    def _in_reach(self) -> set[str]:
        unit = self.state.unit
        groups: dict[Category | None, int] = {}
        records = []
        for p in self.prizes:
            if p.category is not None and p.category.record:
                line = record_points(p.category.record, self.scoring.win, self.scoring.draw, self.scoring.loss)
                records.append((p.category, line))
            else:
                groups[p.category] = groups.get(p.category, 0) + 1
        total = sum(groups.values())
        members = {key: [e.id for e in self.template if qualifies(e, key)] for key in groups}
        self.members = {key: set(ids) for key, ids in members.items()}
        self.total = total
        # Who can take a prize of each group: everyone at first, then again with only the players who can take
        # another group's prize counted as leaving, until nothing changes (each pass keeps every real taker).
        reach = {key: set(ids) for key, ids in members.items()}
        while True:
            again: dict[Category | None, set[str]] = {}
            for key, k in groups.items():
                others = total - k if self.rules.one_per_player else 0
                holders = set().union(*(r for h, r in reach.items() if h != key)) if others else set()
                again[key] = set()
                for pid in reach[key]:
                    best = self.high[pid]
                    above = [q for q in members[key] if q != pid and self.low[q] > best]
                    leaving = [(self.low[q], self.high[q]) for q in above if q in holders]
                    if len(above) - _leavers(leaving, others) < k:
                        again[key].add(pid)
            if again == reach:
                break
            reach = again
        out = set().union(*reach.values())
        for e in self.template:
            best = self.high[e.id]
            if any(qualifies(replace(e, points=Fraction(best, unit)), c, line) for c, line in records):
                out.add(e.id)
        return out

    def run(self) -> tuple[dict[str, dict[str, PrizeClaim]] | None, int]:
        state, reach = self.state, self.reach
        live = [t for t in state.tables if t.a in reach or t.b in reach]
        rest = [t for t in state.tables if t not in live]
        seen: dict[tuple[str, str], set[tuple[Share, ...]]] = {}
        for t in rest:
            for o in t.outcomes():
                seen[(t.a, o)] = {()}
                seen[(t.b, _FLIP[o])] = {()}
        combos = 1
        for t in live:
            combos *= len(t.outcomes())
        players = [e for e in self.template if e.id in reach]
        if combos * max(1, len(players)) > EXACT_WORK:
            return None, 0
        pts = dict(state.base)
        for t in rest:
            o = t.outcomes()[0]
            pts[t.a] += state.value[o]
            pts[t.b] += state.value[_FLIP[o]]
        level: list[tuple[str, ...]] = []
        ends: list[tuple[tuple[str, ...], Awards]] = []
        tied = 0  # rankings the level combinations take
        for combo in itertools.product(*(t.outcomes() for t in live)):
            final = dict(pts)
            for t, o in zip(live, combo, strict=True):
                final[t.a] += state.value[o]
                final[t.b] += state.value[_FLIP[o]]
            tie = self.ranked and not self._apart(players, final)
            if tie:
                finals = self._finals_of(live, rest, combo)
                if len(ends) * len(players) + (tied + finals) * len(self.template) > EXACT_WORK:
                    return None, 0  # over the bound already: give up before ranking anything
                if finals == 1:
                    level.append(combo)  # one ranking settles it: no split by points first
                    tied += 1
                    continue
            awards = self._split(_by_points(players, final, state.unit))
            if tie and _order_counts(awards, players, final):
                level.append(combo)
                tied += finals
            else:
                ends.append((combo, awards))
        # Never more than the plain enumeration's work (each combination split or ranked once, or once for each
        # of its completions): whatever it answers, this answers.
        if len(ends) * len(players) + tied * len(self.template) > EXACT_WORK:
            return None, 0
        for combo, awards in ends:
            for t, o in zip(live, combo, strict=True):
                for pid in (t.a, t.b):
                    take = takes_of(awards, pid) if pid in reach else ()
                    seen.setdefault((pid, t.side_of(pid, o)), set()).add(take)
        for combo in level:
            self._ranked(live, rest, combo, seen)
        return _claims(seen), len(ends) + tied

    def _apart(self, players: list[Entrant], points: dict[str, int]) -> bool:
        """Whether no group's prizes can reach players in reach level on points: in every group, at least as
        many of its players in reach finish above the highest such level as the list has prizes (other than
        records). Every award above that level goes to one player alone and takes one prize, so the prizes are
        gone before a group could get there."""
        count: dict[int, int] = {}
        for e in players:
            count[points[e.id]] = count.get(points[e.id], 0) + 1
        levels = [x for x, n in count.items() if n > 1]
        if not levels:
            return True
        top = max(levels)
        return all(
            sum(1 for e in players if points[e.id] > top and e.id in self.members[key]) >= self.total
            for key in self.members
        )

    def _split(self, entrants: list[Entrant]) -> Awards:
        """`split`, once for each standings (players, points and ranks in order): game scores and other
        tables' results often leave them as they are."""
        key = tuple((e.id, e.points.numerator, e.points.denominator, e.rank) for e in entrants)
        awards = self._splits.get(key)
        if awards is None:
            awards = self._splits[key] = split(entrants, self.prizes, self.rules, self.scoring)
        return awards

    def _options(
        self, live: list[Table], rest: list[Table], combo: tuple[str, ...]
    ) -> list[list[tuple[Table, str, tuple[int, int, int]]]]:
        """Each table's (result for player a, game score) choices with the live tables' results at `combo`:
        every game score when a game-score tie-breaker reads them, else the first."""

        def scores(t: Table, o: str) -> tuple[tuple[int, int, int], ...]:
            return t.scores[o] if self.by_games else t.scores[o][:1]

        out = [[(t, o, g) for g in scores(t, o)] for t, o in zip(live, combo, strict=True)]
        out += [[(t, o, g) for o in t.outcomes() for g in scores(t, o)] for t in rest]
        return out

    def _finals_of(self, live: list[Table], rest: list[Table], combo: tuple[str, ...]) -> int:
        n = 1
        for choices in self._options(live, rest, combo):
            n *= len(choices)
        return n

    def _ranked(self, live: list[Table], rest: list[Table], combo: tuple[str, ...], seen) -> None:
        """Players in reach level on points: every completion with the live tables at `combo`, ranked."""
        state = self.state
        for choice in itertools.product(*self._options(live, rest, combo)):
            rows = compute(state.with_games({t.number: g for t, _, g in choice}), after_round=state.number).rows
            awards = self._split(entrants_of(self.event, rows))
            for t, o, _ in choice[: len(live)]:
                for pid in (t.a, t.b):
                    seen.setdefault((pid, t.side_of(pid, o)), set()).add(takes_of(awards, pid))


def _order_counts(awards: Awards, players: list[Entrant], points: dict[str, int]) -> bool:
    """Whether the tie-breakers can change `awards`, split with the players in reach ordered by points alone
    (players level on points level in rank too): only when a player level on points with another takes a
    prize other than a record's. Otherwise no group ever reached a level group: every block was one player
    alone on their points, the same whatever order the tie-breakers put the level players in."""
    count: dict[int, int] = {}
    for e in players:
        count[points[e.id]] = count.get(points[e.id], 0) + 1
    return any(count[points[pid]] > 1 for a in awards.awards if not a.every for pid in a.players)


def _leavers(above: list[tuple[int, int]], totals: int) -> int:
    """The most of the players whose points lie in `above` (least, most) that can finish on `totals` point
    totals: at most the largest counts of players who can finish on one total, summed over that many totals
    (and never more than all of them)."""
    if not totals or not above:
        return 0
    counts = sorted(
        (
            sum(1 for lo, hi in above if lo <= v <= hi)
            for v in range(min(lo for lo, _ in above), max(hi for _, hi in above) + 1)
        ),
        reverse=True,
    )
    return min(len(above), sum(counts[:totals]))
