import json
import secrets
from dataclasses import replace

from django.core.management.base import BaseCommand, CommandError

import pairing
from standings.format import display_width, pad
from swiss.model import ELIMINATION, FULL_BYE, HALF_BYE, ZERO_BYE, Event
from tournament.management.files import SECTION_HELP, read_event_file, sections_to_run, without_cycle_collector


class Command(BaseCommand):
    help = (
        "Print the pairing of the next round of the swiss-event JSON or FIDE TRF-16 file FILE: no rematch, "
        "no second bye and the fewest, smallest floats whenever possible; once the planned Swiss rounds are "
        "played, the top cut. Reads only the file, never the database."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="swiss-event JSON file or FIDE TRF-16 file")
        parser.add_argument(
            "--seed",
            type=int,
            metavar="N",
            help="random seed, to reproduce a pairing (default: a new one, printed with the pairing)",
        )
        parser.add_argument(
            "--format",
            choices=("json", "text"),
            default="text",
            help='json: {"round", "seed", "pairings": [{"table", "a", "b"}], "warnings"}; '
            "text: a table for people (default)",
        )
        parser.add_argument("--section", metavar="NAME", help=SECTION_HELP + "; --format json needs one")

    def handle(self, *args, file, seed=None, format="text", section=None, **options):
        if seed is None:
            seed = secrets.randbelow(2**31)
        with without_cycle_collector():
            events = sections_to_run(read_event_file(file), file, section, one=format == "json")
            for k, (heading, event) in enumerate(events):
                if heading is not None:
                    self.stdout.write(("\n" if k else "") + f"== {heading} ==\n\n", ending="")
                self._pair(file, event, seed, format)

    def _pair(self, file, event, seed, format):
        try:
            swiss_done = len(event.swiss_rounds()) >= (event.settings.planned_rounds or 10**6)
            if event.rounds and event.rounds[-1].kind == ELIMINATION:
                # Swiss points, shown beside the names.
                swiss = replace(event, rounds=event.swiss_rounds())
                shown = pairing.entrants_from_event(swiss, len(swiss.rounds) + 1, seed=seed)
                result = pairing.elimination_from_event(event, seed=seed)
            elif swiss_done and event.settings.top_cut >= 2:
                shown = pairing.entrants_from_event(event, seed=seed)
                result = pairing.top_cut_from_event(event, seed=seed)
            else:
                # The entrants' points are shown beside the names (the Dutch system's own input has none).
                shown = pairing.entrants_from_event(event, seed=seed)
                result = pairing.pair(pairing.engine_input(event, shown))
        except pairing.PairingError as e:
            raise CommandError(f"{file}: {e}", returncode=2) from None
        # The players who asked for a bye in this round are left out of the pairing and listed with their bye.
        requested = pairing.requested_byes(event, result.round) if result.method != ELIMINATION else {}
        if format == "json":
            self.stdout.write(json.dumps(to_json(result, requested), ensure_ascii=False, indent=1))
        else:
            self.stdout.write(to_text(result, shown, event, requested), ending="")


def to_json(result: pairing.Pairing, requested: dict[str, str] | None = None) -> dict:
    rows = [{"table": p.table, "a": p.a, "b": p.b} for p in result.pairs]
    rows += [{"table": None, "a": pid, "b": None} for pid in result.byes]
    rows += [{"table": None, "a": pid, "b": None, "result": kind} for pid, kind in (requested or {}).items()]
    return {"round": result.round, "seed": result.seed, "pairings": rows, "warnings": list(result.warnings)}


REQUESTED_WORDS = {HALF_BYE: "half-point bye", ZERO_BYE: "zero-point bye", FULL_BYE: "full-point bye"}


def to_text(
    result: pairing.Pairing, inp: pairing.PairingInput, event: Event, requested: dict[str, str] | None = None
) -> str:
    names = {p.id: p.name for p in event.players}
    requested = requested or {}
    points = {e.id: e.points for e in (*inp.entrants, *inp.awarded_byes)}
    floats = {p.table for p in result.floats}

    def who(pid: str) -> str:
        return f"{names[pid]} ({_num(points[pid])})" if pid in points else names[pid]

    header = "Player A (points)"
    width = max(
        [display_width(header), *(display_width(who(p.a)) for p in result.pairs)]
        + [display_width(who(pid)) for pid in (*result.byes, *requested)]
    )
    lines = [
        f"Round {result.round} of {event.settings.name}: {len(result.pairs)} table{'s' if len(result.pairs) != 1 else ''}, "
        f"{len(result.byes)} bye{'s' if len(result.byes) != 1 else ''}, seed {result.seed}",
        "",
        # Chess lists read White first: with colours, player A has White.
        f"{'Table':>5}  {pad('White (points)' if inp.colours else header, width)}      "
        f"{'Black' if inp.colours else 'Player B'} (points)",
    ]
    for p in result.pairs:
        note = "   float" if p.table in floats else ""
        lines.append(f"{p.table:>5}  {pad(who(p.a), width)}  vs  {who(p.b)}{note}")
    for pid in result.byes:
        kind = "pre-awarded bye" if pid in result.awarded_byes else "bye"
        lines.append(f"{'-':>5}  {pad(who(pid), width)}      {kind}")
    for pid, kind in requested.items():
        lines.append(f"{'-':>5}  {pad(who(pid), width)}      {REQUESTED_WORDS[kind]} (requested)")
    lines.append("")
    # Who the pairing left out, and why (pairing.left_out): a note, not a rule bent.
    notes = [w for w in result.warnings if getattr(w, "code", "") == "left_out"]
    warnings = [w for w in result.warnings if w not in notes]
    lines.extend(str(n) for n in notes)
    lines.append(f"Floats: {len(result.floats)}, rematches: {result.rematches}, second byes: {result.second_byes}")
    if warnings:
        lines.append("Warnings:")
        lines.extend(f"  ! {w}" for w in warnings)
    return "\n".join(lines) + "\n"


def _num(value) -> str:
    return str(int(value)) if value.denominator == 1 else str(float(value)).rstrip("0")
