"""Strict JSON: a document decoded with a refusal that says where and what is wrong in words a person reads
(and the web app translates), and its values checked one at a time with a refusal that names their JSON
path (`players[3].rating: must be at least 0`). The swiss-event reader (`swiss.eventfile`) builds on it.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from fractions import Fraction
from typing import Any, Literal, overload

from swiss.messages import Message
from swiss.model import MAX_FRACTION_TEXT, MAX_NAME, SMALL_MAX, parse_fraction


class EventFileError(ValueError):
    """A malformed event file; the message names the JSON path of the first error.

    `message` is the problem without the path (a Message: code and parameters for translation).
    """

    def __init__(self, path: str, message: Message | str):
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


def decode(text: str | bytes) -> Any:
    """The JSON document of the text; EventFileError says what is wrong and where, in words a person reads.

    Stricter than JSON itself where a reader would otherwise guess: a key given twice in one object (JSON
    keeps the last, silently) and a lone surrogate (a `\\udXXX` escape that is half of a character: no
    text, and no database, holds it) are refused by their path."""
    twice: list[bool] = []

    def pairs(items: list[tuple[str, Any]]) -> dict:
        obj = dict(items)
        if len(obj) == len(items):
            return obj
        twice.append(True)
        return _Twice(obj, _first_repeated(items))

    try:
        if isinstance(text, bytes):
            text = text.decode(json.detect_encoding(text))  # strict: raw surrogate bytes are not UTF-8
        data = json.loads(text, object_pairs_hook=pairs)
    except UnicodeDecodeError:
        raise EventFileError("", Message("file_not_utf8", "the file is not UTF-8 text")) from None
    except json.JSONDecodeError as e:
        problem = _json_problem(e.msg)
        raise EventFileError(
            "",
            Message(
                "file_not_json",
                "not valid JSON (line {line}, column {column}: {problem})",
                line=e.lineno,
                column=e.colno,
                problem=problem,
            ),
        ) from None
    except RecursionError:
        line, column = _too_deep(text if isinstance(text, str) else text.decode("utf-8", "replace"))
        raise EventFileError(
            "",
            Message(
                "file_not_json",
                "not valid JSON (line {line}, column {column}: {problem})",
                line=line,
                column=column,
                problem=Message("json_too_deep", "lists and objects nested too deeply"),
            ),
        ) from None
    except ValueError:  # an integer of more than 4,300 digits
        raise EventFileError(
            "",
            Message(
                "file_json_too_many_digits",
                "not valid JSON (a number has more than {limit} digits)",
                limit=sys.get_int_max_str_digits(),
            ),
        ) from None

    if twice or _SURROGATE_ESCAPE.search(text):
        _refuse_flaws(data)
    return data


# A surrogate can only come from an escape once the text is decoded strictly (a pair of them is one character).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _Twice(dict):
    """An object whose `key` was given twice in the file (the last one kept, as JSON does, until refused)."""

    def __init__(self, obj: dict, key: str):
        super().__init__(obj)
        self.key = key


def _first_repeated(items: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in items:
        if key in seen:
            return key
        seen.add(key)
    return ""


def surrogate_at(text: str) -> int:
    """Where the text's first lone surrogate is, or -1 when it has none."""
    found = _LONE_SURROGATE.search(text)
    return -1 if found is None else found.start()


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate of the text, written as its escape (`\\udc80`), or None when it has none."""
    at = surrogate_at(text)
    return None if at < 0 else f"\\u{ord(text[at]):04x}"


def surrogate_problem(escape: str) -> Message:
    return Message(
        "file_lone_surrogate",
        "contains {escape}, half of a character (a lone surrogate): no text holds it",
        escape=escape,
    )


def _shown_key(key: str) -> str:
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def _refuse_flaws(data: Any) -> None:
    """Refuse, by its path, the first key given twice or lone surrogate of a decoded document (in file order)."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            escape = lone_surrogate(value)
            if escape:
                raise EventFileError(path, surrogate_problem(escape))
        elif isinstance(value, dict):
            if isinstance(value, _Twice):
                key = _shown_key(value.key)
                raise EventFileError(
                    f"{path}.{key}" if path else key,
                    Message("file_key_twice", "given twice in one object (a key is given once)"),
                )
            items = []
            for key, item in value.items():
                shown = _shown_key(key)
                place = f"{path}.{shown}" if path else shown
                escape = lone_surrogate(key)
                if escape:
                    raise EventFileError(place, surrogate_problem(escape))
                items.append((item, place))
            stack.extend(reversed(items))
        elif isinstance(value, list):
            stack.extend(reversed([(item, f"{path}[{i}]") for i, item in enumerate(value)]))


