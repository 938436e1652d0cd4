"""The command line of the file tools: `swiss pair | standings | check FILE`, `swiss generate` (docs/tools.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

from pairing.tools.files import SECTION_HELP, FileRefused, read_event_bytes, sections_to_run, without_cycle_collector
from pairing.tools.prizes import PRIZES_HELP, run_prizes
from swiss.model import Event

FORMAT_HELP = "text: a table for people (default); json: one document for programs"
OUTLOOK_HELP = (
    "before the last results of the round being played: for each player and each result of their own match, "
    "in / out / depends for the top N places (docs/explanations.md)"
)
OUTLOOK_POINTS_HELP = "the same for a line of P match points or more (a Day-2 cut), P as 18, 4.5 or 1/2"
NORMS_HELP = (
    "FIDE title norms (GM, IM, WGM, WIM): for each player, achieved / possible / not possible (docs/ratings.md)"
)
TIEBREAK_RULES_HELP = (
    "the edition of the FIDE tie-break regulations (C.07) to rank by, whatever the event's date: 2024 (August "
    "2024) or 2026 (March 2026); a TRF has no field for it (docs/tiebreakers.md)"
)
WHY_NOT_HELP = "two player ids as in the file: why the round does not pair them together (docs/explanations.md)"
EXPLAIN_HELP = 'why each player is paired as they are (docs/explanations.md): a line per player, in JSON "why"'


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="swiss",
        description="Pair, rank and check a Swiss tournament from its swiss-event JSON or FIDE TRF file.",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    pair = commands.add_parser("pair", help="print the pairing of the next round")
    standings = commands.add_parser("standings", help="print the standings")
    prizes = commands.add_parser("prizes", help=PRIZES_HELP)
    check = commands.add_parser(
        "check", help="pair every round again and rank the players again; list what differs (exit status 1)"
    )
    for sub in (pair, standings, check, prizes):
        sub.add_argument("file", metavar="FILE", help="swiss-event JSON file or FIDE TRF-16 file")
        sub.add_argument("--format", choices=("json", "text"), default="text", help=FORMAT_HELP)
        sub.add_argument("--section", metavar="NAME", help=SECTION_HELP + "; --format json needs one")
    for sub in (standings, check):
        sub.add_argument("--tiebreak-rules", choices=("2024", "2026"), metavar="2024|2026", help=TIEBREAK_RULES_HELP)
    pair.add_argument(
        "--seed", type=int, metavar="N", help="random seed, to reproduce a pairing (default: a new one, printed)"
    )
    pair.add_argument("--why-not", metavar="A,B", help=WHY_NOT_HELP)
    pair.add_argument("--explain", action="store_true", help=EXPLAIN_HELP)
    standings.add_argument(
        "--after-round", type=int, metavar="N", help="standings after Swiss round N (default: the last with a result)"
    )
    line = standings.add_mutually_exclusive_group()
    line.add_argument("--outlook", type=int, metavar="N", help=OUTLOOK_HELP)
    line.add_argument("--outlook-points", metavar="P", help=OUTLOOK_POINTS_HELP)
    line.add_argument("--norms", action="store_true", help=NORMS_HELP)
    generate = commands.add_parser(
        "generate", help="write a random tournament paired by the Dutch system, as a TRF (docs/tools.md)"
    )
    generate.add_argument("--players", type=int, required=True, metavar="N")
    generate.add_argument("--rounds", type=int, required=True, metavar="R")
    generate.add_argument("--seed", type=int, default=1, metavar="S", help="the same seed gives the same file")
    generate.add_argument("--baku", action="store_true", help="the Baku acceleration (C.04.5.1)")
    for option, what in (
        ("--half-byes", "a player asks for a half-point bye"),
        ("--zero-byes", "a player asks for a zero-point bye"),
        ("--full-byes", "a player asks for a full-point bye"),
        ("--forfeits", "a game is lost by forfeit"),
        ("--unusual", "a game is a double forfeit"),
        ("--absences", "a player withdraws, absent from every round left"),
    ):
        generate.add_argument(option, type=float, default=0.0, metavar="P", help=f"percent chance {what}")
    generate.add_argument(
        "--tiebreaks", default="BH-C1,BH,SB,DE", metavar="LIST", help="the tie-break list (202), comma-separated"
    )
    generate.add_argument("--rating-range", default="1400-2700", metavar="LO-HI")
    generate.add_argument("-o", "--output", metavar="FILE", help="write the TRF here (default: standard output)")
    return top


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run a tool; the exit status: 0 done (check: all agree), 1 check found a difference, 2 the file (or the
    round asked for) cannot be worked on."""
    args = parser().parse_args(argv)
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        with without_cycle_collector():
            if args.command == "pair":
                text = run_pair(args.file, args.seed, args.format, args.section, args.why_not, args.explain)
                status = 0
            elif args.command == "standings" and (args.outlook is not None or args.outlook_points is not None):
                text = run_outlook(
                    args.file, args.format, args.section, args.outlook, args.outlook_points, args.tiebreak_rules
                )
                status = 0
            elif args.command == "standings" and args.norms:
                text, status = run_norms(args.file, args.format, args.section), 0
            elif args.command == "standings":
                text = run_standings(args.file, args.format, args.after_round, args.section, args.tiebreak_rules)
                status = 0
            elif args.command == "prizes":
                text, status = run_prizes(args.file, args.format, args.section), 0
            elif args.command == "generate":
                text, status = run_generate(args), 0
            else:
                text, status = run_check(args.file, args.format, args.section, args.tiebreak_rules)
    except FileRefused as e:
        err.write(f"swiss {args.command}: {e}\n")
        return e.status
    out.write(text)
    return status


