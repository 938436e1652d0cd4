"""A TRF's header lines (every line but the players'), read into the event's settings and written back from
them (`swiss.trf` reads and writes the whole file).

Read: 012 name, 022 city, 032 federation, 042 and 052 the first and last day, 102 chief arbiter, 112 deputy
arbiters (a line each), 122 time control, 132 the rounds' dates, XXR or 142 planned rounds, XXC or 152 the
initial colour, XXS or 162 the scoring, 240 requested byes, XXZ the players absent from the round to be
paired, XXA (JaVaFo) and 250 (TRF-2026) manual accelerations, 202 (or 212) the tie-break list, 260 the
players who must not meet; 299 (abnormal points) is refused. Every line is also kept verbatim in
`Settings.trf_header`, so that a file comes back as it went in: a line is written again from the settings
only when they no longer say what it says (the organiser changed them), and a fact the file did not have is
added in its place among the ??2 lines.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from fractions import Fraction

from swiss.chessfacts import MAX_DEPUTIES, MAX_ROUND_VALUES, detail_problem
from swiss.messages import Message
from swiss.model import MAX_NAME, Event, Player, Scoring, Settings, settings_for_preset
from swiss.tiebreakers import FIDE_CODES, TIEBREAKERS, c07_code, from_c07
from swiss.trflines import (
    ASCII_NUMBER,
    FIRST_ROUND_COLUMN,
    Rows,
    TRFError,
    line_162,
    parse_date,
    read_162,
    read_240,
    read_xxs,
    scoring_of,
)
from swiss.trfpairing import (
    EVERY_ROUND,
    Accelerations,
    acceleration_lines,
    accelerations_hold,
    forbidden_hold,
    forbidden_lines,
    forbidden_settings,
    read_250,
    read_260,
    read_xxa,
    read_xxp,
)

# The tournament type of a Dutch event with the Baku acceleration (C.04.5.1): bbpPairings reads it and
# accelerates the first half of the start ranks as this app does (pairing/dutch/players.py).
BAKU_LINE = "192 FIDE_DUTCH_2025_BAKU"
# The rating report's facts, in the order a TRF writes their lines.
# The tie-break list an imported file without a 202 record ranks by.
_IMPORTED_LIST = settings_for_preset("chess").tiebreakers
_REPORT_CODES = ("022", "032", "042", "052", "102", "112", "122", "132")


def read_header(header: list[tuple[int, str]], rows: Rows, rounds: int) -> tuple[Settings, dict, Accelerations]:
    """The event's settings from the header lines (with their line numbers), the requested byes of 240 and XXZ
    lines (rank -> round -> kind), and the manual accelerations of XXA and 250 lines (rank -> values).

    `rounds` is the number of rounds the file has played: a 240 line for one of them is refused (its pairing
    is in the player lines already).
    """
    name, planned, colour = "TRF import", None, None
    points = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
    byes: dict[int, dict[int, str]] = defaultdict(dict)
    accelerations: Accelerations = {}
    forbidden: list[tuple[frozenset[str], int, int]] = []  # (pair, first round, last round)
    for number, line in header:
        code, value = line[:3], line[4:].strip()
        if code == "012" and value:
            name = value
        elif code in ("XXR", "142") and value:
            planned = int(value)  # checked before parsing
        elif code == "XXC":
            words = value.lower().split()
            colour = "white" if "white1" in words else "black" if "black1" in words else colour
        elif code == "152":
            if value not in ("W", "B"):
                raise TRFError(number, Message("trf_initial_colour", "152 needs W or B (the initial colour)"))
            colour = "white" if value == "W" else "black"
        elif code == "XXS":
            read_xxs(number, value, points)
        elif code == "162":
            read_162(number, line, points)
        elif code == "240":
            read_240(number, line, rows, byes, played=rounds)
        elif code == "XXZ":
            # JaVaFo: the players absent from the round to be paired (a zero-point bye each).
            if not all(ASCII_NUMBER.fullmatch(word) for word in value.split()):
                raise TRFError(number, Message("trf_xxz", "XXZ needs the start ranks of the absent players"))
            if value:
                read_240(number, f"240 Z {rounds + 1:03d} {value}", rows, byes, played=rounds)
        elif code == "XXA":
            read_xxa(number, line, rows, accelerations)
        elif code == "250":
            read_250(number, line, rows, accelerations)
        elif code == "260":
            first, last, pairs = read_260(number, line, rows)
            forbidden += [(frozenset(pair), first, last) for pair in pairs]
        elif code == "XXP":
            forbidden += [(frozenset(pair), 1, EVERY_ROUND) for pair in read_xxp(number, line, rows)]
        elif code in ("202", "212"):
            codes = tiebreak_record([line]) or ()
            twice = next((c for k, c in enumerate(codes) if c in codes[:k]), None)
            if twice is not None:
                # A second listing can never break a tie the first left; a standings table would have two
                # columns of one figure.
                raise TRFError(
                    number, Message("trf_tiebreak_twice", "the tie-break list names {code} twice", code=twice)
                )
        elif code == "299":
            # TRF-2026 abnormal points (a penalty, a bonus, a result the arbiter set): points no result here
            # gives, so the file's points could not be kept; bbpPairings refuses the record too.
            raise TRFError(
                number,
                Message(
                    "trf_299",
                    "299 (abnormal points: a penalty, a bonus or a result the arbiter set) is not read here; "
                    "enter those points as results, or remove the line",
                ),
            )
    scoring = Scoring(points["win"], points["draw"], points["loss"])
    if not scoring.win > scoring.loss or not scoring.loss <= scoring.draw <= scoring.win:
        raise TRFError(
            header[-1][0],
            Message("trf_scoring", "a win must score more than a loss, and a draw between the two"),
        )
    chess = scoring == Scoring(Fraction(1), Fraction(1, 2), Fraction(0))
    lines = tuple(line for _, line in header)
    if "012" not in {line[:3] for line in lines}:
        # The event came from a TRF, even one without a header: its export writes no invented date.
        lines = (f"012 {name}", *lines)
    settings = settings_for_preset(
        "chess" if chess else "custom",
        acceleration="baku" if is_baku(lines) else "none",
        tiebreakers=known_tiebreak_record(lines) or _IMPORTED_LIST,
        best_of=1,
        colours=True,
        scoring=scoring,
        name=name[:MAX_NAME],
        planned_rounds=planned,
        initial_colour=colour,
        trf_header=lines,
        **forbidden_settings(forbidden, planned),
        **report_of(list(lines)),
    )
    return settings, byes, accelerations


# ---------------------------------------------------------------- the rating report


def report_of(lines: list[str]) -> dict:
    """The Settings fields the rating report's lines give (date, city, federation, end_date, chief_arbiter,
    deputy_arbiters, time_control, round_dates): what a line says that the settings can hold, and nothing for
    a line they cannot ("032 Lichess" is no federation, "042 soon" no date)."""
    out: dict = {}
    deputies: list[str] = []
    for line in lines:
        code, value = line[:3], line[4:].strip()
        if code == "022" and value:
            out["city"] = value[:MAX_NAME]
        elif code == "032" and value and not detail_problem("federation", value):
            out["federation"] = value
        elif code in ("042", "052") and parse_date(value):
            out["date" if code == "042" else "end_date"] = parse_date(value)
        elif code == "102" and value:
            out["chief_arbiter"] = value[:MAX_NAME]
        elif code == "112" and value and len(deputies) < MAX_DEPUTIES:
            deputies.append(value[:MAX_NAME])
        elif code == "122" and value:
            out["time_control"] = value[:MAX_NAME]
        elif code == "132" and _round_dates(line):
            out["round_dates"] = _round_dates(line)
    if deputies:
        out["deputy_arbiters"] = tuple(deputies)
    return out


def _round_dates(line: str) -> tuple[str | None, ...]:
    """132: each round's date in its round's columns (YY/MM/DD from column 92, 102, …), none past the last."""
    dates: list[str | None] = []
    start = FIRST_ROUND_COLUMN
    while start < len(line) and len(dates) < MAX_ROUND_VALUES:
        dates.append(_short_date(line[start : start + 10].strip()))
        start += 10
    while dates and dates[-1] is None:
        dates.pop()
    return tuple(dates)


def _short_date(text: str) -> str | None:
    for form in ("%y/%m/%d", "%y.%m.%d", "%y-%m-%d"):
        try:
            return dt.datetime.strptime(text, form).date().isoformat()
        except ValueError:
            continue
    return parse_date(text) if text else None


def _date_line(code: str, iso: str) -> str:
    return f"{code} {iso.replace('-', '/')}"


def _line_132(dates: tuple[str | None, ...]) -> str:
    cells = [dt.date.fromisoformat(d).strftime("%y/%m/%d") if d else " " * 8 for d in dates]
    return ("132".ljust(FIRST_ROUND_COLUMN) + "  ".join(cells)).rstrip()


def _report_lines(s: Settings, code: str) -> list[str]:
    """The lines of one rating-report code that the settings give (none for a fact they leave empty)."""
    value = {
        "022": s.city,
        "032": s.federation,
        "042": s.date,
        "052": s.end_date,
        "102": s.chief_arbiter,
        "122": s.time_control,
    }.get(code)
    if code in ("042", "052"):
        return [_date_line(code, value)] if value else []
    if code == "112":
        return [f"112 {d}" for d in s.deputy_arbiters]
    if code == "132":
        return [_line_132(s.round_dates)] if any(s.round_dates) else []
    return [f"{code} {value}"] if value else []


def _report_key(lines: list[str], code: str) -> tuple:
    """What the stored lines of one code say, in the settings' terms (to tell whether they still hold)."""
    facts = report_of([line for line in lines if line[:3] == code])
    return tuple(sorted(facts.items()))