# What json.JSONDecodeError says (Python's own English), as codes the web app translates.
JSON_PROBLEMS = {
    "Expecting value": "json_expecting_value",
    "Extra data": "json_extra_data",
    "Expecting property name enclosed in double quotes": "json_property_name",
    "Expecting ':' delimiter": "json_colon",
    "Expecting ',' delimiter": "json_comma",
    "Unterminated string starting at": "json_unterminated_string",
    "Invalid control character at": "json_control_character",
    "Invalid \\escape": "json_bad_escape",
    "Invalid \\uXXXX escape": "json_bad_escape",
    "Illegal trailing comma before end of object": "json_trailing_comma",
    "Illegal trailing comma before end of array": "json_trailing_comma",
}


def _json_problem(problem: str) -> Message | str:
    """The decoder's problem as a Message when it is one of the known ones (its English words either way)."""
    for start, code in JSON_PROBLEMS.items():
        if problem.startswith(start):
            return Message(code, "{problem}", problem=problem)
    return problem


def _too_deep(text: str, limit: int = 500) -> tuple[int, int]:
    """Line and column of the first list or object opened `limit` levels deep (outside strings)."""
    depth, in_string, escaped, line, start = 0, False, False, 1, 0
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth >= limit:
                return line, i - start + 1
        elif ch in "]}":
            depth -= 1
        if ch == "\n":
            line, start = line + 1, i + 1
    return line, len(text) - start + 1


def fraction_at(value: Any, path: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise EventFileError(path, Message("file_not_a_number", 'expected a number such as 3, 0.33, "0.33" or "1/2"'))
    try:
        if isinstance(value, str):
            return parse_fraction(value)
        result = Fraction(value)
        if len(str(result)) > MAX_FRACTION_TEXT:
            raise ValueError(value)
        return result
    except (ValueError, OverflowError):
        shown = json.dumps(value)
        shown = shown if len(shown) <= 40 else f"{shown[:37]}…"
        raise EventFileError(
            path,
            Message(
                "file_bad_number",
                "{value} is not a number such as 3, 0.33 or 1/2 of at most {limit} characters",
                value=shown,
                limit=MAX_FRACTION_TEXT,
            ),
        ) from None


@overload
def int_at(
    value: Any, path: str, minimum: int | None = None, allow_none: Literal[False] = False, maximum: int = SMALL_MAX
) -> int: ...


@overload
def int_at(
    value: Any, path: str, minimum: int | None = None, *, allow_none: bool, maximum: int = SMALL_MAX
) -> int | None: ...


def int_at(
    value: Any, path: str, minimum: int | None = None, allow_none: bool = False, maximum: int = SMALL_MAX
) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        shown = json.dumps(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "…"
        raise EventFileError(path, Message("file_not_whole", "expected a whole number, got {value}", value=shown))
    if minimum is not None and value < minimum:
        raise EventFileError(path, Message("file_too_small", "must be at least {minimum}", minimum=minimum))
    if value > maximum:
        raise EventFileError(path, Message("file_too_large", "must be at most {maximum}", maximum=maximum))
    return value


def str_at(value: Any, path: str, allow_empty: bool = False, max_length: int = MAX_NAME) -> str:
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        raise EventFileError(path, Message("file_not_text", "expected a non-empty string"))
    if len(value) > max_length:
        raise EventFileError(
            path,
            Message(
                "file_string_too_long",
                "at most {limit} characters (this one has {length})",
                limit=max_length,
                length=len(value),
            ),
        )
    if "\x00" in value:
        raise EventFileError(path, Message("file_nul", "contains a NUL character"))
    return value


def date_at(value: Any, path: str) -> str | None:
    """An ISO date ("2026-11-21"), or None for null."""
    if value is None:
        return None
    date = str_at(value, path)
    try:
        dt.date.fromisoformat(date)
    except ValueError:
        raise EventFileError(
            path, Message("file_bad_date", "{date} is not a date like 2026-11-21", date=repr(date))
        ) from None
    return date


def bool_at(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise EventFileError(path, Message("file_not_bool", "expected true or false"))
    return value


def object_at(value: Any, path: str, known: set[str]) -> dict:
    if not isinstance(value, dict):
        raise EventFileError(path, Message("file_not_object", "expected an object"))
    if value.keys() <= known:
        return value
    unknown = sorted(set(value) - known)
    if unknown:
        raise EventFileError(f"{path}.{unknown[0]}" if path else unknown[0], Message("file_unknown_key", "unknown key"))
    return value


def list_at(value: Any, path: str) -> list:
    if not isinstance(value, list):
        raise EventFileError(path, Message("file_not_list", "expected a list"))
    return value


def one_of(choices) -> Message:
    """The refusal of a value that is none of `choices`."""
    return Message("file_one_of", "one of {choices}", choices=", ".join(choices))


def required(value: dict, key: str, path: str) -> Any:
    if key not in value:
        raise EventFileError(f"{path}.{key}", Message("file_missing", "missing"))
    return value[key]
