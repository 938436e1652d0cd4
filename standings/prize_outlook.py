"""What each result of a player's own match would give in prizes, before the last round's results are in
(docs/prizes.md#before-the-last-results).

For every player at an open table and each result of their match (win, draw, loss), what they take from the
prize list (`standings.prizes`) over every way the other open tables can end, as the outlook enumerates them
(`standings.outlook_exact.finals`: no second enumeration):

- `certain`: the same prizes, shares and amounts in every combination ("a share of 1st–3rd prize, € 66.66");
- `none`: no prize in any combination;
- `depends`: the combinations disagree; with the least and the most money (and items) the player can take.

Claims are never wrong: each holds for every combination, every game score of the player's own match with
that result included. The standings are ranked by the engine (`standings.engine.compute`) when the tie rule
reads the order inside a group level on points (Hort, tie-break); under "shared" the points alone decide who
pools which prizes. Bounded as the outlook is (`standings.outlook.EXACT_WORK`): past it there is no answer
(None), never a guess. Only the last round's standings are final: the caller asks in the last round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from standings.engine import compute
from standings.outlook import EXACT_WORK
from standings.outlook_exact import final_count, finals
from standings.outlook_round import GAME_OPPONENTS, GAME_OWN, OutlookRefused, round_state
from standings.prizes import Awards, Entrant, entrants_of, split
from swiss.model import Event
from swiss.prizemodel import Prize, PrizeRules

CERTAIN, NONE, DEPENDS = "certain", "none", "depends"


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


@dataclass
class _Seen:
    takes: set[tuple[Share, ...]] = field(default_factory=set)


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
    still have; None when there is no round to look at, no prize list, or more combinations than the
    outlook's bound."""
    if not prizes:
        return None
    try:
        state = round_state(event)
    except OutlookRefused:
        return None
    ranked = rules.ties != "shared"
    by_games = ranked and any(c in GAME_OWN or c in GAME_OPPONENTS for c in event.settings.tiebreakers)
    if final_count(state, by_games) * len(event.players) > EXACT_WORK:
        return None
    scoring = event.settings.scoring
    at = [(t, pid) for t in state.tables for pid in (t.a, t.b)]
    index = {t.number: k for k, t in enumerate(state.tables)}
    seen: dict[tuple[str, str], _Seen] = {}
    template = [Entrant(p.id, p.name, Fraction(0), 0, p.rating, p.birth_date, p.sex, p.division) for p in event.players]
    for final in finals(state, by_games):
        if ranked:
            rows = compute(state.with_games(final.games), after_round=state.number).rows
            entrants = entrants_of(event, rows)
        else:
            entrants = _by_points(template, final.points, state.unit)
        awards = split(entrants, prizes, rules, scoring)
        for t, pid in at:
            own = t.side_of(pid, final.combo[index[t.number]])
            seen.setdefault((pid, own), _Seen()).takes.add(takes_of(awards, pid))
    out: dict[str, dict[str, PrizeClaim]] = {}
    for (pid, o), s in seen.items():
        out.setdefault(pid, {})[o] = _claim(s.takes)
    return out


def _by_points(template: list[Entrant], points: dict[str, int], unit: int) -> list[Entrant]:
    """The entrants ordered by points alone: under "shared" a group's prizes go to the players level on
    points together, whatever order the tie-breakers put them in."""
    moved = [Entrant(**{**e.__dict__, "points": Fraction(points[e.id], unit)}) for e in template]
    moved.sort(key=lambda e: -e.points)
    rank, last = 0, None
    out = []
    for k, e in enumerate(moved, start=1):
        if e.points != last:
            rank, last = k, e.points
        out.append(Entrant(**{**e.__dict__, "rank": rank}))
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
