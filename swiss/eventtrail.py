"""A round's trail as files carry it (docs/file-formats.md, "The trail of changes"): the `changes` of a round in a
swiss-event file, each checked as it is read, written back as read; and the `###` lines a TRF export writes, one
per change, which TRF readers (this one, bbpPairings, JaVaFo) take for comments.

A change's players are named by id and by name as they were then: an id need not be a player of the file (a
player deleted since stays named in the trail), so ids are checked as text only.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import fields
from itertools import zip_longest
from typing import Any

from swiss.messages import Message
from swiss.model import (
    CHANGE_KINDS,
    INT_MAX,
    MAX_ID,
    MAX_NAME,
    PLAYED,
    RESULTS,
    SMALL_MAX,
    SWISS,
    Change,
    Event,
    TrailLine,
)
from swiss.strictjson import EventFileError, int_at, list_at, object_at, one_of, required, str_at

_CHANGE_KEYS = {f.name for f in fields(Change)}
_LINE_KEYS = {f.name for f in fields(TrailLine)}


# ---------------------------------------------------------------- reading


def parse_changes(value: Any, path: str) -> tuple[Change, ...]:
    """A round's `changes`: a list of changes, oldest first."""
    return tuple(_change(c, f"{path}[{i}]") for i, c in enumerate(list_at(value, path)))


def _change(value: Any, path: str) -> Change:
    c = object_at(value, path, _CHANGE_KEYS)
    kind = required(c, "kind", path)
    if kind not in CHANGE_KINDS:
        raise EventFileError(f"{path}.kind", one_of(CHANGE_KINDS))
    was = tuple(_line(ln, f"{path}.was[{j}]") for j, ln in enumerate(list_at(c.get("was", []), f"{path}.was")))
    became = tuple(
        _line(ln, f"{path}.became[{j}]") for j, ln in enumerate(list_at(c.get("became", []), f"{path}.became"))
    )
    if not was and not became:
        raise EventFileError(path, Message("file_change_empty", "a change has a line in was or in became"))
    return Change(
        kind=kind,
        at=_time(required(c, "at", path), f"{path}.at"),
        table=int_at(c.get("table"), f"{path}.table", 1, allow_none=True, maximum=INT_MAX),
        was=was,
        became=became,
    )


def _time(value: Any, path: str) -> str:
    """An ISO 8601 time with its offset from UTC ("2026-12-07T14:32:05+00:00"), written back as read."""
    text = str_at(value, path, max_length=40)
    try:
        at = dt.datetime.fromisoformat(text)
    except ValueError:
        at = None
    if at is None or at.tzinfo is None:
        raise EventFileError(
            path,
            Message("file_change_time", "{value} is not a time like 2026-12-07T14:32:05+00:00", value=repr(text)),
        )
    return text


def _line(value: Any, path: str) -> TrailLine:
    ln = object_at(value, path, _LINE_KEYS)
    a = str_at(required(ln, "a", path), f"{path}.a", max_length=MAX_ID)
    a_name = str_at(required(ln, "a_name", path), f"{path}.a_name", max_length=MAX_NAME)
    b, b_name = ln.get("b"), ln.get("b_name")
    if (b is None) != (b_name is None):
        raise EventFileError(
            f"{path}.b_name" if b_name is None else f"{path}.b",
            Message("file_change_b", "b and b_name are given together, or neither"),
        )
    if b is not None:
        b = str_at(b, f"{path}.b", max_length=MAX_ID)
        b_name = str_at(b_name, f"{path}.b_name", max_length=MAX_NAME)
    result = ln.get("result", PLAYED)
    if result not in RESULTS:
        raise EventFileError(f"{path}.result", one_of(RESULTS))
    games = ln.get("games")
    if games is not None:
        if not isinstance(games, list) or len(games) != 3:
            raise EventFileError(
                f"{path}.games", Message("file_games_shape", "expected [games won by a, games won by b, games drawn]")
            )
        games = tuple(int_at(g, f"{path}.games[{k}]", 0, maximum=SMALL_MAX) for k, g in enumerate(games))
    white = ln.get("white")
    if white is not None and white not in (a, b):
        raise EventFileError(f"{path}.white", Message("file_white_player", "white is player a or player b"))
    return TrailLine(
        a=a,
        a_name=a_name,
        b=b,
        b_name=b_name,
        table=int_at(ln.get("table"), f"{path}.table", 1, allow_none=True, maximum=INT_MAX),
        result=result,
        games=games,
        white=white,
    )


