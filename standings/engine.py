"""Standings: match points, then the event's tie-breakers in order, with exact rational arithmetic.

`tally` adds up each player's results, `figures` makes each tie-breaker one exact figure for every player
(FIDE C.07's in `fide`), and `tied` gives the ones that depend on who else is still tied; this module ranks
by them. The tie-breakers themselves are listed in `swiss/tiebreakers.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import cast

from standings import tied
from standings.figures import Figures, Value
from standings.tally import tally
from swiss.messages import Message
from swiss.model import SWISS, Event
from swiss.names import sort_form
from swiss.tiebreakers import AMONG_TIED, LOWER_FIRST


class StandingsError(ValueError):
    """The event contradicts itself (a match names a player who is not registered)."""


@dataclass(frozen=True)
class Row:
    """One player's line. Players equal on every figure share a rank (1, 2, 2, 4) and are listed by name, then id.

    `wins` counts byes (the record W-L-D); unpaired and double losses are losses. `tiebreakers` maps each of
    the event's codes, in order, to an exact Fraction, or a tuple of them for buchholz_cuts/buchholz_variant.
    `dropped`: the player dropped in or before the round the standings are after.
    """

    rank: int
    player_id: str
    name: str
    points: Fraction
    wins: int
    losses: int
    draws: int
    rounds_played: int
    tiebreakers: dict[str, Value]
    dropped: bool = False


@dataclass(frozen=True)
class Standings:
    """The ranked rows after Swiss round `after_round` (0: before any result), with the tie-breakers used."""

    after_round: int
    tiebreakers: tuple[str, ...]
    rows: tuple[Row, ...]

    def by_player(self) -> dict[str, Row]:
        return {r.player_id: r for r in self.rows}


def last_round_with_result(event: Event) -> int:
    """The number of the last Swiss round with any result entered, 0 when there is none."""
    return max(
        (r.number for r in event.rounds if r.kind == SWISS and any(m.has_result for m in r.matches)),
        default=0,
    )


def compute(event: Event, after_round: int | None = None) -> Standings:
    """The standings of `event` after Swiss round `after_round` (default: the last round with a result)."""
    if after_round is None:
        after_round = last_round_with_result(event)
    known = {p.id for p in event.players}
    for r in event.rounds:
        for m in r.matches:
            for pid in (m.a, m.b):
                if pid is not None and pid not in known:
                    raise StandingsError(
                        Message(
                            "unregistered_player",
                            "round {round}: player {player} is not registered in the event",
                            round=r.number,
                            player=repr(pid),
                        )
                    )
    return _rank(event, after_round)


def points_by_player(event: Event) -> dict[str, Fraction]:
    """Every player's points after the event's last Swiss round, by id: the standings without tie-breakers
    (quick; what the TRF reader checks a file's points column against)."""
    bare = replace(event, settings=replace(event.settings, tiebreakers=()))
    last = max((r.number for r in event.rounds if r.kind == SWISS), default=0)
    return {row.player_id: row.points for row in compute(bare, after_round=last).rows}


def _rank(event: Event, after_round: int) -> Standings:
    """Groups of players equal so far, split by match points, then by each tie-breaker in order."""
    players = event.players
    codes = event.settings.tiebreakers
    counts = tally(event, after_round)
    figures = Figures(counts)
    order = sorted(
        range(len(players)),
        key=lambda i: (sort_form(players[i].name, players[i].family_name, players[i].given_name), players[i].id),
    )
    groups = [order] if order else []
    group_dep: dict[str, dict[int, int | Fraction]] = {c: {} for c in codes if c in AMONG_TIED}

    # Consecutive player-only criteria are applied in one sort; group-dependent ones one at a time.
    runs: list[list[str]] = [["points"]]
    for c in codes:
        if c in AMONG_TIED or runs[-1][0] in AMONG_TIED:
            runs.append([c])
        else:
            runs[-1].append(c)

    for run in runs:
        if run[0] in AMONG_TIED:
            code = run[0]
            values = group_dep[code]
            key_lists = None
        else:
            key_lists = [_ranking_keys(figures.get(c).keys, c) for c in run]
        new_groups = []
        for g in groups:
            if key_lists is None:
                vals = tied.values(code, counts, g)
                values.update(vals)
                if len(g) == 1:
                    new_groups.append(g)
                    continue
                keyf = vals.__getitem__
            elif len(g) == 1:
                new_groups.append(g)
                continue
            elif len(key_lists) == 1:
                keyf = key_lists[0].__getitem__
            else:
                keyf = _tuple_key(key_lists)
            g = sorted(g, key=keyf, reverse=True)
            start = 0
            prev = keyf(g[0])
            for k in range(1, len(g)):
                cur = keyf(g[k])
                if cur != prev:
                    new_groups.append(g[start:k])
                    start, prev = k, cur
            new_groups.append(g[start:])
        groups = new_groups

    if event.settings.rating_breaks_ties:
        # Players C.07's tie-breaks leave equal are ranked by rating, highest first (as Vega does);
        # an unrated player counts as rated 0, and equal ratings still share a rank.
        groups = [part for g in groups for part in _split_by_rating(g, players)]

    unit = counts.unit
    figs = {c: figures.get(c) for c in codes if c not in AMONG_TIED}
    points = figures.get("points")
    dropped_limit = after_round
    rows = []
    rank = 1
    for g in groups:
        for i in g:
            p = players[i]
            tbs: dict[str, Value] = {}
            for c in codes:
                if c in group_dep:
                    tbs[c] = Fraction(group_dep[c][i], unit)
                else:
                    tbs[c] = figs[c].value(i)
            rows.append(
                Row(
                    rank=rank,
                    player_id=p.id,
                    name=p.name,
                    points=cast(Fraction, points.value(i)),  # a scalar figure
                    wins=counts.wins[i],
                    losses=counts.losses[i],
                    draws=counts.draws[i],
                    rounds_played=counts.played[i],
                    tiebreakers=tbs,
                    dropped=p.dropped_after is not None and p.dropped_after <= dropped_limit,
                )
            )
        rank += len(g)
    return Standings(after_round=after_round, tiebreakers=tuple(codes), rows=tuple(rows))


def _split_by_rating(group: list[int], players) -> list[list[int]]:
    if len(group) == 1:
        return [group]
    parts: dict[int, list[int]] = {}
    for i in group:
        parts.setdefault(players[i].rating or 0, []).append(i)
    return [parts[r] for r in sorted(parts, reverse=True)]


def _ranking_keys(keys: list, code: str) -> list:
    """The keys `code` ranks by, the higher first: a tie-breaker whose lower value ranks higher (TPN) negated."""
    return [-k for k in keys] if code in LOWER_FIRST else keys


def _tuple_key(key_lists: list[list]):
    def key(i: int) -> tuple:
        return tuple(k[i] for k in key_lists)

    return key