def _settings_key(s: Settings, code: str) -> tuple:
    return _report_key(_report_lines(s, code), code)


# ---------------------------------------------------------------- writing


def header_lines(event: Event, players: list[Player], start: dict[str, int], later: dict) -> list[str]:
    """The header lines, then the 240 lines (`later`: (round, code) -> start ranks).

    A TRF's own lines come back as they were, with the name, player count, rounds, initial colour, scoring,
    accelerations and rating-report facts made current; no date is written for a file that had none (a TRF
    import without 042). An event made here gets 012, the rating report's lines it has facts for, 062, 072,
    092, XXR, XXC, a 162 line for a scoring other than chess's and XXA lines for accelerations.
    """
    s = event.settings
    stored = [line for line in s.trf_header if line[:3] != "240"]
    colour = {"white": "white1", "black": "black1"}.get(s.initial_colour or "")
    out = _from_file(stored, event, players, start, colour) if stored else _made_here(event, players, start, colour)
    for (r, code), ranks in sorted(later.items()):
        out.append(f"240 {code} {r:03d} " + " ".join(f"{rank:>4}" for rank in sorted(ranks)))
    return out


def _made_here(event: Event, players: list[Player], start: dict[str, int], colour: str | None) -> list[str]:
    """The TRF-2026 tournament records in the order of their codes (142 and 152 among them), then JaVaFo's XXR
    and XXC, which say the same for JaVaFo (it reads no 142 or 152), then the accelerations (250, or XXA where
    250 cannot say them) and the forbidden pairs (260)."""
    s = event.settings
    report = {code: _report_lines(s, code) for code in _REPORT_CODES}
    out = [f"012 {s.name}", *report["022"], *report["032"], *report["042"], *report["052"]]
    out += [f"062 {len(players)}", f"072 {sum(1 for p in players if p.rating)}", "092 Individual: Swiss-System"]
    out += [*report["102"], *report["112"], *report["122"], *report["132"]]
    if s.planned_rounds:
        out.append(f"142 {s.planned_rounds}")
    if colour:
        out.append(_line_152(colour))
    if s.scoring != Scoring(Fraction(1), Fraction(1, 2), Fraction(0)):
        out.append(line_162(s.scoring))
    out += _type_lines(s)
    out += _tiebreak_lines(s, with_212=False)
    if s.planned_rounds:
        out.append(f"XXR {s.planned_rounds}")
    if colour:
        out.append(f"XXC {colour}")
    return out + acceleration_lines(players, start, xxa=False) + forbidden_lines(event, start)