# ---------------------------------------------------------------- writing


def dump_changes(changes: tuple[Change, ...]) -> list[dict[str, Any]]:
    return [
        {
            "kind": c.kind,
            "at": c.at,
            "table": c.table,
            "was": [_dump_line(ln) for ln in c.was],
            "became": [_dump_line(ln) for ln in c.became],
        }
        for c in changes
    ]


def _dump_line(ln: TrailLine) -> dict[str, Any]:
    out: dict[str, Any] = {"table": ln.table, "a": ln.a, "a_name": ln.a_name, "b": ln.b, "b_name": ln.b_name}
    out["result"] = ln.result
    out["games"] = list(ln.games) if ln.games is not None else None
    out["white"] = ln.white
    return out


# ---------------------------------------------------------------- the TRF's comment lines


def touched(change: Change) -> list[tuple[int | None, TrailLine | None, TrailLine | None]]:
    """(table, what it was, what it became) for each table the change touched; the lines without a table (byes,
    unpaired lines) it changed paired in the order they come."""
    was = {ln.table: ln for ln in change.was if ln.table is not None}
    became = {ln.table: ln for ln in change.became if ln.table is not None}
    found: list[tuple[int | None, TrailLine | None, TrailLine | None]] = [
        (t, was.get(t), became.get(t)) for t in sorted(was.keys() | became.keys()) if was.get(t) != became.get(t)
    ]
    gone = [ln for ln in change.was if ln.table is None and ln not in change.became]
    come = [ln for ln in change.became if ln.table is None and ln not in change.was]
    return found + [(None, old, new) for old, new in zip_longest(gone, come)]


_CHESS = {(1, 0, 0): "1-0", (0, 1, 0): "0-1", (0, 0, 1): "1/2-1/2"}


def _said(ln: TrailLine | None) -> str:
    """A line in a TRF comment: White first, then the result ("Ann - Bob 1-0", "Cid bye"); "none" for no line."""
    if ln is None:
        return "none"
    if ln.b is None:
        return f"{ln.a_name} {ln.result}"
    first, second = (ln.b_name, ln.a_name) if ln.white is not None and ln.white != ln.a else (ln.a_name, ln.b_name)
    if ln.result != PLAYED:
        result = ln.result
    elif ln.games is not None:
        result = _CHESS.get(ln.games, "-".join(str(g) for g in ln.games))
    else:
        result = ""
    return f"{first} - {second}" + (f" {result}" if result else "")


def trf_lines(event: Event) -> list[str]:
    """One `### change` line per change of the event's Swiss rounds (a TRF has those only), round by round:
    `### change round 3, table 4, 2026-12-07T14:32:05+00:00, swap: 4: Ann - Cid, was Ann - Bob; 7: ...`."""
    out = []
    for rnd in sorted((r for r in event.rounds if r.kind == SWISS), key=lambda r: r.number):
        for c in rnd.changes:
            parts = [
                f"{table if table is not None else '-'}: {_said(new)}, was {_said(old)}"
                for table, old, new in touched(c)
            ]
            where = f"table {c.table}" if c.table is not None else "no table"
            text = f"### change round {rnd.number}, {where}, {c.at}, {c.kind}: " + "; ".join(parts or ["no change"])
            out.append(" ".join(text.split()))  # one line, whatever a name holds
    return out
