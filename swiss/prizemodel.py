"""The prize list of an event and its rules as the model holds them (docs/prizes.md): place and category
prizes, each an exact amount of money or a count of items, and how ties share. `swiss.prizelist` reads and
writes them in the swiss-event file; `standings.prizes` splits them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

# How tied players share: pool and split equally; the Hort system (half by place, half pooled); or the
# event's tie-break order.
TIES = ("shared", "hort", "tiebreak")
# With one prize a player: the higher value first, or the organiser's order of the list.
PRIORITIES = ("value", "order")


@dataclass(frozen=True)
class Category:
    """Who may take a prize: every condition given holds (a rating band is two of them)."""

    rating_below: int | None = None  # rated, rating < this
    rating_from: int | None = None  # rated, rating >= this
    born_after: str | None = None  # an ISO date: born on a later day
    born_before: str | None = None  # an ISO date: born on an earlier day
    women: bool = False  # sex F (or W)
    unrated: bool = False  # no rating (or 0)
    section: str = ""  # the player's division when sections are paired together
    players: tuple[str, ...] = ()  # a custom list, by player id
    # A record such as "4-1" or "3-0-2" (wins-losses-draws): every player with at least the match points of
    # that record takes the prize, whatever their place ("every 4-1 or better: 3 packs").
    record: str = ""


@dataclass(frozen=True)
class Prize:
    """A prize: an amount of money (exact, in the event's currency) or a count of items (packs, credit)."""

    name: str
    amount: Fraction | None = None
    items: int | None = None
    unit: str = ""  # what an item prize counts ("packs"), as the organiser writes it
    category: Category | None = None  # None: a place prize of the whole event

    @property
    def value(self) -> Fraction:
        return self.amount if self.amount is not None else Fraction(self.items or 0)


@dataclass(frozen=True)
class PrizeRules:
    ties: str = "shared"
    one_per_player: bool = True
    priority: str = "value"
    currency: str = ""  # "EUR", "¥", as the organiser writes it


def amount_text(value: Fraction) -> str:
    """An amount to the cent, rounded down: "40.00"."""
    cents = value.numerator * 100 // value.denominator
    return f"{cents // 100}.{cents % 100:02d}"
