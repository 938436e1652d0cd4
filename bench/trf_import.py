"""How long does a TRF import take? `python bench/trf_import.py [PLAYERS ROUNDS]`

Prints the seconds `swiss.trf.loads` takes for a generated open of the largest real size (2,000
players, 13 rounds: draws, requested byes, forfeits, withdrawals), and for the hostile file that once stalled
(two players, 20,000 rounds, 400 kB), which is refused before any work starts.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.chess import best_of, generate  # noqa: E402
from standings import compute, points_by_player  # noqa: E402
from swiss import trf  # noqa: E402


def hostile(rounds: int = 20_000) -> str:
    """Two players who meet every round: 10 characters a round on each line."""
    one = "".join(f"  {2:>4} {'w' if r % 2 else 'b'} {'1' if r % 2 else '0'}" for r in range(rounds))
    two = "".join(f"  {1:>4} {'b' if r % 2 else 'w'} {'0' if r % 2 else '1'}" for r in range(rounds))

    def line(rank: int, name: str) -> str:
        return f"001 {rank:>4} {'':1}{'':>3} {name:<33} {'':>4} {'':<3} {'':>11} {'':<10} {'':>4} {'':>4}"

    return f"012 Hostile\n{line(1, 'A')}{one}\n{line(2, 'B')}{two}\n"


def main(players: int, rounds: int) -> None:
    event = generate(players, rounds)
    table = compute(event)
    text = trf.dumps(event, {r.player_id: r.rank for r in table.rows}, {r.player_id: r.points for r in table.rows})
    seconds = best_of(lambda: trf.loads(text, points_by_player))
    print(f"{players} players x {rounds} rounds ({len(text) / 1000:.0f} kB): {seconds:.2f} s")
    bad = hostile()
    start = time.perf_counter()
    try:
        trf.loads(bad, points_by_player)
        outcome = "imported"
    except trf.TRFError as e:
        outcome = f"refused ({e})"
    print(f"2 players x 20000 rounds ({len(bad) / 1000:.0f} kB): {time.perf_counter() - start:.3f} s, {outcome}")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*(args or [2000, 13]))