def _line_152(colour: str) -> str:
    """TRF-2026 152: the initial colour, W or B alone (bbpPairings refuses anything after the letter)."""
    return f"152 {'W' if colour == 'white1' else 'B'}"


# The 192 codes of the FIDE Dutch system in the tournament-type table (FIDE's tie-break server, trf2json.py), as
# bbpPairings reads them: it refuses a type it does not know, so an event paired otherwise writes no 192 line.
DUTCH_LINE = "192 FIDE_DUTCH_2025"


def _type_lines(s: Settings) -> list[str]:
    if s.acceleration == "baku":
        return [BAKU_LINE]
    return [DUTCH_LINE] if s.pairing_system == "dutch" else []


def _from_file(
    stored: list[str], event: Event, players: list[Player], start: dict[str, int], colour: str | None
) -> list[str]:
    s = event.settings
    # The points of a win, draw and loss: a file's own XXS or 162 lines while they still say them, else a 162
    # line when they are not chess's 1, ½, 0.
    if scoring_of(stored) != s.scoring:
        stored = [line for line in stored if line[:3] not in ("XXS", "162")]
        if s.scoring != Scoring(Fraction(1), Fraction(1, 2), Fraction(0)):
            stored.append(line_162(s.scoring))
    elif s.scoring != Scoring(Fraction(1), Fraction(1, 2), Fraction(0)) and "162" not in {x[:3] for x in stored}:
        # JaVaFo's XXS alone: bbpPairings and FIDE's tie-break server read only 162, so it is said there too.
        at = max(k for k, line in enumerate(stored) if line[:3] == "XXS") + 1
        stored.insert(at, line_162(s.scoring))
    if not accelerations_hold(stored, players, start):
        # Said again in the file's own kind of line: XXA for a JaVaFo file, else TRF-2026's 250.
        xxa = any(line[:3] == "XXA" for line in stored)
        stored = [line for line in stored if line[:3] not in ("XXA", "250")]
        stored += acceleration_lines(players, start, xxa=xxa)
    if not forbidden_hold(stored, event, start):
        stored = [line for line in stored if line[:3] not in ("260", "XXP")]
        stored += forbidden_lines(event, start)
    stored = _with_tiebreaks(_with_report(stored, s), s)
    codes = {line[:3] for line in stored}
    out = [] if "012" in codes else [f"012 {s.name}"]
    for line in stored:
        code = line[:3]
        if code == "012" and line[4:].strip() != s.name:
            line = f"012 {s.name}"
        elif code == "062":
            line = f"062 {len(players)}"
        elif code in ("XXR", "142") and s.planned_rounds:
            line = f"{code} {s.planned_rounds}"
        elif code == "XXC" and colour:
            words = [w for w in line[4:].split() if w.lower() not in ("white1", "black1")]
            line = " ".join(["XXC", *words, colour])
        elif code == "152" and colour:
            line = _line_152(colour)
        out.append(line)
    if "062" not in codes:
        out.append(f"062 {len(players)}")
    if "092" not in codes:
        out.append("092 Individual: Swiss-System")
    if not codes & {"XXC", "152"} and colour:
        out += [_line_152(colour), f"XXC {colour}"]
    if s.acceleration == "baku" and not is_baku(out):
        out = [line for line in out if line[:3] != "192"]  # another system's type: the event pairs Baku now
        out.insert(next((k + 1 for k, line in enumerate(out) if line[:3] == "092"), len(out)), BAKU_LINE)
    elif s.acceleration != "baku" and is_baku(out):
        out = [_without_baku(line) for line in out]
        out = [line for line in out if line]
    return out


