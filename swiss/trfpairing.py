"""What a TRF says to the pairing beyond the results (`swiss.trfheader` reads and writes the rest of the
header): the players' manual accelerations (TRF-2026 250 records, JaVaFo's XXA lines) and the players who must
not meet (TRF-2026 260 records, JaVaFo's XXP lines), read by start rank and written by the start ranks of the
export."""

from __future__ import annotations

import re
from fractions import Fraction

from swiss.chessfacts import MAX_ACCELERATION, MAX_ROUND_VALUES
from swiss.messages import Message
from swiss.model import SMALL_MAX, Event, Player
from swiss.trflines import ASCII_NUMBER, Rows, TRFError, format_points

# Ranks -> the virtual points each round adds (XXA, 250): one value a round from round 1.
Accelerations = dict[int, list[Fraction]]


# ---------------------------------------------------------------- manual accelerations


def _xxa_problem(number: int) -> TRFError:
    return TRFError(
        number,
        Message(
            "trf_xxa",
            "XXA needs a start rank in columns 5-8, then a round's points in each 5 columns (1.0, 0.5), "
            "at most {limit} each",
            limit="99.9",
        ),
    )


def _acceleration(number: int, text: str) -> Fraction:
    text = text.strip()
    if not text:
        return Fraction(0)
    if not re.fullmatch(r"[0-9]{1,3}(\.[0-9])?", text) or Fraction(text) > MAX_ACCELERATION:
        raise _xxa_problem(number)
    return Fraction(text)


def _rank_of(number: int, text: str, rows: Rows, problem) -> int:
    text = text.strip()
    if not ASCII_NUMBER.fullmatch(text):
        raise problem(number)
    if int(text) not in rows:
        raise TRFError(number, Message("trf_240_rank", "no player has start rank {rank}", rank=int(text)))
    return int(text)


def read_xxa(number: int, line: str, rows: Rows, accelerations: Accelerations) -> None:
    """JaVaFo's XXA: "XXA NNNN pp.p pp.p …", a player's start rank, then the points added in round 1, 2, …
    (a blank field is 0), each in five columns from column 10 (bbpPairings reads it so)."""
    if len(line) < 8 or line[8:9].strip():
        raise _xxa_problem(number)
    rank = _rank_of(number, line[4:8], rows, _xxa_problem)
    values = []
    start = 9
    while start < len(line.rstrip()):
        if start + 4 < len(line) and line[start + 4] != " ":
            raise _xxa_problem(number)
        values.append(_acceleration(number, line[start : start + 4]))
        start += 5
    if len(values) > MAX_ROUND_VALUES:
        raise _xxa_problem(number)
    accelerations[rank] = values


def _250_problem(number: int) -> TRFError:
    return TRFError(
        number,
        Message(
            "trf_250",
            "250 needs the points (columns 10-13), the first and last round (15-17, 19-21) and the first and "
            "last start rank (23-26, 28-31)",
        ),
    )


def read_250(number: int, line: str, rows: Rows, accelerations: Accelerations) -> None:
    """TRF-2026 250: "250      1.0 001 003 0001 0090", points added to the players of a range of start ranks in
    a range of rounds."""
    fields = (line[9:13], line[14:17], line[18:21], line[22:26], line[27:31])
    if len(line.rstrip()) < 31 or line[4:8].strip() not in ("", "0", "00.0", "0.0") or line[31:].strip():
        raise _250_problem(number)
    if not all(ASCII_NUMBER.fullmatch(f.strip()) for f in fields[1:]):
        raise _250_problem(number)
    amount = _acceleration(number, fields[0])
    first, last, low, high = (int(f) for f in fields[1:])
    if not 1 <= first <= last <= min(MAX_ROUND_VALUES, SMALL_MAX) or not 1 <= low <= high:
        raise _250_problem(number)
    for rank in range(low, high + 1):
        if rank not in rows:
            continue
        values = accelerations.setdefault(rank, [])
        values.extend([Fraction(0)] * (last - len(values)))
        values[first - 1 : last] = [amount] * (last - first + 1)


