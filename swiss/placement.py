"""Which section of an event a player goes to by its placement rules (docs/sections.md: Players and placement).

A section's rules are a rating band and a band of birth years, either end of each open. A player fits a
section when they fit every rule it sets:

- a rating band: a rating within it; a player without a rating counts as rated 0 (an unrated player fits
  "under 1600", never "1800 and up");
- birth years: a year of birth within them; a player whose birth year is unknown fits no birth-year rule
  (an age category is proved, not presumed).

A section that sets no rule takes players by hand only. A player fitting several sections goes to the first
in the event's order; one fitting none stays unplaced, waiting on the event.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_YEAR = re.compile(r"\s*([0-9]{4})(?:[/\-.][0-9]{1,2}[/\-.][0-9]{1,2})?\s*")


@dataclass(frozen=True)
class Rules:
    """One section's placement rules; None is an open end."""

    rating_min: int | None = None
    rating_max: int | None = None
    birth_year_min: int | None = None
    birth_year_max: int | None = None

    @property
    def any(self) -> bool:
        return any(v is not None for v in (self.rating_min, self.rating_max, self.birth_year_min, self.birth_year_max))


def birth_year(birth_date: str) -> int | None:
    """The year of a birth date as a player's details hold it ("1969/12/06" or "1969"); None when unknown."""
    m = _YEAR.fullmatch(birth_date or "")
    return int(m[1]) if m else None


def fits(rules: Rules, rating: int | None, year: int | None) -> bool:
    if not rules.any:
        return False
    rated = rating or 0
    if rules.rating_min is not None and rated < rules.rating_min:
        return False
    if rules.rating_max is not None and rated > rules.rating_max:
        return False
    if rules.birth_year_min is not None or rules.birth_year_max is not None:
        if year is None:
            return False
        if rules.birth_year_min is not None and year < rules.birth_year_min:
            return False
        if rules.birth_year_max is not None and year > rules.birth_year_max:
            return False
    return True


def section_for(sections: Sequence[Rules], rating: int | None, birth_date: str = "") -> int | None:
    """The index of the first section (in the event's order) whose rules the player fits; None for none."""
    year = birth_year(birth_date)
    return next((i for i, rules in enumerate(sections) if fits(rules, rating, year)), None)
