"""How fast `why_not` answers on a 500-player round of each engine (target: under 0.5 s of CPU).

    .venv/bin/python bench/why_not.py [PLAYERS] [QUESTIONS] [optimal|dutch ...]

The optimal engine's round: a Magic field played for 5 rounds by the engine itself (bench/pairing.py's play);
the Dutch system's: a 7-round tournament made by `swiss generate` (pairing/tools/generate.py), its 8th round.
For pairs of players of the round (every other one the players of two
neighbouring tables, so that the round is built again with them paired), it prints the players, the worst and the median CPU seconds of one
answer, and how many answers of each code.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pairing  # noqa: E402
from pairing.event import dutch_from_event  # noqa: E402
from pairing.explain import why_not  # noqa: E402
from pairing.tools.generate import Options, generate  # noqa: E402
from standings import points_by_player  # noqa: E402
from swiss import trf  # noqa: E402


def card_round(players: int):
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_pairing", ROOT / "bench" / "pairing.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    event = module.play(players, 5, seed=3)
    return pairing.from_event(event, 6, seed=7)


def dutch_round(players: int):
    text = generate(Options(players=players, rounds=8, seed=5, forfeits=2, half_byes=2))
    event = trf.loads(text, points_by_player)
    return dutch_from_event(event, 8)


def measure(name: str, inp, questions: int) -> None:
    result = pairing.pair(inp)
    ids = sorted(e.id for e in inp.entrants) if hasattr(inp, "entrants") else sorted(inp.present)
    rng = random.Random(1)
    times, codes = [], Counter()
    for k in range(questions):
        if k % 2:
            a, b = rng.sample(ids, 2)
        else:
            t = rng.randrange(len(result.pairs) - 1)
            p, q = result.pairs[t], result.pairs[t + 1]
            a, b = p.a, q.b
        start = time.process_time()
        answer = why_not(inp, result, a, b)
        times.append(time.process_time() - start)
        codes[answer.code] += 1
    print(
        f"{name}: {len(ids)} players, worst {max(times):.3f} s, median {statistics.median(times):.3f} s CPU; "
        + ", ".join(f"{code} {count}" for code, count in codes.most_common()),
        flush=True,
    )


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    questions = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    engines = sys.argv[3:] or ["optimal", "dutch"]  # the engines to measure (both unless named)
    if "optimal" in engines:
        measure("optimal", card_round(players), questions)
    if "dutch" in engines:
        measure("dutch", dutch_round(players), questions)


if __name__ == "__main__":
    main()