def acceleration_lines(players: list[Player], start: dict[str, int], xxa: bool) -> list[str]:
    """The players' accelerations as TRF-2026 250 records (a range of start ranks given the same points over a
    range of rounds), or as JaVaFo's XXA lines (one a player, a round's points in each five columns) when `xxa`
    or when 250 cannot say them: its points may not be 0.0, so a player whose accelerations are all 0 (which
    still turn the Baku method off, here and in bbpPairings) needs XXA. Never both: bbpPairings adds an XXA
    line's rounds after those a 250 line gave the player."""
    accelerated = [p for p in players if p.accelerations]
    if xxa or any(not any(p.accelerations) for p in accelerated):
        return [
            f"XXA {start[p.id]:>4}" + "".join(f" {format_points(a):>4}" for a in p.accelerations) for p in accelerated
        ]
    # (points, first round, last round) runs by player, then players with the same runs and consecutive ranks
    # in one line.
    runs: dict[int, tuple[tuple[Fraction, int, int], ...]] = {}
    for p in accelerated:
        found: list[tuple[Fraction, int, int]] = []
        for r, value in enumerate(p.accelerations, start=1):
            if value and found and found[-1][0] == value and found[-1][2] == r - 1:
                found[-1] = (value, found[-1][1], r)
            elif value:
                found.append((value, r, r))
        runs[start[p.id]] = tuple(found)
    ranges: list[tuple[int, int]] = []
    for rank in sorted(runs):
        if ranges and ranges[-1][1] == rank - 1 and runs[ranges[-1][0]] == runs[rank]:
            ranges[-1] = (ranges[-1][0], rank)
        else:
            ranges.append((rank, rank))
    lines = [
        (low, first, f"250 {'':4} {format_points(value):>4} {first:03d} {last:03d} {low:04d} {high:04d}")
        for low, high in ranges
        for value, first, last in runs[low]
    ]
    return [line for _, _, line in sorted(lines)]


def _trimmed(values) -> tuple[Fraction, ...]:
    """Accelerations without the rounds of none at the end (a 250 record names only the rounds it adds to)."""
    out = list(values)
    while out and not out[-1]:
        out.pop()
    return tuple(out)


def accelerations_hold(stored: list[str], players: list[Player], start: dict[str, int]) -> bool:
    """The file's XXA and 250 lines still say every player's accelerations (by the start ranks written now)."""
    rows: Rows = {start[p.id]: (0, {}, []) for p in players}
    read: Accelerations = {}
    try:
        for line in stored:
            if line[:3] == "XXA":
                read_xxa(0, line, rows, read)
            elif line[:3] == "250":
                read_250(0, line, rows, read)
    except TRFError:
        return False
    if any(line[:3] == "250" for line in stored):
        return all(_trimmed(read.get(start[p.id], ())) == _trimmed(p.accelerations) for p in players)
    return all(tuple(read.get(start[p.id], ())) == p.accelerations for p in players)


# ---------------------------------------------------------------- forbidden pairs (TRF-2026 260)


def _260_problem(number: int) -> TRFError:
    return TRFError(
        number,
        Message(
            "trf_260",
            "260 needs the first and last round (columns 5-7, 9-11), then the start ranks of two or more players "
            "who must not meet",
        ),
    )


def read_260(number: int, line: str, rows: Rows) -> tuple[int, int, list[tuple[str, str]]]:
    """TRF-2026 260: "260 002 003    3    7   12", players who must not meet each other (team-mates, family)
    in rounds 2 to 3 (columns 5-7 and 9-11, the first and last round, which may coincide): every two of them a
    forbidden pair (by start rank, which a TRF's player id is)."""
    words = line[4:].split()
    if len(words) < 4 or not all(ASCII_NUMBER.fullmatch(w) for w in words):
        raise _260_problem(number)
    first, last = int(words[0]), int(words[1])
    if not 1 <= first <= last:
        raise _260_problem(number)
    return first, last, _every_two(number, words[2:], rows, _260_problem)


