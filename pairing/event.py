"""Build the engine's input from a swiss-event (`swiss.model.Event`).

The `pair` command calls this on a file and the web app's adapter on an Event built from the
database, so both pair the same way.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections import defaultdict
from fractions import Fraction

from pairing.dutch import BLACK, WHITE, DutchInput, DutchPlayer, Game
from pairing.topcut import next_bracket_round, top_cut_pairings
from pairing.types import Entrant, Pairing, PairingError, PairingInput
from standings import StandingsError, compute
from swiss.messages import Message, message_of
from swiss.model import BYE, DREW, ELIMINATION, FORFEIT, FULL_BYE, HALF_BYE, LOST, PLAYED, SWISS, WON, ZERO_BYE, Event
from swiss.numbers import pairing_numbers


def next_round_number(event: Event) -> int:
    return max((r.number for r in event.rounds), default=0) + 1


def eligible(event: Event, round_number: int) -> tuple[list[str], list[str]]:
    """(players to pair, players holding a pre-awarded bye) for the round, in registration order.

    Left out, whatever the pairing system: players not yet entered, withdrawn or cut (a Day-2 cut: they are
    not named in `left_out`, which would list the whole field below the line every round), and players who
    asked for a bye in this round (a half-point, full-point or zero-point bye; a zero-point bye is a known absence).
    """
    to_pair: list[str] = []
    awarded: list[str] = []
    for p in event.players:
        if p.joined_round > round_number:
            continue
        if p.dropped_after is not None and p.dropped_after < round_number:
            continue
        if p.cut_after is not None and p.cut_after < round_number:
            continue
        if p.requested_byes and p.requested_bye(round_number) is not None:
            continue
        (awarded if round_number <= p.byes else to_pair).append(p.id)
    return to_pair, awarded


# Why a player is left out of a round's pairing (the reason codes of the "left_out" message).
_ASKED_REASONS = {
    HALF_BYE: ("half_bye", "a half-point bye asked for"),
    FULL_BYE: ("full_bye", "a full-point bye asked for"),
    ZERO_BYE: ("zero_bye", "absent: a zero-point bye"),
}
# At most this many players are named; the message counts the rest.
LEFT_OUT_NAMED = 30


def left_out(event: Event, round_number: int) -> Message | None:
    """Who the pairing of the round leaves out and why, or None: players withdrawn (after which round), not
    yet entered (the round they enter), and those with a bye or absence asked for in the round (`eligible`).
    Every pairing says so first (pairing.pair puts it among the warnings), so that nobody is left out
    silently: a file read one way by an arbiter and another here shows it at once."""
    out: list[list] = []
    for p in event.players:
        if p.joined_round > round_number:
            out.append([p.name, "later", p.joined_round])
        elif p.dropped_after is not None and p.dropped_after < round_number:
            out.append([p.name, "withdrawn", p.dropped_after])
        elif p.cut_after is not None and p.cut_after < round_number:
            continue
        elif p.requested_byes and (asked := p.requested_bye(round_number)) is not None:
            out.append([p.name, _ASKED_REASONS[asked][0], None])
    if not out:
        return None
    shown = out[:LEFT_OUT_NAMED]
    names = ", ".join(f"{name} ({left_out_reason(why, n)})" for name, why, n in shown)
    more = f" and {len(out) - len(shown)} more" if len(out) > len(shown) else ""
    return Message(
        "left_out",
        "Left out of round {round}: {names}{more}.",
        round=round_number,
        count=len(out),
        players=shown,
        names=names,
        more=more,
    )


def left_out_reason(why: str, n: int | None) -> str:
    """Why a player is left out, in English (the web app translates the codes: tournament/text/engine_text)."""
    if why == "withdrawn":
        return f"withdrew after round {n}" if n else "withdrew before round 1"
    if why == "later":
        return f"enters in round {n}"
    return dict(_ASKED_REASONS.values())[why]


def requested_byes(event: Event, round_number: int) -> dict[str, str]:
    """The byes asked for the round, by player id (half_bye, zero_bye, full_bye): the matches the pairing of that
    round adds, without an opponent, for the players `eligible` leaves out for it."""
    out = {}
    for p in event.players:
        kind = p.requested_bye(round_number) if p.requested_byes else None
        if kind is None or p.joined_round > round_number:
            continue
        if p.dropped_after is not None and p.dropped_after < round_number:
            continue
        if p.cut_after is not None and p.cut_after < round_number:
            continue
        out[p.id] = kind
    return out


def from_event(event: Event, round_number: int | None = None, seed: int = 0) -> PairingInput | DutchInput:
    """The input of the engine the event pairs by, for a Swiss round of it (by default the next one): the FIDE
    Dutch system's when the event pairs by it, otherwise the optimal engine's. pairing.pair takes either.

    Rounds numbered round_number or later are ignored, so a round with no results yet can be
    paired again. Refuses while an earlier round still has results outstanding.
    """
    return engine_input(event, entrants_from_event(event, round_number, seed))


def engine_input(event: Event, entrants: PairingInput) -> PairingInput | DutchInput:
    """The input of the engine the event pairs by, for the round of its entrants (entrants_from_event): the
    entrants themselves for the optimal engine, the Dutch system's own input for the Dutch system."""
    if entrants.method == "dutch":
        return dutch_from_event(event, entrants.round, entrants.seed)
    return entrants


