"""A roster read: a CSV file (in the encoding a spreadsheet saved it in) or a pasted or typed list, a player a
line (name or family and given name, rating, id, byes, a reading, FIDE details, a section), each line checked
with messages an organiser acts on. Its columns are `csv_columns`'.
"""

import codecs
import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field

import charset_normalizer
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext

from swiss import names
from swiss.names import printable
from swiss.strictjson import lone_surrogate
from tournament.files.csv_columns import column_of, columns_we_read, heading
from tournament.text import game_words, l10n
from tournament.text.chess_details import CHESS_FIELDS, chess_detail
from tournament.text.names import clean_player_name

# The largest rating an integer column holds on every database we run on.
MAX_RATING = 2_147_483_647
NUMBER = re.compile(r"[-+−]?\s*\d+(?:[.,]\d+)?")
# What a Japanese keyboard types for a comma or semicolon (、 and the full-width ， ；) reads as the
# half-width one wherever that separates fields: "中村 翔、1650" is a name and a rating.
WIDE_SEPARATORS = str.maketrans({"、": ",", "，": ",", "；": ";"})
# Full-width digits and signs (１６５０) read as the ASCII ones in a number.
# The K-factors FIDE uses (docs/ratings.md), as a `k` column gives them.
K_FACTORS = {"10": 10, "20": 20, "40": 40}
WIDE_DIGITS = str.maketrans({chr(0xFF10 + d): str(d) for d in range(10)} | {"－": "-", "＋": "+", "．": "."})


@dataclass
class CsvRow:
    line: int
    name: str = ""
    rating: int | None = None
    external_id: str = ""
    byes: int = 0
    reading: str = ""
    chess: dict[str, str] = field(default_factory=dict)  # fide_id, federation, title, sex, birth_date
    k: int | None = None  # a chess player's K-factor from the rating list (docs/ratings.md); None: worked out
    # The name's parts as entered ("Hellström, Viktor"; last/first name columns), both or neither.
    family_name: str = ""
    given_name: str = ""
    section: str = ""  # the section named, at an event with sections; "" for one placed by the rules
    placed: str = ""  # where the preview says the row goes (a section, and where it plays), set by the page
    errors: list[str] = field(default_factory=list)
    duplicate: bool = False
    text: str = ""  # the line as it was given, for messages

    @property
    def ok(self) -> bool:
        return not self.errors


# A reading written after the name as Japanese lists do: 山田 太郎（やまだ たろう）, or in ASCII brackets
# when it is kana: 山田 太郎 (ヤマダ タロウ). "John Smith (Jr)" keeps its brackets.
_READING = re.compile(
    r"^(?P<name>.*?)\s*(?:（(?P<full>[^（）]*)）|\((?P<kana>[^()]*[\u3040-\u30ff\uff66-\uff9f][^()]*)\))$"
)


def split_reading(name: str) -> tuple[str, str]:
    """`Name（reading）` as (name, reading); a name without one as (name, "")."""
    m = _READING.match(name)
    if not m or not m["name"].strip():
        return name, ""
    return m["name"].strip(), " ".join((m["full"] if m["full"] is not None else m["kana"]).split())


def looks_like_number(text: str) -> bool:
    return bool(NUMBER.fullmatch(text.strip()))


def _header(cells: list[str]) -> list[str] | None:
    """The columns a first row names, or None when it is a player."""
    words = [heading(c) for c in cells]
    named = [w for w in words if w]
    if not named or not words[0] or any(column_of(w) is None for w in named):
        return None
    return [column_of(w) or "" for w in words]


def _unread_header(rows: list[tuple[int, list[str]]]) -> CsvRow | None:
    """A first row that names columns we do not read, said so instead of being read as a player.

    It names columns when one of its cells is a heading we know ("Navn;Klubb;Rating": the club is not
    ours), or when it holds no figure where the rows below hold ratings ("Spieler,Wertung")."""
    line, cells = rows[0]
    words = [heading(c) for c in cells]
    unknown = [c.strip() for c, w in zip(cells, words, strict=True) if w and column_of(w) is None]
    if not unknown:
        return None
    known = any(column_of(w) for w in words)
    below = rows[1:6]
    figures_below = below and any(
        not any(ch.isdigit() for ch in cell)
        and sum(1 for _l, other in below if len(other) > i and looks_like_number(other[i])) > len(below) / 2
        for i, cell in enumerate(cells)
        if cell.strip()
    )
    if not known and not (figures_below and not any(ch.isdigit() for ch in "".join(cells))):
        return None
    return CsvRow(
        line=line,
        text=printable(", ".join(c for c in cells if c.strip())[:80]),
        errors=[
            ngettext(
                "this looks like a row of column headings, but %(unknown)s is not a column this import reads "
                "(it reads %(columns)s)",
                "this looks like a row of column headings, but %(unknown)s are not columns this import reads "
                "(it reads %(columns)s)",
                len(unknown),
            )
            % {
                "unknown": l10n.join(gettext("“%(text)s”") % {"text": u[:30]} for u in unknown),
                "columns": columns_we_read(),
            }
        ],
    )


