"""FIDE TRF-16 files (the Tournament Report File of Swiss-Manager, Vega, JaVaFo, bbpPairings, lichess).

`loads` reads a TRF into the same `Event` a swiss-event file gives (a `chess` event); `dumps` writes an
event as a TRF. Pure Python, like the rest of the engine.

A player line (code 001) has fixed columns (1-based): start rank 5-8, sex 10, title 11-13, name 15-47,
rating 49-52, federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84, rank 86-89, then one block
of ten columns per round from column 92: opponent's start rank (4, "0000" or blank for none), colour
(w, b or -), result: 1 = 0 (a game), W D L (a game not rated), + - (forfeit win or loss), H (half-point
bye), F (full-point bye), U (pairing-allocated bye), Z (zero-point bye); a blank block is a round the
player was not in. Every other line (012 name, 022 city, 042 start date, 092 type, XXR rounds, ...) is a
header line, kept verbatim in `Settings.trf_header`.

How the results map (swiss-event `result`): a game is a played match with white as player a; + against
- is a "forfeit" won by a; - against - a "double_loss"; without an opponent U is a "bye", F "full_bye",
H "half_bye", Z "zero_bye", - an unpaired "loss" and + an unpaired "forfeit". Leading blank rounds are a
late entry (`joined_round`); blank rounds or losses without an opponent from some round to the end are a
withdrawal (`dropped_after`).

A malformed file is refused with a `TRFError` naming the line and what is wrong; it carries a stable
`code` and its `params` for translation.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

from standings.eventfile import (
    BYE,
    DOUBLE_LOSS,
    ELIMINATION,
    FORFEIT,
    FULL_BYE,
    HALF_BYE,
    LOSS,
    PLAYED,
    SWISS,
    ZERO_BYE,
    Event,
    EventFileError,
    Match,
    Player,
    Round,
    settings_for_preset,
)
from standings.messages import Message

GAME_RESULTS = {"1": 2, "=": 1, "0": 0, "W": 2, "D": 1, "L": 0}
UNPAIRED_RESULTS = {"U": BYE, "F": FULL_BYE, "H": HALF_BYE, "Z": ZERO_BYE, "-": LOSS, "+": FORFEIT}
UNPAIRED_CODES = {v: k for k, v in UNPAIRED_RESULTS.items()}
COLOURS = ("w", "b", "-", " ")
FIRST_ROUND_COLUMN = 91  # 0-based index of the first round block's opponent field


class TRFError(EventFileError):
    """A malformed TRF line: the path names the line, the Message what is wrong (its `code` and `params`,
    with the line, are what the web app translates)."""

    def __init__(self, line: int, message: Message):
        self.line = line
        self.code = message.code
        self.params = {"line": line, **message.params}
        super().__init__(f"line {line}", message)


def looks_like_trf(data: bytes | str) -> bool:
    """A TRF starts with a three-character line code (012, 001, XXR, ...), a swiss-event file with '{'."""
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    first = text.lstrip("\ufeff").lstrip()[:4]
    return bool(re.match(r"[0-9A-Z]{3}( |$)", first))


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Older Swiss-Manager files are Latin-1.
        return data.decode("latin-1")


def _points(text: str) -> Fraction | None:
    text = text.strip()
    if not text:
        return None
    try:
        return Fraction(text)
    except ValueError:
        return None


def _format_points(value: Fraction) -> str:
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


def loads(data: bytes | str) -> Event:
    """Parse a TRF-16 file into a chess Event; TRFError names the first bad line."""
    text = _decode(data).lstrip("\ufeff")
    header: list[str] = []
    # start rank -> (line number, fields, blocks)
    rows: dict[int, tuple[int, dict, list[tuple[int | None, str, str]]]] = {}
    order: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        code = line[:3]
        if not re.fullmatch(r"[0-9A-Za-z]{3}", code) or (len(line) > 3 and line[3] != " "):
            raise TRFError(
                number, Message("trf_line_code", "a TRF line starts with a three-character code and a space")
            )
        if code != "001":
            header.append(line)
            continue
        rank, fields, blocks = _player_line(number, line)
        if rank in rows:
            raise TRFError(
                number,
                Message(
                    "trf_duplicate_rank",
                    "start rank {rank} is also on line {other_line}",
                    rank=rank,
                    other_line=rows[rank][0],
                ),
            )
        rows[rank] = (number, fields, blocks)
        order.append(rank)
    if not rows:
        raise TRFError(1, Message("trf_no_players", "the file has no player lines (001)"))

    rounds = max((len(b) for _, _, b in rows.values()), default=0)
    # Check every opponent's line says the same of the game.
    matches: dict[int, list[Match]] = defaultdict(list)
    for rank in order:
        number, fields, blocks = rows[rank]
        for r, (opp, colour, result) in enumerate(blocks, start=1):
            if opp is None:
                if result == " ":
                    continue  # not in this round
                matches[r].append(Match(a=str(rank), result=UNPAIRED_RESULTS[result]))
                continue
            if opp not in rows:
                raise TRFError(
                    number,
                    Message(
                        "trf_unknown_opponent",
                        "round {round}: no player has start rank {opponent}",
                        round=r,
                        opponent=opp,
                    ),
                )
            o_number, _, o_blocks = rows[opp]
            other = o_blocks[r - 1] if r <= len(o_blocks) else (None, " ", " ")
            if other[0] != rank:
                raise TRFError(
                    number,
                    Message(
                        "trf_opponent_disagrees",
                        "round {round}: the opponent {opponent} (line {other_line}) does not list {rank} as opponent",
                        round=r,
                        opponent=opp,
                        other_line=o_number,
                        rank=rank,
                    ),
                )
            if opp < rank:
                continue  # the pair is made once, from the lower start rank
            m = _pair(number, r, rank, colour, result, opp, other[1], other[2], o_number)
            matches[r].append(m)

    players = []
    for rank in order:
        number, fields, blocks = rows[rank]
        entered = [r for r, blk in enumerate(blocks, start=1) if not (blk[0] is None and blk[2] == " ")]
        joined = entered[0] if entered else 1
        # Withdrawn: from some round to the end, blank rounds or losses without an opponent (lichess).
        active = [r for r, blk in enumerate(blocks, start=1) if not (blk[0] is None and blk[2] in " -")]
        last = active[-1] if active else 0
        dropped = max(last, joined - 1) if rounds and last < rounds else None
        players.append(
            Player(
                id=str(rank),
                number=rank,
                name=fields["name"],
                rating=fields["rating"],
                external_id=fields["fide_id"],
                federation=fields["federation"],
                title=fields["title"],
                sex=fields["sex"],
                birth_date=fields["birth_date"],
                joined_round=joined,
                dropped_after=dropped,
            )
        )

    name, date, planned = "TRF import", None, None
    for line in header:
        code, value = line[:3], line[4:].strip()
        if code == "012" and value:
            name = value
        elif code == "042" and value:
            date = parse_date(value)
        elif code == "XXR" and value:
            if not value.isdigit() or int(value) < 1:
                raise TRFError(text.splitlines().index(line) + 1, Message("trf_rounds", "XXR needs a number of rounds"))
            planned = int(value)
    settings = settings_for_preset(
        "chess",
        name=name[:200],
        date=date,
        planned_rounds=planned if planned is not None else (rounds or None),
        trf_header=tuple(header),
    )
    event = Event(
        settings=settings,
        players=tuple(players),
        rounds=tuple(
            Round(
                number=r,
                matches=tuple(matches[r]),
                state="complete" if all(m.has_result for m in matches[r]) else "in_progress",
            )
            for r in range(1, rounds + 1)
        ),
    )
    _check_points(event, rows)
    return event


def _player_line(number: int, line: str) -> tuple[int, dict, list[tuple[int | None, str, str]]]:
    if len(line) < 84:
        raise TRFError(number, Message("trf_short_line", "a player line needs the columns up to the points (84)"))
    rank_text = line[4:8].strip()
    if not rank_text.isdigit() or int(rank_text) < 1:
        raise TRFError(
            number, Message("trf_start_rank", "columns 5-8: {value} is not a start rank", value=repr(rank_text))
        )
    rank = int(rank_text)
    name = line[14:47].strip()
    if not name:
        raise TRFError(number, Message("trf_name", "columns 15-47: the name is empty"))
    rating_text = line[48:52].strip()
    if rating_text and not rating_text.isdigit():
        raise TRFError(number, Message("trf_rating", "columns 49-52: {value} is not a rating", value=repr(rating_text)))
    points_text = line[80:84].strip()
    if points_text and _points(points_text) is None:
        raise TRFError(
            number,
            Message("trf_points", "columns 81-84: {value} is not a number of points", value=repr(points_text)),
        )
    fields = {
        "sex": line[9:10].strip(),
        "title": line[10:13].strip(),
        "name": name,
        "rating": int(rating_text) if rating_text and int(rating_text) > 0 else None,
        "federation": line[53:56].strip(),
        "fide_id": line[57:68].strip(),
        "birth_date": line[69:79].strip(),
        "points": _points(points_text),
    }
    blocks = []
    body = line[FIRST_ROUND_COLUMN - 2 :]
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
        opp_text, colour, result = block[2:6].strip(), block[7], block[9]
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
        if opp_text and not opp_text.isdigit():
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
    return rank, fields, blocks


COLOUR_CODES = ("w", "b", "-", " ")


def _pair(number, r, rank, colour, result, opp, o_colour, o_result, o_number) -> Match:
    """The match of `rank` and `opp` (opp > rank) in round r, checked from both lines."""
    pair = f"{result}{o_result}"
    if result in GAME_RESULTS and o_result in GAME_RESULTS:
        if GAME_RESULTS[result] + GAME_RESULTS[o_result] != 2:
            raise TRFError(number, _results_disagree(r, result, o_result, o_number))
        if {colour, o_colour} not in ({"w", "b"}, {"-"}, {" "}):
            raise TRFError(
                number,
                Message(
                    "trf_colour_disagrees",
                    "round {round}: colour {colour} against {other} on line {other_line}",
                    round=r,
                    colour=repr(colour),
                    other=repr(o_colour),
                    other_line=o_number,
                ),
            )
        a, b, score = (rank, opp, GAME_RESULTS[result]) if colour != "b" else (opp, rank, GAME_RESULTS[o_result])
        games = (1, 0, 0) if score == 2 else (0, 1, 0) if score == 0 else (0, 0, 1)
        return Match(a=str(a), b=str(b), games=games, result=PLAYED)
    if pair in ("+-", "-+"):
        a, b = (rank, opp) if result == "+" else (opp, rank)
        return Match(a=str(a), b=str(b), result=FORFEIT)
    if pair == "--":
        return Match(a=str(rank), b=str(opp), result=DOUBLE_LOSS)
    if pair == "  ":
        # Paired, result not yet entered.
        a, b = (opp, rank) if colour == "b" else (rank, opp)
        return Match(a=str(a), b=str(b), result=PLAYED)
    raise TRFError(number, _results_disagree(r, result, o_result, o_number))


def _results_disagree(r: int, result: str, other: str, other_line: int) -> Message:
    return Message(
        "trf_result_disagrees",
        "round {round}: result {result} against {other} on line {other_line}",
        round=r,
        result=repr(result),
        other=repr(other),
        other_line=other_line,
    )


def _check_points(event: Event, rows: dict) -> None:
    """The file's own points must be what its results give (a wrong line, not a silent difference)."""
    from standings.engine import compute

    if not event.rounds:
        return
    # Points only: the tie-breaks are not needed to check them.
    bare = Event(settings=replace(event.settings, tiebreakers=()), players=event.players, rounds=event.rounds)
    table = compute(bare, after_round=len(event.rounds)).by_player()
    for rank, (number, fields, _) in rows.items():
        given = fields["points"]
        if given is not None and table[str(rank)].points != given:
            raise TRFError(
                number,
                Message(
                    "trf_points_disagree",
                    "columns 81-84 say {given} points but the results give {computed}",
                    given=_format_points(given),
                    computed=_format_points(table[str(rank)].points),
                ),
            )