def run_pair(
    file: str, seed: int | None, format: str, section: str | None, why_not: str | None = None, explain: bool = False
) -> str:
    """What `swiss pair` and `manage.py pair` print (with why_not "A,B": why the round does not pair A with B; with
    explain, why each player is paired as they are). A round that cannot be paired is a FileRefused."""
    from random import SystemRandom  # the operating system's randomness, as the secrets module's (a slower import)

    from pairing.tools.next_round import next_round, to_json, to_text, why, why_not_json, why_not_text
    from pairing.types import PairingError

    if seed is None:
        seed = SystemRandom().randrange(2**31)
    doc = read_event_bytes(file)[0]
    parts = []
    for k, (heading, event) in enumerate(
        sections_to_run(doc, file, section, one=format == "json" or why_not is not None)
    ):
        if heading is not None:
            parts.append(("\n" if k else "") + f"== {heading} ==\n\n")
        try:
            done = next_round(event, seed)
        except PairingError as e:
            raise FileRefused(f"{file}: {e}") from None
        if why_not is not None:
            answer = _why_not(file, event, done, why_not)
            text = json.dumps(why_not_json(answer), ensure_ascii=False, indent=1) + "\n"
            parts.append(text if format == "json" else why_not_text(answer, event))
        elif format == "json":
            reasons = why(done, event) if explain else None
            parts.append(json.dumps(to_json(done.result, done.requested, reasons), ensure_ascii=False, indent=1) + "\n")
        else:
            reasons = why(done, event) if explain else None
            parts.append(to_text(done.result, done.shown, event, done.requested, reasons))
    return "".join(parts)


def _why_not(file: str, event: Event, done, players: str):
    """The answer of pairing.explain.why_not for --why-not A,B; a FileRefused for ids the file lacks."""
    from pairing.explain import why_not

    ids = [part.strip() for part in players.split(",")]
    known = {p.id for p in event.players}
    if len(ids) != 2 or ids[0] == ids[1]:
        raise FileRefused("--why-not needs two different player ids, as A,B")
    unknown = [pid for pid in ids if pid not in known]
    if unknown:
        raise FileRefused(f"{file}: no player {unknown[0]} (--why-not takes the ids of the file)")
    if done.inp is None:
        raise FileRefused(f"{file}: --why-not explains a Swiss round; the next round is the top cut's")
    return why_not(done.inp, done.result, ids[0], ids[1])


def run_standings(
    file: str, format: str, after_round: int | None, section: str | None, tiebreak_rules: str | None = None
) -> str:
    """What `swiss standings` and `manage.py standings` print (`tiebreak_rules`: the C.07 edition named)."""
    from standings import StandingsError, compute, dumps_json, to_text
    from standings.rating import has_ratings, rating_changes

    if after_round is not None and after_round < 0:
        raise FileRefused("--after-round must be 0 or more")
    parts = []
    doc, _, is_trf = read_event_bytes(file)
    for heading, event in sections_to_run(doc, file, section, one=format == "json"):
        if is_trf:
            event = by_file_tiebreakers(event, file)
        event = with_edition(event, tiebreak_rules)
        try:
            result = compute(event, after_round)
        except StandingsError as e:
            raise FileRefused(f"{file}: {e}") from None
        ratings = rating_changes(event, result.after_round) if has_ratings(event) else None
        text = dumps_json(result, ratings) if format == "json" else to_text(result, ratings)
        parts.append(text if heading is None else f"== {heading} ==\n\n{text}")
    return "\n".join(parts)


