"""What an event's results add up to for each player after a Swiss round: the counts every figure of the
standings is made of (match and game points, the record, byes, opponents met and how each match ended).

Match points are integers in units of 1/`unit` of a point, so that every sum is exact and compares as a
plain integer.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import lcm

from swiss.model import BYE, DOUBLE_LOSS, FORFEIT, FULL_BYE, HALF_BYE, LOSS, SWISS, ZERO_BYE, Event, Player, Settings

# How a match ended for one of its players.
WIN, DRAW, LOST = 2, 1, 0


@dataclass
class Tally:
    """Per player, by index into `players`. `wins` counts byes (the record W-L-D); unpaired and double losses
    are losses. `opponents[i]` has one entry per match against an opponent (rematches twice), `outcomes[i]`
    how each ended for player i."""

    event: Event
    after_round: int
    unit: int
    win: int
    draw: int
    loss: int
    num_rounds: int
    points: list[int]
    wins: list[int]
    losses: list[int]
    draws: list[int]
    # The rounds a player took part in: each is exactly one win (byes included), loss or draw.
    played: list[int]
    byes: list[int]
    # Wins without a game: byes and forfeit wins (the `wins` tie-breaker counts only wins over the board).
    unplayed_wins: list[int]
    game_points: list[int]
    games: list[int]
    # The sum of the running score after each round.
    cumulative: list[int]
    opponents: list[list[int]]
    outcomes: list[list[int]]

    @property
    def players(self) -> tuple[Player, ...]:
        return self.event.players

    @property
    def settings(self) -> Settings:
        return self.event.settings

    @property
    def outcome_points(self) -> dict[int, int]:
        return {WIN: self.win, DRAW: self.draw, LOST: self.loss}


def tally(event: Event, after_round: int) -> Tally:
    """Every player's counts from the Swiss rounds up to `after_round`, pre-awarded byes included."""
    s = event.settings
    players = event.players
    n = len(players)
    index: dict[str | None, int] = {p.id: i for i, p in enumerate(players)}  # a played match has a b

    # Match points in units of 1/unit, so that every score is an integer.
    sc = s.scoring
    unit = lcm(sc.win.denominator, sc.draw.denominator, sc.loss.denominator)
    w, d, lo = int(sc.win * unit), int(sc.draw * unit), int(sc.loss * unit)
    need = s.games_to_win

    rounds = [r for r in event.rounds if r.kind == SWISS and r.number <= after_round]
    scope = {r.number for r in rounds}
    for p in players:
        scope.update(range(1, min(p.byes, after_round) + 1))
    scope_sorted = sorted(scope)
    # A result in round r adds its points to the running score of every later round (cumulative).
    weight = {r: len(scope_sorted) - k for k, r in enumerate(scope_sorted)}

    pts = [0] * n
    wins = [0] * n
    losses = [0] * n
    draws = [0] * n
    byes = [0] * n
    unplayed_wins = [0] * n
    gpts = [0] * n
    games = [0] * n
    cumul = [0] * n
    opponents: list[list[int]] = [[] for _ in range(n)]
    outcomes: list[list[int]] = [[] for _ in range(n)]

    def bye(i: int, wr: int) -> None:
        byes[i] += 1
        unplayed_wins[i] += 1
        wins[i] += 1
        pts[i] += w
        cumul[i] += w * wr
        # A bye is a match won by the games needed to win it (2-0 in best of 3).
        gpts[i] += 3 * need
        games[i] += need

    for rnd in rounds:
        wr = weight[rnd.number]
        for m in rnd.matches:
            g = m.games
            if g is not None:
                ia = index[m.a]
                ib = index[m.b]
                ga, gb, gd = g
                gpts[ia] += 3 * ga + gd
                gpts[ib] += 3 * gb + gd
                total = ga + gb + gd
                games[ia] += total
                games[ib] += total
                if ga > gb:
                    wins[ia] += 1
                    losses[ib] += 1
                    pts[ia] += w
                    pts[ib] += lo
                    cumul[ia] += w * wr
                    cumul[ib] += lo * wr
                    opponents[ia].append(ib)
                    outcomes[ia].append(WIN)
                    opponents[ib].append(ia)
                    outcomes[ib].append(LOST)
                elif gb > ga:
                    wins[ib] += 1
                    losses[ia] += 1
                    pts[ib] += w
                    pts[ia] += lo
                    cumul[ib] += w * wr
                    cumul[ia] += lo * wr
                    opponents[ib].append(ia)
                    outcomes[ib].append(WIN)
                    opponents[ia].append(ib)
                    outcomes[ia].append(LOST)
                else:
                    draws[ia] += 1
                    draws[ib] += 1
                    pts[ia] += d
                    pts[ib] += d
                    cumul[ia] += d * wr
                    cumul[ib] += d * wr
                    opponents[ia].append(ib)
                    outcomes[ia].append(DRAW)
                    opponents[ib].append(ia)
                    outcomes[ib].append(DRAW)
            elif m.result == BYE or m.result == FULL_BYE:
                bye(index[m.a], wr)
            elif m.result == LOSS or m.result == ZERO_BYE:
                ia = index[m.a]
                losses[ia] += 1
                pts[ia] += lo
                cumul[ia] += lo * wr
            elif m.result == HALF_BYE:
                # A requested half-point bye: the draw's points, no game and no opponent.
                ia = index[m.a]
                draws[ia] += 1
                pts[ia] += d
                cumul[ia] += d * wr
            elif m.result == FORFEIT:
                # Won without playing, by the games needed to win (as a bye); the absent player lost them.
                ia = index[m.a]
                wins[ia] += 1
                unplayed_wins[ia] += 1
                pts[ia] += w
                cumul[ia] += w * wr
                gpts[ia] += 3 * need
                games[ia] += need
                if m.b is not None:
                    ib = index[m.b]
                    losses[ib] += 1
                    pts[ib] += lo
                    cumul[ib] += lo * wr
                    games[ib] += need
                    opponents[ia].append(ib)
                    outcomes[ia].append(WIN)
                    opponents[ib].append(ia)
                    outcomes[ib].append(LOST)
            elif m.result == DOUBLE_LOSS:
                ia, ib = index[m.a], index[m.b]
                for i, j in ((ia, ib), (ib, ia)):
                    losses[i] += 1
                    pts[i] += lo
                    cumul[i] += lo * wr
                    opponents[i].append(j)
                    outcomes[i].append(LOST)
            # else: a pairing whose result is still outstanding.

    # Pre-awarded byes: files may leave them out; the app stores them as matches.
    most = min(max((p.byes for p in players), default=0), after_round)
    listed = {r: {pid for m in rnd.matches for pid in (m.a, m.b)} for rnd in rounds if (r := rnd.number) <= most}
    for i, p in enumerate(players):
        for r in range(max(1, p.joined_round), min(p.byes, after_round) + 1):
            if p.dropped_after is not None and r > p.dropped_after:
                break
            if p.id not in listed.get(r, ()):
                bye(i, weight[r])

    return Tally(
        event=event,
        after_round=after_round,
        unit=unit,
        win=w,
        draw=d,
        loss=lo,
        num_rounds=len(scope_sorted),
        points=pts,
        wins=wins,
        losses=losses,
        draws=draws,
        played=[a + b + c for a, b, c in zip(wins, losses, draws, strict=True)],
        byes=byes,
        unplayed_wins=unplayed_wins,
        game_points=gpts,
        games=games,
        cumulative=cumul,
        opponents=opponents,
        outcomes=outcomes,
    )