# ---------------------------------------------------------------- writing


class TRFExportError(ValueError):
    """An event a TRF cannot carry (not chess scoring); `code` and `params` for translation."""

    def __init__(self, code: str, message: str, **params):
        self.code = code
        self.params = params
        super().__init__(message)


def dumps(event: Event, ranks: dict[str, int] | None = None, points: dict[str, Fraction] | None = None) -> str:
    """The event as a TRF-16 file: its header lines, then one line per player in start-rank order.

    `ranks` and `points` (by player id) fill columns 81-89; the standings give them. Only a chess event
    (one game, 1 / ½ / 0) fits a TRF; top-cut rounds are not written (a TRF has Swiss rounds only).
    """
    s = event.settings
    if (s.scoring.win, s.scoring.draw, s.scoring.loss, s.best_of) != (1, Fraction(1, 2), 0, 1):
        raise TRFExportError("trf_not_chess", "a TRF file is for chess events: one game a round, scored 1, 1/2 and 0")
    players = list(event.players)
    # Start ranks: the players' numbers, else ids that are numbers (a TRF's own), else registration order.
    start = {}
    for key in (lambda p: p.number, lambda p: int(p.id) if p.id.isdigit() else None):
        candidate = [key(p) for p in players]
        if all(r is not None and 0 < r <= 9999 for r in candidate) and len(set(candidate)) == len(candidate):
            start = {p.id: r for p, r in zip(players, candidate, strict=True)}
            break
    if not start:
        start = {p.id: k for k, p in enumerate(players, start=1)}
    players.sort(key=lambda p: start[p.id])
    swiss = sorted((r for r in event.rounds if r.kind == SWISS), key=lambda r: r.number)
    total = max((r.number for r in swiss), default=0)
    blocks: dict[str, dict[int, str]] = {p.id: {} for p in players}
    for rnd in swiss:
        for m in rnd.matches:
            for pid, text in _blocks(m, start):
                blocks[pid][rnd.number] = text

    lines = _header(event, players)
    for p in players:
        pts = points.get(p.id) if points else None
        rank = ranks.get(p.id) if ranks else None
        line = (
            f"001 {start[p.id]:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:33]:<33} "
            f"{(p.rating or ''):>4} {p.federation[:3]:<3} {p.external_id[:11]:>11} {p.birth_date[:10]:<10} "
            f"{_format_points(pts) if pts is not None else '':>4} {rank if rank is not None else '':>4}"
        )
        for k in range(1, total + 1):
            line += "  " + blocks[p.id].get(k, " " * 8)
        lines.append(line)
    return "\n".join(lines) + "\n"