def entrants_from_event(event: Event, round_number: int | None = None, seed: int = 0) -> PairingInput:
    """The optimal engine's input for a Swiss round of the event, whatever system the event pairs by: the
    players' points, ranks, byes and opponents, as a pairing is shown beside them. Refuses as from_event does.
    """
    n = next_round_number(event) if round_number is None else round_number
    if n < 1:
        raise PairingError(Message("round_numbers_start_at_1", "round numbers start at 1"))
    earlier = [r for r in event.rounds if r.number < n]
    _refuse_unfinished(event, earlier, n)

    # Points are summed as integers in units of 1/scale, then made exact fractions once per player.
    scoring = event.settings.scoring
    scale = math.lcm(scoring.win.denominator, scoring.draw.denominator, scoring.loss.denominator)
    win, draw, loss = (int(x * scale) for x in (scoring.win, scoring.draw, scoring.loss))
    units: dict[str, int] = defaultdict(int)
    byes: dict[str, int] = defaultdict(int)
    opponents: dict[str, set[str]] = defaultdict(set)
    colours: dict[str, str] = defaultdict(str)
    present: dict[int, set[str]] = defaultdict(set)
    value = {WON: win, DREW: draw, LOST: loss}
    for r in earlier:
        for m in r.matches:
            present[r.number].update(x for x in (m.a, m.b) if x is not None)
            oa, ob = m.outcome()
            if oa is not None:
                units[m.a] += value[oa]
            if m.result in (BYE, FULL_BYE, FORFEIT):
                # A point without playing (a forfeit win too, FIDE C.04.1 rule 4) counts as a bye had.
                byes[m.a] += 1
            if m.b is None:
                continue
            if ob is not None:
                units[m.b] += value[ob]
            if m.result != FORFEIT:
                # Players paired for a game that was not played have not met (FIDE C.04.2 3.5).
                opponents[m.a].add(m.b)
                opponents[m.b].add(m.a)
            if m.result == PLAYED:
                colours[m.a] += "W"
                colours[m.b] += "B"
    for p in event.players:
        # A pre-awarded bye the file does not list as a match is still a bye (a win).
        for k in range(p.joined_round, min(p.byes, n - 1) + 1):
            if p.id not in present[k]:
                units[p.id] += win
                byes[p.id] += 1
    for a, b in event.settings.forbidden_in(n):
        # A pair who must not meet (team-mates, family) is kept apart as a rematch is (FIDE C.04.1), in the
        # rounds its range names.
        opponents[a].add(b)
        opponents[b].add(a)

    exact = {u: Fraction(u, scale) for u in set(units.values()) | {0}}
    points = {p.id: exact[units[p.id]] for p in event.players}
    rank = _ranks(event, n - 1, points)
    to_pair, awarded = eligible(event, n)
    by_id = {p.id: p for p in event.players}

    def entrant(pid: str) -> Entrant:
        p = by_id[pid]
        return Entrant(
            id=pid,
            name=p.name,
            points=points[pid],
            rank=rank[pid],
            byes=byes[pid],
            opponents=frozenset(opponents[pid]),
            colours=colours[pid],
            rating=p.rating,
            fixed_table=p.fixed_table,
        )

    dutch = event.settings.pairing_system == "dutch"  # always in colour
    method = "dutch" if dutch else "rating" if n == 1 and event.settings.round_one == "rating" else "swiss"
    note = left_out(event, n)
    return PairingInput(
        round=n,
        entrants=tuple(entrant(pid) for pid in to_pair),
        awarded_byes=tuple(entrant(pid) for pid in awarded),
        seed=seed,
        colours=True if dutch else event.settings.colours,
        method=method,
        notes=(note,) if note else (),
    )


