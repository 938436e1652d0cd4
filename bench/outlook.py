"""How fast is the outlook ("what do I need") before the last round? `python bench/outlook.py [SIZES...]`

Generates an event of each size (Magic preset, best of 3: game-score tie-breakers; players paired by
score, random game scores) with its last round paired and open, then times `standings.outlook.outlook`
for the top 8. Prints players, rounds, seconds, whether the answer is exact, and the counts of claims.
Targets on a 2-core machine: 64 players under 2 s, 500 players under 10 s.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from standings.outlook import outlook  # noqa: E402
from tests.engines.outlook_events import random_event  # noqa: E402


def rounds_for(n: int) -> int:
    return max(3, (n - 1).bit_length())


def main(sizes: list[int]) -> None:
    print("players rounds seconds exact in out depends")
    for n in sizes:
        r = rounds_for(n)
        event = random_event(n, r, "mtg", seed=n)
        start = time.perf_counter()
        result = outlook(event, places=8)
        took = time.perf_counter() - start
        codes = Counter(c.code for p in result.players for c in p.claims.values() if c is not None)
        print(f"{n:7d} {r:6d} {took:7.3f} {result.exact!s:5} {codes['in']:3d} {codes['out']:4d} {codes['depends']:4d}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [8, 16, 64, 500])
