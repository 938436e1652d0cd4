"""Regenerate tests/data/conventions/ with bbpPairings: tournaments whose files are written as arbiters write
them before pairing a round, each round paired by bbpPairings from that file.

    python bench/trf_conventions.py --bbp /path/to/bbpPairings.exe       (or BBP_PAIRINGS=... in the environment)

The conventions, drawn per tournament and named on its `### conventions:` line:

* `points-with-byes`: the points column counts the byes already entered for the round to be paired (as
  bbpPairings' checker wants); otherwise it does not (as bbpPairings' pairing mode also accepts).
* `blank-late`: a late entrant is added to the file when they arrive, their missed rounds left blank;
  otherwise they are in it from the start, with a zero-point bye (Z) for each round missed.
* `xxa`: manual accelerations (XXA lines) for the upper half.

Always: a player absent for one round has "0000 - -" entered for it before the pairing, and comes back; a
withdrawn player has "0000 - -" entered for every round from the withdrawal on; half-, full- and
zero-point byes are asked for now and then.

Each tournament is written whole as `NAME.trf` (every round played), with `NAME.bbp`: bbpPairings' answer for
each round ("round N", then "white black" a game and "player 0" for the bye). The file bbpPairings paired
round N from is the whole file cut back by `round_file` of tests/engines/test_trf_conventions.py: the rounds before N, round N's column with only what was entered before pairing it (byes and
absences), the points column as the convention writes it, and (blank-late) only the players who have
arrived. CI never runs this script; the test needs neither it nor bbpPairings.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.engines.test_trf_conventions import VALUE, round_file  # noqa: E402  (the test cuts the files the same way)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dutch_corpus import bbp_pair  # noqa: E402  (bbpPairings run on one file, as the Dutch corpus runs it)

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "conventions"


def block(entry: tuple[int, str, str]) -> str:
    opponent, colour, result = entry
    if not result:
        return " " * 8
    return (f"{opponent:4d}" if opponent else "0000") + f" {colour} {result}"


def whole_file(name: str, conventions: list[str], people: list[dict], rounds: int, initial: str) -> str:
    lines = [f"012 {name}", f"### conventions: {' '.join(conventions)}", f"XXR {rounds}", f"XXC {initial}"]
    for p in people:
        if p["xxa"]:
            lines.append(f"XXA {p['number']:4d}" + "".join(f" {float(a):4.1f}" for a in p["xxa"]))
    for p in people:
        points = sum((VALUE[e[2]] for e in p["entries"]), Fraction(0))
        head = (
            f"001 {p['number']:4d} m{p['title']:>3} {p['name']:<33} {p['rating']:4d} DEN {'':>11} {'':>10} "
            f"{float(points):4.1f} {p['number']:4d}"
        )
        lines.append((head + "".join("  " + block(e) for e in p["entries"])).rstrip())
    return "\n".join(lines) + "\n"


def tournament(exe: str, name: str, size: int, rounds: int, rng: random.Random) -> tuple[str, str]:
    conventions = [c for c in ("points-with-byes", "blank-late", "xxa") if rng.random() < 0.5]
    ratings = sorted((rng.randint(1200, 2600) for _ in range(size)), reverse=True)
    late = sorted(rng.sample(range(size), max(1, size // 8)))
    joins = {k: rng.randint(2, max(2, rounds - 2)) for k in late}
    # Late entrants are numbered after everyone else, in the order they arrive (a file has no gaps).
    order = [k for k in range(size) if k not in joins] + sorted(late, key=lambda k: (joins[k], k))
    people = []
    for number, k in enumerate(order, start=1):
        people.append(
            {
                "number": number,
                "name": f"Player{number:03d}, Test",
                "rating": ratings[k],
                "title": "",
                "joins": joins.get(k, 1),
                "withdraws": None,
                "entries": [],
                "xxa": [],
            }
        )
    for p in rng.sample(people, max(1, size // 12)):
        p["withdraws"] = rng.randint(3, rounds)
    if "xxa" in conventions:
        first = rng.randint(1, 3)
        for p in people[: size // 2]:
            p["xxa"] = [Fraction(1)] * first + [Fraction(1, 2)] * rng.randint(0, 2)
    initial = rng.choice(("white1", "black1"))
    record = []
    for r in range(1, rounds + 1):
        for p in people:
            if r < p["joins"]:
                p["entries"].append((0, "", "") if "blank-late" in conventions else (0, "-", "Z"))
            elif p["withdraws"] is not None and r >= p["withdraws"]:
                p["entries"].append((0, "-", "-"))
            elif r < rounds and rng.random() < 0.04:
                p["entries"].append((0, "-", "-"))  # absent this round only
            elif r < rounds and rng.random() < 0.05:
                p["entries"].append((0, "-", rng.choice("HHZF")))
            else:
                p["entries"].append((0, " ", "*"))  # to be paired: blank in the file bbpPairings pairs
        text = round_file(whole_file(name, conventions, people, rounds, initial), r)
        pairs, bye = bbp_pair(exe, text)
        record.append(f"round {r}")
        record.extend(f"{w} {b}" for w, b in pairs)
        if bye is not None:
            record.append(f"{bye} 0")
            people[bye - 1]["entries"][-1] = (0, "-", "U")
        for w, b in pairs:
            white, black = people[w - 1], people[b - 1]
            x = rng.random()
            if x < 0.03:
                win = rng.random() < 0.5
                white["entries"][-1] = (b, "w", "+" if win else "-")
                black["entries"][-1] = (w, "b", "-" if win else "+")
                continue
            expected = 1 / (1 + 10 ** ((black["rating"] - white["rating"] - 35) / 400))
            rw, rb = ("=", "=") if x < 0.3 else ("1", "0") if rng.random() < expected else ("0", "1")
            white["entries"][-1] = (b, "w", rw)
            black["entries"][-1] = (w, "b", rb)
    return whole_file(name, conventions, people, rounds, initial), "\n".join(record) + "\n"


def exports(exe: str, count: int, rng: random.Random) -> None:
    """Events run as the app runs them (pairing.from_event, the Dutch system), exported in the middle by the
    app's TRF writer with byes asked for the next rounds, withdrawn players, later entrants and now and then
    XXA accelerations; bbpPairings' checker must accept every file (exit 0, every score, every round as it
    pairs it) and its pairing mode pair the next round as `manage.py pair` does. Prints what differs and
    the counts; writes nothing."""
    from dataclasses import replace

    import pairing
    import standings
    from swiss import trf
    from swiss.model import BYE, FULL_BYE, HALF_BYE, ZERO_BYE, Event, Match, Player, Round, settings_for_preset

    accepted = same = made = 0
    for k in range(count * 2):
        if made == count:
            break
        size, planned = rng.randint(8, 40), rng.randint(4, 9)
        played = rng.randint(1, planned - 1)
        xxa = rng.random() < 0.3
        people = tuple(
            Player(
                id=f"p{n}",
                name=f"Player{n:03d}, Test",
                rating=rng.randint(1200, 2600),
                number=n,
                accelerations=(Fraction(1),) * rng.randint(1, 3) if xxa and n <= size // 2 else (),
                joined_round=rng.randint(2, planned) if rng.random() < 0.08 else 1,
            )
            for n in range(1, size + 1)
        )
        settings = settings_for_preset("chess", name=f"export{k:03d}", planned_rounds=planned, initial_colour="white")
        event = Event(settings, people)
        for r in range(1, played + 2):
            asked = {p.id: rng.choice((HALF_BYE, HALF_BYE, ZERO_BYE, FULL_BYE)) for p in people if rng.random() < 0.06}
            gone = {p.id for p in people if r > 2 and rng.random() < 0.03}
            event = replace(
                event,
                players=tuple(
                    replace(
                        p,
                        requested_byes=(*p.requested_byes, (r, asked[p.id])) if p.id in asked else p.requested_byes,
                        dropped_after=r - 1 if p.id in gone and p.dropped_after is None else p.dropped_after,
                    )
                    for p in event.players
                ),
            )
            if r == played + 1:
                break  # the round to be paired: its byes are asked for, not played
            try:
                result = pairing.pair(pairing.from_event(event, r))
            except pairing.PairingError:  # no pairing exists for some round (a small field): another event
                break
            matches = [Match(g.a, g.b, rng.choice(((1, 0, 0), (0, 1, 0), (0, 0, 1)))) for g in result.pairs]
            matches += [Match(b, None, result=BYE) for b in result.byes]
            matches += [Match(pid, None, result=kind) for pid, kind in pairing.requested_byes(event, r).items()]
            event = replace(event, rounds=(*event.rounds, Round(r, tuple(matches))))
        if len(event.rounds) < played:
            continue
        made += 1
        table = standings.compute(event)
        text = trf.dumps(
            event, {row.player_id: row.rank for row in table.rows}, {row.player_id: row.points for row in table.rows}
        )
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "export.trf"
            path.write_text(text)
            check = subprocess.run([exe, "--dutch", str(path), "-c"], capture_output=True, text=True)
            verdict = check.stdout + check.stderr
            ok = check.returncode == 0 and "Checker pairings" not in verdict and "does not match" not in verdict
            accepted += ok
            if not ok:
                print(f"export{k:03d}: checker: exit {check.returncode}\n{verdict}\n{text}", flush=True)
            try:
                theirs = bbp_pair(exe, text)
            except RuntimeError as e:
                theirs = ("refused", str(e).splitlines()[0])
        try:
            ours = pairing.pair(pairing.from_event(trf.loads(text, standings.points_by_player)))
            start = {str(n): n for n in range(1, size + 1)}
            mine = (
                sorted((start[g.a], start[g.b]) for g in ours.pairs),
                next((start[b] for b in ours.byes if b not in ours.awarded_byes), None),
            )
        except Exception as e:  # noqa: BLE001 - a refusal is compared as such
            mine = ("refused", str(e))
        if isinstance(theirs[0], list):
            theirs = (sorted(theirs[0]), theirs[1])
        same += mine == theirs or (mine[0] == theirs[0] == "refused")
        if mine != theirs and not (mine[0] == theirs[0] == "refused"):
            print(f"export{k:03d}: round {played + 1}: ours {mine}, bbpPairings {theirs}", flush=True)
    print(f"checker accepted {accepted} of {made} exports; {same} of {made} next rounds paired the same")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bbp", default=os.environ.get("BBP_PAIRINGS"), help="the bbpPairings executable")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--exports", type=int, default=0, help="instead: check N exports with bbpPairings")
    args = parser.parse_args()
    if not args.bbp:
        sys.exit("give the bbpPairings executable: --bbp PATH or BBP_PAIRINGS=PATH")
    rng = random.Random(args.seed)
    if args.exports:
        exports(args.bbp, args.exports, rng)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    made = 0
    while made < args.count:
        size = rng.randint(9, 40) if made % 10 != 9 else rng.randint(100, 300)  # a few large fields
        rounds = rng.randint(5, min(9, size - 2))
        name = f"conv{made:02d}-{size}p-{rounds}r"
        try:
            text, record = tournament(args.bbp, name, size, rounds, rng)
        except RuntimeError as e:  # no pairing exists for some round (a small field): another one
            print(name, "skipped:", str(e).splitlines()[0], flush=True)
            continue
        (args.out / f"{name}.trf").write_text(text)
        (args.out / f"{name}.bbp").write_text(record)
        print(name, flush=True)
        made += 1


if __name__ == "__main__":
    main()
