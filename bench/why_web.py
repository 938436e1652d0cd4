"""What the web app's explanations cost (services/explanations.py, docs/explanations.md#in-the-web-app): pairing
a round with and without storing its explanation, its size, reading one player's reasons, and "why not" asked
from a phone (uncached, then cached).

    .venv/bin/python bench/why_web.py [--dutch N] [--optimal N] [--repeat R] [--questions Q] [--sqlite]

A fresh database (PostgreSQL at $BENCH_PG, default postgres://postgres@127.0.0.1:5432, dropped at the end; or
SQLite in a temporary file), migrated. The fields are bench/jobs.py's: bench/dutch.py's chess event of N players
(default 500) paired in round 6 by the FIDE Dutch system, and bench/pairing.py's Magic event of N players (default
2048) paired by the optimal engine. Round 6 is paired as a request pairs it (`services.pair_next_round`), R times
(default 3) with the explanation stored and R times without it (`explanations.store` replaced by nothing for the
run), best wall and CPU seconds of each; then Q questions (default 5) "why not" between random players of the
round: the first with the round's input rebuilt from the event (as after the cache lost it), then Q uncached
(the input kept from the pairing, each a fresh pair) and the same again cached. Targets: storing adds at most 20 % to pairing; an
uncached answer under 0.5 s for 500 players.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

from scratch import scratch_database  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project's `pairing` before bench/pairing.py


def _bench(name: str):
    """Another benchmark's module (bench/NAME.py), by its path: bench/pairing.py would hide the pairing package."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def measure(system: str, n: int, repeat: int, questions: int) -> None:
    from django.core.cache import cache

    from tournament.models import RoundExplanation
    from tournament.services import explanations
    from tournament.services.rounds import pair_next_round

    event = _bench("jobs").field(system, n, f"why-{system}-{n}-{uuid.uuid4().hex[:6]}")
    store = explanations.store
    best = {}
    for label, stored in (("without", False), ("with", True)):
        walls, cpus = [], []
        for _ in range(repeat):
            explanations.store = store if stored else (lambda *args, **kwargs: None)
            try:
                rnd, wall, cpu = timed(lambda: pair_next_round(event, None))
            finally:
                explanations.store = store
            walls.append(wall)
            cpus.append(cpu)
            if stored:
                size = len(json.dumps(RoundExplanation.objects.get(round=rnd).players)) / 1e6
            if _ < repeat - 1 or not stored:
                rnd.delete()
        best[label] = (min(walls), min(cpus))
    (w0, c0), (w1, c1) = best["without"], best["with"]
    print(
        f"{system:>8} {n:>7} pair {w0:6.3f} s ({c0:.3f} cpu)  with the explanation {w1:6.3f} s ({c1:.3f} cpu)  "
        f"{(c1 - c0) / c0 * 100:+.1f} % cpu  players JSON {size:.2f} MB",
        flush=True,
    )
    seated = list(event.players.filter(seats__round=rnd))
    entry, read, _cpu = timed(lambda: explanations.player_entry(rnd.pk, seated[0].pk))
    assert entry[0]["reasons"]
    print(f"{'':>16} one player's reasons and group read: {read * 1000:.1f} ms", flush=True)
    rng = random.Random(n)
    asked = [tuple(rng.sample(seated, 2)) for _ in range(questions)]
    cache.clear()  # the round's input too: the first question rebuilds it from the event
    a, b = rng.sample(seated, 2)
    found, wall, cpu = timed(lambda: explanations.answer(rnd, a, b))
    print(f"{'':>16} why not, the round's input rebuilt from the event: {wall:.3f} s ({cpu:.3f} cpu)", flush=True)
    for label in ("uncached", "cached"):
        walls, cpus, codes = [], [], []
        for a, b in asked:
            found, wall, cpu = timed(lambda a=a, b=b: explanations.answer(rnd, a, b))
            walls.append(wall)
            cpus.append(cpu)
            codes.append(found["code"])
        print(
            f"{'':>16} why not, {label}: max {max(walls):.3f} s ({max(cpus):.3f} cpu), mean "
            f"{sum(walls) / len(walls):.3f} s ({sum(cpus) / len(cpus):.3f} cpu) ({', '.join(codes)})",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dutch", type=int, default=500)
    parser.add_argument("--optimal", type=int, default=2048)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--sqlite", action="store_true")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp())
    with scratch_database("why", tmp if args.sqlite else None) as url:
        run(args, url)


def run(args: argparse.Namespace, url: str) -> None:
    os.environ.update(_bench("jobs").environment(url))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    try:
        if args.dutch:
            measure("dutch", args.dutch, args.repeat, args.questions)
        if args.optimal:
            measure("optimal", args.optimal, args.repeat, args.questions)
    finally:
        connections.close_all()


if __name__ == "__main__":
    main()
