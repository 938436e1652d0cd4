"""The single-elimination top cut: seeding, later rounds, final placings."""

from __future__ import annotations

from collections.abc import Sequence

from pairing.types import Pair, PairingError
from swiss.messages import Message


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order: 1 and 2 can meet only in the final (1-8, 4-5, 2-7, 3-6 for 8)."""
    if size < 2 or size & (size - 1):
        raise PairingError(Message("top_cut_size", "a top cut has 2, 4, 8, 16… players, not {size}", size=size))
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def bracket(seeds: Sequence) -> list[tuple]:
    """First-round pairs of the bracket, each (higher seed, lower seed), from seeds in standings order."""
    order = bracket_order(len(seeds))
    return [(seeds[order[k] - 1], seeds[order[k + 1] - 1]) for k in range(0, len(order), 2)]


def top_cut_pairings(seeds: Sequence[str], size: int) -> tuple[Pair, ...]:
    """The first elimination round for the top `size` of the Swiss standings (seeds best first)."""
    if len(seeds) < size:
        raise PairingError(
            Message(
                "top_cut_too_few",
                "only {count} players are left: too few for a top {size}",
                count=len(seeds),
                size=size,
            )
        )
    return tuple(Pair(t, a, b) for t, (a, b) in enumerate(bracket(list(seeds[:size])), 1))


def next_bracket_round(previous: Sequence[tuple[str, str]], winners: Sequence[str] | set[str]) -> tuple[Pair, ...]:
    """The next elimination round: winners of matches 1 and 2 meet, then of 3 and 4, and so on.

    `previous` is the last round's (a, b) in bracket (table) order, higher seed first.
    """
    if len(previous) < 2:
        raise PairingError(Message("top_cut_over", "the final has been played: the top cut is over"))
    won = []
    for a, b in previous:
        if (a in winners) == (b in winners):
            raise PairingError(
                Message(
                    "top_cut_needs_winner",
                    "the match {a} v {b} needs exactly one winner before the next round",
                    a=a,
                    b=b,
                )
            )
        won.append(a if a in winners else b)
    return tuple(Pair(t, won[k], won[k + 1]) for t, k in enumerate(range(0, len(won), 2), 1))


def final_placings(seeds: Sequence[str], rounds: Sequence[Sequence[tuple[str, str, str]]]) -> tuple[str, ...]:
    """Winner, finalist, then the losers of each earlier stage ordered by their Swiss rank.

    `seeds` is the Swiss order; each round lists its matches as (a, b, winner).
    """
    if not rounds or len(rounds[-1]) != 1:
        raise PairingError(Message("top_cut_no_final", "the top cut has no final yet"))
    swiss = {pid: k for k, pid in enumerate(seeds)}
    a, b, winner = rounds[-1][0]
    placings = [winner, b if winner == a else a]
    for rnd in reversed(rounds[:-1]):
        losers = [y if w == x else x for x, y, w in rnd]
        placings.extend(sorted(losers, key=swiss.__getitem__))
    return tuple(placings)


def division_pairings(divisions: Sequence[Sequence[str]], sizes: int | Sequence[int]) -> tuple[Pair, ...]:
    """The first elimination round of one bracket per division (each division's seeds best first), of that
    division's size (`sizes`, one per division, or one size for all; 0 leaves a division without a bracket): the
    brackets side by side, division after division, tables numbered on from one to the next."""
    if isinstance(sizes, int):
        sizes = [sizes] * len(divisions)
    pairs: list[Pair] = []
    for seeds, size in zip(divisions, sizes, strict=True):
        if size:
            offset = len(pairs)
            pairs.extend(Pair(offset + p.table, p.a, p.b) for p in top_cut_pairings(seeds, size))
    return tuple(pairs)


def next_division_round(
    brackets: Sequence[Sequence[tuple[str, str]]], winners: Sequence[str] | set[str]
) -> tuple[Pair, ...]:
    """The next elimination round of brackets played side by side, each to its own final: `brackets` holds
    each bracket's matches of the last round in table order; a bracket whose final was played goes no further."""
    pairs: list[Pair] = []
    for matches in brackets:
        if len(matches) >= 2:
            offset = len(pairs)
            pairs.extend(Pair(offset + p.table, p.a, p.b) for p in next_bracket_round(matches, winners))
    if not pairs:
        raise PairingError(Message("top_cut_over", "the final has been played: the top cut is over"))
    return tuple(pairs)