def _number_error(label: str, text: str, largest: int, grouped: bool = False) -> tuple[int | None, str | None]:
    """A whole number from a cell, or why it is not one, said in words an organiser acts on. `grouped`: it may be
    written with a thousands separator (a rating: 2.105 from Danish Excel, 2,105 or 2 105 in English)."""
    read = l10n.read_whole(text, grouped)
    plain = str(read) if read is not None else text.translate(WIDE_DIGITS).replace("−", "-").replace(" ", "")
    if plain.isdecimal():
        if len(plain) > 10 or int(plain) > largest:
            return None, gettext("%(label)s %(value)s is too large (at most %(largest)s)") % {
                "label": label,
                "value": plain[:12],
                "largest": largest,
            }
        return int(plain), None
    if looks_like_number(plain) and plain.startswith("-"):
        return None, gettext("%(label)s %(value)s cannot be negative") % {"label": label, "value": plain}
    if looks_like_number(plain):
        return None, gettext("%(label)s %(value)s must be a whole number, without a decimal part") % {
            "label": label,
            "value": plain,
        }
    return None, gettext("%(label)s “%(value)s” is not a number") % {"label": label, "value": text[:40]}


def _row(line: int, cells: list[str], columns: list[str] | None) -> CsvRow:
    """One roster line. Without a header the columns are name, rating, id, byes, and a second field that is
    not a number makes the first two a "Last, First" name."""
    cells = [c.strip() for c in cells]
    given = ", ".join(c for c in cells if c)[:80]
    while cells and not cells[-1]:
        cells.pop()
    if columns is None:
        if len(cells) >= 2 and cells[1] and not looks_like_number(cells[1]):
            cells = [f"{cells[0]}, {cells[1]}", *cells[2:]]
        columns = ["name", "rating", "id", "byes"]
    elif "name" in columns and len(cells) > columns.index("name") + 1:
        # An unquoted "Smith, John" under a header: the name took two cells. Either the row has a cell too
        # many, or the rating's column holds a given name and the rating follows it ("Smith, John, 1500"
        # under "name, rating, id, byes", as a typed line leaves its last fields out).
        at = columns.index("name")
        second = cells[at + 1]
        shifted = (
            columns[at + 1 : at + 2] == ["rating"]
            and len(cells) > at + 2
            and looks_like_number(cells[at + 2])
            and names.split_typed(f"{cells[at]}, {second}")
        )
        if cells[at] and second and not looks_like_number(second) and (len(cells) == len(columns) + 1 or shifted):
            cells = [*cells[:at], f"{cells[at]}, {second}", *cells[at + 2 :]]
    values = {}
    for column, cell in zip(columns, cells, strict=False):
        if column:
            values[column] = cell
    row = CsvRow(line=line, external_id=values.get("id", ""), text=printable(given))
    half = lone_surrogate("".join(cells))
    if half:
        # PostgreSQL stores no half of a character: refused here, as the file readers refuse it.
        row.errors.append(
            gettext("“%(escape)s” is half of a character (a lone surrogate), which no text can hold") % {"escape": half}
        )
        return row
    typed = " ".join(values.get("name", "").split())
    reading = " ".join(values.get("reading", "").split())
    if not reading:
        typed, reading = split_reading(typed)
    row.reading = reading
    if len(reading) > 200:
        row.errors.append(gettext("reading longer than 200 characters"))
    if any(unicodedata.category(c) == "Cc" for c in reading):
        row.errors.append(gettext("a control character in the reading"))
        row.reading = printable(reading)
    _name(row, typed, values.get("family", ""), values.get("given", ""))
    if len(row.external_id) > 100:
        row.errors.append(gettext("id longer than 100 characters"))
    if any(unicodedata.category(c) == "Cc" for c in row.external_id):
        row.errors.append(gettext("a control character in the id"))
        row.external_id = printable(row.external_id)
    if values.get("rating"):
        row.rating, error = _number_error(gettext("rating"), values["rating"], MAX_RATING, grouped=True)
        if error:
            row.errors.append(error)
    if values.get("byes"):
        byes, error = _number_error(game_words.gettext("byes"), values["byes"], 3)
        if error:
            row.errors.append(gettext("byes “%(value)s” must be 0 to 3") % {"value": values["byes"][:12]})
        else:
            row.byes = byes
    row.section = " ".join(values.get("section", "").split())
    for key in CHESS_FIELDS:
        if values.get(key):
            value, problem = chess_detail(key, values[key])
            if problem:
                row.errors.append(problem.rstrip("."))
            else:
                row.chess[key] = value
    if values.get("k"):
        row.k = K_FACTORS.get(values["k"].translate(WIDE_DIGITS).strip())
        if row.k is None:
            row.errors.append(gettext("K “%(value)s” must be 10, 20 or 40") % {"value": values["k"][:12]})
    if len(cells) > len(columns):
        row.errors.append(
            gettext("%(found)s columns; expected at most %(expected)s")
            % {"found": len(cells), "expected": len(columns)}
        )
    return row