def _without_baku(line: str) -> str:
    """A 192 line of an accelerated type as the same system's type without the Baku acceleration
    ("FIDE_DUTCH_2025_BAKU" -> "FIDE_DUTCH_2025", as the tournament-type table names both); nothing for one this
    program cannot name so. Every other line as it is."""
    if line[:3] != "192" or "BAKU" not in line.upper():
        return line
    plain = re.sub(r"_BAKU$", "", line[4:].strip(), flags=re.IGNORECASE)
    return "" if "BAKU" in plain.upper() or not plain else f"192 {plain}"


def is_baku(lines) -> bool:
    """Whether the header lines ask for the Baku acceleration (TRF-2026 192, as bbpPairings reads it)."""
    return any(line[:3] == "192" and "BAKU" in line.upper() for line in lines)


def _with_report(stored: list[str], s: Settings) -> list[str]:
    """The stored lines with the rating report's made current: a code's lines kept while they say what the
    settings say, else replaced by the settings' own (in the first one's place, or among the ??2 lines)."""
    out = list(stored)
    for code in _REPORT_CODES:
        if code == "042" and "date" not in report_of(out):
            continue  # a file without a date gets none invented (the database holds one for every event)
        if _report_key(out, code) == _settings_key(s, code):
            continue
        at = next((k for k, line in enumerate(out) if line[:3] == code), None)
        out = [line for line in out if line[:3] != code]
        if at is None:
            at = _place(out, code)
        out[at:at] = _report_lines(s, code)
    return out


