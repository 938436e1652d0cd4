"""The lines of a TRF-16 file one at a time (the whole file's layout is in `swiss.trf`): the codes of results
and colours, a player line's fixed columns and round blocks, the header lines that set the scoring (XXS,
162) and ask for byes (240), points and dates as the columns write them, and TRFError, the refusal that
names the line. `swiss.trf` reads and writes whole files with these.
"""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

from swiss.chessfacts import detail_problem
from swiss.messages import Message
from swiss.model import BYE, FORFEIT, FULL_BYE, HALF_BYE, LOSS, SMALL_MAX, ZERO_BYE, Scoring
from swiss.strictjson import EventFileError

GAME_RESULTS = {"1": 2, "=": 1, "0": 0, "W": 2, "D": 1, "L": 0}
UNPAIRED_RESULTS = {"U": BYE, "F": FULL_BYE, "H": HALF_BYE, "Z": ZERO_BYE, "-": LOSS, "+": FORFEIT}
UNPAIRED_CODES = {v: k for k, v in UNPAIRED_RESULTS.items()}
COLOURS = ("w", "b", "-", " ")
COLOUR_CODES = ("w", "b", "-", " ")
FIRST_ROUND_COLUMN = 91  # 0-based index of the first round block's opponent field
# A requested bye as the column of the round to be paired writes it (TRF-2026: H, F, Z; "-" is an absence).
REQUESTED_CODES = {"H": HALF_BYE, "F": FULL_BYE, "Z": ZERO_BYE, "-": ZERO_BYE}
ASCII_NUMBER = re.compile(r"[0-9]+")
# The player lines by start rank: (line number, fields, round blocks of (opponent's rank, colour, result code)).
Rows = dict[int, tuple[int, dict, list[tuple[int | None, str, str]]]]


class TRFError(EventFileError):
    """A malformed TRF line: the path names the line, the Message what is wrong (its `code` and `params`,
    with the line, are what the web app translates)."""

    def __init__(self, line: int, message: Message):
        self.line = line
        self.code = message.code
        self.params = {"line": line, **message.params}
        super().__init__(f"line {line}", message)


def _points(text: str) -> Fraction | None:
    text = text.strip()
    if not re.fullmatch(r"[0-9]+(\.[0-9]*)?|\.[0-9]+", text):
        return None
    return Fraction(text)


def format_points(value: Fraction) -> str:
    tenths = value * 10
    if tenths.denominator != 1:
        return f"{float(value):.2f}"
    t = int(tenths)
    return f"{t // 10}.{t % 10}"


_DATE_FORMATS = ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y", "%b %d, %Y", "%B %d, %Y")


def parse_date(text: str) -> str | None:
    """An ISO date from a TRF date as the programs write it ("2005/07/28", "28. 07. 2005", "May 29, 2020")."""
    t = re.sub(r"\s+", " ", text.strip())
    t = re.sub(r"(\d+)\. ?(\d+)\. ?(\d+)", r"\1.\2.\3", t)
    for f in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(t, f).date().isoformat()
        except ValueError:
            continue
    return None


# ---------------------------------------------------------------- player lines


# The chess details of a player line: key, first and last column (0-based, end excluded).
_DETAIL_COLUMNS = (
    ("sex", 9, 10),
    ("title", 10, 13),
    ("federation", 53, 56),
    ("fide_id", 57, 68),
    ("birth_date", 69, 79),
)


