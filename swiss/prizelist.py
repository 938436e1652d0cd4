"""An event's prize list and its rules (docs/prizes.md), as the model holds them and the swiss-event file
reads and writes them: `"prizes"`, in the organiser's order, and `"prize_rules"`. Both keys are optional and
written only when set, so a file from before prizes comes back byte for byte. The split itself is
`standings.prizes`'s.

Money is exact: an amount is a decimal string with at most two decimals ("40", "12.50"), held as a Fraction.
"""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction
from typing import Any

from swiss.messages import Message
from swiss.model import INT_MAX, MAX_ID, MAX_NAME
from swiss.prizemodel import PRIORITIES, TIES, Category, Prize, PrizeRules, amount_text
from swiss.strictjson import EventFileError, bool_at, date_at, int_at, list_at, object_at, required, str_at

MAX_PRIZES = 500
MAX_AMOUNT = Fraction(10**12)
_AMOUNT = re.compile(r"\d{1,13}(\.\d{1,2})?")
_RECORD = re.compile(r"(\d{1,3})-(\d{1,3})(?:-(\d{1,3}))?")
_CATEGORY_KEYS = {
    "rating_below",
    "rating_from",
    "born_after",
    "born_before",
    "women",
    "unrated",
    "section",
    "players",
    "record",
}


def parse_amount(text: str) -> Fraction:
    """A decimal string with at most two decimals; ValueError otherwise."""
    if not isinstance(text, str) or not _AMOUNT.fullmatch(text.strip()):
        raise ValueError(text)
    value = Fraction(text.strip())
    if value > MAX_AMOUNT:
        raise ValueError(text)
    return value


def record_points(record: str, win: Fraction, draw: Fraction, loss: Fraction) -> Fraction:
    """The match points of a record "W-L" or "W-L-D"."""
    m = _RECORD.fullmatch(record)
    if m is None:
        raise ValueError(record)
    wins, losses, draws = int(m[1]), int(m[2]), int(m[3] or 0)
    return wins * win + losses * loss + draws * draw


def prize_settings(data: dict) -> dict[str, Any]:
    """The prize list and rules of an event's body, checked, as the Settings fields `prizes` and `prize_rules`."""
    prizes = tuple(_prize(p, f"prizes[{i}]") for i, p in enumerate(list_at(data.get("prizes", []), "prizes")))
    if len(prizes) > MAX_PRIZES:
        raise EventFileError("prizes", Message("file_too_large", "must be at most {maximum}", maximum=MAX_PRIZES))
    return {"prizes": prizes, "prize_rules": _rules(data.get("prize_rules", {}))}


def _prize(value: Any, path: str) -> Prize:
    value = object_at(value, path, {"name", "amount", "items", "unit", "category"})
    name = str_at(required(value, "name", path), f"{path}.name")
    if ("amount" in value) == ("items" in value):
        raise EventFileError(
            path, Message("file_prize_value", "give an amount (money) or a number of items, one of the two")
        )
    amount = None
    if "amount" in value:
        try:
            amount = parse_amount(value["amount"])
        except ValueError:
            raise EventFileError(
                f"{path}.amount",
                Message("file_prize_amount", 'expected an amount as a decimal string such as "40" or "12.50"'),
            ) from None
    items = int_at(value["items"], f"{path}.items", 1, allow_none=False, maximum=INT_MAX) if "items" in value else None
    unit = str_at(value.get("unit", ""), f"{path}.unit", allow_empty=True, max_length=MAX_ID)
    category = _category(value["category"], f"{path}.category") if "category" in value else None
    return Prize(name=name, amount=amount, items=items, unit=unit, category=category)