def _place(lines: list[str], code: str) -> int:
    """Where a new ??2 line goes: after the last ??2 line of a lower code (the file's order), else first."""
    at = 0
    for k, line in enumerate(lines):
        if re.fullmatch(r"[0-9]{2}2", line[:3]) and line[:3] < code:
            at = k + 1
    return at


def tiebreak_record(lines) -> tuple[str, ...] | None:
    """The tie-break list a TRF-2026 file names (202, or else 212 without its PTS), as the codes of
    swiss/tiebreakers.py where it can ("BH/C1", "bh:c1" and "BH-C1" are all BH-C1), or None when it names
    none. A code this program does not know is returned as written, upper-cased."""
    by_code = {line[:3]: line[4:] for line in lines if line[:3] in ("202", "212")}
    text = by_code.get("202", by_code.get("212"))
    if text is None:
        return None
    codes = [from_c07(word) for word in re.split(r"[,;\s]+", text) if word.strip()]
    return tuple(code for code in codes if code != "PTS") or None


def known_tiebreak_record(lines) -> tuple[str, ...] | None:
    """The file's tie-break list when this program knows every code of it (the event ranks by it), else None."""
    codes = tiebreak_record(lines)
    return codes if codes and all(code in TIEBREAKERS for code in codes) else None


def _tiebreak_lines(s: Settings, with_212: bool) -> list[str]:
    """The 202 record of the event's tie-break list (and 212, PTS first, when the file had one): only a list of
    C.07 codes, which is what the record holds."""
    if not s.tiebreakers or not all(code in FIDE_CODES for code in s.tiebreakers):
        return []
    listed = ",".join(c07_code(code) for code in s.tiebreakers)
    return [f"202 {listed}"] + ([f"212 PTS,{listed}"] if with_212 else [])


def _with_tiebreaks(stored: list[str], s: Settings) -> list[str]:
    """The stored lines with their 202 and 212 records kept while they name the event's list, else written
    again from it (in the first one's place, or among the ??2 lines). A file without them whose event still
    ranks by the list its import gave it (the chess preset's) comes back without them, as it went in."""
    record = tiebreak_record(stored)
    if record == tuple(s.tiebreakers) or (record is None and s.tiebreakers == _IMPORTED_LIST):
        return stored
    at = next((k for k, line in enumerate(stored) if line[:3] in ("202", "212")), None)
    with_212 = any(line[:3] == "212" for line in stored)
    out = [line for line in stored if line[:3] not in ("202", "212")]
    if at is None:
        at = _place(out, "202")
    out[at:at] = _tiebreak_lines(s, with_212)
    return out
