"""How fast the pairing engine and the `pair` command are on large fields (targets in docs/benchmarks.md).

    .venv/bin/python bench/pairing.py [SIZES...]

Each field is played for some rounds with the engine itself (random results, a few drops), then
the next round is timed: the engine alone (from_event + pair) and the whole `manage.py pair`
command in a fresh process. Also reported: rematches, the spread (sum of squared point
differences) against its lower bound, floats. The command's CPU time is shown too: wall-clock
figures suffer when other work shares the machine. Targets on a 2-core machine: the command under 1 s
for 2048 players and under 4 s for 8192, with no rematch and the optimal spread.
"""

from __future__ import annotations

import gc
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pairing  # noqa: E402
from pairing.optimal import _Solver  # noqa: E402
from swiss import eventfile as ef  # noqa: E402
from swiss.model import BYE, Event, Match, Player, Round, settings_for_preset  # noqa: E402

CASES = ((64, 5), (512, 5), (2048, 5), (8192, 5), (2048, 12))


def play(n_players: int, rounds: int, seed: int = 1) -> Event:
    rng = random.Random(seed)
    players = [Player(id=f"p{k}", name=f"Player {k}", rating=rng.randrange(1000, 2400)) for k in range(n_players)]
    event = Event(settings=settings_for_preset("mtg"), players=tuple(players))
    for number in range(1, rounds + 1):
        result = pairing.pair(pairing.from_event(event, number, seed=rng.randrange(2**31)))
        matches = []
        for p in result.pairs:
            outcome = rng.random()
            games = (2, rng.choice((0, 1)), 0) if outcome < 0.47 else (1, 1, 1) if outcome < 0.53 else (0, 2, 0)
            matches.append(Match(a=p.a, b=p.b, games=games, table=p.table))
        matches.extend(Match(a=pid, result=BYE) for pid in result.byes)
        dropped = {p.a for p in result.pairs if rng.random() < 0.01}
        players = [Player(**{**vars(pl), "dropped_after": number}) if pl.id in dropped else pl for pl in players]
        event = Event(event.settings, tuple(players), (*event.rounds, Round(number, tuple(matches))))
    return event


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(sizes: list[int] | None = None) -> None:
    cases = [c for c in CASES if sizes is None or c[0] in sizes]
    print(
        f"{'players':>7} {'rounds':>6} {'engine s':>9} {'command s':>10} {'(cpu s)':>8} "
        f"{'rematches':>9} {'spread':>8} {'bound':>8} {'floats':>6}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for n, rounds in cases:
            event = play(n, rounds)
            path = Path(tmp) / f"event-{n}-{rounds}.json"
            path.write_text(ef.dumps(event))
            gc.collect()
            gc.disable()  # as the command does
            start = time.perf_counter()
            inp = pairing.from_event(event, seed=7)
            result = pairing.pair(inp)
            engine = time.perf_counter() - start
            gc.enable()
            solver = _Solver(inp, random.Random(7), 0, 512)
            (_, bound, _), _, _ = solver.lower_bound()
            start = time.perf_counter()
            cpu = _children_cpu()
            subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), "pair", str(path), "--seed", "7", "--format", "json"],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            command = time.perf_counter() - start
            command_cpu = _children_cpu() - cpu
            # The objective's spread: the games plus the bye against the bottom of the field.
            points = {e.id: e.points for e in inp.entrants}
            low = min(points.values())
            bye_term = sum((points[b] - low) ** 2 for b in result.byes if b in points)
            spread = (result.spread + bye_term) * solver.scale**2
            print(
                f"{n:>7} {rounds:>6} {engine:>9.3f} {command:>10.3f} {command_cpu:>8.3f} {result.rematches:>9} "
                f"{spread!s:>8} {bound:>8} {len(result.floats):>6}",
                flush=True,
            )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or None)
