"""A section's own settings, as the swiss-event file reads and writes them (docs/sections.md): its first
table number, its placement rules (a rating band, birth years), its Day-2 cut, the section it is paired
together with, and whether it has joined that section's rounds (its players moved there). Every key is
optional and written only when set, so a file from before sections comes back byte for byte;
`swiss.eventfile` reads them in every event's body, a version-2 file's sections (`swiss.venuefile`) being
where they mean most.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from swiss.messages import Message
from swiss.model import INT_MAX, Settings
from swiss.strictjson import EventFileError, bool_at, fraction_at, int_at, str_at

# The keys, in the order the writer writes them.
KEYS = (
    "first_table",
    "rating_min",
    "rating_max",
    "birth_year_min",
    "birth_year_max",
    "cut_after",
    "cut_points",
    "cut_top",
    "cut_ties",
    "pair_with",
    "pair_with_below",
    "joined",
)
# The Day-2 cut's rule for ties at the line (standings/cut.py: everyone level on points, or the tie-breakers).
CUT_TIES = ("points", "breakers")


def section_settings(data: dict) -> dict[str, Any]:
    """The section settings of an event's body, checked, as the Settings fields of the same names."""
    found: dict[str, Any] = {}
    for key in ("rating_min", "rating_max"):
        found[key] = int_at(data.get(key), key, 0, allow_none=True, maximum=INT_MAX)
    for key in ("birth_year_min", "birth_year_max"):
        found[key] = int_at(data.get(key), key, 1, allow_none=True, maximum=9999)
    for key in ("first_table", "cut_top", "pair_with_below"):
        found[key] = int_at(data.get(key), key, 1, allow_none=True, maximum=INT_MAX)
    found["cut_after"] = int_at(data.get("cut_after"), "cut_after", 1, allow_none=True)
    points = data.get("cut_points")
    found["cut_points"] = None if points is None else fraction_at(points, "cut_points")
    if found["cut_points"] is not None and found["cut_points"] < 0:
        raise EventFileError("cut_points", Message("file_too_small", "must be at least {minimum}", minimum=0))
    found["cut_ties"] = str_at(data.get("cut_ties", ""), "cut_ties", allow_empty=True)
    if found["cut_ties"] not in ("", *CUT_TIES):
        raise EventFileError(
            "cut_ties",
            Message("file_expected_one_of", "expected one of {choices}", choices=", ".join(CUT_TIES)),
        )
    found["pair_with"] = str_at(data.get("pair_with", ""), "pair_with", allow_empty=True)
    found["joined"] = bool_at(data.get("joined", False), "joined")
    if found["joined"] and not found["pair_with"]:
        raise EventFileError(
            "joined", Message("file_joined_alone", "only a section that pairs with another (pair_with) joins it")
        )
    for low, high in (("rating_min", "rating_max"), ("birth_year_min", "birth_year_max")):
        if found[low] is not None and found[high] is not None and found[low] > found[high]:
            raise EventFileError(high, Message("file_below_minimum", "must not be below {key}", key=low))
    return found


@dataclass(frozen=True)
class Paired:
    """A section as the rules of pairing two sections together see it: `key` tells it apart (its name in a file,
    its row in the app), `pair_with` is the key of the section it is set to pair with ("" for none), `scoring`
    its preset and points (paired sections score alike)."""

    key: str
    name: str
    pair_with: str
    pair_with_below: int | None
    scoring: tuple


def pair_with_problem(section: Paired, sections: list[Paired]) -> tuple[str, Message] | None:
    """What is wrong with the section's pairing with another (`sections`: every section of the event as it would
    be, this one included), as (the setting at fault, the refusal), or None. The one set of rules the settings
    form and the file reader both apply: another section of the same event, which pairs with none itself and
    with which no third pairs (no chains, no circles), scoring alike, and the number of players below which
    the two pair together."""
    if not section.pair_with:
        return None
    partner = next((s for s in sections if s.key == section.pair_with and s.key != section.key), None)
    if partner is None:
        return "pair_with", Message(
            "file_no_such_section",
            "no other section is called {name}",
            name=json.dumps(section.pair_with, ensure_ascii=False),
        )
    if partner.pair_with or any(s.pair_with == section.key for s in sections if s.key != section.key):
        return "pair_with", Message(
            "pair_with_chain", "a section pairs with one section that pairs with none itself: no chains, no circles"
        )
    if partner.scoring != section.scoring:
        return "pair_with", Message(
            "pair_with_scoring",
            "“{section}” has another preset or scoring: sections paired together score alike",
            section=partner.name,
        )
    if not section.pair_with_below:
        return "pair_with_below", Message(
            "pair_with_below_missing", "give the number of players below which the two sections pair together"
        )
    return None


def dump_section_settings(s: Settings) -> dict[str, Any]:
    """The section settings that are set, in KEYS order (fractions as the scoring writes them)."""
    doc: dict[str, Any] = {}
    for key in KEYS:
        value = getattr(s, key)
        if isinstance(value, Fraction):
            doc[key] = int(value) if value.denominator == 1 else str(value)
        elif value is not None and value != "" and value is not False:
            doc[key] = value
    return doc
