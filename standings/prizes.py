"""Who takes which prize, worked out exactly (docs/prizes.md).

Input: the final standings, best first, with what a category looks at (rating, birth date, sex, division), the
event's prize list (`swiss.prizemodel`, in the organiser's order) and its rules. Output: the awards, each a
block of players and what each of them is paid, and the prizes nobody qualified for.

- A prize's group is its category: the place prizes of the whole event are one group, every category
  another; a group's prizes go, in the list's order, to the group's players in the standings' order.
- Ties. "shared": the players level on points who reach a group's prizes together pool the prizes of the
  places they occupy (as many as there are players, or as are left) and split them equally. "hort": the Hort
  system: each takes half of the prize of their own place (in tie-break order; none past the last prize) and
  an equal part of the other half of the pool. "tiebreak": the event's tie-break order decides; players still
  level after every tie-breaker (the same rank) share as under "shared".
- Every share is rounded down to the cent (an item prize to a whole item); the remainder is stated, never paid.
- One prize per player: prizes are given out one group's next prize at a time, the highest value first (money
  before items), or in the list's order when the rules say "order"; a player who has a prize is passed over by
  every later one. A prize for a record ("every 4-1 or better") goes to every player with that record,
  whatever else they take.
- A prize no player can take is not awarded.

Pure Python, exact Fraction arithmetic.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from swiss.model import Event, Scoring
from swiss.prizelist import birth_date, record_points
from swiss.prizemodel import Category, Prize, PrizeRules, amount_text

CENT = Fraction(1, 100)


@dataclass(frozen=True)
class Entrant:
    """A player as the prizes see them: their place in the final standings and their registration details."""

    id: str
    name: str
    points: Fraction
    rank: int  # equal ranks: level after every tie-breaker
    rating: int | None = None
    birth_date: str = ""
    sex: str = ""
    division: str = ""


@dataclass(frozen=True)
class Award:
    """A block of players and the prizes they take together; one player and one prize when nobody shares."""

    prizes: tuple[Prize, ...]
    players: tuple[str, ...]
    money: tuple[Fraction, ...]  # each player's amount, to the cent
    items: tuple[int, ...]  # each player's count of items
    first_place: int  # the places the block occupies in its group, 1-based
    last_place: int
    money_remainder: Fraction = Fraction(0)
    items_remainder: int = 0
    every: bool = False  # a record prize: each player takes the whole prize, nobody shares

    @property
    def name(self) -> str:
        return " + ".join(p.name for p in self.prizes)

    @property
    def shared(self) -> bool:
        return len(self.players) > 1 and not self.every

    @property
    def unit(self) -> str:
        return next((p.unit for p in self.prizes if p.items is not None), "")

    @property
    def has_money(self) -> bool:
        return any(p.amount is not None for p in self.prizes)

    @property
    def has_items(self) -> bool:
        return any(p.items is not None for p in self.prizes)

    @property
    def money_fund(self) -> Fraction:
        return sum((p.amount for p in self.prizes if p.amount is not None), Fraction(0))

    @property
    def items_fund(self) -> int:
        return sum(p.items for p in self.prizes if p.items is not None)


@dataclass(frozen=True)
class Awards:
    awards: tuple[Award, ...]
    unawarded: tuple[Prize, ...]
    rules: PrizeRules = PrizeRules()

    def of_player(self, player_id: str) -> list[tuple[Award, Fraction, int]]:
        """What the player takes: each award with their own amount and items."""
        found = []
        for award in self.awards:
            if player_id in award.players:
                i = award.players.index(player_id)
                found.append((award, award.money[i], award.items[i]))
        return found


def qualifies(entrant: Entrant, category: Category | None, record_line: Fraction | None = None) -> bool:
    """Whether the player meets every condition of the category (a place prize: everyone)."""
    if category is None:
        return True
    c = category
    rated = bool(entrant.rating)
    if c.rating_below is not None and not (rated and entrant.rating is not None and entrant.rating < c.rating_below):
        return False
    if c.rating_from is not None and not (rated and entrant.rating is not None and entrant.rating >= c.rating_from):
        return False
    if c.unrated and rated:
        return False
    if c.women and entrant.sex.strip().upper() not in ("F", "W"):
        return False
    if c.born_after is not None or c.born_before is not None:
        born = birth_date(entrant.birth_date)
        if born is None:
            return False
        if c.born_after is not None and not born[0] > _day(c.born_after):
            return False
        if c.born_before is not None and not born[1] < _day(c.born_before):
            return False
    if c.section and entrant.division != c.section:
        return False
    if c.players and entrant.id not in c.players:
        return False
    return not (c.record and (record_line is None or entrant.points < record_line))


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def split(
    entrants: Sequence[Entrant], prizes: Sequence[Prize], rules: PrizeRules, scoring: Scoring | None = None
) -> Awards:
    """The awards of a prize list for the final standings `entrants` (best first); `scoring` gives a record's
    match points (the default: 3 a win, 1 a draw)."""
    scoring = scoring or Scoring()
    index = {id(p): i for i, p in enumerate(prizes)}
    awards: list[Award] = []
    unawarded: list[Prize] = []
    groups: dict[Category | None, list[Prize]] = {}
    for prize in prizes:
        if prize.category is not None and prize.category.record:
            line = record_points(prize.category.record, scoring.win, scoring.draw, scoring.loss)
            takers = tuple(e.id for e in entrants if qualifies(e, prize.category, line))
            if takers:
                money = prize.amount if prize.amount is not None else Fraction(0)
                awards.append(
                    Award(
                        (prize,),
                        takers,
                        (money,) * len(takers),
                        (prize.items or 0,) * len(takers),
                        1,
                        len(takers),
                        every=True,
                    )
                )
            else:
                unawarded.append(prize)
            continue
        groups.setdefault(prize.category, []).append(prize)
    placed: dict[Category | None, int] = dict.fromkeys(groups, 0)
    taken: dict[Category | None, set[str]] = {key: set() for key in groups}
    holders: set[str] = set()
    while any(groups.values()):
        key = _next_group(groups, rules, index)
        queue = groups[key]
        eligible = [
            e
            for e in entrants
            if qualifies(e, key) and e.id not in taken[key] and not (rules.one_per_player and e.id in holders)
        ]
        if not eligible:
            unawarded.extend(queue)
            queue.clear()
            continue
        lead = eligible[0]
        if rules.ties == "tiebreak":
            block = [e for e in eligible if e.rank == lead.rank]
        else:
            block = [e for e in eligible if e.points == lead.points]
        pooled = tuple(queue[: len(block)])
        del queue[: len(block)]
        first = placed[key] + 1
        placed[key] += len(block)
        awards.append(_share(pooled, tuple(e.id for e in block), rules.ties == "hort", first))
        for e in block:
            taken[key].add(e.id)
            holders.add(e.id)
    awards.sort(key=lambda a: index[id(a.prizes[0])])
    unawarded.sort(key=lambda p: index[id(p)])
    return Awards(tuple(awards), tuple(unawarded), rules)


def _next_group(groups: dict[Category | None, list[Prize]], rules: PrizeRules, index: dict[int, int]):
    """The group whose next prize is given out now: the highest value (money before items, then the list's
    order), or the earliest in the list."""
    heads = [(key, queue[0]) for key, queue in groups.items() if queue]
    if rules.priority == "order":
        return min(heads, key=lambda kp: index[id(kp[1])])[0]
    return min(heads, key=lambda kp: (kp[1].amount is None, -kp[1].value, index[id(kp[1])]))[0]


def _share(pooled: tuple[Prize, ...], players: tuple[str, ...], hort: bool, first: int) -> Award:
    n = len(players)
    money_parts = [p.amount or Fraction(0) for p in pooled]
    item_parts = [Fraction(p.items or 0) for p in pooled]
    money = _parts(tuple(money_parts), n, hort, CENT)
    items = _parts(tuple(item_parts), n, hort, Fraction(1))
    return Award(
        prizes=pooled,
        players=players,
        money=tuple(money),
        items=tuple(int(x) for x in items),
        first_place=first,
        last_place=first + n - 1,
        money_remainder=sum(money_parts, Fraction(0)) - sum(money, Fraction(0)),
        items_remainder=int(sum(item_parts, Fraction(0)) - sum(items, Fraction(0))),
    )


@functools.lru_cache(maxsize=4096)
def _parts(values: tuple[Fraction, ...], n: int, hort: bool, unit: Fraction) -> tuple[Fraction, ...]:
    """Each of n players' part of the pooled `values`, rounded down to `unit`: equal parts, or the Hort system's
    half of the player's own place plus an equal part of the other half. Kept: the prize outlook splits the
    same few pools many thousand times."""
    fund = sum(values, Fraction(0))
    if not hort:
        return (_down(fund / n, unit),) * n
    own = values + (Fraction(0),) * (n - len(values))
    return tuple(_down(own[i] / 2 + fund / 2 / n, unit) for i in range(n))


def _down(value: Fraction, unit: Fraction) -> Fraction:
    return (value // unit) * unit


# ---------------------------------------------------------------- from an event, and out as JSON or text


def entrants_of(event: Event, rows: Sequence[Any]) -> list[Entrant]:
    """The entrants of the standings `rows` (standings.engine.Row, best first) with the event's player details."""
    players = {p.id: p for p in event.players}
    found = []
    for row in rows:
        p = players[row.player_id]
        found.append(
            Entrant(
                id=p.id,
                name=p.name,
                points=row.points,
                rank=row.rank,
                rating=p.rating,
                birth_date=p.birth_date,
                sex=p.sex,
                division=p.division,
            )
        )
    return found


