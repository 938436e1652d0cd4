"""The standings engine: match points and tie-breakers, exact. `engine` ranks; `tally` adds up each player's
results, `figures` makes each tie-breaker a figure (FIDE C.07's in `fide`), `tied` gives the ones among the
players still tied; `format` writes the standings as text and JSON. The tie-breakers are listed in
`swiss/tiebreakers.py` (docs/tiebreakers.md).

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
