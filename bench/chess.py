"""How fast are FIDE tie-breaks and TRF files for big chess events? `python bench/chess.py [SIZES...]`

Generates chess Swiss events of 9 rounds (paired by score, results by rating, draws, requested half-point
and zero-point byes, forfeits, withdrawals), then times: the standings with the chess preset's FIDE
tie-breaks (BH-C1, BH, SB, DE), the standings with every FIDE tie-break, writing the TRF and reading it.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from standings import compute, points_by_player  # noqa: E402
from swiss import trf  # noqa: E402
from swiss.model import BYE, FORFEIT, HALF_BYE, ZERO_BYE, Event, Match, Player, Round, settings_for_preset  # noqa: E402
from swiss.tiebreakers import FIDE_CODES  # noqa: E402

ROUNDS = 9


def generate(n: int, rounds: int = ROUNDS, seed: int = 1) -> Event:
    rng = random.Random(seed)
    players = [Player(id=str(k), name=f"Player {k:05d}", rating=rng.randint(1000, 2700)) for k in range(1, n + 1)]
    points = {p.id: 0.0 for p in players}
    rating = {p.id: p.rating for p in players}
    withdrawn: set[str] = set()
    out = []
    for r in range(1, rounds + 1):
        matches = []
        active = []
        for p in players:
            if p.id in withdrawn:
                continue
            x = rng.random()
            if x < 0.01:
                matches.append(Match(a=p.id, result=HALF_BYE))
                points[p.id] += 0.5
            elif x < 0.015:
                matches.append(Match(a=p.id, result=ZERO_BYE))
            else:
                active.append(p.id)
        active.sort(key=lambda pid: (-points[pid], rng.random()))
        if len(active) % 2:
            bye = active.pop()
            matches.append(Match(a=bye, result=BYE))
            points[bye] += 1
        for t in range(0, len(active), 2):
            a, b = active[t], active[t + 1]
            pa = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            x = rng.random()
            if x < 0.005:
                matches.append(Match(a=a, b=b, result=FORFEIT, table=t // 2 + 1))
                points[a] += 1
                continue
            if x < 0.3:
                games, pa_, pb_ = (0, 0, 1), 0.5, 0.5
            elif x < 0.3 + 0.7 * pa:
                games, pa_, pb_ = (1, 0, 0), 1, 0
            else:
                games, pa_, pb_ = (0, 1, 0), 0, 1
            points[a] += pa_
            points[b] += pb_
            matches.append(Match(a=a, b=b, games=games, table=t // 2 + 1))
        out.append(Round(number=r, matches=tuple(matches)))
        withdrawn.update(rng.sample(active, k=max(1, len(active) // 300)))
    return Event(settings=settings_for_preset("chess", name=f"Bench {n}"), players=tuple(players), rounds=tuple(out))


def best_of(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(sizes: list[int]) -> None:
    print(f"{'players':>8} {'rounds':>6} {'preset s':>9} {'all FIDE s':>11} {'TRF out s':>10} {'TRF in s':>9}")
    for n in sizes:
        event = generate(n)
        every = Event(
            settings=settings_for_preset("chess", tiebreakers=FIDE_CODES), players=event.players, rounds=event.rounds
        )
        preset_s = best_of(lambda event=event: compute(event))
        all_s = best_of(lambda every=every: compute(every))
        table = compute(event)
        points = {r.player_id: r.points for r in table.rows}
        text = trf.dumps(event, points=points)
        out_s = best_of(lambda event=event, points=points: trf.dumps(event, points=points))
        in_s = best_of(lambda text=text: trf.loads(text, points_by_player))
        print(f"{n:>8} {ROUNDS:>6} {preset_s:>9.3f} {all_s:>11.3f} {out_s:>10.3f} {in_s:>9.3f}")


if __name__ == "__main__":
    # 6,000 x 9 rounds: within the 60,000 player-rounds a TRF file may hold (8,192 was refused on reading).
    main([int(a) for a in sys.argv[1:]] or [256, 2048, 6000])