def award_json(award: Award) -> dict[str, Any]:
    doc: dict[str, Any] = {"prize": award.name, "players": list(award.players)}
    if len(award.prizes) > 1:
        doc["prizes"] = [p.name for p in award.prizes]
    if award.shared:
        doc["places"] = [award.first_place, award.last_place]
    if award.has_money:
        if len(set(award.money)) == 1:
            doc["amount_each"] = amount_text(award.money[0])
        else:
            doc["amounts"] = {pid: amount_text(m) for pid, m in zip(award.players, award.money, strict=True)}
        if award.money_remainder:
            doc["remainder"] = amount_text(award.money_remainder)
    if award.has_items:
        if len(set(award.items)) == 1:
            doc["items_each"] = award.items[0]
        else:
            doc["items"] = dict(zip(award.players, award.items, strict=True))
        if award.unit:
            doc["unit"] = award.unit
        if award.items_remainder:
            doc["items_remainder"] = award.items_remainder
    return doc


def to_json(result: Awards) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "awards": [award_json(a) for a in result.awards],
        "unawarded": [p.name for p in result.unawarded],
    }
    if result.rules.currency:
        doc["currency"] = result.rules.currency
    return doc


def dumps_json(result: Awards) -> str:
    return json.dumps(to_json(result), ensure_ascii=False, indent=2) + "\n"


def to_text(result: Awards, names: dict[str, str]) -> str:
    """A prize list for people: one line a player of each award, then the prizes not awarded."""
    currency = result.rules.currency
    lines = []
    for award in result.awards:
        heading = award.name
        if award.shared:
            heading += f"  (shared, places {award.first_place}-{award.last_place})"
        lines.append(heading)
        for i, pid in enumerate(award.players):
            what = []
            if award.has_money:
                what.append(f"{currency} {amount_text(award.money[i])}".strip())
            if award.has_items:
                what.append(f"{award.items[i]} {award.unit}".strip())
            lines.append(f"  {names.get(pid, pid)}: {', '.join(what)}")
        if award.money_remainder:
            lines.append(f"  remainder not paid: {currency} {amount_text(award.money_remainder)}".rstrip())
        if award.items_remainder:
            lines.append(f"  remainder not given: {award.items_remainder} {award.unit}".rstrip())
    if result.unawarded:
        lines.append("Not awarded: " + ", ".join(p.name for p in result.unawarded))
    if not lines:
        lines.append("No prizes.")
    return "\n".join(lines) + "\n"
