"""CSV out: players, pairings and standings.

Cells that a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return)
get a leading apostrophe: a player called "=HYPERLINK(...)" must stay a name when the file is opened.

Every export carries the player number beside the name (two players may share a name), and starts with a
UTF-8 byte order mark: without it Excel reads the file as the local ANSI code page and garbles "Müller".
"""

import csv
import io

from django.db.models import F
from django.utils.translation import pgettext

import standings
from tournament.files.csv_columns import CHESS_COLUMNS, PLAYER_COLUMNS, SECTION_COLUMNS
from tournament.models import Match, Player, Round
from tournament.text import l10n
from tournament.text.results import result_label

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Excel opens a CSV file as UTF-8 only when it starts with this mark.
BOM = "\ufeff"


def safe(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def write_rows(header: list[str], rows) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(header)
    for row in rows:
        w.writerow([safe(v) for v in row])
    return out.getvalue()


def players_csv(players, chess: bool = False, root=None) -> str:
    """The roster, its headings in the page's language (`PLAYER_COLUMNS`); a chess event's with the FIDE
    details a rating report needs. The name's parts (as entered) come after the columns older exports had,
    so that a sheet reading those by place still finds them. `root`: an event with sections, whose players
    come with their section (empty for one waiting on the event, unplaced)."""
    columns = (*PLAYER_COLUMNS, *(CHESS_COLUMNS if chess else ()), *(SECTION_COLUMNS if root else ()))
    values = {
        "id": lambda p: p.external_id,
        "section": lambda p: "" if p.event_id == root.pk else p.event.name,
        **{key: (lambda p, key=key: getattr(p, key)) for key, _c, _l in columns if key not in ("id", "section")},
    }
    return write_rows(
        [str(label) for _k, _c, label in columns], ([values[k](p) for k, _c, _l in columns] for p in players)
    )


def pairings_csv(rnd: Round, points: dict[int, object], colours: bool = False, chess: bool = False) -> str:
    """The round's pairings by table; with colours, White's columns first and Black's after, as chess lists
    are read (a forfeit Black won keeps its colours)."""
    matches = rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True), "id")
    if colours:
        first = [
            pgettext("CSV column", "white_number"),
            pgettext("CSV column", "white"),
            pgettext("CSV column", "white_points"),
        ]
        second = [
            pgettext("CSV column", "black_number"),
            pgettext("CSV column", "black"),
            pgettext("CSV column", "black_points"),
        ]
    else:
        first = [pgettext("CSV column", "number"), pgettext("CSV column", "player"), pgettext("CSV column", "points")]
        second = [
            pgettext("CSV column", "opponent_number"),
            pgettext("CSV column", "opponent"),
            pgettext("CSV column", "opponent_points"),
        ]

    def row(m: Match) -> tuple:
        a, b = m.colour_order()
        return (
            rnd.number,
            m.table or "",
            a.number,
            a.name,
            points.get(a.pk, 0),
            b.number if b else "",
            b.name if b else (pgettext("CSV", "bye") if m.result == Match.Result.BYE else "—"),
            points.get(b.pk, "") if b else "",
            result_label(m, chess),
        )

    return write_rows(
        [
            pgettext("CSV column", "round"),
            pgettext("CSV column", "table"),
            *first,
            *second,
            pgettext("CSV column", "result"),
        ],
        (row(m) for m in matches),
    )


def standings_csv(
    result: "standings.Standings", players: dict[str, Player], placings: dict[str, int], divisions=()
) -> str:
    """Swiss standings by rank. `players` and `placings` (the top cut's final places) are keyed by player key.

    `dropped_after` is the round after which the player dropped, empty while they are in the event. An event
    that made a Day-2 cut has one more column, `cut_after`: the round after which the player was cut.
    `divisions` (standings.divisions.Division, when divisions are ranked apart): each division's rows in turn,
    ranked from 1, with a column naming the division.
    """
    codes = list(result.tiebreakers)
    cut = getattr(result, "cut_after", 0)
    tables = [(d.name, d.standings.rows) for d in divisions] or [("", result.rows)]
    return write_rows(
        [
            pgettext("CSV column", "rank"),
            *([pgettext("CSV column", "division")] if divisions else []),
            pgettext("CSV column", "number"),
            pgettext("CSV column", "name"),
            pgettext("CSV column", "points"),
            pgettext("CSV column", "wins"),
            pgettext("CSV column", "losses"),
            pgettext("CSV column", "draws"),
            *(l10n.label(c) for c in codes),
            pgettext("CSV column", "dropped_after"),
            *([pgettext("CSV column", "cut_after")] if cut else []),
            pgettext("CSV column", "top_cut_place"),
        ],
        (
            (
                r.rank,
                *([division] if divisions else []),
                players[r.player_id].number if r.player_id in players else "",
                r.name,
                standings.format_value("points", r.points),
                r.wins,
                r.losses,
                r.draws,
                *(standings.format_value(c, r.tiebreakers[c]) for c in codes),
                players[r.player_id].dropped_after if r.player_id in players else "",
                *([players[r.player_id].cut_after if r.player_id in players else ""] if cut else []),
                placings.get(r.player_id, ""),
            )
            for division, rows in tables
            for r in rows
        ),
    )
