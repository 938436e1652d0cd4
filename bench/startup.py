"""How long the command line takes to start and pair: the CPU of a fresh `manage.py pair` process on a
2,048-player event paired by the optimal engine (target: at most 1.0 s) and on a 500-player FIDE Dutch
round (target: at most 0.6 s), and of bare imports (`import pairing`, Django's start).

    python bench/startup.py [--repeat 5]

Prints the minimum and median CPU seconds of each over the repeats (CPU, not wall-clock time: other work on
the machine inflates the latter). numpy and networkx are imported only where they are used, so neither the
optimal engine nor Django's start pays for them (tests/test_guards.py)."""

from __future__ import annotations

import argparse
import dataclasses
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import dutch  # noqa: E402

from swiss import eventfile as ef  # noqa: E402


def optimal_play(n_players: int, rounds: int):
    """bench/pairing.py's generated event (a module named like the package, so loaded by its path)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_pairing", ROOT / "bench" / "pairing.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play(n_players, rounds)


def cpu_of(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="swiss-bench-startup-"))
    optimal = folder / "optimal-2048.json"
    optimal.write_text(ef.dumps(optimal_play(2048, 5)))
    chess = dutch.play(500, 5, seed=1)
    chess = dataclasses.replace(chess, settings=dataclasses.replace(chess.settings, pairing="dutch"))
    fide = folder / "dutch-500.json"
    fide.write_text(ef.dumps(chess))
    py = sys.executable
    setup = "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'tournament.settings'); django.setup()"
    cases = [
        ("import pairing", [py, "-c", "import pairing"], None),
        ("Django's start", [py, "-c", setup], None),
        ("pair, 2,048 players, optimal", [py, "manage.py", "pair", str(optimal)], 1.0),
        ("pair, 500 players, FIDE Dutch", [py, "manage.py", "pair", str(fide)], 0.6),
    ]
    print(f"{'what':<32} {'min cpu s':>9} {'median':>7} {'target':>7}")
    for label, command, target in cases:
        runs = [cpu_of(command) for _ in range(args.repeat)]
        shown = f"{target:.1f}" if target else "-"
        print(f"{label:<32} {min(runs):>9.3f} {statistics.median(runs):>7.3f} {shown:>7}")


if __name__ == "__main__":
    main()
