"""The round an outlook looks at: the last Swiss round, paired and not finished. Its open tables, the results
each of them can still get, every player's points before them, and who competes for a line.

"Every result" of an open table is every result a played match can be given at the desk: each game score
the match format allows (no drawn game where the game has no draws), grouped by how the match ends for
player a (win, draw, loss). Forfeits and double losses are not counted (docs/explanations.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from standings.tally import tally
from swiss.messages import Message
from swiss.model import PLAYED, SWISS, Event, Match, games_problem
from swiss.presets import PRESETS

# How a match ends for one of its players, as the outlook names it.
WIN, DRAW, LOSS = "win", "draw", "loss"
OUTCOMES = (WIN, DRAW, LOSS)
_BY_OUTCOME = {2: WIN, 1: DRAW, 0: LOSS}
_OTHER_SIDE = {WIN: LOSS, DRAW: DRAW, LOSS: WIN}
# The tie-breakers that read game scores: a player's own games, and the opponents' games.
GAME_OWN = frozenset({"gw"})
GAME_OPPONENTS = frozenset({"ogw"})


class OutlookRefused(ValueError):
    """The event has no round to look ahead from (none paired, or the last one finished)."""


@dataclass(frozen=True)
class Table:
    """An open table: its number (or its place in the round, from 1, when it has none), its players, and the
    game scores it can still get by how the match ends for player a."""

    number: int
    a: str
    b: str
    scores: dict[str, tuple[tuple[int, int, int], ...]]

    def outcomes(self) -> tuple[str, ...]:
        return tuple(o for o in OUTCOMES if self.scores[o])

    def side_of(self, player_id: str, outcome_for_a: str) -> str:
        return outcome_for_a if player_id == self.a else _OTHER_SIDE[outcome_for_a]

    def for_a(self, player_id: str, outcome: str) -> str:
        """How the match ends for player a when it ends with `outcome` for `player_id`."""
        return outcome if player_id == self.a else _OTHER_SIDE[outcome]


@dataclass(frozen=True)
class RoundState:
    event: Event
    number: int
    tables: tuple[Table, ...]
    # The round's matches with a result (byes included), kept as they are.
    settled: tuple[Match, ...]
    # Points before the open tables' results, in units of 1/unit, by player id.
    base: dict[str, int]
    unit: int
    value: dict[str, int]  # win/draw/loss -> points in units
    draws: bool
    # The outcome already entered this round for players whose match has its result.
    decided: dict[str, str]
    # Players who compete for a line: not dropped by the end of the round; by id, their division.
    division: dict[str, str]

    def table_of(self) -> dict[str, Table]:
        return {pid: t for t in self.tables for pid in (t.a, t.b)}

    def with_games(self, games: dict[int, tuple[int, int, int]]) -> Event:
        """The event with every open table given the game score `games` names for it (by table number)."""
        open_matches = tuple(Match(t.a, t.b, games[t.number], table=t.number) for t in self.tables)
        rounds = tuple(
            replace(r, matches=self.settled + open_matches) if r.kind == SWISS and r.number == self.number else r
            for r in self.event.rounds
        )
        return replace(self.event, rounds=rounds)


def game_scores(best_of: int, draws: bool) -> dict[str, tuple[tuple[int, int, int], ...]]:
    """Every game score a best-of-`best_of` match can end with at the desk, by how it ends for player a."""
    out: dict[str, list[tuple[int, int, int]]] = {WIN: [], DRAW: [], LOSS: []}
    for a in range(best_of + 1):
        for b in range(best_of + 1):
            for d in range(best_of + 1):
                g = (a, b, d)
                if games_problem(g, best_of) is not None:
                    continue
                if not draws and (a == b or d):
                    continue
                out[WIN if a > b else LOSS if b > a else DRAW].append(g)
    return {k: tuple(v) for k, v in out.items()}


def round_state(event: Event) -> RoundState:
    """The last Swiss round's state, or OutlookRefused when no round is paired or the last one is finished."""
    swiss = event.swiss_rounds()
    if not swiss or any(r.kind != SWISS for r in event.rounds):
        if swiss:
            raise OutlookRefused(Message("outlook_swiss_over", "the Swiss rounds are over: the top cut has started"))
        raise OutlookRefused(Message("outlook_not_paired", "no round is paired yet: there is nothing to look ahead to"))
    current = max(swiss, key=lambda r: r.number)
    if not current.matches:
        raise OutlookRefused(
            Message("outlook_round_not_paired", "round {round} is not paired yet", round=current.number)
        )
    s = event.settings
    preset = PRESETS.get(s.preset)
    draws = preset.draws if preset else True
    scores = game_scores(s.best_of, draws)
    tables, settled = [], []
    for k, m in enumerate(current.matches, start=1):
        if m.result == PLAYED and m.games is None and m.b is not None:
            tables.append(Table(m.table if m.table is not None else k, m.a, m.b, scores))
        else:
            settled.append(m)
    if not tables:
        raise OutlookRefused(
            Message(
                "outlook_round_finished",
                "round {round} is finished: every result is in, so the standings say it all",
                round=current.number,
            )
        )
    before = replace(
        event, rounds=tuple(replace(r, matches=tuple(settled)) if r is current else r for r in event.rounds)
    )
    counts = tally(before, current.number)
    decided: dict[str, str] = {}
    for m in settled:
        oa, ob = m.outcome()
        if oa is not None:
            decided[m.a] = _BY_OUTCOME[oa]
        if m.b is not None and ob is not None:
            decided[m.b] = _BY_OUTCOME[ob]
    division = {p.id: p.division for p in event.players if p.dropped_after is None or p.dropped_after > current.number}
    return RoundState(
        event=event,
        number=current.number,
        tables=tuple(tables),
        settled=tuple(settled),
        base={p.id: counts.points[i] for i, p in enumerate(event.players)},
        unit=counts.unit,
        value={WIN: counts.win, DRAW: counts.draw, LOSS: counts.loss},
        draws=draws,
        decided=decided,
        division=division,
    )


def points_text(points: int, unit: int) -> str:
    """Points in units of 1/unit as people write them: 9, 4.5, 1/3."""
    f = Fraction(points, unit)
    if f.denominator == 1:
        return str(f.numerator)
    if (f * 2).denominator == 1 or (f * 4).denominator == 1:
        return str(float(f))
    return str(f)
