"""How fast the FIDE Dutch system (pairing/dutch/) pairs one round of a large chess event.

    .venv/bin/python bench/dutch.py [SIZES...] [--seeds N] [--round R]  (default: 100 250 500 1000 2000,
                                                        3 seeds, round 6)
    .venv/bin/python bench/dutch.py corpus [MIN MAX] [--dir D]  (every corpus round of MIN < players <= MAX;
                                                        D: a corpus bench/dutch_corpus.py --out D made)

Each field is a chess event played for five rounds (paired by the optimal engine with chess colours,
random results: a third drawn, 3 % forfeits), then round six is paired by the Dutch system and its CPU
seconds printed, with the bracket count: one tournament per seed (1..N), the worst of them first
(--round R: R - 1 rounds played, then round R).
Targets: 500 players under 0.5 s of CPU, 2,000 under 5 s. bench/pairing.py is the optimal
engine's benchmark.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pairing  # noqa: E402
from pairing.dutch import pair_dutch  # noqa: E402
from pairing.event import dutch_from_event, initial_colour  # noqa: E402
from standings import points_by_player  # noqa: E402
from swiss.model import BYE, FORFEIT, Event, Match, Player, Round, settings_for_preset  # noqa: E402

ROUNDS = 5


def play(n_players: int, rounds: int = ROUNDS, seed: int = 1) -> Event:
    rng = random.Random(seed)
    players = [Player(id=f"p{k}", name=f"Player {k}", rating=rng.randrange(1000, 2700)) for k in range(n_players)]
    settings = settings_for_preset("chess", pairing="optimal", planned_rounds=9)
    event = Event(settings=settings, players=tuple(players))
    for number in range(1, rounds + 1):
        result = pairing.pair(pairing.from_event(event, number, seed=rng.randrange(2**31)))
        matches = []
        for p in result.pairs:
            x = rng.random()
            if x < 0.03:
                matches.append(Match(p.a, p.b, result=FORFEIT))
            else:
                games = (0, 0, 1) if x < 0.36 else (1, 0, 0) if x < 0.68 else (0, 1, 0)
                matches.append(Match(p.a, p.b, games))
        matches.extend(Match(b, None, result=BYE) for b in result.byes)
        event = Event(event.settings, event.players, (*event.rounds, Round(number, tuple(matches))))
    return event


def corpus(low: int, high: int, folder: Path = ROOT / "tests" / "data" / "dutch") -> None:
    """Pair every round of the corpus tournaments of that size; print those not identical to bbpPairings."""
    from swiss import trf

    same = total = 0
    for path in sorted(folder.glob("*.trf")):
        size = int(path.stem.split("-")[1].rstrip("p"))
        if not low < size <= high:
            continue
        event = trf.loads(path.read_text(), points_by_player)
        recorded: dict[int, tuple[set, str | None]] = {}
        for line in path.with_suffix(".bbp").read_text().splitlines():
            if line.startswith("round"):
                number = int(line.split()[1])
                recorded[number] = (set(), None)
            else:
                white, black = line.split()
                pairs, bye = recorded[number]
                recorded[number] = (pairs, white) if black == "0" else (pairs | {(white, black)}, bye)
        start, differ = time.process_time(), []
        for number, expected in recorded.items():
            inp = dutch_from_event(event, number)
            if number == 1 and event.settings.initial_colour is None:  # drawn by lot: round 1's games show it
                inp = replace(inp, initial_colour=initial_colour(event, round_number=len(event.rounds) + 1))
            result = pair_dutch(inp)
            ours = ({(p.a, p.b) for p in result.pairs}, result.byes[0] if result.byes else None)
            total += 1
            same += ours == expected
            if ours != expected:
                differ.append(number)
        print(
            f"{path.stem}: {len(recorded)} rounds, differ {differ}, {time.process_time() - start:.1f} s CPU", flush=True
        )
    print(f"identical: {same}/{total} rounds")


def main() -> None:
    if sys.argv[1:2] == ["corpus"]:
        rest = sys.argv[2:]
        folder = ROOT / "tests" / "data" / "dutch"
        if "--dir" in rest:
            at = rest.index("--dir")
            folder = Path(rest[at + 1])
            del rest[at : at + 2]
        low, high = (int(a) for a in (rest or ["0", "1000"]))
        corpus(low, high, folder)
        return
    args = sys.argv[1:]
    seeds, played = 3, ROUNDS
    if "--seeds" in args:
        at = args.index("--seeds")
        seeds = int(args[at + 1])
        del args[at : at + 2]
    if "--round" in args:
        at = args.index("--round")
        played = int(args[at + 1]) - 1
        del args[at : at + 2]
    sizes = [int(a) for a in args] or [100, 250, 500, 1000, 2000]
    print(f"{'players':>8} {'round':>5} {'groups':>6} {'worst s':>8} {'each tournament (CPU s)':<28} target")
    for n in sizes:
        times, groups = [], 0
        for seed in range(1, seeds + 1):
            event = play(n, rounds=played, seed=seed)
            inp = dutch_from_event(event, played + 1)
            start = time.process_time()
            result = pair_dutch(inp)
            times.append(time.process_time() - start)
            groups = max(groups, len(set(_scores(event, played + 1))))
            assert len(result.pairs) == n // 2
        limit = {500: 0.5, 2000: 5.0}.get(n)
        target = f"< {limit} s: {'met' if max(times) < limit else 'NOT MET'}" if limit else ""
        each = " ".join(f"{t:.2f}" for t in times)
        print(f"{n:>8} {played + 1:>5} {groups:>6} {max(times):>8.2f} {each:<28} {target}", flush=True)


def _scores(event: Event, number: int):
    inp = pairing.entrants_from_event(event, number)
    return [e.points for e in inp.entrants]


if __name__ == "__main__":
    main()
