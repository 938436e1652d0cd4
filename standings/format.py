"""Standings for people (rounded for display only) and for programs (exact strings, docs/file-formats.md)."""

from __future__ import annotations

import json
import unicodedata
from fractions import Fraction
from typing import Any

from standings.engine import Row, Standings
from standings.figures import Value
from standings.rating import RatingChange, format_change
from swiss.tiebreakers import PERCENTAGES, heading


def _decimal(value: Fraction, places: int) -> str:
    """`value` rounded half up to `places` decimals, all of them shown."""
    scale = 10**places
    n = value * scale
    q = (n.numerator * 2 + n.denominator) // (2 * n.denominator)
    sign = "-" if q < 0 else ""
    q = abs(q)
    return f"{sign}{q // scale}.{q % scale:0{places}d}" if places else f"{sign}{q}"


def format_number(value: Fraction) -> str:
    """A whole number as is, a half point as "2.5", anything else to at most 4 decimals."""
    if value.denominator == 1:
        return str(value.numerator)
    return _decimal(value, 4).rstrip("0").rstrip(".")


def format_percent(value: Fraction) -> str:
    """A fraction as a percentage to 4 decimals: 5/9 -> "55.5556%"."""
    return _decimal(value * 100, 4) + "%"


def format_value(code: str, value: Value) -> str:
    """One tie-breaker for display: percentages, vectors as "9/7/5/3", other figures as numbers."""
    if isinstance(value, tuple):
        return "/".join(format_number(v) for v in value)
    if code in PERCENTAGES:
        return format_percent(value)
    return format_number(value)


def exact(value: Value) -> str | list[str]:
    """The exact interchange form: "5/9", "9", and a vector as a list of those."""
    if isinstance(value, tuple):
        return [str(v) for v in value]
    return str(value)


# Rating changes by player id (standings.rating), for a chess event with ratings; None: no such columns.
Ratings = dict[str, RatingChange] | None


def to_json(standings: Standings, ratings: Ratings = None) -> dict[str, Any]:
    """The `standings` command's JSON document (docs/file-formats.md), every fractional number as an exact string."""
    return {"after_round": standings.after_round, "standings": [_row_json(r, ratings) for r in standings.rows]}


def _row_json(r: Row, ratings: Ratings = None) -> dict[str, Any]:
    row = _row_fields(r)
    if ratings is not None:
        change = ratings.get(r.player_id)
        row["rating_change"] = None if change is None else format_change(change.total, plus=False)
        row["k"] = None if change is None else change.k
        row["k_from"] = None if change is None else change.k_source
    return row


def _row_fields(r: Row) -> dict[str, Any]:
    return {
        "rank": r.rank,
        "id": r.player_id,
        "name": r.name,
        "points": str(r.points),
        "wins": r.wins,
        "losses": r.losses,
        "draws": r.draws,
        "rounds_played": r.rounds_played,
        "tiebreakers": {c: exact(v) for c, v in r.tiebreakers.items()},
    }


def dumps_json(standings: Standings, ratings: Ratings = None) -> str:
    """`to_json` as text, one player per line: readable, and fast for thousands of players."""
    rows = ",\n".join(json.dumps(_row_json(r, ratings), ensure_ascii=False) for r in standings.rows)
    return f'{{"after_round": {standings.after_round}, "standings": [\n{rows}\n]}}\n'


# Invisible characters that reorder a terminal line (bidi embeddings, overrides, isolates, marks).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def visible(text: str) -> str:
    """`text` safe to print on a terminal: control and bidi characters shown as escapes (\\x1b, \\u202e)."""
    return "".join(
        c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) == "Cc" or c in _BIDI else c for c in text
    )


def display_width(text: str) -> int:
    """The columns `text` takes on a terminal: East Asian wide and full-width characters (山田, ＡＢＣ) take
    two, combining marks none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` filled with spaces to `width` terminal columns (on the left when `right`)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def to_text(standings: Standings, ratings: Ratings = None) -> str:
    """An aligned table a person reads: rank, name, points, record W-L-D and each tie-breaker (then the rating
    change and its K, for a chess event with ratings)."""
    header = ["#", "Player", "Pts", "W-L-D", *(heading(c) for c in standings.tiebreakers)]
    right = [True, False, True, True, *([True] * len(standings.tiebreakers))]
    if ratings is not None:
        header += ["Rtg+/-", "K"]
        right += [True, True]
    lines = [header]
    for r in standings.rows:
        change = ratings.get(r.player_id) if ratings is not None else None
        extra = [] if ratings is None else ["", ""] if change is None else [format_change(change.total), str(change.k)]
        lines.append(
            [
                str(r.rank),
                visible(r.name) + (" (dropped)" if r.dropped else ""),
                format_number(r.points),
                f"{r.wins}-{r.losses}-{r.draws}",
                *(format_value(c, v) for c, v in r.tiebreakers.items()),
                *extra,
            ]
        )
    widths = [max(display_width(line[k]) for line in lines) for k in range(len(header))]
    out = [f"Standings after round {standings.after_round}"]
    for line in lines:
        cells = [pad(cell, wd, rt) for cell, wd, rt in zip(line, widths, right, strict=True)]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out) + "\n"
