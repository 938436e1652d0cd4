"""The colour rules of the FIDE (Dutch) system (C.04.3 E, and C.10-C.13 among the quality criteria), on a
player's colour state as pairing/dutch/players.py works it out: pref (the colour preferred, "" for none),
imbalance (whites minus blacks, as a size), repeated (a colour had twice or more in a row), absolute and
strong (the kind of preference), history (the rounds, with the colour of each game played).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

WHITE, BLACK = "W", "B"

__all__ = ["BLACK", "WHITE", "ColourState", "colour_bits", "compatible_prefs", "invert", "neutral_colour"]


class _Round(Protocol):
    @property
    def played(self) -> bool: ...
    @property
    def colour(self) -> str: ...


class ColourState(Protocol):
    """A player's colour state (pairing/dutch/players.py's Player)."""

    @property
    def pref(self) -> str: ...
    @property
    def imbalance(self) -> int: ...
    @property
    def repeated(self) -> str: ...
    @property
    def absolute(self) -> bool: ...
    @property
    def strong(self) -> bool: ...
    @property
    def history(self) -> Sequence[_Round]: ...


def invert(colour: str) -> str:
    return {WHITE: BLACK, BLACK: WHITE}.get(colour, "")


def compatible_prefs(a: str, b: str) -> bool:
    return a != b or not a or not b


def neutral_colour(x: ColourState, y: ColourState) -> str:
    """The colour x gets against y when their preferences settle it (C.04.3 E.1-E.4), else ""."""
    if compatible_prefs(x.pref, y.pref):
        return x.pref or invert(y.pref)
    if x.absolute and (x.imbalance > y.imbalance or not y.absolute):
        return x.pref
    if y.absolute and (y.imbalance > x.imbalance or not x.absolute):
        return invert(y.pref)
    if x.strong and not y.strong:
        return x.pref
    if y.strong and not x.strong:
        return invert(y.pref)
    # The last round in which the two had different colours: each gets the other's colour of then.
    xs = [g.colour for g in x.history if g.played]
    ys = [g.colour for g in y.history if g.played]
    while xs and ys and xs[-1] == ys[-1]:
        xs.pop()
        ys.pop()
    return ys[-1] if xs and ys else ""


def colour_bits(x: ColourState, y: ColourState) -> Iterable[bool]:
    """C.10-C.13 for a pair, each True when the pair meets it."""
    same = x.pref == y.pref
    yield not (x.imbalance > 1 and y.imbalance > 1 and same)
    if not (x.absolute and y.absolute and same):
        yield True
    elif x.imbalance == y.imbalance:
        yield x.repeated == "" or x.repeated != y.repeated
    else:
        yield (y if x.imbalance > y.imbalance else x).repeated != invert(x.pref)
    yield compatible_prefs(x.pref, y.pref)
    yield (
        (not x.strong and not x.absolute)
        or (not y.strong and not y.absolute)
        or (x.absolute and y.absolute)
        or not same
    )
