"""How fast are standings for big events? `python bench/standings.py [SIZES...]`

Generates mtg events of 15 Swiss rounds (players paired by score, results by rating, draws, a few drops,
pre-awarded byes and late entrants), then times parsing, the engine alone, and the whole
`manage.py standings FILE --format json` as a subprocess (wall time, Django start-up included).
Targets on a 2-core machine: engine 2048x15 < 0.2 s, whole command 8192x15 < 1.5 s.
"""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from standings import compute, dumps_json  # noqa: E402
from swiss.eventfile import loads  # noqa: E402

ROUNDS = 15


def generate(n: int, rounds: int = ROUNDS, seed: int = 1) -> dict:
    rng = random.Random(seed)
    players = []
    for k in range(n):
        p = {"id": f"p{k}", "name": f"Player {k:05d}", "rating": rng.randint(1000, 2200)}
        if k % 97 == 0:
            p["byes"] = 1 + k % 3
        if k % 89 == 1:
            p["joined_round"] = 2
        players.append(p)
    points = {p["id"]: 0 for p in players}
    rating = {p["id"]: p["rating"] for p in players}
    dropped: dict[str, int] = {}
    out_rounds = []
    for r in range(1, rounds + 1):
        matches = []
        active = []
        for p in players:
            pid = p["id"]
            if pid in dropped or p.get("joined_round", 1) > r:
                continue
            if p.get("byes", 0) >= r:
                # Pre-awarded byes are left out of the file, as files may do.
                points[pid] += 3
                continue
            active.append(pid)
        active.sort(key=lambda pid: (-points[pid], rng.random()))
        if len(active) % 2:
            bye = active.pop()
            matches.append({"a": bye, "b": None})
            points[bye] += 3
        for t in range(0, len(active), 2):
            a, b = active[t], active[t + 1]
            pa = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            x = rng.random()
            if x < 0.04:
                games = [1, 1, 1] if x < 0.02 else [0, 0, 3]
                points[a] += 1
                points[b] += 1
            elif x < 0.04 + 0.96 * pa:
                games = [2, rng.choice((0, 1)), 0]
                points[a] += 3
            else:
                games = [rng.choice((0, 1)), 2, 0]
                points[b] += 3
            matches.append({"table": t // 2 + 1, "a": a, "b": b, "games": games})
        out_rounds.append({"number": r, "matches": matches})
        for pid in rng.sample(active, k=max(1, len(active) // 200)):
            dropped[pid] = r
    for p in players:
        if p["id"] in dropped:
            p["dropped_after"] = dropped[p["id"]]
    return {
        "format": "swiss-event",
        "version": 1,
        "name": f"Bench {n}",
        "preset": "mtg",
        "players": players,
        "rounds": out_rounds,
    }


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(sizes: list[int]) -> None:
    print(f"{'players':>8} {'rounds':>6} {'parse s':>8} {'engine s':>9} {'json s':>7} {'command s':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            doc = generate(n)
            path = Path(tmp) / f"bench-{n}.json"
            text = json.dumps(doc)
            path.write_text(text)
            event = loads(text)
            parse_s = best_of(lambda text=text: loads(text), 3)
            engine_s = best_of(lambda event=event: compute(event), 3)
            result = compute(event)
            json_s = best_of(lambda result=result: dumps_json(result), 3)
            cmd = [sys.executable, str(ROOT / "manage.py"), "standings", str(path), "--format", "json"]

            def run(cmd=cmd) -> None:
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)

            command_s = best_of(run, 3)
            print(f"{n:>8} {ROUNDS:>6} {parse_s:>8.3f} {engine_s:>9.3f} {json_s:>7.3f} {command_s:>10.3f}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [256, 2048, 8192])
