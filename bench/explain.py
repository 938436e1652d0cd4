"""What explaining a round costs (pairing/explain/, docs/explanations.md): pairing alone against pairing and
explaining, for a 500-player Dutch round and a 2,048-player round of the optimal engine.

    .venv/bin/python bench/explain.py [--repeat N]   (default: 5; the best of N of each, CPU seconds)

The Dutch event is bench/dutch.py's (five rounds played, round 6 paired by the Dutch system), the card event
bench/pairing.py's (Magic, five rounds played, round 6, every player paired). Target: explaining adds at most 20 % to pairing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import importlib.util  # noqa: E402
from dataclasses import replace  # noqa: E402

import pairing  # noqa: E402
from pairing.event import dutch_from_event  # noqa: E402
from pairing.explain import explain  # noqa: E402


def measure(name: str, inp, repeat: int) -> None:
    """The best of `repeat` of pairing a fresh copy of the input, then explaining that pairing. A fresh copy each
    time: the Dutch system keeps the round it built for the last input object (Round.of), which the explanation
    of the same pairing then uses, as the `pair` command does; repeating one object would time pairing without
    building it."""
    pair_times, explain_times = [], []
    result = None
    for _ in range(repeat):
        fresh = replace(inp)
        start = time.process_time()
        result = pairing.pair(fresh)
        paired = time.process_time()
        explain(fresh, result)
        pair_times.append(paired - start)
        explain_times.append(time.process_time() - paired)
    assert result is not None
    alone, extra = min(pair_times), min(explain_times)
    players = len(result.pairs) * 2 + len(result.byes)
    print(
        f"{name:<10} {players:>7} {inp.round:>6} {alone:>10.3f} {alone + extra:>15.3f} {extra:>12.3f} "
        f"{extra / alone * 100:>+8.1f} %"
    )


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--repeat", type=int, default=5)
    repeat = args.parse_args().repeat
    print(
        f"{'engine':<10} {'players':>7} {'round':>6} {'pair (s)':>10} {'pair+explain':>15} {'explain':>12} "
        f"{'extra':>10}"
    )
    chess = _bench("dutch").play(500)
    measure("dutch", dutch_from_event(chess, 6), repeat)
    card = _card_event(2048)
    measure("optimal", pairing.from_event(card, 6, seed=6), repeat)


def _card_event(n: int):
    """bench/pairing.py's Magic event of n players, five rounds played, its dropped players back for round 6 (so
    that all n are paired)."""
    event = _bench("pairing").play(n, 5)
    players = tuple(replace(p, dropped_after=None) for p in event.players)
    return replace(event, players=players)


def _bench(name: str):
    """Another benchmark's module (bench/NAME.py), by its path: bench/pairing.py would hide the pairing package."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    main()
