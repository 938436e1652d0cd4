"""The standings engine: pure Python, no Django (SPEC §3)."""

from standings.engine import Row, Standings, StandingsError, compute, last_round_with_result
from standings.format import dumps_json, format_percent, format_value, to_json, to_text

__all__ = [
    "Row",
    "Standings",
    "StandingsError",
    "compute",
    "dumps_json",
    "format_percent",
    "format_value",
    "last_round_with_result",
    "to_json",
    "to_text",
]
