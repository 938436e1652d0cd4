"""How long the file tools take (docs/tools.md): the CPU of a fresh `python -m swiss pair` process on a 5-player
file (target: at most 0.15 s) and on a 500-player FIDE Dutch round (target: at most 0.4 s), beside `manage.py
pair` on the same files; and of `python -m swiss check` on a 300-player, 11-round Dutch tournament (target: under
10 s) and on the corpus' 400-player, 9-round one (tests/data/dutch/big00-400p-9r.trf).

    python bench/tools.py [--repeat 5]

Prints the minimum and median CPU seconds of each over the repeats (CPU, not wall-clock time: other work on the
machine inflates the latter), and the bare start of Python for scale. The modules are compiled first, as an
installed package's are. The 300-player tournament is paired here
round by round by the Dutch system (random results: a third drawn, 3 % forfeits), so its check must agree.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import dutch  # noqa: E402

import pairing  # noqa: E402
from standings import compute  # noqa: E402
from swiss import eventfile as ef  # noqa: E402
from swiss import trf  # noqa: E402
from swiss.model import BYE, FORFEIT, Event, Match, Player, Round, settings_for_preset  # noqa: E402


def cpu_of(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def dutch_tournament(n_players: int, rounds: int, seed: int = 1) -> Event:
    """A chess event paired throughout by the Dutch system, with random results."""
    rng = random.Random(seed)
    players = tuple(
        Player(id=str(k), name=f"Player {k:04d}", rating=2700 - 3 * k, number=k) for k in range(1, n_players + 1)
    )
    settings = settings_for_preset("chess", pairing="dutch", planned_rounds=rounds, initial_colour="white")
    event = Event(settings=settings, players=players)
    for number in range(1, rounds + 1):
        result = pairing.pair(pairing.from_event(event, number))
        matches = []
        for p in result.pairs:
            x = rng.random()
            if x < 0.03:
                matches.append(Match(p.a, p.b, result=FORFEIT, white=p.a))
            else:
                games = (0, 0, 1) if x < 0.36 else (1, 0, 0) if x < 0.68 else (0, 1, 0)
                matches.append(Match(p.a, p.b, games))
        matches.extend(Match(b, None, result=BYE) for b in result.byes)
        event = dataclasses.replace(event, rounds=(*event.rounds, Round(number, tuple(matches), state="complete")))
    return event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="swiss-bench-tools-"))
    small = folder / "dutch-5.trf"
    five = dutch_tournament(5, 3)
    small.write_text(trf.dumps(five, points={r.player_id: r.points for r in compute(five).rows}))
    chess = dutch.play(500, 5, seed=1)
    chess = dataclasses.replace(chess, settings=dataclasses.replace(chess.settings, pairing="dutch"))
    big = folder / "dutch-500.json"
    big.write_text(ef.dumps(chess))
    long = folder / "dutch-300p-11r.trf"
    played = dutch_tournament(300, 11)
    long.write_text(trf.dumps(played, points={r.player_id: r.points for r in compute(played).rows}))
    corpus = ROOT / "tests" / "data" / "dutch" / "big00-400p-9r.trf"
    py = sys.executable
    # Compiled first, as an installed package is (a run without .pyc files compiles every module it imports).
    subprocess.run([py, "-m", "compileall", "-q", "swiss", "pairing", "standings", "tournament"], cwd=ROOT, check=True)
    cases = [
        ("python start (for scale)", [py, "-c", "pass"], None),
        ("swiss pair, 5 players", [py, "-m", "swiss", "pair", str(small)], 0.15),
        ("manage.py pair, 5 players", [py, "manage.py", "pair", str(small)], None),
        ("swiss pair, 500 players Dutch", [py, "-m", "swiss", "pair", str(big)], 0.4),
        ("manage.py pair, 500 players", [py, "manage.py", "pair", str(big)], None),
        ("swiss check, 300 players 11 rds", [py, "-m", "swiss", "check", str(long)], 10.0),
        ("swiss check, 400 players 9 rds", [py, "-m", "swiss", "check", str(corpus)], None),
    ]
    status = subprocess.run([py, "-m", "swiss", "check", str(long)], cwd=ROOT, capture_output=True, text=True)
    print(f"check of the 300-player tournament: exit status {status.returncode}, {status.stdout.splitlines()[-1]}")
    print(f"{'what':<34} {'min cpu s':>9} {'median':>7} {'target':>7}")
    for label, command, target in cases:
        runs = [cpu_of(command) for _ in range(args.repeat if target != 10.0 else min(args.repeat, 2))]
        shown = f"{target:.2f}" if target else "-"
        print(f"{label:<34} {min(runs):>9.3f} {statistics.median(runs):>7.3f} {shown:>7}")


if __name__ == "__main__":
    main()