def player_line(number: int, line: str) -> tuple[int, dict, list[tuple[int | None, str, str]]]:
    """A player line's start rank, its fields (name, rating, points, chess details) and its round blocks."""
    if len(line) < 84:
        raise TRFError(number, Message("trf_short_line", "a player line needs the columns up to the points (84)"))
    rank_text = line[4:8].strip()
    if not ASCII_NUMBER.fullmatch(rank_text) or int(rank_text) < 1:
        raise TRFError(
            number, Message("trf_start_rank", "columns 5-8: {value} is not a start rank", value=repr(rank_text))
        )
    rank = int(rank_text)
    name = line[14:47].strip()
    if not name:
        raise TRFError(number, Message("trf_name", "columns 15-47: the name is empty"))
    rating_text = line[48:52].strip()
    if rating_text and not ASCII_NUMBER.fullmatch(rating_text):
        raise TRFError(number, Message("trf_rating", "columns 49-52: {value} is not a rating", value=repr(rating_text)))
    points_text = line[80:84].strip()
    if points_text and _points(points_text) is None:
        raise TRFError(
            number,
            Message("trf_points", "columns 81-84: {value} is not a number of points", value=repr(points_text)),
        )
    fields = {
        "name": name,
        "rating": int(rating_text) if rating_text and int(rating_text) > 0 else None,
        "points": _points(points_text),
    }
    for key, start, end in _DETAIL_COLUMNS:
        value = line[start:end].strip()
        problem = detail_problem(key, value)
        if problem:
            raise TRFError(
                number,
                Message("trf_detail", "columns {columns}: {problem}", columns=f"{start + 1}-{end}", problem=problem),
            )
        fields[key] = value
    return rank, fields, _round_blocks(number, rank, line[FIRST_ROUND_COLUMN - 2 :])


def _round_blocks(number: int, rank: int, body: str) -> list[tuple[int | None, str, str]]:
    """(opponent's start rank or None, colour, result code) of each round block, blank rounds at the end cut."""
    blocks = []
    r = 0
    while r * 10 < len(body):
        block = body[r * 10 : r * 10 + 10].ljust(10)
        r += 1
        if block[:2].strip() or block[6] != " " or (len(block) > 8 and block[8] != " "):
            raise TRFError(
                number,
                Message(
                    "trf_round_columns", "round {round}: not in the round columns (opponent, colour, result)", round=r
                ),
            )
        # TRF-2026: letter codes are case-insensitive (FIDE's tie-break server reads a colour W or B as w or b).
        opp_text, colour, result = block[2:6].strip(), block[7].lower(), block[9].upper()
        if colour not in COLOUR_CODES:
            raise TRFError(
                number,
                Message(
                    "trf_colour", "round {round}: unknown colour {colour} (w, b or -)", round=r, colour=repr(colour)
                ),
            )
        if result not in GAME_RESULTS and result not in UNPAIRED_RESULTS and result != " ":
            raise TRFError(
                number,
                Message("trf_result", "round {round}: unknown result code {result}", round=r, result=repr(result)),
            )
        if opp_text and not ASCII_NUMBER.fullmatch(opp_text):
            raise TRFError(
                number,
                Message("trf_opponent", "round {round}: {value} is not a start rank", round=r, value=repr(opp_text)),
            )
        opp = int(opp_text) if opp_text and int(opp_text) > 0 else None
        if opp == rank:
            raise TRFError(number, Message("trf_self", "round {round}: a player cannot play themselves", round=r))
        if opp is None and result in GAME_RESULTS:
            raise TRFError(
                number,
                Message(
                    "trf_no_opponent", "round {round}: result {result} needs an opponent", round=r, result=repr(result)
                ),
            )
        if opp is not None and result in ("U", "F", "H", "Z"):
            raise TRFError(
                number,
                Message(
                    "trf_bye_opponent",
                    "round {round}: result {result} cannot have an opponent",
                    round=r,
                    result=repr(result),
                ),
            )
        blocks.append((opp, colour, result))
    while blocks and blocks[-1] == (None, " ", " "):
        blocks.pop()
    return blocks


# ---------------------------------------------------------------- header lines


def _score(number: int, text: str) -> Fraction:
    if not re.fullmatch(r"[0-9]{1,3}(\.[0-9]{1,2})?", text):
        raise TRFError(number, Message("trf_score", "{value} is not a number of points such as 1.0", value=repr(text)))
    return Fraction(text)


# XXS (JaVaFo) codes: W D L (and by colour WW BW, WD BD, WL BL) set the scoring; the others must agree with how
# the standings score them (a full-point bye, a pairing-allocated bye or a forfeit win as a win, a half-point
# bye as a draw, a zero-point bye or a forfeit loss as a loss).
_XXS = {"W": "win", "WW": "win", "BW": "win", "D": "draw", "WD": "draw", "BD": "draw", "L": "loss", "WL": "loss"}
_XXS.update({"BL": "loss", "FPB": "win", "PAB": "win", "FW": "win", "HPB": "draw", "ZPB": "loss", "FL": "loss"})
_XXS_SETS = ("W", "D", "L", "WW", "WD", "WL")


