"""The event's rules for the floor, as the swiss-event file reads and writes them (docs/file-formats.md): FIDE mode
and the round it was left after, whether the event asks for FIDE title norms, who enters results, and the byes
players may ask for from their phones. Every key is optional and written only when it differs from its default,
so a file from before they existed reads as it always did (FIDE mode on for a chess event, title norms off,
results by the organisers and judges, no bye asked from a phone) and comes back unchanged.
"""

from __future__ import annotations

from typing import Any

from swiss.messages import Message
from swiss.model import REPORTING, SMALL_MAX, Settings
from swiss.strictjson import EventFileError, bool_at, int_at, one_of

# The keys, in the order the writer writes them.
KEYS = (
    "fide_mode",
    "fide_left",
    "title_norms",
    "reporting",
    "players_request_byes",
    "bye_requests_max",
    "bye_requests_closed_last",
)


def event_rules(data: dict) -> dict[str, Any]:
    """The rules an event's body gives, checked, as the Settings fields of the same names. FIDE mode once left is
    left for good: `fide_mode` true beside a `fide_left` round is refused, never read as back on."""
    fide_mode = None if data.get("fide_mode") is None else bool_at(data["fide_mode"], "fide_mode")
    fide_left = int_at(data.get("fide_left"), "fide_left", 0, allow_none=True, maximum=SMALL_MAX)
    if fide_mode and fide_left is not None:
        raise EventFileError(
            "fide_mode",
            Message("file_fide_left", "FIDE mode, once left (fide_left), is left for good: it cannot be true"),
        )
    reporting = data.get("reporting", "organisers")
    if reporting not in REPORTING:
        raise EventFileError("reporting", one_of(REPORTING))
    return {
        "fide_mode": fide_mode,
        "fide_left": fide_left,
        "title_norms": bool_at(data.get("title_norms", False), "title_norms"),
        "reporting": reporting,
        "players_request_byes": bool_at(data.get("players_request_byes", False), "players_request_byes"),
        "bye_requests_max": int_at(
            data.get("bye_requests_max"), "bye_requests_max", 0, allow_none=True, maximum=SMALL_MAX
        ),
        "bye_requests_closed_last": int_at(
            data.get("bye_requests_closed_last", 0), "bye_requests_closed_last", 0, maximum=SMALL_MAX
        ),
    }


def dump_event_rules(s: Settings) -> dict[str, Any]:
    """The rules that differ from their defaults, in KEYS order (`fide_mode` whenever it is known)."""
    defaults = Settings()
    return {key: getattr(s, key) for key in KEYS if getattr(s, key) != getattr(defaults, key)}