def _blocks(m: Match, start: dict[str, int]) -> list[tuple[str, str]]:
    """The round blocks (8 columns: opponent, colour, result) the match writes, by player id."""
    if m.b is None:
        return [(m.a, f"0000 - {UNPAIRED_CODES[m.result]}")]
    sa, sb = start[m.a], start[m.b]
    if m.result == FORFEIT:
        return [(m.a, f"{sb:>4} - +"), (m.b, f"{sa:>4} - -")]
    if m.result == DOUBLE_LOSS:
        return [(m.a, f"{sb:>4} - -"), (m.b, f"{sa:>4} - -")]
    if m.games is None:
        # Paired, result not yet entered: the pairing with a blank result.
        return [(m.a, f"{sb:>4} w  "), (m.b, f"{sa:>4} b  ")]
    ga, gb, _ = m.games
    ra, rb = ("1", "0") if ga > gb else ("0", "1") if gb > ga else ("=", "=")
    return [(m.a, f"{sb:>4} w {ra}"), (m.b, f"{sa:>4} b {rb}")]


def _header(event: Event, players: list[Player]) -> list[str]:
    s = event.settings
    stored = list(s.trf_header)
    codes = {line[:3] for line in stored}
    out = []
    if "012" not in codes:
        out.append(f"012 {s.name}")
    for line in stored:
        code = line[:3]
        if code == "012" and line[4:].strip() != s.name:
            line = f"012 {s.name}"
        elif code == "062":
            line = f"062 {len(players)}"
        elif code == "XXR" and s.planned_rounds:
            line = f"XXR {s.planned_rounds}"
        out.append(line)
    if "042" not in codes and s.date:
        out.append(f"042 {s.date.replace('-', '/')}")
    if "062" not in codes:
        out.append(f"062 {len(players)}")
    if "092" not in codes:
        out.append("092 Individual: Swiss-System")
    # A file that came from a TRF without an XXR line keeps having none.
    if "XXR" not in codes and s.planned_rounds and not stored:
        out.append(f"XXR {s.planned_rounds}")
    return out


def has_elimination(event: Event) -> bool:
    return any(r.kind == ELIMINATION for r in event.rounds)