def read_xxs(number: int, value: str, points: dict) -> None:
    pairs = []
    for word in value.split():
        key, _, amount = word.partition("=")
        if key.upper() not in _XXS or not amount:
            raise TRFError(number, Message("trf_xxs", "XXS needs CODE=points pairs such as W=1 D=0.5"))
        pairs.append((key.upper(), _score(number, amount)))
    _apply_scores(number, pairs, points, _XXS, _XXS_SETS)


# TRF-2026 162: W win (also by forfeit, and a full-point bye), D draw (and a half-point bye), L loss, A absence
# (a zero-point bye or forfeit loss), P pairing-allocated bye, X an unknown result (not used here).
_SCORES_2026 = {"W": "win", "D": "draw", "L": "loss", "A": "loss", "P": "win"}


def read_162(number: int, line: str, points: dict) -> None:
    pairs = []
    for match in re.finditer(r"([A-Z])\s*([0-9.]+)", line[4:]):
        if match.group(1) == "X":
            continue
        if match.group(1) not in _SCORES_2026:
            raise TRFError(number, Message("trf_162", "162 needs result codes W, D, L, A, P with their points"))
        pairs.append((match.group(1), _score(number, match.group(2))))
    if not pairs:
        raise TRFError(number, Message("trf_162", "162 needs result codes W, D, L, A, P with their points"))
    _apply_scores(number, pairs, points, _SCORES_2026, ("W", "D", "L"))


def _apply_scores(number: int, pairs: list, points: dict, meaning: dict, setting: tuple) -> None:
    for key, amount in pairs:
        if key in setting:
            points[meaning[key]] = amount
    for key, amount in pairs:
        if points[meaning[key]] != amount:
            raise TRFError(
                number,
                Message(
                    "trf_score_differs",
                    "{code} scores {value}, but here it scores as a {result}: {points}",
                    code=key,
                    value=format_points(amount),
                    result=Message(f"trf_scores_as_{meaning[key]}", meaning[key]),
                    points=format_points(points[meaning[key]]),
                ),
            )


def read_240(number: int, line: str, rows: Rows, byes: dict, played: int = 0) -> None:
    """TRF-2026 240: "240 H 003  026  047", a bye (F, H or Z) in a round for the players listed: a round not
    yet paired (the first `played` rounds' pairings are in the player lines)."""
    fields = line[4:].split()
    kind = fields[0] if fields else ""
    if kind not in ("F", "H", "Z") or len(fields) < 3 or not all(ASCII_NUMBER.fullmatch(f) for f in fields[1:]):
        raise TRFError(number, Message("trf_240", "240 needs F, H or Z, a round and start ranks"))
    r = int(fields[1])
    if not 1 <= r <= SMALL_MAX:
        raise TRFError(number, Message("trf_240", "240 needs F, H or Z, a round and start ranks"))
    if r <= played:
        raise TRFError(
            number,
            Message(
                "trf_240_played",
                "240 asks for a bye in round {round}, which the player lines show played already "
                "({played} rounds); a 240 line is for a round not yet paired",
                round=r,
                played=played,
            ),
        )
    for text in fields[2:]:
        rank = int(text)
        if rank not in rows:
            raise TRFError(
                number,
                Message("trf_240_rank", "no player has start rank {rank}", rank=rank),
            )
        byes[rank][r] = REQUESTED_CODES[kind]


def scoring_of(header: list[str]) -> Scoring | None:
    """The scoring the XXS and 162 lines give (chess's when there are none), or None if they do not parse."""
    points = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
    try:
        for line in header:
            if line[:3] == "XXS":
                read_xxs(0, line[4:].strip(), points)
            elif line[:3] == "162":
                read_162(0, line, points)
    except TRFError:
        return None
    return Scoring(points["win"], points["draw"], points["loss"])


def line_162(scoring: Scoring) -> str:
    """TRF-2026 162: each result code in column 6, 15, 24… and its points in the four columns after it."""
    parts = [("W", scoring.win), ("D", scoring.draw), ("L", scoring.loss)]
    if scoring.loss:
        parts.append(("A", scoring.loss))  # an absence scores as a loss here (the default A is 0)
    return "162 " + "".join(f" {code}{format_points(value):>4}   " for code, value in parts).rstrip()
