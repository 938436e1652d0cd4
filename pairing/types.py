"""What the pairing engines take and give, shared by both (the optimal engine, pairing/optimal.py, and the FIDE
Dutch system, pairing/dutch/) and by the event adapter (pairing/event.py): the optimal engine's input, a pair,
a round's pairing, and the error a round that cannot be paired raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from swiss.messages import Message


class PairingError(ValueError):
    """The round cannot be paired as asked; the message tells the organiser what to do."""


@dataclass(frozen=True)
class Entrant:
    """An eligible player as the engine sees them before the round."""

    id: str
    name: str = ""
    points: Fraction = Fraction(0)
    rank: int = 1  # standings rank before the round; equal players share a rank
    byes: int = 0  # byes received so far, pre-awarded ones included
    opponents: frozenset[str] = frozenset()
    colours: str = ""  # "W"/"B" per game played, oldest first (chess)
    rating: int | None = None
    fixed_table: int | None = None

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class PairingInput:
    """The optimal engine's input (the Dutch system takes a pairing.dutch.DutchInput)."""

    round: int
    entrants: tuple[Entrant, ...]  # eligible players only
    awarded_byes: tuple[Entrant, ...] = ()  # players holding a pre-awarded bye this round
    seed: int = 0
    colours: bool = False
    # "swiss", or "rating": top half against bottom half (round one); "dutch" for the entrants of an event the
    # Dutch system pairs (pairing.event.entrants_from_event), as they are shown beside its pairing.
    method: str = "swiss"
    notes: tuple[Message, ...] = ()  # what the pairing says first (who is left out of it, pairing.event)


@dataclass(frozen=True)
class Pair:
    table: int
    a: str  # white when the event uses colours; otherwise the higher-placed player
    b: str


@dataclass(frozen=True)
class Pairing:
    round: int
    seed: int
    pairs: tuple[Pair, ...]  # the games, by table
    byes: tuple[str, ...] = ()  # the computed bye (if any), then the pre-awarded byes; no table
    awarded_byes: tuple[str, ...] = ()  # the pre-awarded ones among them
    # Who was left out of the pairing and why (pairing.event.left_out), then every rematch or second bye that
    # could not be avoided, and why.
    warnings: tuple[Message, ...] = ()
    floats: tuple[Pair, ...] = ()  # pairs of players on different points
    rematches: int = 0
    second_byes: int = 0
    spread: Fraction = Fraction(0)  # sum over pairs of the squared point difference
    method: str = "swiss"
