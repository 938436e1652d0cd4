"""`swiss generate`: a random tournament paired by the FIDE Dutch system, written as a TRF for a checker (`swiss
check` finds every round as the rules pair it; bbpPairings' `-c` is another): the random tournament generator
arbiters and programmers test with.

Each round, before it is paired, some players ask for a bye (half-, full- or zero-point: TRF H, F, Z) and some
withdraw (absent from every round left: "0000 - -"); then the round is paired by the Dutch system from the rounds
before it, and each game gets a result: a forfeit ("+" against "-"), an unusual result (a double forfeit, "-"
against "-"), or a game whose result is drawn from FIDE's expected score, 1 / (1 + 10^(-D/400)) for a rating
difference D: a draw 35 % of the time between equal ratings, less as the difference grows, each player's
chance of a win set so that the expected score is kept. The tie-break list is written as a TRF-2026 202 record
and the ranks by it in columns 86-89. The same options and seed give the same file, byte for byte.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from pairing.dutch import pair_dutch
from pairing.event import dutch_from_event
from standings import compute
from swiss import trf
from swiss.model import (
    BYE,
    DOUBLE_LOSS,
    FORFEIT,
    FULL_BYE,
    HALF_BYE,
    LOSS,
    ZERO_BYE,
    Event,
    Match,
    Player,
    Round,
    settings_for_preset,
)
from swiss.tiebreakers import TIEBREAKERS, c07_code

DRAW_AT_EQUAL = 0.35  # a draw's chance between equal ratings


@dataclass(frozen=True)
class Options:
    """What `swiss generate` is asked for; each rate is a percentage per player and round (a game's, for
    forfeits and unusual results)."""

    players: int
    rounds: int
    seed: int = 1
    baku: bool = False
    half_byes: float = 0.0
    zero_byes: float = 0.0
    full_byes: float = 0.0
    forfeits: float = 0.0
    unusual: float = 0.0
    absences: float = 0.0
    tiebreaks: tuple[str, ...] = ("BH-C1", "BH", "SB", "DE")
    rating_low: int = 1400
    rating_high: int = 2700


class GenerateError(ValueError):
    """Options a tournament cannot be made from; the message says which."""


def check_options(o: Options) -> None:
    if o.players < 2 or o.players > 9999:
        raise GenerateError("--players must be between 2 and 9999")
    if o.rounds < 1 or o.rounds > min(trf.MATCH_ROUNDS, 2 * o.players):
        raise GenerateError(f"--rounds must be between 1 and {min(trf.MATCH_ROUNDS, 2 * o.players)}")
    for name in ("half_byes", "zero_byes", "full_byes", "forfeits", "unusual", "absences"):
        if not 0 <= getattr(o, name) <= 100:
            raise GenerateError(f"--{name.replace('_', '-')} is a percentage, 0 to 100")
    if not 0 <= o.rating_low <= o.rating_high <= 3500:
        raise GenerateError("--rating-range must be LO-HI with 0 <= LO <= HI <= 3500")
    unknown = [code for code in o.tiebreaks if code not in TIEBREAKERS]
    if unknown:
        raise GenerateError(f"--tiebreaks: unknown code {', '.join(unknown)} (docs/tiebreakers.md lists them)")


def generate(o: Options) -> str:
    """The tournament as a TRF. Raises GenerateError for bad options, PairingError if a round cannot be paired."""
    check_options(o)
    rng = random.Random(o.seed)
    ratings = sorted((rng.randint(o.rating_low, o.rating_high) for _ in range(o.players)), reverse=True)
    players = tuple(
        Player(id=str(k), name=f"Player{k:04d}, Generated", rating=rating or None, number=k)
        for k, rating in enumerate(ratings, start=1)
    )
    settings = settings_for_preset(
        "chess",
        name=f"Generated tournament, seed {o.seed}",
        pairing="dutch",
        planned_rounds=o.rounds,
        initial_colour=rng.choice(("white", "black")),
        acceleration="baku" if o.baku else "none",
        tiebreakers=o.tiebreaks,
    )
    event = Event(settings=settings, players=players)
    rating = {p.id: p.rating or 0 for p in players}
    gone: set[str] = set()
    for number in range(1, o.rounds + 1):
        unpaired: list[Match] = []
        for p in players:
            if p.id in gone:
                unpaired.append(Match(p.id, result=LOSS))
                continue
            x = 100 * rng.random()
            if x < o.absences and number > 1:
                gone.add(p.id)
                unpaired.append(Match(p.id, result=LOSS))
                continue
            x -= o.absences
            for kind, rate in ((HALF_BYE, o.half_byes), (FULL_BYE, o.full_byes), (ZERO_BYE, o.zero_byes)):
                if 0 <= x < rate:
                    unpaired.append(Match(p.id, result=kind))
                    break
                x -= rate
        before = replace(event, rounds=(*event.rounds, Round(number, tuple(unpaired))))
        result = pair_dutch(dutch_from_event(before, number))
        matches = list(unpaired)
        for pair in result.pairs:
            matches.append(_game(rng, o, pair.a, pair.b, rating))
        matches.extend(Match(pid, result=BYE) for pid in result.byes)
        event = replace(event, rounds=(*event.rounds, Round(number, tuple(matches), state="complete")))
    rows = compute(event).rows
    text = trf.dumps(
        event,
        ranks={row.player_id: k for k, row in enumerate(rows, start=1)},
        points={row.player_id: row.points for row in rows},
    )
    lines = text.splitlines()
    if not any(line.startswith("202 ") for line in lines):
        # A list the export writes no 202 for (a code outside C.07): written here, in C.07's spelling (BH/C1),
        # the only one FIDE's tie-break server reads. One 202 record: a second would override the first.
        at = next(k for k, line in enumerate(lines) if line.startswith("001"))
        lines.insert(at, f"202 {','.join(c07_code(code) for code in o.tiebreaks)}")
    return "\n".join(lines) + "\n"


def _game(rng: random.Random, o: Options, white: str, black: str, rating: dict[str, int]) -> Match:
    """White against Black: a forfeit, a double forfeit, or a game drawn from the expected score."""
    x = 100 * rng.random()
    if x < o.forfeits:
        winner, loser = (white, black) if rng.random() < 0.5 else (black, white)
        return Match(winner, loser, result=FORFEIT, white=white)
    if x - o.forfeits < o.unusual:
        return Match(white, black, result=DOUBLE_LOSS, white=white)
    expected = 1 / (1 + 10 ** ((rating[black] - rating[white]) / 400))
    draw = DRAW_AT_EQUAL * 2 * min(expected, 1 - expected)
    y = rng.random()
    games = (1, 0, 0) if y < expected - draw / 2 else (0, 0, 1) if y < expected + draw / 2 else (0, 1, 0)
    return Match(white, black, games)


def parse_range(text: str) -> tuple[int, int]:
    low, sep, high = text.partition("-")
    if not sep or not low.strip().isdigit() or not high.strip().isdigit():
        raise GenerateError("--rating-range must be LO-HI, as 1400-2700")
    return int(low), int(high)