def check_sections(rows: list[CsvRow], names: list[str], only: str | None = None) -> None:
    """Mark the rows naming a section that is not there: `names` are the event's sections (any case is read as
    the section's own name); `only`, at a section's page, is the one section a row may name."""
    known = {n.casefold(): n for n in names}
    for row in rows:
        if not row.section:
            continue
        name = known.get(row.section.casefold())
        if name is None or (only is not None and name != only):
            shown = printable(row.section)[:40]
            if only is not None:
                row.errors.append(
                    gettext("section “%(name)s” is not this one: add its players on the event's page") % {"name": shown}
                )
            elif names:
                row.errors.append(
                    gettext("no section is called “%(name)s” (the sections are %(names)s)")
                    % {"name": shown, "names": l10n.join(names)}
                )
            else:
                row.errors.append(gettext("this event has no sections (section “%(name)s”)") % {"name": shown})
        else:
            row.section = name


def check_fide_byes(rows: list[CsvRow]) -> None:
    """FIDE mode (docs/fide-mode.md): mark the rows with pre-awarded byes. Those are full-point byes, which the
    arbiter passes a warning for one player at a time on the player's page; a list cannot ask row by row."""
    for row in rows:
        if row.byes:
            row.errors.append(
                gettext(
                    "byes “%(value)s”: in FIDE mode a pre-awarded bye is a full-point bye, which needs the "
                    "arbiter's confirmation; leave the byes column empty and record the byes on the player's page"
                )
                % {"value": row.byes}
            )


def _name(row: CsvRow, typed: str, family: str, given: str) -> None:
    """The row's display name and its parts (swiss/names.py), each cleaned as a stored name is."""
    try:
        entry = names.entered(typed, family, given)
    except names.Disagree:
        entry = names.Name(typed)
        row.errors.append(
            gettext("the name “%(name)s” is not the family name “%(family)s” and the given name “%(given)s”")
            % {"name": printable(typed)[:80], "family": printable(family)[:40], "given": printable(given)[:40]}
        )
    if not entry.name:
        row.errors.append(gettext("no name"))
        return
    cleaned = []
    for text in (entry.name, entry.family, entry.given):
        try:
            cleaned.append(clean_player_name(text) if text else "")
        except ValidationError as e:
            cleaned.append(printable(" ".join(text.split()))[:200])
            row.errors.extend(m for m in e.messages if m not in row.errors)
    row.name, row.family_name, row.given_name = cleaned


def parse_players(text: str, existing_names: set[str] = frozenset(), header: bool = True) -> list[CsvRow]:
    """Every non-empty row of a CSV file with what is wrong with it; nothing is written here. A first row of
    column names is optional (`header`); the delimiter (comma, semicolon, tab) is read from the text, and
    the Japanese 、 and ， are commas."""
    text = text.translate(WIDE_SEPARATORS)
    dialect = _dialect(text)
    # newline="": files saved with bare \r line ends (old spreadsheets) and quoted line breaks read as CSV.
    # skipinitialspace: `Ann, "Smith, Jo"` has its quotes after the space.
    reader = csv.reader(io.StringIO(text, newline=""), dialect, skipinitialspace=True)
    rows, unreadable = [], None
    try:
        for cells in reader:
            rows.append((reader.line_num, cells))
    except csv.Error as e:
        unreadable = CsvRow(line=reader.line_num, errors=[gettext("not readable as CSV (%(error)s)") % {"error": e}])
    parsed = _rows([(line, cells) for line, cells in rows if any(c.strip() for c in cells)], existing_names, header)
    if unreadable:
        parsed.append(unreadable)
    return parsed


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(text[:2048], delimiters=",;\t")
    except csv.Error:
        return csv.excel


def delimiter_of(text: str) -> str:
    """The field separator `parse_players` reads the file with: ",", ";" or a tab."""
    return _dialect(text.translate(WIDE_SEPARATORS)).delimiter


