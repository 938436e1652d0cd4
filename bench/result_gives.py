"""How fast is "what each result gives" in prizes, before the last round's results are in?
`python bench/result_gives.py [SIZES...]`

Generates a chess event of each size (3 rounds up to 16 players, else as many as a Swiss of that size plays)
with its last round paired, once with every table open and once with half of them decided, and a prize list
of four prizes (1st-3rd and a best-under-1600 category), then times `standings.prize_outlook.prize_outlook`
under "shared" ties (points alone) and under "tiebreak" (the event's tie-breakers rank). Prints players, open
tables, tie rule, seconds, the combinations examined (rankings and prize splits worked out) and whether it
answered (None: over the outlook's bound, it says nothing). `--plain` times the plain enumeration (every
combination ranked) the fast path is compared with.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from standings import prize_outlook as po  # noqa: E402
from standings.outlook_round import round_state  # noqa: E402
from swiss.prizemodel import Category, Prize, PrizeRules  # noqa: E402
from tests.engines.outlook_events import random_event  # noqa: E402

PRIZES = (
    Prize("1st", Fraction(400)),
    Prize("2nd", Fraction(200)),
    Prize("3rd", Fraction(100)),
    Prize("U1600", Fraction(50), category=Category(rating_below=1600)),
)


def rounds_for(n: int) -> int:
    return 3 if n <= 16 else max(3, (n - 1).bit_length())


def main(sizes: list[int], plain: bool) -> None:
    run = getattr(po, "counted_outlook", None)
    print("players rounds open tie      seconds examined answered")
    for n in sizes:
        for settled in (0.0, 0.5):
            event = random_event(n, rounds_for(n), "chess", seed=n, settled=settled)
            tables = len(round_state(event).tables)
            for ties in ("shared", "tiebreak"):
                rules = PrizeRules(ties=ties)
                start = time.perf_counter()
                if run is not None:
                    claims, examined = run(event, PRIZES, rules, plain=plain)
                else:  # before the fast path: the plain enumeration, its combinations counted as it bounds them
                    claims = po.prize_outlook(event, PRIZES, rules)
                    examined = -1
                took = time.perf_counter() - start
                print(
                    f"{n:7d} {rounds_for(n):6d} {tables:4d} {ties:8s} {took:7.3f} {examined:8d} {claims is not None!s:8}"
                )


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main([int(a) for a in args] or [12, 16, 24, 40, 100], "--plain" in sys.argv)