def run_outlook(
    file: str,
    format: str,
    section: str | None,
    places: int | None,
    points: str | None,
    tiebreak_rules: str | None = None,
) -> str:
    """What `swiss standings --outlook N` (or `--outlook-points P`) prints: what each player needs from their
    own match in the round being played. A round that is not paired, or finished, is a FileRefused."""
    from fractions import Fraction

    from standings import StandingsError
    from standings.outlook import OutlookRefused, outlook
    from swiss.model import parse_fraction

    line: Fraction | None = None
    if points is not None:
        try:
            line = parse_fraction(points)
        except ValueError:
            raise FileRefused(f"--outlook-points: {points!r} is not a number such as 18, 4.5 or 1/2") from None
    if places is not None and places < 1:
        raise FileRefused("--outlook must be 1 or more")
    doc, _, is_trf = read_event_bytes(file)
    parts = []
    for heading, event in sections_to_run(doc, file, section, one=format == "json"):
        if is_trf:
            event = by_file_tiebreakers(event, file)
        event = with_edition(event, tiebreak_rules)
        try:
            result = outlook(event, places=places, points=line)
        except (OutlookRefused, StandingsError) as e:
            raise FileRefused(f"{file}: {e}") from None
        if format == "json":
            parts.append(json.dumps(result.as_dict(), ensure_ascii=False, indent=1) + "\n")
        else:
            names = {p.id: p.name for p in event.players}
            lines = [f"== {heading} ==\n"] if heading is not None else []
            for p in result.players:
                lines.append(f"{names[p.player_id]} ({p.player_id}): " + " ".join(p.sentences(result)))
            parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def run_norms(file: str, format: str, section: str | None) -> str:
    """What `swiss standings --norms` prints: every player's FIDE title norm chances (standings.norms)."""
    from standings.norms import as_json, norms, to_text

    doc = read_event_bytes(file)[0]
    parts = []
    for heading, event in sections_to_run(doc, file, section, one=format == "json"):
        result = norms(event)
        text = json.dumps(as_json(result), ensure_ascii=False, indent=1) + "\n" if format == "json" else to_text(result)
        parts.append(text if heading is None else f"== {heading} ==\n\n{text}")
    return "\n".join(parts)


def by_file_tiebreakers(event: Event, file: str) -> Event:
    """A TRF's event ranked by the tie-break list its 202 (or 212) record names, when it names one."""
    from swiss.tiebreakers import TIEBREAKERS
    from swiss.trfheader import tiebreak_record

    codes = tiebreak_record(event.settings.trf_header)
    if codes is None:
        return event
    unknown = [code for code in codes if code not in TIEBREAKERS]
    if unknown:
        raise FileRefused(f"{file}: the tie-break list names {', '.join(unknown)}, which this program does not know")
    return replace(event, settings=replace(event.settings, tiebreakers=codes))


def with_edition(event: Event, tiebreak_rules: str | None) -> Event:
    """The event ranked by the C.07 edition named on the command line (`--tiebreak-rules`), whatever its date or
    its file's own choice; as it is when none is named."""
    if not tiebreak_rules:
        return event
    return replace(event, settings=replace(event.settings, tiebreak_rules=tiebreak_rules))


def run_check(file: str, format: str, section: str | None, tiebreak_rules: str | None = None) -> tuple[str, int]:
    """What `swiss check` prints, and its exit status (0 all agree, 1 something differs); `tiebreak_rules`: the
    C.07 edition the standings are ranked by, when named."""
    from pairing.tools.check import CheckRefused, check, to_json, to_text
    from swiss.trf import rank_column
    from swiss.trfheader import tiebreak_record

    doc, data, is_trf = read_event_bytes(file)
    parts = []
    status = 0
    for heading, event in sections_to_run(doc, file, section, one=format == "json"):
        event = with_edition(event, tiebreak_rules)
        if is_trf:
            ranks: dict[str, int] | None = rank_column(data)
            tiebreakers = tiebreak_record(event.settings.trf_header)
        else:
            # A swiss-event file records no ranks: its standings are not checked (the report says so).
            ranks, tiebreakers = None, tuple(event.settings.tiebreakers)
        try:
            report = check(event, ranks, tiebreakers)
        except CheckRefused as e:
            raise FileRefused(f"{file}: {e}") from None
        status = max(status, 0 if report.ok else 1)
        if format == "json":
            parts.append(json.dumps(to_json(report), ensure_ascii=False, indent=1) + "\n")
        else:
            parts.append(("" if heading is None else f"== {heading} ==\n\n") + to_text(report))
    return "\n".join(parts), status


def run_generate(args: argparse.Namespace) -> str:
    """What `swiss generate` prints: the TRF, or nothing when it is written to -o FILE."""
    from pairing.tools.generate import GenerateError, Options, generate, parse_range
    from pairing.types import PairingError

    try:
        low, high = parse_range(args.rating_range)
        text = generate(
            Options(
                players=args.players,
                rounds=args.rounds,
                seed=args.seed,
                baku=args.baku,
                half_byes=args.half_byes,
                zero_byes=args.zero_byes,
                full_byes=args.full_byes,
                forfeits=args.forfeits,
                unusual=args.unusual,
                absences=args.absences,
                tiebreaks=tuple(code.strip() for code in args.tiebreaks.split(",") if code.strip()),
                rating_low=low,
                rating_high=high,
            )
        )
    except (GenerateError, PairingError) as e:
        raise FileRefused(str(e)) from None
    if args.output is None:
        return text
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise FileRefused(f"{args.output}: cannot write file ({e.strerror})") from None
    return ""
