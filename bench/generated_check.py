"""Self-checking at scale: N tournaments made by `swiss generate` (varied sizes and options), each checked by
`swiss check` and, where its binary is given, by bbpPairings' checker (`bbpPairings --dutch FILE -c`).

    python bench/generated_check.py [N] [--seed S] [--bbp PATH] [--max-players M] [--keep DIR]

Prints how many tournaments and rounds `swiss check` finds as the rules pair them (the target is every one), the
first disagreements, and bbpPairings' verdicts (exit status 0 and no "Checker pairings" line: it agrees). The
options of each tournament are drawn from the seed; --keep DIR keeps the files. In process: the CPU is the
generator's and the checker's, not Python's start.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pairing.tools.generate import Options, generate  # noqa: E402
from pairing.tools.main import run_check  # noqa: E402
from pairing.types import PairingError  # noqa: E402

LISTS = [("BH-C1", "BH", "SB", "DE"), ("SB", "BH", "WIN"), ("ARO", "BH-M1", "PS"), ("DE", "BH-C1", "BPG")]


def options(rng: random.Random, k: int, max_players: int) -> Options:
    players = rng.randint(5, max_players)
    return Options(
        players=players,
        rounds=rng.randint(3, min(13, max(3, players // 2))),
        seed=k,
        baku=rng.random() < 0.25,
        half_byes=rng.choice([0, 0, 1, 3]),
        zero_byes=rng.choice([0, 0, 1, 2]),
        full_byes=rng.choice([0, 0, 0, 1]),
        forfeits=rng.choice([0, 1, 3]),
        unusual=rng.choice([0, 0, 1]),
        absences=rng.choice([0, 0, 1, 2]),
        tiebreaks=rng.choice(LISTS),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("count", type=int, nargs="?", default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bbp", metavar="PATH", help="bbpPairings' binary, to check each file with it too")
    parser.add_argument("--max-players", type=int, default=120)
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(args.keep or tempfile.mkdtemp(prefix="swiss-generated-"))
    folder.mkdir(parents=True, exist_ok=True)
    made = rounds = rounds_ok = standings_ok = unpairable = bbp_ok = 0
    shown = 0
    start = time.process_time()
    for k in range(args.count):
        o = options(rng, k, args.max_players)
        try:
            text = generate(o)
        except PairingError:
            unpairable += 1  # too many rounds for the players left: the generator says so and stops
            continue
        path = folder / f"gen{k:05d}-{o.players}p-{o.rounds}r.trf"
        path.write_text(text, encoding="utf-8")
        made += 1
        doc = json.loads(run_check(str(path), "json", None)[0])
        rounds += len(doc["rounds"])
        wrong = [r for r in doc["rounds"] if not r["ok"]]
        rounds_ok += len(doc["rounds"]) - len(wrong)
        standings_ok += doc["standings"]["ok"]
        if (wrong or not doc["standings"]["ok"]) and shown < 5:
            shown += 1
            print(f"disagrees: {path.name} {o}: {wrong[:1]} {doc['standings']['differences'][:2]}", flush=True)
        if args.bbp:
            verdict = subprocess.run([args.bbp, "--dutch", str(path), "-c"], capture_output=True, text=True)
            bbp_ok += verdict.returncode == 0 and "Checker pairings" not in verdict.stdout + verdict.stderr
        if (k + 1) % 500 == 0:
            print(f"{k + 1} done: {rounds_ok} of {rounds} rounds agree so far", flush=True)
    print(f"{made} tournaments made ({unpairable} stopped at a round no pairing could make), in {folder}")
    print(f"swiss check: {rounds_ok} of {rounds} rounds as the rules pair them, {standings_ok} of {made} standings")
    if args.bbp:
        print(f"bbpPairings -c: {bbp_ok} of {made} tournaments agree")
    print(f"CPU: {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
