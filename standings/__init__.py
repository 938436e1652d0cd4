"""The standings engine (docs/engines.md): match points and tie-breakers, exact, in `engine` and FIDE C.07's in
`fide`; `format` writes them as text and JSON.

Pure Python, no Django: it reads the event as `swiss.model` gives it and imports only `swiss` and the
standard library (tests/test_guards.py checks), so the `standings` command and the web app rank alike.
"""

from standings.engine import Row, Standings, StandingsError, compute, last_round_with_result, points_by_player
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
    "points_by_player",
    "to_json",
    "to_text",
]