def _refuse_unfinished(event: Event, earlier: list, n: int) -> None:
    """Round n is not a Swiss round once the top cut has started, nor paired while a round before it (earlier)
    still has results outstanding."""
    if any(r.kind != SWISS for r in earlier):
        raise PairingError(
            Message("top_cut_started", "the top cut has started; round {round} cannot be a Swiss round", round=n)
        )
    for r in earlier:
        missing = [m for m in r.matches if m.b is not None and not m.has_result]
        if missing:
            names = {p.id: p.name for p in event.players}
            # The first five, as [table or None, name, name]; the sentence names them, the code lists them.
            pairs = [[m.table, names[m.a], names[m.b]] for m in missing[:5]]
            tables = ", ".join(f"{f'table {t}: ' if t else ''}{a} v {b}" for t, a, b in pairs)
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise PairingError(
                Message(
                    "results_outstanding",
                    "round {round} still has {count} result{s} outstanding ({tables}{more}); "
                    "enter them before pairing round {next}",
                    round=r.number,
                    count=len(missing),
                    s="s" if len(missing) > 1 else "",
                    tables=tables,
                    more=more,
                    pairs=pairs,
                    next=n,
                )
            )


def _ranks(event: Event, after_round: int, points: dict[str, Fraction]) -> dict[str, int]:
    """Standings rank of every player (equal players share a rank)."""
    if after_round >= 1:
        try:
            table = compute(event, after_round=after_round)
        except StandingsError as e:
            raise PairingError(
                Message("standings_failed", "the standings cannot be computed: {error}", error=message_of(e))
            ) from None
        ranks = {row.player_id: row.rank for row in table.rows}
        if all(p.id in ranks for p in event.players):
            return ranks
    # Before the first round, or a player the standings leave out: by points alone.
    order = sorted(-points[p.id] for p in event.players)
    return {p.id: 1 + bisect_left(order, -points[p.id]) for p in event.players}


def elimination_from_event(event: Event, seed: int = 0) -> Pairing:
    """The next round of a top cut already under way, from the winners of its latest round."""
    last = event.rounds[-1] if event.rounds else None
    if last is None or last.kind != ELIMINATION:
        raise PairingError(
            Message(
                "top_cut_not_started", "the top cut has not started; its first round is seeded from the final standings"
            )
        )
    matches = sorted(last.matches, key=lambda m: (m.table is None, m.table or 0))
    winners = set()
    played: list[tuple[str, str]] = []
    for m in matches:
        if m.b is None or m.games is None:
            raise PairingError(
                Message(
                    "round_needs_winner",
                    "round {round} still needs a winner at table {table}",
                    round=last.number,
                    table=m.table or "?",
                )
            )
        winners.add(m.a if m.games[0] > m.games[1] else m.b)
        played.append((m.a, m.b))
    pairs = next_bracket_round(played, winners)
    return Pairing(round=last.number + 1, seed=seed, pairs=pairs, method=ELIMINATION)


def top_cut_from_event(event: Event, seed: int = 0) -> Pairing:
    """The first round of the top cut: the event's top N by the final Swiss standings, in bracket order."""
    size = event.settings.top_cut
    inp = entrants_from_event(event, seed=seed)  # refuses while Swiss results are outstanding
    cut = {p.id for p in event.players if p.cut_after is not None}
    # Only players who made Day 2 are seeded (a Day-2 cut's players below the line are out of the event).
    rows = [row for row in compute(event).rows if not row.dropped and row.player_id not in cut]
    seeds = [row.player_id for row in rows]
    return Pairing(round=inp.round, seed=seed, pairs=top_cut_pairings(seeds, size), method=ELIMINATION)


def initial_colour(event: Event, seed: int = 0, round_number: int = 1) -> str:
    """White or Black for pairing number 1 in round 1 (C.04.3 E.5 gives it every round to players without
    a preference): the event's own (the settings, a TRF's XXC or 152); otherwise the colour the rounds
    before round_number show round 1 gave; otherwise (round 1 is being paired) by lot from seed."""
    return _initial_colour(event, seed, round_number)[0]


def _initial_colour(event: Event, seed: int, round_number: int) -> tuple[str, bool]:
    """initial_colour(), and whether it was drawn by lot just now."""
    chosen = {"white": WHITE, "black": BLACK}.get(event.settings.initial_colour or "")
    if chosen:
        return chosen, False
    for line in event.settings.trf_header:
        if line[:3] == "XXC":
            words = line[3:].split()
            if "white1" in words:
                return WHITE, False
            if "black1" in words:
                return BLACK, False
    played = _colour_played(event, round_number)
    if played:
        return played, False
    return random.Random(seed).choice((WHITE, BLACK)), True


