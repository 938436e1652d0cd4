"""Which edition of FIDE's rules an event is worked out by: the one in force on its start date.

FIDE changes its rules on a given day, and an event is computed by the rules of the day it began, so that an
arbiter re-computing an old event, or importing an old TRF, gets the figures FIDE printed then
(docs/tiebreakers.md, docs/ratings.md):

* The tie-break regulations (Handbook C.07): the edition of August 2024 (in force 1 August 2024 to 28
  February 2026; the oldest this app knows, so an older event is worked out by it too) and the edition of
  March 2026 (in force from 1 March 2026: the capped dummy opponent of 16.4, the Sonneborn-Berger cut tie of
  16.5.1, Fore Buchholz drawing the last round's forfeits, the perfect tournament performance of a perfect
  score). The event's file or its organiser may name the edition (`Settings.tiebreak_rules`): that wins.
* The rating regulations (Handbook B.02): the whole rating difference counts for a player rated 2650 or more
  from 1 October 2025 (8.3.1 as amended); before, the 400-point rule held for every player.

An event without a start date is worked out by the newest rules, those in force today (every edition here is
already in force). The engines read the edition from the event's settings; none reads the clock.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from swiss.messages import Message
from swiss.model import Settings
from swiss.strictjson import EventFileError

C07_2024 = "2024"
C07_2026 = "2026"
# Each C.07 edition and the day it came into force, oldest first.
C07_EDITIONS = ((C07_2024, dt.date(2024, 8, 1)), (C07_2026, dt.date(2026, 3, 1)))
C07_LATEST = C07_EDITIONS[-1][0]
# B.02 8.3.1 as amended: from this day a player rated 2650 or more counts the whole rating difference.
TOP_UNCAPPED_SINCE = dt.date(2025, 10, 1)


def start_date(settings: Settings) -> dt.date | None:
    """The event's first day, or None when it has none (or none a calendar has)."""
    try:
        return dt.date.fromisoformat(settings.date) if settings.date else None
    except ValueError:
        return None


def c07_edition(settings: Settings) -> str:
    """The C.07 edition the event's tie-breaks follow: the one it names, else the one in force on its start
    date (the oldest known for an event before it), else the newest."""
    if settings.tiebreak_rules:
        return settings.tiebreak_rules
    start = start_date(settings)
    if start is None:
        return C07_LATEST
    edition = C07_EDITIONS[0][0]
    for name, since in C07_EDITIONS:
        if start >= since:
            edition = name
    return edition


def c07_named(settings: Settings) -> bool:
    """Whether the edition is the event's own choice rather than its date's."""
    return bool(settings.tiebreak_rules)


def top_uncapped(settings: Settings) -> bool:
    """Whether B.02 8.3.1 as amended applies: the event began on or after 1 October 2025, or has no date."""
    start = start_date(settings)
    return start is None or start >= TOP_UNCAPPED_SINCE


def tiebreak_rules_at(data: dict) -> dict[str, Any]:
    """The Settings field of a swiss-event document's optional `tiebreak_rules` key: "2024" or "2026", the C.07
    edition the event is ranked by whatever its date."""
    value = data.get("tiebreak_rules", "")
    names = [name for name, _ in C07_EDITIONS]
    if value != "" and value not in names:
        raise EventFileError(
            "tiebreak_rules",
            Message("file_expected_one_of", "expected one of {choices}", choices=", ".join(names)),
        )
    return {"tiebreak_rules": value}


def dump_tiebreak_rules(s: Settings) -> dict[str, Any]:
    """The `tiebreak_rules` key, written only when the event names an edition."""
    return {"tiebreak_rules": s.tiebreak_rules} if s.tiebreak_rules else {}
