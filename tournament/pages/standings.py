"""The organiser's standings, on the page and printed: the standings shown, the tie-breakers' labels and a
table per division (the public pages' own table is rows.py `standings_table`, made once per event version)."""

from standings.divisions import Division
from tournament.models import Event
from tournament.services.cut import line_in
from tournament.services.divisions import division_standings
from tournament.services.standings import standings_shown
from tournament.text import l10n


def standings_tables(event: Event, live: bool = True):
    """The standings shown, the tie-breakers' labels, and the tables: (division, rows), one per division when
    the players have divisions (each ranked from 1), else one named ""."""
    shown = standings_shown(event, live=live)
    result = shown.standings
    codes = list(result.tiebreakers)
    tables = []
    for division in division_standings(event, result) or [Division("", result)]:
        rows = division.standings.rows
        line, line_text = line_in(result, rows)  # a Day-2 cut's line, in each division's table
        tables.append(
            (
                division.name,
                [
                    {
                        "row": r,
                        "points": l10n.points(r.points),
                        "record": l10n.record(r.wins, r.losses, r.draws),
                        "tbs": [l10n.value(c, r.tiebreakers[c]) for c in codes],
                        "cut_line": line_text if k == line else "",
                    }
                    for k, r in enumerate(rows)
                ],
            )
        )
    return shown, [l10n.label(c) for c in codes], tables