def _colour_played(event: Event, round_number: int) -> str | None:
    """The initial colour as the games show it, read as bbpPairings reads a TRF without one: in the first
    round any game has colours, the colour of the first player by pairing number who had taken part in a
    pairing by then, inverted when an odd number of such players come before them (they had no colour)."""
    colours: dict[int, dict[str, str]] = defaultdict(dict)
    first_part: dict[str, int] = {}  # the first round a player took part in the pairing
    for r in event.rounds:
        if r.kind != SWISS or r.number >= round_number:
            continue
        for m in r.matches:
            if m.b is None:
                if m.result in (BYE, FORFEIT):  # a pairing-allocated bye, or a win by forfeit (TRF "+")
                    first_part[m.a] = min(first_part.get(m.a, r.number), r.number)
                continue
            for pid in (m.a, m.b):
                first_part[pid] = min(first_part.get(pid, r.number), r.number)
            white = m.a if m.result == PLAYED else m.white
            if white in (m.a, m.b):
                colours[r.number][white] = WHITE
                colours[r.number][m.b if white == m.a else m.a] = BLACK
    if not colours:
        return None
    first = min(colours)
    numbers = pairing_numbers(event)
    before = 0
    for pid in sorted(numbers, key=numbers.__getitem__):
        if first_part.get(pid, first + 1) > first:
            continue
        colour = colours[first].get(pid)
        if colour:
            return colour if before % 2 == 0 else (BLACK if colour == WHITE else WHITE)
        before += 1
    return None


def dutch_from_event(event: Event, round_number: int | None = None, seed: int = 0) -> DutchInput:
    """The Dutch system's input for a Swiss round of the event (by default the next one).

    Absent from the round: players not yet joined or withdrawn, players holding a pre-awarded bye (listed
    with the pairing's byes), and players with a bye or absence already entered for the round (as an
    arbiter prepares a TRF).
    """
    n = next_round_number(event) if round_number is None else round_number
    scoring = event.settings.scoring
    value = {WON: scoring.win, DREW: scoring.draw, LOST: scoring.loss}
    history: dict[str, list[Game]] = {p.id: [Game() for _ in range(n - 1)] for p in event.players}
    listed: dict[int, set[str]] = defaultdict(set)
    entered: set[str] = set()
    for r in event.rounds:
        if r.number > n:
            continue
        for m in r.matches:
            if r.number == n:
                if m.b is None and m.result != BYE:
                    entered.add(m.a)
                continue
            listed[r.number].update(x for x in (m.a, m.b) if x is not None)
            oa, ob = m.outcome()
            pa = value[oa] if oa is not None else scoring.loss
            if m.b is None:
                history[m.a][r.number - 1] = Game(points=pa, pairing_bye=m.result in (BYE, FORFEIT))
                continue
            pb = value[ob] if ob is not None else scoring.loss
            played = m.result == PLAYED
            history[m.a][r.number - 1] = Game(pa, m.b, WHITE if played else "", played)
            history[m.b][r.number - 1] = Game(pb, m.a, BLACK if played else "", played)
    for p in event.players:
        # A pre-awarded bye the file does not list as a match is still a bye (a win).
        for k in range(p.joined_round, min(p.byes, n - 1) + 1):
            if p.id not in listed[k]:
                history[p.id][k - 1] = Game(points=scoring.win)
    to_pair, awarded = eligible(event, n)
    numbers = pairing_numbers(event)
    players = tuple(DutchPlayer(p.id, numbers[p.id], tuple(history[p.id]), p.accelerations) for p in event.players)
    note = left_out(event, n)
    colour, drawn = _initial_colour(event, seed, n)
    return DutchInput(
        round=n,
        rounds=max(event.settings.planned_rounds or n, n),
        players=players,
        present=frozenset(pid for pid in to_pair if pid not in entered),
        win=scoring.win,
        draw=scoring.draw,
        loss=scoring.loss,
        initial_colour=colour,
        initial_by_lot=drawn,
        baku=event.settings.acceleration == "baku"
        or any(line[:3] == "192" and "BAKU" in line.upper() for line in event.settings.trf_header),
        awarded_byes=tuple(awarded),
        seed=seed,
        notes=(note,) if note else (),
        forbidden=event.settings.forbidden_in(n),
    )
