"""Regenerate the FIDE Dutch corpus (tests/data/dutch/) with bbpPairings, a FIDE-endorsed Dutch engine.

    python bench/dutch_corpus.py --bbp /path/to/bbpPairings.exe        (or BBP_PAIRINGS=... in the environment)

Each tournament is played round by round: before a round, players withdraw, request a half- or zero-point
bye, or have not joined yet (a late entry, absent with a zero-point bye until they join); bbpPairings
pairs the round from the history (`--dutch FILE -p`); then results are drawn at random (draws, forfeits,
wins by rating). The finished tournament is written as `NAME.trf`, and what bbpPairings answered for every
round as `NAME.bbp` ("round N" then one "white black" line a game, "player 0" for the bye), so the test
needs neither bbpPairings nor this script. CI never runs it.

Pairing numbers are the players in the order the rules allocate them (rating, then title, then name), so
an event built from the file numbers them the same way.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "dutch"
TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
SURNAMES = (
    "Andersen",
    "Berg",
    "Carlsen",
    "Dahl",
    "Eriksen",
    "Fischer",
    "Gelfand",
    "Hansen",
    "Ito",
    "Jensen",
    "Kato",
    "Larsen",
    "Mori",
    "Nielsen",
    "Ono",
    "Petrov",
    "Quist",
    "Rasmussen",
    "Sato",
    "Tal",
)


@dataclass
class Entry:
    opponent: int = 0  # 0: none
    colour: str = "-"
    result: str = ""


@dataclass
class Entrant:
    number: int
    name: str
    rating: int
    title: str
    joins: int = 1  # first round played (a late entry joins later)
    withdraws: int | None = None  # first round missed for good
    entries: list[Entry] = field(default_factory=list)

    def points(self) -> Fraction:
        value = {"1": 1, "=": Fraction(1, 2), "0": 0, "+": 1, "-": 0, "U": 1, "H": Fraction(1, 2), "Z": 0, "F": 1}
        return sum((Fraction(value[e.result]) for e in self.entries if e.result), Fraction(0))


def trf(name: str, players: list[Entrant], rounds: int, initial: str) -> str:
    lines = [f"012 {name}", f"XXR {rounds}", f"XXC {initial}"]
    if name.startswith("baku"):
        lines.append("192 FIDE_DUTCH_2025_BAKU")  # accelerated pairings, Baku method (C.04.5.1)
    for p in players:
        head = (
            f"001 {p.number:4d} m{p.title:>3} {p.name:<33} {p.rating:4d} DEN {'':>11} {'':>10} "
            f"{float(p.points()):4.1f} {p.number:4d}"
        )
        blocks = "".join(
            "  " + (f"{e.opponent:4d}" if e.opponent else "0000") + f" {e.colour} {e.result}" if e.result else " " * 10
            for e in p.entries
        )
        lines.append((head + blocks).rstrip())
    return "\n".join(lines) + "\n"


def bbp_pair(exe: str, text: str) -> tuple[list[tuple[int, int]], int | None]:
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.trf", Path(tmp) / "out.txt"
        src.write_text(text)
        run = subprocess.run([exe, "--dutch", str(src), "-p", str(out)], capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"bbpPairings refused: {run.stdout}{run.stderr}\n{text}")
        rows = out.read_text().split()
    pairs, bye = [], None
    for i in range(1, len(rows), 2):
        w, b = int(rows[i]), int(rows[i + 1])
        if b == 0:
            bye = w
        else:
            pairs.append((w, b))
    return pairs, bye


def expected(white: Entrant, black: Entrant) -> float:
    return 1 / (1 + 10 ** ((black.rating - white.rating - 35) / 400))


def bbp_pairer(exe: str):
    return lambda name, players, rounds, initial, r: bbp_pair(exe, trf(name, players, rounds, initial))


def own_pair(name: str, players: list[Entrant], rounds: int, initial: str, r: int):
    """Our own Dutch engine's pairing of round r (the players' entries for it: blank, or an absence)."""
    from pairing.dutch import BLACK, WHITE, DutchInput, DutchPlayer, Game, pair_dutch

    value = {"1": 1, "=": Fraction(1, 2), "0": 0, "+": 1, "-": 0, "U": 1, "H": Fraction(1, 2), "Z": 0, "F": 1}
    people = []
    for p in players:
        games = tuple(
            Game(
                points=Fraction(value[e.result]),
                opponent=str(e.opponent) if e.opponent else None,
                colour={"w": WHITE, "b": BLACK}.get(e.colour, "") if e.result in "1=0" else "",
                played=bool(e.opponent) and e.result in "1=0",
                pairing_bye=e.result == "U",
            )
            for e in p.entries[: r - 1]
        )
        people.append(DutchPlayer(str(p.number), p.number, games))
    present = frozenset(str(p.number) for p in players if not p.entries[r - 1].result)
    colour = WHITE if initial == "white1" else BLACK
    result = pair_dutch(DutchInput(r, rounds, tuple(people), present, initial_colour=colour))
    pairs = [(int(x.a), int(x.b)) for x in result.pairs]
    return pairs, (int(result.byes[0]) if result.byes else None)


def tournament(pairer, name: str, size: int, rounds: int, rng: random.Random) -> tuple[str, str]:
    draws, forfeits, byes = rng.choice((0.1, 0.3, 0.5)), rng.choice((0.0, 0.02, 0.05)), rng.choice((0.0, 0.02, 0.05))
    ratings = [rng.randint(1200, 2700) for _ in range(size)]
    for _ in range(size // 10):  # some equal ratings, so titles and names decide the order
        ratings[rng.randrange(size)] = ratings[rng.randrange(size)]
    people = []
    for i, rating in enumerate(ratings):
        title = rng.choice(TITLES) if rating > 2300 and rng.random() < 0.6 else ""
        people.append((rating, title, f"{rng.choice(SURNAMES)}, Player{i:03d}"))
    order = {t: k for k, t in enumerate(TITLES)}
    people.sort(key=lambda x: (-x[0], order.get(x[1], len(TITLES)), x[2]))
    players = [Entrant(k + 1, n, r, t) for k, (r, t, n) in enumerate(people)]
    for p in rng.sample(players, max(0, size // 12)):
        p.joins = rng.randint(2, max(2, rounds // 2))
    for p in rng.sample(players, max(0, size // 15)):
        p.withdraws = rng.randint(3, rounds)
    initial = rng.choice(("white1", "black1"))
    record = []
    for r in range(1, rounds + 1):
        present = []
        for p in players:
            if r < p.joins:
                p.entries.append(Entry(result="Z"))
            elif p.withdraws is not None and r >= p.withdraws:
                p.entries.append(Entry(result="-"))
            elif r < rounds and rng.random() < byes:
                p.entries.append(Entry(result=rng.choice("HHZ")))
            else:
                p.entries.append(Entry())
                present.append(p)
        if len(present) < 2:
            raise RuntimeError("too few players present")
        # The round's own entries stay blank for the players to pair: that is what bbpPairings pairs.
        pairs, bye = pairer(name, players, rounds, initial, r)
        record.append(f"round {r}")
        record.extend(f"{w} {b}" for w, b in pairs)
        if bye is not None:
            record.append(f"{bye} 0")
            players[bye - 1].entries[-1] = Entry(result="U")
        for w, b in pairs:
            white, black = players[w - 1], players[b - 1]
            if rng.random() < forfeits:
                win = rng.random() < 0.5
                white.entries[-1] = Entry(b, "w", "+" if win else "-")
                black.entries[-1] = Entry(w, "b", "-" if win else "+")
                continue
            x = rng.random()
            if x < draws:
                rw, rb = "=", "="
            elif rng.random() < expected(white, black):
                rw, rb = "1", "0"
            else:
                rw, rb = "0", "1"
            white.entries[-1] = Entry(b, "w", rw)
            black.entries[-1] = Entry(w, "b", rb)
    return trf(name, players, rounds, initial), "\n".join(record) + "\n"


# (players, rounds) of the corpus: mostly small and medium fields, a few large ones.
def plan(rng: random.Random) -> list[tuple[int, int]]:
    sizes = [rng.randint(10, 30) for _ in range(36)] + [rng.randint(31, 80) for _ in range(26)]
    sizes += [rng.randint(81, 200) for _ in range(10)] + [rng.randint(201, 400) for _ in range(3)]
    return [(n, rng.randint(5, min(13, max(5, n // 2)))) for n in sizes]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bbp", default=os.environ.get("BBP_PAIRINGS"), help="the bbpPairings executable")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--own", type=int, default=0, help="instead: N tournaments paired by our engine, checked by bbpPairings -c"
    )
    parser.add_argument("--baku", type=int, default=0, help="instead: N tournaments with Baku acceleration")
    parser.add_argument(
        "--big", default="", help="instead: tournaments of these sizes, PLAYERSxROUNDS, comma-separated (400x9)"
    )
    parser.add_argument(
        "--rtg", type=int, default=0, help="instead: N tournaments made whole by bbpPairings' own generator (-g)"
    )
    parser.add_argument(
        "--exported",
        type=int,
        default=0,
        help="instead: N events run as the app runs them (players registered in any order) and exported by its "
        "TRF writer, checked by bbpPairings -c",
    )
    args = parser.parse_args()
    if not args.bbp:
        sys.exit("give the bbpPairings executable: --bbp PATH or BBP_PAIRINGS=PATH")
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.own:
        own(args.bbp, args.own, args.out / "own", rng)
        return
    if args.rtg:
        generated(args.bbp, args.rtg, args.out, rng)
        return
    if args.exported:
        exported(args.bbp, args.exported, args.out / "own", rng)
        return
    if args.big:
        sets = ((f"big{k:02d}", *(int(part) for part in spec.split("x"))) for k, spec in enumerate(args.big.split(",")))
    elif args.baku:
        sets = _baku(args.baku, rng)
    else:
        sets = ((f"t{k:03d}", size, rounds) for k, (size, rounds) in enumerate(plan(rng)))
    for prefix, size, rounds in sets:
        name = f"{prefix}-{size}p-{rounds}r"
        text, record = tournament(bbp_pairer(args.bbp), name, size, rounds, rng)
        (args.out / f"{name}.trf").write_text(text)
        (args.out / f"{name}.bbp").write_text(record)
        print(name, flush=True)


def _baku(count: int, rng: random.Random):
    """The accelerated set: each tournament's size and rounds drawn just before it is played."""
    for k in range(count):
        size = rng.randint(12, 60)
        yield f"baku{k:02d}", size, rng.randint(5, min(11, size // 2))


def generated(exe: str, count: int, out: Path, rng: random.Random) -> None:
    """Tournaments bbpPairings' random tournament generator makes whole (`-g CONFIG`: its own pairings,
    results, forfeits, half-point byes and retirements, with the configuration drawn here), kept as it
    writes them (line ends made newlines). It writes no initial colour: round 1's was drawn by lot, and
    its games show which. The record is read from the file itself."""
    with tempfile.TemporaryDirectory() as work:
        config, made = Path(work) / "config.txt", 0
        while made < count:
            size, rounds = rng.randint(10, 120), rng.randint(5, 13)
            config.write_text(
                f"PlayersNumber={size}\nRoundsNumber={rounds}\nDrawPercentage={rng.randint(0, 60)}\n"
                f"ForfeitRate={rng.randint(0, 40)}\nRetiredRate={rng.randint(0, 60)}\n"
                f"HalfPointByeRate={rng.randint(0, 60)}\nHighestRating=2700\nLowestRating={rng.choice((0, 1000, 1400))}\n"
            )
            name = f"rtg{made:02d}-{size}p-{rounds}r"
            path = out / f"{name}.trf"
            seed = str(rng.randrange(2**31))
            done = subprocess.run([exe, "--dutch", "-g", str(config), "-o", str(path), "-s", seed], capture_output=True)
            if done.returncode:  # no pairing exists for some round (a small field): another one
                path.unlink(missing_ok=True)
                continue
            text = path.read_text().replace("\r\n", "\n").replace("\r", "\n")
            path.write_text(text if text.endswith("\n") else text + "\n")
            (out / f"{name}.bbp").write_text(_record_of(text, rounds))
            print(name, flush=True)
            made += 1


def _record_of(text: str, rounds: int) -> str:
    """A finished TRF's pairings, round by round, as NAME.bbp records them (white black; the bye, 0)."""
    record = []
    lines = [line for line in text.splitlines() if line.startswith("001")]
    for r in range(rounds):
        record.append(f"round {r + 1}")
        for line in lines:
            number, cell = line[4:8].strip(), line[91 + 10 * r : 99 + 10 * r]
            opponent, colour, result = cell[:4].strip(), cell[5:6], cell[7:8]
            if opponent in ("0000", number) and result == "U":
                record.append(f"{number} 0")
            elif colour == "w" and opponent not in ("0000", number):
                record.append(f"{number} {opponent}")
    return "\n".join(record) + "\n"


def exported(exe: str, count: int, out: Path, rng: random.Random) -> None:
    """Events run as the app runs them: players registered in any order (their pairing numbers are not their
    registration numbers), each round paired by pairing.from_event and pair() (the FIDE Dutch system of the
    chess preset), results drawn (draws, forfeits, a requested half-point bye now and then), then written by
    the app's own TRF writer (swiss/trf.py, with the standings' points) and checked by bbpPairings -c.
    NAME.ours: our pairing of every round, in the file's numbers."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import pairing
    import standings
    from swiss import trf
    from swiss.model import BYE, FORFEIT, HALF_BYE, Event, Match, Player, Round, settings_for_preset

    out.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        size, rounds = rng.randint(10, 40), rng.randint(5, 9)
        name = f"exp{k:02d}-{size}p-{rounds}r"
        people = tuple(
            Player(
                id=f"p{n}",
                name=f"{rng.choice(SURNAMES)}, Player{n:03d}",
                rating=rng.choice((0, *range(1400, 2700))),
                number=n,
            )
            for n in range(1, size + 1)
        )
        settings = settings_for_preset(
            "chess", name=name, planned_rounds=rounds, initial_colour=rng.choice(("white", "black"))
        )
        event = Event(settings=settings, players=people)
        record = []
        for r in range(1, rounds + 1):
            asked = rng.sample([p.id for p in people], k=rng.randint(0, 2) if r < rounds else 0)
            event = Event(
                event.settings,
                tuple(
                    replace(p, requested_byes=(*p.requested_byes, (r, HALF_BYE))) if p.id in asked else p
                    for p in event.players
                ),
                event.rounds,
            )
            result = pairing.pair(pairing.from_event(event, r))
            matches = []
            for g in result.pairs:
                x = rng.random()
                if x < 0.04:
                    matches.append(Match(g.a, g.b, result=FORFEIT, white=g.a))
                else:
                    matches.append(Match(g.a, g.b, (0, 0, 1) if x < 0.36 else (1, 0, 0) if x < 0.68 else (0, 1, 0)))
            matches += [Match(b, None, result=BYE) for b in result.byes]
            matches += [Match(pid, None, result=kind) for pid, kind in pairing.requested_byes(event, r).items()]
            event = Event(event.settings, event.players, (*event.rounds, Round(r, tuple(matches))))
            record.append((r, result))
        table = standings.compute(event)
        text = trf.dumps(
            event, {row.player_id: row.rank for row in table.rows}, {row.player_id: row.points for row in table.rows}
        )
        rank = trf.start_ranks(event)
        lines = []
        for r, result in record:
            lines.append(f"round {r}")
            lines += [f"{rank[g.a]} {rank[g.b]}" for g in result.pairs]
            lines += [f"{rank[b]} 0" for b in result.byes]
        path = out / f"{name}.trf"
        path.write_text(text)
        (out / f"{name}.ours").write_text("\n".join(lines) + "\n")
        check = subprocess.run([exe, "--dutch", str(path), "-c"], capture_output=True, text=True)
        verdict = "\n".join(line.replace(str(path), name) for line in (check.stdout + check.stderr).splitlines())
        (out / f"{name}.check").write_text(f"exit status {check.returncode}\n{verdict}\n")
        print(name, check.returncode, flush=True)


def own(exe: str, count: int, out: Path, rng: random.Random) -> None:
    """Whole tournaments paired by our engine, exported as TRF, and bbpPairings' checker's verdict on each."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    out.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        size, rounds = rng.randint(10, 40), rng.randint(5, 9)
        name = f"own{k:02d}-{size}p-{rounds}r"
        text, record = tournament(own_pair, name, size, rounds, rng)
        path = out / f"{name}.trf"
        path.write_text(text)
        (out / f"{name}.ours").write_text(record)
        check = subprocess.run([exe, "--dutch", str(path), "-c"], capture_output=True, text=True)
        verdict = "\n".join(line.replace(str(path), name) for line in (check.stdout + check.stderr).splitlines())
        (out / f"{name}.check").write_text(f"exit status {check.returncode}\n{verdict}\n")
        print(name, check.returncode, flush=True)


if __name__ == "__main__":
    main()
