"""Random Swiss events whose last round is paired and open, for the outlook's tests and benchmark, and the
brute force the tests compare every claim with: every combination of the open tables' game scores."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from standings.engine import compute
from standings.outlook_round import OUTCOMES, game_scores, round_state
from swiss.model import Event, Match, Player, Round, settings_for_preset
from swiss.presets import PRESETS


def random_event(n: int, rounds: int, preset: str = "mtg", seed: int = 1, settled: float = 0.0, **settings) -> Event:
    """`n` players, `rounds` Swiss rounds paired by score (neighbours in the standings), every round but the
    last with random game scores; in the last, each table has its result with chance `settled`."""
    rng = random.Random(seed)
    s = settings_for_preset(preset, **settings)
    draws = PRESETS[preset].draws
    scores = game_scores(s.best_of, draws)
    every = [g for o in OUTCOMES for g in scores[o]]
    players = tuple(Player(f"p{k}", f"Player {k:03d}", rating=1500 + 10 * k) for k in range(n))
    done: list[Round] = []
    for r in range(1, rounds + 1):
        event = Event(s, players, tuple(done))
        pts = {row.player_id: row.points for row in compute(event, after_round=r - 1).rows}
        order = sorted((p.id for p in players), key=lambda i: (-pts[i], rng.random()))
        matches = []
        if len(order) % 2:
            matches.append(Match(order.pop(), result="bye"))
        for k in range(0, len(order), 2):
            last = r == rounds
            games = None if last and rng.random() >= settled else rng.choice(every)
            matches.append(Match(order[k], order[k + 1], games, table=k // 2 + 1))
        done.append(Round(r, tuple(matches)))
    return Event(s, players, tuple(done))


def brute_force(event: Event, places: int) -> dict[tuple[str, str], set[str]]:
    """For every (player, outcome of their own match), the places they come to over every combination of
    game scores of the open tables: "in", "out", "tie" (level on every figure across the line)."""
    state = round_state(event)
    seen: dict[tuple[str, str], set[str]] = {}
    choices = [[(t, g) for o in t.outcomes() for g in t.scores[o]] for t in state.tables]
    competitors = set(state.division)
    for combo in itertools.product(*choices):
        games = {t.number: g for t, g in combo}
        rows = compute(state.with_games(games), after_round=state.number).rows
        rank = {r.player_id: r.rank for r in rows}
        own: dict[str, str] = dict(state.decided)
        for t, g in combo:
            a, b = ("win", "loss") if g[0] > g[1] else ("loss", "win") if g[1] > g[0] else ("draw", "draw")
            own[t.a], own[t.b] = a, b
        for pid in competitors:
            if pid not in own:
                continue
            div = state.division[pid]
            mine = rank[pid]
            ahead = sum(1 for q in competitors if state.division[q] == div and rank[q] < mine)
            level = sum(1 for q in competitors if q != pid and state.division[q] == div and rank[q] == mine)
            where = "out" if ahead >= places else "in" if ahead + level < places else "tie"
            seen.setdefault((pid, own[pid]), set()).add(where)
    return seen


def with_last_round_open(event: Event) -> Event:
    """The event with its last round's results taken away."""
    last = max(r.number for r in event.rounds)
    rounds = tuple(
        replace(r, matches=tuple(replace(m, games=None) if m.b is not None else m for m in r.matches))
        if r.number == last
        else r
        for r in event.rounds
    )
    return replace(event, rounds=rounds)