def _category(value: Any, path: str) -> Category:
    value = object_at(value, path, _CATEGORY_KEYS)
    if not value:
        raise EventFileError(path, Message("file_prize_category", "name at least one condition"))
    found: dict[str, Any] = {}
    for key in ("rating_below", "rating_from"):
        found[key] = int_at(value.get(key), f"{path}.{key}", 0, allow_none=True, maximum=INT_MAX)
    for key in ("born_after", "born_before"):
        found[key] = date_at(value.get(key), f"{path}.{key}")
    for key in ("women", "unrated"):
        found[key] = bool_at(value.get(key, False), f"{path}.{key}")
    found["section"] = str_at(value.get("section", ""), f"{path}.section", allow_empty=True, max_length=MAX_NAME)
    players = list_at(value.get("players", []), f"{path}.players")
    found["players"] = tuple(str_at(p, f"{path}.players[{i}]", max_length=MAX_ID) for i, p in enumerate(players))
    record = str_at(value.get("record", ""), f"{path}.record", allow_empty=True)
    if record and not _RECORD.fullmatch(record):
        raise EventFileError(
            f"{path}.record", Message("file_prize_record", 'expected a record such as "4-1" or "3-0-2"')
        )
    found["record"] = record
    return Category(**found)


def _rules(value: Any) -> PrizeRules:
    value = object_at(value, "prize_rules", {"ties", "one_per_player", "priority", "currency"})
    ties = value.get("ties", "shared")
    if ties not in TIES:
        raise EventFileError(
            "prize_rules.ties", Message("file_expected_one_of", "expected one of {choices}", choices=", ".join(TIES))
        )
    priority = value.get("priority", "value")
    if priority not in PRIORITIES:
        raise EventFileError(
            "prize_rules.priority",
            Message("file_expected_one_of", "expected one of {choices}", choices=", ".join(PRIORITIES)),
        )
    return PrizeRules(
        ties=ties,
        one_per_player=bool_at(value.get("one_per_player", True), "prize_rules.one_per_player"),
        priority=priority,
        currency=str_at(value.get("currency", ""), "prize_rules.currency", allow_empty=True, max_length=10),
    )


def dump_prize_settings(prizes: tuple[Prize, ...], rules: PrizeRules) -> dict[str, Any]:
    """The file's keys for a prize list and its rules; none when there is no list and the rules are the defaults."""
    doc: dict[str, Any] = {}
    if prizes:
        doc["prizes"] = [dump_prize(p) for p in prizes]
    if rules != PrizeRules():
        doc["prize_rules"] = {
            "ties": rules.ties,
            "one_per_player": rules.one_per_player,
            "priority": rules.priority,
            **({"currency": rules.currency} if rules.currency else {}),
        }
    return doc


def dump_prize(p: Prize) -> dict[str, Any]:
    doc: dict[str, Any] = {"name": p.name}
    if p.amount is not None:
        doc["amount"] = amount_text(p.amount)
    else:
        doc["items"] = p.items
        if p.unit:
            doc["unit"] = p.unit
    if p.category is not None:
        doc["category"] = dump_category(p.category)
    return doc


def dump_category(c: Category) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for key in ("rating_below", "rating_from", "born_after", "born_before"):
        if getattr(c, key) is not None:
            doc[key] = getattr(c, key)
    for key in ("women", "unrated"):
        if getattr(c, key):
            doc[key] = True
    if c.section:
        doc["section"] = c.section
    if c.players:
        doc["players"] = list(c.players)
    if c.record:
        doc["record"] = c.record
    return doc


def birth_date(text: str) -> tuple[dt.date, dt.date] | None:
    """The earliest and latest day a birth date as written can mean: "2009-03-01", "2009/03/01", "2009.03.01",
    the year alone, or "00" for a month or day not known."""
    m = re.fullmatch(r"(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?", text.strip())
    if m is None:
        return None
    year, month, day = int(m[1]), int(m[2] or 0), int(m[3] or 0)
    try:
        if month == 0:
            return dt.date(year, 1, 1), dt.date(year, 12, 31)
        if day == 0:
            last = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day
            return dt.date(year, month, 1), dt.date(year, month, last)
        return dt.date(year, month, day), dt.date(year, month, day)
    except ValueError:
        return None