def _every_two(number: int, words: list[str], rows: Rows, problem) -> list[tuple[str, str]]:
    ranks = [_rank_of(number, w, rows, problem) for w in words]
    if len(set(ranks)) != len(ranks):
        raise problem(number)
    return [(str(a), str(b)) for k, a in enumerate(ranks) for b in ranks[k + 1 :]]


def _xxp_problem(number: int) -> TRFError:
    return TRFError(number, Message("trf_xxp", "XXP needs the start ranks of two or more players who must not meet"))


def read_xxp(number: int, line: str, rows: Rows) -> list[tuple[str, str]]:
    """JaVaFo's XXP: "XXP 3 7 12", players who must never meet each other (every two of them, every round)."""
    words = line[4:].split()
    if len(words) < 2 or not all(ASCII_NUMBER.fullmatch(w) for w in words):
        raise _xxp_problem(number)
    return _every_two(number, words, rows, _xxp_problem)


EVERY_ROUND = 999  # the last round of a 260 line written for a pair kept apart in every round


def forbidden_settings(read: list[tuple[frozenset[str], int, int]], planned: int | None) -> dict:
    """The forbidden pairs the lines name: a range from round 1 to the last planned round (or 999) is every
    round; any other range is kept with the pair (`forbidden_rounds`) and applied as written."""
    pairs: list[tuple[str, str]] = []
    ranged: list[tuple[str, str, int, int]] = []
    for pair, first, last in read:
        a, b = sorted(pair, key=int)
        if first == 1 and (last >= EVERY_ROUND or (planned is not None and last >= planned)):
            if (a, b) not in pairs:
                pairs.append((a, b))
        elif (a, b, first, last) not in ranged:
            ranged.append((a, b, first, last))
    return {"forbidden_pairs": tuple(pairs), "forbidden_rounds": tuple(ranged)}


def forbidden_lines(event: Event, start: dict[str, int]) -> list[str]:
    last = min(event.settings.planned_rounds or EVERY_ROUND, EVERY_ROUND)
    ranges = [(a, b, 1, last) for a, b in event.settings.forbidden_pairs] + list(event.settings.forbidden_rounds)
    return [
        f"260 {first:03d} {end:03d} " + " ".join(f"{r:>4}" for r in sorted((start[a], start[b])))
        for a, b, first, end in ranges
        if a in start and b in start
    ]


def forbidden_hold(stored: list[str], event: Event, start: dict[str, int]) -> bool:
    """The file's 260 and XXP lines still name the event's forbidden pairs and their rounds (by the start ranks
    written now)."""
    rows: Rows = {r: (0, {}, []) for r in start.values()}
    read: list[tuple[frozenset[str], int, int]] = []
    try:
        for line in stored:
            if line[:3] == "260":
                first, last, pairs = read_260(0, line, rows)
                read += [(frozenset(pair), first, last) for pair in pairs]
            elif line[:3] == "XXP":
                read += [(frozenset(pair), 1, EVERY_ROUND) for pair in read_xxp(0, line, rows)]
    except TRFError:
        return False
    found = forbidden_settings(read, event.settings.planned_rounds)
    s = event.settings
    rank = {pid: str(r) for pid, r in start.items()}
    want_pairs = {frozenset((rank[a], rank[b])) for a, b in s.forbidden_pairs if a in rank and b in rank}
    want_ranged = {
        (frozenset((rank[a], rank[b])), first, last)
        for a, b, first, last in s.forbidden_rounds
        if a in rank and b in rank
    }
    return {frozenset(p) for p in found["forbidden_pairs"]} == want_pairs and {
        (frozenset((a, b)), first, last) for a, b, first, last in found["forbidden_rounds"]
    } == want_ranged
