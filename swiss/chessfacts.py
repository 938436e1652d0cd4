"""The chess facts an event carries beyond pairing and standings, as the swiss-event file reads them: a
player's FIDE details (FIDE ID, federation, title, sex, birth date), manual accelerations (TRF XXA), and the
facts a FIDE rating report's header gives (TRF 022 city, 032 federation, 052 end date, 102 chief arbiter,
112 deputies, 122 time control, 132 round dates). `swiss.eventfile` and the TRF reader (`swiss.trflines`,
`swiss.trfheader`) check them with these rules, so a file of either kind holds only what the other can.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from swiss.messages import Message
from swiss.model import BIRTH_DATE, TITLES, possible_birth_date
from swiss.strictjson import EventFileError, date_at, fraction_at, list_at, str_at

# At most this many deputy arbiters, round dates and acceleration values (a round each).
MAX_DEPUTIES = 20
MAX_ROUND_VALUES = 200
# The most virtual points a round's acceleration adds: four columns of a TRF's XXA line (tenths, as it writes them).
MAX_ACCELERATION = Fraction(999, 10)

_FIDE_ID = re.compile(r"[0-9]{1,11}")
_FEDERATION = re.compile(r"[A-Za-z]{3}")
_TITLE = re.compile("|".join(TITLES), re.IGNORECASE)
_SEX = re.compile(r"[mwfMWF]")


def detail_problem(key: str, value: str) -> Message | None:
    """Why a chess detail (fide_id, federation, title, sex, birth_date) is not one a FIDE report takes, or None.

    Empty is allowed: every detail is optional.
    """
    if not value:
        return None
    if key == "fide_id" and not _FIDE_ID.fullmatch(value):
        return Message("file_fide_id", "a FIDE ID is up to 11 digits")
    if key == "federation" and not _FEDERATION.fullmatch(value):
        return Message("file_federation", "a federation is a three-letter FIDE code such as GER")
    if key == "title" and not _TITLE.fullmatch(value):
        return Message("file_title", "a title is one of {choices}", choices=", ".join(TITLES[:8]))
    if key == "sex" and not _SEX.fullmatch(value):
        return Message("file_sex", "sex is m or w (f is read as w)")
    if key == "birth_date" and not BIRTH_DATE.fullmatch(value):
        return Message("file_birth_date", "a birth date is written 1969/12/06 or 1969")
    if key == "birth_date" and not possible_birth_date(value):
        return Message("file_birth_date_impossible", "there is no date {date}", date=value)
    return None


def _too_many(path: str, limit: int) -> EventFileError:
    return EventFileError(path, Message("file_too_large", "must be at most {maximum}", maximum=limit))


def rating_report(data: dict) -> dict[str, Any]:
    """The Settings fields of a swiss-event document's rating-report keys (all optional): city, federation,
    end_date, chief_arbiter, deputy_arbiters (a list), time_control, round_dates (a list; null for a round
    without a date)."""
    federation = str_at(data.get("federation", ""), "federation", allow_empty=True, max_length=3)
    if problem := detail_problem("federation", federation):
        raise EventFileError("federation", problem)
    deputies = list_at(data.get("deputy_arbiters", []), "deputy_arbiters")
    if len(deputies) > MAX_DEPUTIES:
        raise _too_many("deputy_arbiters", MAX_DEPUTIES)
    dates = list_at(data.get("round_dates", []), "round_dates")
    if len(dates) > MAX_ROUND_VALUES:
        raise _too_many("round_dates", MAX_ROUND_VALUES)
    return {
        "city": str_at(data.get("city", ""), "city", allow_empty=True),
        "federation": federation,
        "end_date": date_at(data.get("end_date"), "end_date"),
        "chief_arbiter": str_at(data.get("chief_arbiter", ""), "chief_arbiter", allow_empty=True),
        "deputy_arbiters": tuple(str_at(d, f"deputy_arbiters[{k}]") for k, d in enumerate(deputies)),
        "time_control": str_at(data.get("time_control", ""), "time_control", allow_empty=True),
        "round_dates": tuple(date_at(d, f"round_dates[{k}]") for k, d in enumerate(dates)),
    }


def forbidden_rounds(
    value: Any, ids: set[str], path: str = "forbidden_rounds"
) -> tuple[tuple[str, str, int, int], ...]:
    """`[["3", "7", 2, 3], …]`: pairs of players kept apart in rounds 2 to 3 only (first <= last)."""
    found: list[tuple[str, str, int, int]] = []
    for i, entry in enumerate(list_at(value, path)):
        ok = isinstance(entry, list) and len(entry) == 4
        ok = ok and all(isinstance(x, str) for x in entry[:2]) and all(type(x) is int for x in entry[2:])
        if not ok or not 1 <= entry[2] <= entry[3] or entry[0] == entry[1]:
            raise EventFileError(
                f"{path}[{i}]",
                Message("file_forbidden_rounds", "expected two player ids, then the first and last round"),
            )
        forbidden_pairs([entry[:2]], ids, f"{path}[{i}]")
        found.append((entry[0], entry[1], entry[2], entry[3]))
    return tuple(found)


def forbidden_pairs(value: Any, ids: set[str], path: str = "forbidden_pairs") -> tuple[tuple[str, str], ...]:
    """`[["3", "7"], …]`: pairs of two different players of the event, each pair once."""
    pairs: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    for i, pair in enumerate(list_at(value, path)):
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
            raise EventFileError(f"{path}[{i}]", Message("file_forbidden_pair", "expected two player ids"))
        for x in pair:
            if x not in ids:
                raise EventFileError(
                    f"{path}[{i}]", Message("file_unknown_player", "unknown player {player}", player=repr(x))
                )
        if pair[0] == pair[1] or frozenset(pair) in seen:
            raise EventFileError(
                f"{path}[{i}]", Message("file_forbidden_pair_twice", "two different players, each pair once")
            )
        seen.add(frozenset(pair))
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def accelerations(value: Any, path: str) -> tuple[Fraction, ...]:
    """A player's `accelerations`, [1, 1, "1/2"]: the virtual points added when pairing round 1, 2, 3…"""
    values = list_at(value, path)
    if len(values) > MAX_ROUND_VALUES:
        raise _too_many(path, MAX_ROUND_VALUES)
    out = []
    for k, v in enumerate(values):
        f = fraction_at(v, f"{path}[{k}]")
        if f < 0:
            raise EventFileError(f"{path}[{k}]", Message("file_too_small", "must be at least {minimum}", minimum=0))
        if f > MAX_ACCELERATION or (f * 10).denominator != 1:
            raise EventFileError(
                f"{path}[{k}]",
                Message("file_acceleration", "virtual points in tenths, at most {limit}", limit="99.9"),
            )
        out.append(f)
    return tuple(out)
