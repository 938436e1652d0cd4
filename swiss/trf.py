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
header line (`swiss.trfheader`), kept verbatim in `Settings.trf_header`.

How the results map (swiss-event `result`): a game is a played match with white as player a; + against
- is a "forfeit" won by a; - against - a "double_loss"; without an opponent U is a "bye", F "full_bye",
H "half_bye", Z "zero_bye", - an unpaired "loss" and + an unpaired "forfeit". A blank round, or one
without an opponent, is that round alone: leading blank rounds are a late entry (`joined_round`), and only
a zero-point bye asked for every round left, two rounds at least (as the export writes a withdrawal), is a
withdrawal (`dropped_after`).

A malformed file is refused with a `TRFError` (`swiss.trflines`) naming the line and what is wrong; it
carries a stable `code` and its `params` for translation.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import cast

from swiss.messages import Message
from swiss.model import (
    DOUBLE_LOSS,
    FORFEIT,
    FULL_BYE,
    HALF_BYE,
    PLAYED,
    SMALL_MAX,
    SWISS,
    ZERO_BYE,
    Event,
    Match,
    Player,
    Round,
    Scoring,
)
from swiss.names import display_name, split_typed, trf_name
from swiss.numbers import pairing_numbers
from swiss.strictjson import EventFileError, lone_surrogate, surrogate_at, surrogate_problem
from swiss.trfheader import header_lines, read_header
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
    player_line,
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
    return bool(re.match(r"[0-9A-Z]{3}( |$)|###", first))


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
        row, column = _line_of(text, nul)
        raise TRFError(row, Message("trf_nul", "column {column}: a NUL character", column=column))
    half = surrogate_at(text)
    if half >= 0:
        row, _column = _line_of(text, half)
        raise TRFError(row, surrogate_problem(cast(str, lone_surrogate(text[half]))))  # a surrogate was found
    digit = _NOT_ASCII_DIGIT.search(text)
    if digit:
        row, column = _line_of(text, digit.start())
        raise TRFError(
            row,
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
    `standings.points_by_player`): the file's points column must agree with them, counting or not the bye a
    player asked for in the round to be paired (and the acceleration of that round), as bbpPairings reads it.
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
    settings, byes, accelerations = read_header(header, rows, rounds)
    for rank, kind in requested.items():
        byes[rank][rounds + 1] = kind
    next_byes = {rank: asked[rounds + 1] for rank, asked in byes.items() if rounds + 1 in asked}
    players = _players(rows, order, rounds, byes, settings.planned_rounds, accelerations)
    if settings.planned_rounds is None and rounds:
        settings = replace(settings, planned_rounds=rounds)
    event = Event(
        settings=settings,
        players=players,
        rounds=tuple(
            Round(
                number=r,
                matches=tuple(matches[r]),
                state="complete" if all(m.has_result for m in matches[r]) else "in_progress",
            )
            for r in range(1, rounds + 1)
        ),
    )
    _check_points(event, rows, points, next_byes)
    return event


def rank_column(data: bytes | str) -> dict[str, int]:
    """The ranks a TRF's player lines give (columns 86-89), by player id (the start rank); a blank rank is left
    out. Read after `loads` has accepted the file."""
    out: dict[str, int] = {}
    for line in _decode(data).lstrip("\ufeff").splitlines():
        if line[:3] == "001" and _ascii_number(line[4:8]) and _ascii_number(line[85:89]):
            out[str(int(line[4:8]))] = int(line[85:89])
    return out


def _ascii_number(text: str) -> bool:
    return ASCII_NUMBER.fullmatch(text.strip()) is not None and int(text) > 0


def _read_lines(lines: list[str]) -> tuple[list[tuple[int, str]], Rows, list[int]]:
    """The header lines (with their line numbers), the player lines by start rank, and the ranks in file order."""
    header: list[tuple[int, str]] = []
    rows: Rows = {}
    order: list[int] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        code = line[:3]
        if code == "###":
            header.append((number, line))  # a comment (TRF-2026: any line whose first three characters are ###)
            continue
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


def _players(
    rows: Rows, order: list[int], rounds: int, byes: dict, planned: int | None, accelerations: dict
) -> tuple[Player, ...]:
    """The players in file order.

    A round without an entry (a blank block, as arbiters leave a late entrant's missed rounds) or with an
    absence ("0000 - -", "0000 - Z") is that round alone: the player is paired again in the next one, as
    bbpPairings pairs them. Leading blank rounds are a late entry (`joined_round`; a player with
    none yet enters the round to be paired). Gone for good (`dropped_after`) is only a player this app's export
    wrote so: a zero-point bye asked for every round from the round to be paired to the last one planned (XXR
    or 142), two rounds at least. A zero-point bye entered for the last round alone is the bye an arbiter
    enters for a player who asked for it, as for any other round.
    """
    players = []
    for rank in order:
        number, fields, blocks = rows[rank]
        entered = [r for r, (opp, _, result) in enumerate(blocks[:rounds], start=1) if opp or result != " "]
        joined = entered[0] if entered else rounds + 1
        asked = dict(byes[rank])
        absent, r = [], rounds + 1
        while asked.get(r) == ZERO_BYE:
            absent.append(r)
            r += 1
        dropped = None
        if len(absent) > 1 and planned is not None and r > planned:
            dropped = max(entered[-1] if entered else 0, joined - 1)
            for k in absent:
                del asked[k]
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
                requested_byes=tuple(sorted(asked.items())),
                accelerations=tuple(accelerations.get(rank, ())),
            )
        )
    return tuple(players)


