"""A section's own settings, as the swiss-event file reads and writes them (docs/sections.md): its first
table number, its placement rules (a rating band, birth years), its Day-2 cut, and the section it is paired
together with. Every key is optional and written only when set, so a file from before sections comes back
byte for byte; `swiss.eventfile` reads them in every event's body, a version-2 file's sections
(`swiss.venuefile`) being where they mean most.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from swiss.messages import Message
from swiss.model import INT_MAX, Settings
from swiss.strictjson import EventFileError, fraction_at, int_at, str_at

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
    for low, high in (("rating_min", "rating_max"), ("birth_year_min", "birth_year_max")):
        if found[low] is not None and found[high] is not None and found[low] > found[high]:
            raise EventFileError(high, Message("file_below_minimum", "must not be below {key}", key=low))
    return found


def dump_section_settings(s: Settings) -> dict[str, Any]:
    """The section settings that are set, in KEYS order (fractions as the scoring writes them)."""
    doc: dict[str, Any] = {}
    for key in KEYS:
        value = getattr(s, key)
        if isinstance(value, Fraction):
            doc[key] = int(value) if value.denominator == 1 else str(value)
        elif value is not None and value != "":
            doc[key] = value
    return doc
