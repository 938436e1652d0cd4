"""The next round of an event, as `swiss pair` and `manage.py pair` print it: the pairing (the Dutch system's, the
optimal engine's or the top cut's), the points shown beside the names, and the byes asked for, as text or JSON."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pairing
from standings.format import display_width, pad
from swiss.messages import Message
from swiss.model import ELIMINATION, FULL_BYE, HALF_BYE, ZERO_BYE, Event


@dataclass(frozen=True)
class NextRound:
    """The pairing, the entrants whose points are shown beside the names, and the byes asked for the round (the
    players the pairing leaves out, listed with their bye)."""

    result: pairing.Pairing
    shown: pairing.PairingInput
    requested: dict[str, str]
    inp: pairing.PairingInput | pairing.DutchInput | None = None  # what a Swiss round was paired from


def why(done: NextRound, event: Event) -> dict[str, tuple[Message, ...]]:
    """Each player's reasons (pairing.explain), those who asked for a bye included, for a Swiss round; none for
    the top cut."""
    from pairing.explain import explain  # only for --explain: most of a pairing command's imports otherwise

    if done.inp is None:
        return {}
    return explain(done.inp, done.result, names={p.id: p.name for p in event.players}, asked=done.requested).players


def next_round(event: Event, seed: int) -> NextRound:
    """The next round of the event: the top cut's once the planned Swiss rounds are played (or its next round once
    it has started), otherwise a Swiss round by the event's system. Raises PairingError."""
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
        inp = pairing.engine_input(event, shown)
        result = pairing.pair(inp)
        requested = pairing.requested_byes(event, result.round)
        return NextRound(result, shown, requested, inp)
    requested = pairing.requested_byes(event, result.round) if result.method != ELIMINATION else {}
    return NextRound(result, shown, requested)


def to_json(
    result: pairing.Pairing,
    requested: dict[str, str] | None = None,
    reasons: dict[str, tuple[Message, ...]] | None = None,
) -> dict[str, Any]:
    """The pairing for programs; with reasons (--explain), each pairing and bye gains "why": {player id: [reason
    objects]} (pairing.explain.reason_json)."""
    rows: list[dict[str, Any]] = [{"table": p.table, "a": p.a, "b": p.b} for p in result.pairs]
    rows += [{"table": None, "a": pid, "b": None} for pid in result.byes]
    if reasons is not None:
        from pairing.explain import reason_json  # only for --explain

        for row in rows:
            ids = [pid for pid in (row["a"], row["b"]) if pid is not None]
            row["why"] = {pid: [reason_json(m) for m in reasons.get(pid, ())] for pid in ids}
    for pid, kind in (requested or {}).items():
        asked: dict[str, Any] = {"table": None, "a": pid, "b": None, "result": kind}
        if reasons is not None:
            asked["why"] = {pid: [reason_json(m) for m in reasons.get(pid, ())]}
        rows.append(asked)
    return {"round": result.round, "seed": result.seed, "pairings": rows, "warnings": list(result.warnings)}


REQUESTED_WORDS = {HALF_BYE: "half-point bye", ZERO_BYE: "zero-point bye", FULL_BYE: "full-point bye"}


def to_text(
    result: pairing.Pairing,
    inp: pairing.PairingInput,
    event: Event,
    requested: dict[str, str] | None = None,
    reasons: dict[str, tuple[Message, ...]] | None = None,
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
        lines.extend(_why_lines((p.a, p.b), names, reasons))
    for pid in result.byes:
        kind = "pre-awarded bye" if pid in result.awarded_byes else "bye"
        lines.append(f"{'-':>5}  {pad(who(pid), width)}      {kind}")
        lines.extend(_why_lines((pid,), names, reasons))
    for pid, kind in requested.items():
        lines.append(f"{'-':>5}  {pad(who(pid), width)}      {REQUESTED_WORDS[kind]} (requested)")
        lines.extend(_why_lines((pid,), names, reasons))
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


def _why_lines(
    ids: tuple[str, ...], names: dict[str, str], reasons: dict[str, tuple[Message, ...]] | None
) -> list[str]:
    """--explain: a line per player under the table, their reasons in order."""
    if reasons is None:
        return []
    return [f"{'':>5}    why {names.get(pid, pid)}: {' '.join(str(m) for m in reasons.get(pid, ()))}" for pid in ids]


def _num(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else str(float(value)).rstrip("0")


def why_not_json(answer) -> dict[str, Any]:
    """`pair --why-not A,B --format json`: the code, its facts beside it, and the English sentence."""
    return {"code": answer.code, **answer.params, "text": str(answer)}


def why_not_text(answer, event: Event) -> str:
    """`pair --why-not A,B`: the sentence, then the round that pairs them when the answer built one."""
    names = {p.id: p.name for p in event.players}
    lines = [str(answer)[:1].upper() + str(answer)[1:] + "."]
    rows = answer.params.get("pairings")
    if rows:
        lines += ["", "The round with the pair:"]
        for row in rows:
            if row["b"] is None:
                lines.append(f"{'-':>5}  {names[row['a']]} ({row['a']})      bye")
            else:
                lines.append(f"{row['table']:>5}  {names[row['a']]} ({row['a']})  vs  {names[row['b']]} ({row['b']})")
    return "\n".join(lines) + "\n"