def _requested_column(rows: Rows, rounds: int) -> dict[int, str]:
    """The requested byes of the round to be paired, when the file's last round column is that round.

    Arbiters enter the next round's half-point, full-point and zero-point byes (and known absences, "-")
    before pairing it: a last column where nobody has an opponent, nor a pairing-allocated bye (U) or a win
    without a game (+), and some player has no entry, is such a column, whether the points column counts its
    byes (as bbpPairings' checker wants them) or not; bbpPairings' pairing mode reads it so. A column of byes
    every player has an entry in is a round played (everyone absent or on a bye).
    """
    if not rounds:
        return {}
    column = {rank: blocks[rounds - 1] for rank, (_, _, blocks) in rows.items() if len(blocks) == rounds}
    if any(opp is not None or result not in _ASKED for opp, _, result in column.values()):
        return {}
    if len(column) == len(rows):
        return {}
    return {rank: _ASKED[result] for rank, (_, _, result) in column.items()}


# What the column of the round to be paired may hold: a requested bye, or an absence (a blank result is one).
_ASKED = {**REQUESTED_CODES, " ": ZERO_BYE}


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


def _check_points(event: Event, rows: Rows, points: Points, next_byes: dict[int, str]) -> None:
    """The file's own points must be what its results give (a wrong line, not a silent difference): with or
    without the bye asked for in the round to be paired (`next_byes`, by start rank), and with or without
    that round's acceleration, as bbpPairings accepts them."""
    if not event.rounds:
        return
    table = points(event)
    n = len(event.rounds) + 1
    for p in event.players:
        number, fields, _ = rows[int(p.id)]
        given, computed = fields["points"], table[p.id]
        if given is None or given == computed:
            continue
        bye = bye_points(event.settings.scoring, next_byes.get(int(p.id)))
        acceleration = p.accelerations[n - 1] if len(p.accelerations) >= n else Fraction(0)
        if given in (computed + bye, computed + acceleration, computed + bye + acceleration):
            continue
        raise TRFError(
            number,
            Message(
                "trf_points_disagree",
                "columns 81-84 say {given} points but the results give {computed}",
                given=format_points(given),
                computed=format_points(computed),
            ),
        )


def bye_points(scoring: Scoring, kind: str | None) -> Fraction:
    """What a requested bye scores: a half-point bye a draw, a full-point bye a win, a zero-point bye a loss."""
    points: dict[str | None, Fraction] = {HALF_BYE: scoring.draw, FULL_BYE: scoring.win, ZERO_BYE: scoring.loss}
    return points.get(kind, Fraction(0))


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
    chess programs read a pairing only with its result.

    While a round is still to be paired (the planned rounds are not all played), its column says who is not
    to be paired in it, as arbiters prepare a file for a pairing program: the byes asked for (H, F, Z), and a
    zero-point bye (Z, an absence) for a withdrawn player and for one who enters later; the points column
    counts those byes, as bbpPairings' checker wants. Later rounds' byes, and the absences of withdrawn and
    later entrants up to the last planned round, are 240 lines.
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
    # The round to be paired: who is not to be paired in it is its column, later rounds are 240 lines.
    later: dict[tuple[int, str], list[int]] = defaultdict(list)
    extra: dict[str, Fraction] = {}
    # A round is still to be paired unless the planned ones are all played (a checker would count its column).
    open_round = s.planned_rounds is None or total < s.planned_rounds
    for p in players:
        for r, kind in _not_paired(p, total, s.planned_rounds):
            if r == total + 1 and open_round:
                blocks[p.id][r] = f"0000 - {UNPAIRED_CODES[kind]}"
                extra[p.id] = bye_points(s.scoring, kind)
            else:
                later[(r, UNPAIRED_CODES[kind])].append(start[p.id])
    width = max((max(b, default=0) for b in blocks.values()), default=0)

    lines = header_lines(event, players, start, later)
    for p in players:
        pts = points.get(p.id) if points else None
        if pts is not None:
            pts += extra.get(p.id, 0)
            if len(format_points(pts)) > 4:  # columns 81-84 hold "11.5" at most (bbpPairings writes no more)
                raise TRFExportError(
                    "trf_points_too_high",
                    "a TRF file's points column holds at most 99.9 points ({name} has {points})",
                    name=p.name,
                    points=format_points(pts),
                )
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


def _not_paired(p: Player, total: int, planned: int | None) -> list[tuple[int, str]]:
    """The rounds after the `total` played in which the player is not to be paired, and the bye each gets: the
    byes asked for; a zero-point bye up to the last planned round once withdrawn, and before entering."""
    out = {r: kind for r, kind in p.requested_byes if r > total}
    if planned is not None and total >= planned:
        return sorted(out.items())  # no round left to pair: only what was asked for (240 lines)
    last = planned if planned is not None else total + 1
    if p.dropped_after is not None and p.dropped_after <= total:
        out.update((r, ZERO_BYE) for r in range(total + 1, last + 1))
    elif p.joined_round > total + 1:
        out.update((r, ZERO_BYE) for r in range(total + 1, min(p.joined_round - 1, last) + 1))
    return sorted(out.items())


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