# The encodings a roster file is read in when it is not UTF-8, as spreadsheets save "CSV" by default: Excel
# in Japanese saves Shift_JIS (Windows code page 932), in Danish and other Western languages Windows-1252.
FALLBACK_ENCODINGS = {"cp932": "Shift_JIS (Windows-31J)", "cp1252": "Windows-1252"}
# When both read a file equally well (a short Danish list "Åse" reads as the half-width kana ﾅse too), the
# page's language chooses.
PREFERRED_ENCODING = {"ja": "cp932", "da": "cp1252"}


def decode(data: bytes, language: str = "") -> tuple[str, str]:
    """The text of an uploaded roster and the name of the encoding it was read in: UTF-8 (with or without
    its byte order mark), UTF-16 with its mark (Excel's "Unicode text"), else whichever of Shift_JIS and
    Windows-1252 reads it (charset-normalizer). ValueError when it is none of them."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16").removeprefix("\ufeff"), "UTF-16"
        except UnicodeDecodeError:
            raise ValueError("not UTF-16") from None
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        pass
    matches = list(charset_normalizer.from_bytes(data, cp_isolation=list(FALLBACK_ENCODINGS)))
    if not matches:
        raise ValueError("not text in a known encoding")
    least = min(m.chaos for m in matches)
    best = [m for m in matches if m.chaos <= least]
    chosen = next((m for m in best if m.encoding == PREFERRED_ENCODING.get(language[:2])), best[0])
    return str(chosen), FALLBACK_ENCODINGS[chosen.encoding]


def _rows(rows: list[tuple[int, list[str]]], existing_names, header: bool) -> list[CsvRow]:
    columns = _header(rows[0][1]) if rows and header else None
    parsed = []
    if columns is not None:
        rows = rows[1:]
    elif rows and header:
        unread = _unread_header(rows)
        if unread:
            parsed.append(unread)
            rows = rows[1:]
    if columns is None and header and _numbered(rows):
        rows = [(line, cells[1:]) for line, cells in rows]
    seen = {n.casefold() for n in existing_names}
    for line, cells in rows:
        row = _row(line, cells, columns)
        if row.name and row.name.casefold() in seen:
            row.duplicate = True
        seen.add(row.name.casefold())
        parsed.append(row)
    return parsed


def _numbered(rows: list[tuple[int, list[str]]]) -> bool:
    """A list without headings whose every row starts with a running number before the name ("1,山田 太郎,1500"):
    the number is the row's, not a name."""
    return bool(rows) and all(
        len(cells) >= 2
        and cells[0].strip().translate(WIDE_DIGITS).isdecimal()
        and cells[1].strip()
        and not looks_like_number(cells[1])
        for _line, cells in rows
    )


def parse_pasted(text: str, existing_names: set[str] = frozenset(), header: bool = True) -> list[CsvRow]:
    """A list pasted into the page, or a line typed in the add box (`paste_delimiter` says how its fields are
    separated; the Japanese 、 and ， are commas).

    Each line is one player: a stray quote never joins the lines after it into one name. A line of nothing
    but separators and spaces is blank.
    """
    lines = text.translate(WIDE_SEPARATORS).splitlines()
    delimiter = paste_delimiter(lines)
    rows = [(line, split_fields(content, delimiter)) for line, content in enumerate(lines, 1) if not is_blank(content)]
    return _rows(rows, existing_names, header)


def paste_delimiter(lines: list[str]) -> str:
    """Tabs (a spreadsheet's copy); else semicolons when at least as many lines hold one as hold a comma (a
    Danish list, whose comma is the decimal mark: "Anne-Mette Høj; 1490", "Høj, Anne-Mette; 1490"); else
    commas."""
    if any("\t" in line for line in lines):
        return "\t"
    semicolons = sum(";" in line for line in lines)
    return ";" if semicolons and semicolons >= sum("," in line for line in lines) else ","


def is_blank(line: str) -> bool:
    """A pasted line of nothing but separators and spaces: no player."""
    return not line.translate(_SEPARATORS).strip()


_SEPARATORS = str.maketrans("", "", ",;\t")


QUOTED = re.compile(r'\s*"((?:[^"]|"")*)"\s*')


def split_fields(line: str, delimiter: str) -> list[str]:
    """The fields of one pasted line. A field wholly in double quotes may hold the delimiter ("Smith, John");
    any other quote is part of the text, so a name like `Jo "JJ" Ng` or a stray quote comes through as typed."""
    cells, i = [], 0
    while True:
        m = QUOTED.match(line, i)
        if m and (m.end() == len(line) or line[m.end()] == delimiter):
            cells.append(m.group(1).replace('""', '"'))
            i = m.end() + 1
            if m.end() == len(line):
                return cells
            continue
        k = line.find(delimiter, i)
        if k < 0:
            cells.append(line[i:])
            return cells
        cells.append(line[i:k])
        i = k + 1
