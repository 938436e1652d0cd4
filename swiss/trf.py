"""FIDE TRF-16 files (the Tournament Report File of Swiss-Manager, Vega, JaVaFo, bbpPairings, lichess).

`loads` reads a TRF into the same `Event` a swiss-event file gives (a `chess` event); `dumps` writes an
event as a TRF. Pure Python: the standings that check a file's points column and fill a written one come
from the caller (`standings.points_by_player`, `standings.compute`). One line at a time (the codes, a
player line's columns, the scoring and bye header lines) is `swiss.trflines`.

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

A malformed file is refused with a `TRFError` (`swiss.trflines`) naming the line and what is wrong; it
carries a stable `code` and its `params` for translation.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction

from swiss.messages import Message
from swiss.model import (
    DOUBLE_LOSS,
    FORFEIT,
    PLAYED,
    SMALL_MAX,
    SWISS,
    Event,
    Match,
    Player,
    Round,
    Scoring,
    settings_for_preset,
)
from swiss.names import display_name, split_typed, trf_name
from swiss.numbers import pairing_numbers
from swiss.strictjson import EventFileError
from swiss.trflines import (
    ASCII_NUMBER,
    FIRST_ROUND_COLUMN,
    GAME_RESULTS,
    REQUESTED_CODES,
    UNPAIRED_CODES,
    UNPAIRED_RESULTS,
    Rows,
    TRFError,
    format_points,
    line_162,
    parse_date,
    player_line,
    read_162,
    read_240,
    read_xxs,
    scoring_of,
)

# What a file may be before any work starts. The largest real events (a 2,000-player, 13-round open) are
# about 450 kB and import in well under a second; a file much larger is refused unread.
MAX_BYTES = 2_000_000
# At most this many player-rounds: over twice the largest real event's 26,000, which the database takes in about
# 7 s of one core (4,600 players x 13 rounds); and at most twice as many rounds as players (a double
# round-robin) unless the event is a short match between a few players.
MAX_CELLS = 60_000
MATCH_ROUNDS = 30
_NOT_ASCII_DIGIT = re.compile(r"(?![0-9])\d")
# What the reader checks a file's points column with: every player's points in an event, by id (the standings
# engine's `standings.points_by_player`; swiss/ computes no standings itself).
Points = Callable[[Event], Mapping[str, Fraction]]


def looks_like_trf(data: bytes | str) -> bool:
    """A TRF starts with a three-character line code (012, 001, XXR, ... or a ### comment), a swiss-event file
    with '{'."""
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    first = text.lstrip("\ufeff").lstrip()[:4]
    return bool(re.match(r"([0-9A-Z]{3}|###)( |$)", first))


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Older Swiss-Manager files are Latin-1.
        return data.decode("latin-1")


def check_size(size: int) -> None:
    """Refuse, before reading it, a file larger than any real tournament's (the web and the commands ask)."""
    if size > MAX_BYTES:
        raise EventFileError(
            "",
            Message(
                "trf_too_large",
                "the file has {size} bytes; a TRF file of at most {limit} bytes is read "
                "(the largest real events, 2,000 players and 13 rounds, take about 450,000)",
                size=size,
                limit=MAX_BYTES,
            ),
        )


def _line_of(text: str, position: int) -> tuple[int, int]:
    """(line, column), both from 1, of a character of the text."""
    line = text.count("\n", 0, position) + 1
    return line, position - (text.rfind("\n", 0, position) + 1) + 1


def _check_shape(text: str, lines: list[str]) -> None:
    """Refuse what no reader should spend time on, before any parsing: a NUL, a digit that is not 0-9, and more
    rounds than the players could play (a double round-robin) or a database round number holds."""
    nul = text.find("\x00")
    if nul >= 0:
        line, column = _line_of(text, nul)
        raise TRFError(line, Message("trf_nul", "column {column}: a NUL character", column=column))
    digit = _NOT_ASCII_DIGIT.search(text)
    if digit:
        line, column = _line_of(text, digit.start())
        raise TRFError(
            line,
            Message(
                "trf_digit",
                "column {column}: {char} is not one of the digits 0-9",
                column=column,
                char=repr(digit.group()),
            ),
        )
    players = 0
    widest = (0, 0)  # (rounds, line)
    for number, line in enumerate(lines, start=1):
        if line.startswith("001"):
            players += 1
            width = len(line.rstrip())
            rounds = -(-(width - FIRST_ROUND_COLUMN + 2) // 10) if width > FIRST_ROUND_COLUMN - 2 else 0
            if rounds > widest[0]:
                widest = (rounds, number)
    rounds, number = widest
    if rounds:
        _check_rounds(number, rounds, players)
    if players * rounds > MAX_CELLS:
        raise TRFError(
            number,
            Message(
                "trf_too_big",
                "{players} players and {rounds} rounds: a TRF file of at most {limit} player-rounds is read "
                "(the largest real events have about 26,000)",
                players=players,
                rounds=rounds,
                limit=MAX_CELLS,
            ),
        )
    for number, line in enumerate(lines, start=1):
        if line[:3] in ("XXR", "142") and line[4:].strip():
            value = line[4:].strip()
            if not ASCII_NUMBER.fullmatch(value) or int(value) < 1:
                raise TRFError(number, Message("trf_rounds", "XXR needs a number of rounds"))
            _check_rounds(number, int(value), players)


def _check_rounds(line: int, rounds: int, players: int) -> None:
    # A double round-robin is the most rounds an event gives its players: 2 (n - 1), or 2 n when n is odd;
    # a rated match between two players may be longer, though not by much.
    limit = min(SMALL_MAX, max(2 * players, MATCH_ROUNDS))
    if rounds > limit:
        raise TRFError(
            line,
            Message(
                "trf_too_many_rounds",
                "{rounds} rounds for {players} players: at most {limit} (twice the players, or {match})",
                match=MATCH_ROUNDS,
                rounds=rounds,
                players=players,
                limit=limit,
            ),
        )


def loads(data: bytes | str, points: Points) -> Event:
    """Parse a TRF-16 (or TRF-2026) file into a chess Event; TRFError names the first bad line.

    A file larger than MAX_BYTES, or with more rounds than its players could play, is refused before the
    player lines are read. `points` gives the players' points in an event (the standings engine's
    `standings.points_by_player`): the file's points column must agree with them.
    """
    check_size(len(data))
    text = _decode(data).lstrip("\ufeff")
    lines = text.splitlines()
    _check_shape(text, lines)
    header, rows, order = _read_lines(lines)
    rounds = max((len(b) for _, _, b in rows.values()), default=0)
    requested = _requested_column(rows, rounds)
    if requested:
        rounds -= 1
    matches = _matches(rows, order, rounds)
    settings, byes = _settings(header, rows, rounds)
    for rank, kind in requested.items():
        byes[rank][rounds + 1] = kind
    event = Event(
        settings=settings,
        players=_players(rows, order, rounds, byes),
        rounds=tuple(
            Round(
                number=r,
                matches=tuple(matches[r]),
                state="complete" if all(m.has_result for m in matches[r]) else "in_progress",
            )
            for r in range(1, rounds + 1)
        ),
    )
    _check_points(event, rows, points)
    return event


def _read_lines(lines: list[str]) -> tuple[list[tuple[int, str]], Rows, list[int]]:
    """The header lines (with their line numbers), the player lines by start rank, and the ranks in file order."""
    header: list[tuple[int, str]] = []
    rows: Rows = {}
    order: list[int] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        code = line[:3]
        if not re.fullmatch(r"[0-9A-Za-z#]{3}", code) or (len(line) > 3 and line[3] != " "):
            raise TRFError(
                number, Message("trf_line_code", "a TRF line starts with a three-character code and a space")
            )
        if code != "001":
            header.append((number, line))
            continue
        rank, fields, blocks = player_line(number, line)
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
    return header, rows, order


def _matches(rows: Rows, order: list[int], rounds: int) -> dict[int, list[Match]]:
    """Each round's matches, by round; every opponent's line must say the same of the game."""
    matches: dict[int, list[Match]] = defaultdict(list)
    for rank in order:
        number, fields, blocks = rows[rank]
        for r, (opp, colour, result) in enumerate(blocks[:rounds], start=1):
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
    return matches


def _players(rows: Rows, order: list[int], rounds: int, byes: dict[int, dict[int, str]]) -> tuple[Player, ...]:
    """The players in file order: a late entry from the leading blank rounds, a withdrawal from the last ones."""
    players = []
    for rank in order:
        number, fields, blocks = rows[rank]
        blocks = blocks[:rounds]
        entered = [r for r, blk in enumerate(blocks, start=1) if not (blk[0] is None and blk[2] == " ")]
        joined = entered[0] if entered else 1
        # Withdrawn: from some round to the end, blank rounds or losses without an opponent (lichess).
        active = [r for r, blk in enumerate(blocks, start=1) if not (blk[0] is None and blk[2] in " -")]
        last = active[-1] if active else 0
        dropped = max(last, joined - 1) if rounds and last < rounds else None
        # "Surname, First name", as FIDE writes it: both parts kept, shown as the name's culture writes it.
        family, given = split_typed(fields["name"]) or ("", "")
        players.append(
            Player(
                id=str(rank),
                number=rank,
                name=display_name(family, given) if family else fields["name"],
                family_name=family,
                given_name=given,
                rating=fields["rating"],
                fide_id=fields["fide_id"],
                federation=fields["federation"],
                title=fields["title"],
                sex=fields["sex"],
                birth_date=fields["birth_date"],
                joined_round=joined,
                dropped_after=dropped,
                requested_byes=tuple(sorted(byes[rank].items())),
            )
        )
    return tuple(players)


def _requested_column(rows: Rows, rounds: int) -> dict[int, str]:
    """The requested byes of the round to be paired, when the file's last round column is that round.

    Arbiters enter the next round's half-point, full-point and zero-point byes (and known absences, "-")
    before pairing it: a last column where nobody has an opponent, nor a pairing-allocated bye (U) or a win
    without a game (+), is such a column (as bbpPairings and JaVaFo read it), not a round played.
    """
    if not rounds:
        return {}
    column = {rank: blocks[rounds - 1] for rank, (_, _, blocks) in rows.items() if len(blocks) == rounds}
    if any(opp is not None or result not in REQUESTED_CODES for opp, _, result in column.values()):
        return {}
    # A round of byes alone that the points column counts was played (everyone else absent).
    for rank, (_, _, result) in column.items():
        given = rows[rank][1]["points"]
        if result in "HF" and given is not None:
            before = sum(_HALVES.get(blk[2], 0) for blk in rows[rank][2][: rounds - 1])
            if given * 2 != before:
                return {}
    return {rank: REQUESTED_CODES[result] for rank, (_, _, result) in column.items()}


# Chess points of a round block, in halves (for telling a requested-bye column from a round played).
_HALVES = {"1": 2, "W": 2, "+": 2, "F": 2, "U": 2, "=": 1, "D": 1, "H": 1}


def _settings(header: list[tuple[int, str]], rows: Rows, rounds: int) -> tuple:
    """The event's settings from the header lines, and the requested byes of 240 lines (rank -> round -> kind).

    Read: 012 name, 042 start date (none invented when missing), XXR or 142 planned rounds, XXC or 152 the
    initial colour, XXS or 162 the points of a win, a draw and a loss, 240 requested byes, XXZ the players
    absent from the round to be paired. Every line is also
    kept verbatim, so that a file comes back as it went in; lines not understood (XXA accelerations, XXP
    forbidden pairs, 132 round dates, ...) are only kept.
    """
    name, date, planned, colour = "TRF import", None, None, None
    points = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
    byes: dict[int, dict[int, str]] = defaultdict(dict)
    for number, line in header:
        code, value = line[:3], line[4:].strip()
        if code == "012" and value:
            name = value
        elif code == "042" and value:
            date = parse_date(value)
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
            read_240(number, line, rows, byes)
        elif code == "XXZ":
            # JaVaFo: the players absent from the round to be paired (a zero-point bye each).
            if not all(ASCII_NUMBER.fullmatch(word) for word in value.split()):
                raise TRFError(number, Message("trf_xxz", "XXZ needs the start ranks of the absent players"))
            if value:
                read_240(number, f"240 Z {rounds + 1:03d} {value}", rows, byes)
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
        tiebreakers=settings_for_preset("chess").tiebreakers,
        best_of=1,
        colours=True,
        scoring=scoring,
        name=name[:200],
        date=date,
        planned_rounds=planned if planned is not None else (rounds or None),
        initial_colour=colour,
        trf_header=lines,
    )
    return settings, byes


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
    # A game not played keeps the colours it was paired with, when the file gives them.
    white = None
    if {colour, o_colour} == {"w", "b"}:
        white = str(rank) if colour == "w" else str(opp)
    if pair in ("+-", "-+"):
        a, b = (rank, opp) if result == "+" else (opp, rank)
        return Match(a=str(a), b=str(b), result=FORFEIT, white=white)
    if pair == "--":
        return Match(a=str(rank), b=str(opp), result=DOUBLE_LOSS, white=white)
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


def _check_points(event: Event, rows: Rows, points: Points) -> None:
    """The file's own points must be what its results give (a wrong line, not a silent difference)."""
    if not event.rounds:
        return
    table = points(event)
    for rank, (number, fields, _) in rows.items():
        given = fields["points"]
        if given is not None and table[str(rank)] != given:
            raise TRFError(
                number,
                Message(
                    "trf_points_disagree",
                    "columns 81-84 say {given} points but the results give {computed}",
                    given=format_points(given),
                    computed=format_points(table[str(rank)]),
                ),
            )


# ---------------------------------------------------------------- writing


class TRFExportError(ValueError):
    """An event a TRF cannot carry (not chess scoring); `code` and `params` for translation."""

    def __init__(self, code: str, message: str, **params):
        self.code = code
        self.params = params
        super().__init__(message)


def start_ranks(event: Event) -> dict[str, int]:
    """The start rank of every player, by id: their pairing number (swiss/numbers.py), which the FIDE
    Dutch system pairs by and a checking program reads the file by. 1, 2, 3… without gaps: a deleted player
    leaves none, the players after them move up, in the opponent columns too."""
    return pairing_numbers(event)


def dumps(event: Event, ranks: dict[str, int] | None = None, points: dict[str, Fraction] | None = None) -> str:
    """The event as a TRF-16 file: its header lines, then one line per player in start-rank order.

    `ranks` and `points` (by player id) fill columns 81-89; the standings give them. Only a chess event
    (one game, 1 / ½ / 0) fits a TRF; top-cut rounds are not written (a TRF has Swiss rounds only).
    A game still without a result is written as not yet played (blank), as a round not yet paired is: other
    chess programs read a pairing only with its result. The requested byes of the next round are its column
    (H, F, Z), those of later rounds 240 lines.
    """
    s = event.settings
    scores = (s.scoring.win, s.scoring.draw, s.scoring.loss)
    if s.best_of != 1 or not all(0 <= x < 100 and (x * 10).denominator == 1 for x in scores):
        raise TRFExportError("trf_not_chess", "a TRF file is for chess events: one game a round, scored 1, 1/2 and 0")
    start = start_ranks(event)
    if len(start) > 9999:
        raise TRFExportError("trf_too_many_players", "a TRF file holds at most 9999 players")
    players = sorted(event.players, key=lambda p: start[p.id])
    swiss = sorted((r for r in event.rounds if r.kind == SWISS), key=lambda r: r.number)
    total = max((r.number for r in swiss), default=0)
    blocks: dict[str, dict[int, str]] = {p.id: {} for p in players}
    for rnd in swiss:
        for m in rnd.matches:
            for pid, text in _blocks(m, start):
                blocks[pid][rnd.number] = text
    # The round to be paired: its requested byes are its column.
    later: dict[tuple[int, str], list[int]] = defaultdict(list)
    for p in players:
        for r, kind in p.requested_byes:
            if r == total + 1:
                blocks[p.id][r] = f"0000 - {UNPAIRED_CODES[kind]}"
            elif r > total + 1:
                later[(r, UNPAIRED_CODES[kind])].append(start[p.id])
    width = max((max(b, default=0) for b in blocks.values()), default=0)

    lines = _header(event, players, later)
    for p in players:
        pts = points.get(p.id) if points else None
        rank = ranks.get(p.id) if ranks else None
        line = (
            f"001 {start[p.id]:>4} {p.sex[:1]:1}{p.title[:3]:>3} {trf_name(p.name, p.family_name, p.given_name)[:33]:<33} "
            f"{(p.rating if p.rating and p.rating <= 9999 else ''):>4} {p.federation[:3]:<3} {p.fide_id[:11]:>11} "
            f"{p.birth_date[:10]:<10} {format_points(pts) if pts is not None else '':>4} "
            f"{rank if rank is not None else '':>4}"
        )
        for k in range(1, width + 1):
            line += "  " + blocks[p.id].get(k, " " * 8)
        lines.append(line)
    return "\n".join(lines) + "\n"


def _blocks(m: Match, start: dict[str, int]) -> list[tuple[str, str]]:
    """The round blocks (8 columns: opponent, colour, result) the match writes, by player id."""
    if m.b is None:
        return [(m.a, f"0000 - {UNPAIRED_CODES[m.result]}")]
    sa, sb = start[m.a], start[m.b]
    if m.result in (FORFEIT, DOUBLE_LOSS):
        ca, cb = ("w", "b") if m.white == m.a else ("b", "w") if m.white == m.b else ("-", "-")
        ra = "+" if m.result == FORFEIT else "-"
        return [(m.a, f"{sb:>4} {ca} {ra}"), (m.b, f"{sa:>4} {cb} -")]
    if m.games is None:
        return []  # paired, no result yet: not written until it has one
    ga, gb, _ = m.games
    ra, rb = ("1", "0") if ga > gb else ("0", "1") if gb > ga else ("=", "=")
    return [(m.a, f"{sb:>4} w {ra}"), (m.b, f"{sa:>4} b {rb}")]


def _header(event: Event, players: list[Player], later: dict[tuple[int, str], list[int]]) -> list[str]:
    """The header lines: a TRF's own come back as they were (the name, player count, rounds and initial colour
    made current); an event made here gets 012, 042, 062, 092, XXR and XXC. No date is written for a file that
    had none (a TRF import without 042)."""
    s = event.settings
    stored = [line for line in s.trf_header if line[:3] != "240"]
    from_trf = bool(stored)
    # The points of a win, draw and loss: a file's own XXS or 162 lines while they still say them, else a 162
    # line when they are not chess's 1, ½, 0.
    scoring = scoring_of(stored)
    if scoring != s.scoring:
        stored = [line for line in stored if line[:3] not in ("XXS", "162")]
        if s.scoring != Scoring(Fraction(1), Fraction(1, 2), Fraction(0)):
            stored.append(line_162(s.scoring))
    codes = {line[:3] for line in stored}
    colour = {"white": "white1", "black": "black1"}.get(s.initial_colour or "")
    out = []
    if "012" not in codes:
        out.append(f"012 {s.name}")
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
            line = f"152 {'W' if colour == 'white1' else 'B'}"
        out.append(line)
    if "042" not in codes and s.date and not from_trf:
        out.append(f"042 {s.date.replace('-', '/')}")
    if "062" not in codes:
        out.append(f"062 {len(players)}")
    if "092" not in codes:
        out.append("092 Individual: Swiss-System")
    if not codes & {"XXR", "142"} and s.planned_rounds and not from_trf:
        out.append(f"XXR {s.planned_rounds}")
    if not codes & {"XXC", "152"} and colour:
        out.append(f"XXC {colour}")
    for (r, code), ranks in sorted(later.items()):
        out.append(f"240 {code} {r:03d} " + " ".join(f"{rank:>4}" for rank in sorted(ranks)))
    return out
