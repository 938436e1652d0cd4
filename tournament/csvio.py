"""CSV in (players: name, rating, id, byes) and out (players, pairings, standings).

Cells that a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return)
get a leading apostrophe: a player called "=HYPERLINK(...)" must stay a name when the file is opened.

Every export carries the player number beside the name (two players may share a name), and starts with a
UTF-8 byte order mark: without it Excel reads the file as the local ANSI code page and garbles "Müller".
"""

import csv
import io
import unicodedata
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils.translation import gettext

import standings
from standings.format import LABELS
from tournament.models import Match, Player, Round, clean_player_name, printable
from tournament.services import NewPlayer

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# The largest rating an integer column holds on every database we run on.
MAX_RATING = 2_147_483_647
HEADER_WORDS = {"name", "player", "rating", "id", "byes"}
# Columns of our own players export that an import reads past: the new event numbers its own players.
IGNORED_COLUMNS = {"number", "joined_round", "dropped_after"}
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


@dataclass
class CsvRow:
    line: int
    name: str = ""
    rating: int | None = None
    external_id: str = ""
    byes: int = 0
    errors: list[str] = field(default_factory=list)
    duplicate: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors


def parse_players(text: str, existing_names: set[str] = frozenset()) -> list[CsvRow]:
    """Every non-empty row with what is wrong with it; nothing is written here."""
    try:
        dialect = csv.Sniffer().sniff(text[:2048], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    # newline="": files saved with bare \r line ends (old spreadsheets) and quoted line breaks read as CSV.
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    rows, unreadable = [], None
    try:
        rows.extend(reader)
    except csv.Error as e:
        unreadable = CsvRow(line=reader.line_num, errors=[f"not readable as CSV ({e})"])
    columns = ["name", "rating", "id", "byes"]
    header_words = HEADER_WORDS | IGNORED_COLUMNS
    if rows and rows[0] and {c.strip().lower() for c in rows[0] if c.strip()} <= header_words and rows[0][0].strip():
        columns = [{"player": "name"}.get(c.strip().lower(), c.strip().lower()) for c in rows[0]]
        start = 2
        rows = rows[1:]
    else:
        start = 1
    seen = {n.casefold() for n in existing_names}
    parsed = []
    for i, raw in enumerate(rows, start):
        if not any(c.strip() for c in raw):
            continue
        values = dict(zip(columns, (c.strip() for c in raw), strict=False))
        row = CsvRow(line=i, external_id=values.get("id", ""))
        raw_name = values.get("name", "")
        if not raw_name.strip():
            row.errors.append("no name")
        else:
            try:
                row.name = clean_player_name(raw_name)
            except ValidationError as e:
                row.name = printable(" ".join(raw_name.split()))[:200]
                row.errors.extend(e.messages)
        if len(row.external_id) > 100:
            row.errors.append("id longer than 100 characters")
        if any(unicodedata.category(c) == "Cc" for c in row.external_id):
            row.errors.append(gettext("a control character in the id"))
            row.external_id = printable(row.external_id)
        rating = values.get("rating", "")
        if rating:
            if rating.isdecimal() and len(rating) <= 10 and int(rating) <= MAX_RATING:
                row.rating = int(rating)
            elif rating.isdecimal():
                row.errors.append(f"rating “{rating[:12]}” is too large")
            else:
                row.errors.append(f"rating “{rating}” is not a whole number")
        byes = values.get("byes", "")
        if byes:
            if byes.isdecimal() and len(byes) <= 2 and int(byes) <= 3:
                row.byes = int(byes)
            else:
                row.errors.append(f"byes “{byes}” must be 0 to 3")
        if len(raw) > len(columns):
            row.errors.append(f"{len(raw)} columns; expected at most {len(columns)}")
        if row.name and row.name.casefold() in seen:
            row.duplicate = True
        seen.add(row.name.casefold())
        parsed.append(row)
    if unreadable:
        parsed.append(unreadable)
    return parsed


def players_csv(players) -> str:
    return write_rows(
        ["number", "name", "rating", "id", "byes", "joined_round", "dropped_after"],
        ((p.number, p.name, p.rating, p.external_id, p.byes, p.joined_round, p.dropped_after) for p in players),
    )


def pairings_csv(rnd: Round, points: dict[int, object]) -> str:
    matches = rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True), "id")
    return write_rows(
        ["round", "table", "number", "player", "points", "opponent_number", "opponent", "opponent_points", "result"],
        (
            (
                rnd.number,
                m.table or "",
                m.player_a.number,
                m.player_a.name,
                points.get(m.player_a_id, 0),
                m.player_b.number if m.player_b else "",
                m.player_b.name if m.player_b else ("bye" if m.result == Match.Result.BYE else "—"),
                points.get(m.player_b_id, "") if m.player_b else "",
                m.result_label(),
            )
            for m in matches
        ),
    )


def standings_csv(result: "standings.Standings", players: dict[str, Player], placings: dict[str, int]) -> str:
    """Swiss standings by rank. `players` and `placings` (the top cut's final places) are keyed by player key.

    `dropped_after` is the round after which the player dropped, empty while they are in the event.
    """
    codes = list(result.tiebreakers)
    return write_rows(
        [
            "rank",
            "number",
            "name",
            "points",
            "wins",
            "losses",
            "draws",
            *(LABELS.get(c, c) for c in codes),
            "dropped_after",
            "top_cut_place",
        ],
        (
            (
                r.rank,
                players[r.player_id].number if r.player_id in players else "",
                r.name,
                standings.format_value("points", r.points),
                r.wins,
                r.losses,
                r.draws,
                *(standings.format_value(c, r.tiebreakers[c]) for c in codes),
                players[r.player_id].dropped_after if r.player_id in players else "",
                placings.get(r.player_id, ""),
            )
            for r in result.rows
        ),
    )


def new_players(rows: list[CsvRow]) -> list[NewPlayer]:
    return [NewPlayer(name=r.name, rating=r.rating, external_id=r.external_id, byes=r.byes) for r in rows if r.ok]
