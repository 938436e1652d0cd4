"""`swiss check`: a file's every Swiss round paired again by the Dutch system from the rounds before it, and its
standings after the last round ranked again by its tie-break list; what differs, round by round and player by
player.

A round is paired again as the pairing program saw it before it was paired: from the rounds before it, with the
players the file shows absent from it or with a bye asked for (a zero-, half- or full-point bye, a blank round)
left out, as `pairing.event.dutch_from_event` reads them; a game lost by forfeit is a pairing like any other, its
colours those the file gives. The initial colour is the file's (XXC, 152) or the one round 1's games show.

The standings are checked against the file's own ranks (a TRF's columns 86-89) by its tie-break list (TRF-2026
202, or 212), or the event's settings in a swiss-event file. A player may stand anywhere among the players the
list leaves equal (the file's order among them is the arbiter's, by lot or by rating). A file with no tie-break
list, or no ranks, has its standings not checked, and the report says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from pairing.dutch import pair_dutch
from pairing.event import dutch_from_event, initial_colour, next_round_number
from pairing.types import Pairing, PairingError
from standings import StandingsError, compute
from swiss.model import BYE, PLAYED, Event, Match
from swiss.tiebreakers import TIEBREAKERS

# A pair as the file or the rules have it: (white, black), or the two players in file order with colours unknown.
Pair = tuple[str, str]


@dataclass(frozen=True)
class RoundCheck:
    round: int
    differences: tuple[dict[str, Any], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.differences


@dataclass(frozen=True)
class StandingsCheck:
    after_round: int
    tiebreakers: tuple[str, ...] | None
    differences: tuple[dict[str, Any], ...] = ()
    note: str | None = None  # why the standings were not checked

    @property
    def ok(self) -> bool:
        return not self.differences


@dataclass(frozen=True)
class Report:
    rounds: tuple[RoundCheck, ...]
    standings: StandingsCheck
    names: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rounds) and self.standings.ok


class CheckRefused(Exception):
    """The file cannot be checked (another pairing system, a tie-break this program does not know)."""


def check(event: Event, ranks: dict[str, int] | None, tiebreakers: tuple[str, ...] | None) -> Report:
    """Every Swiss round of the event against the Dutch system's pairing of it, then the standings after the last
    round by `tiebreakers` against `ranks` (the file's, by player id; None or empty: the file gives none)."""
    if event.settings.pairing_system != "dutch":
        raise CheckRefused(
            f"the event pairs by {event.settings.pairing_system!r}; the checker knows the FIDE Dutch system"
        )
    unknown = [code for code in tiebreakers or () if code not in TIEBREAKERS]
    if unknown:
        raise CheckRefused(f"the tie-break list names {', '.join(unknown)}, which this program does not know")
    # The initial colour the games show (bbpPairings reads a TRF without one so), for every round alike.
    colour = initial_colour(event, round_number=next_round_number(event))
    rounds = tuple(
        _check_round(event, r.number, r.matches, colour)
        for r in sorted(event.swiss_rounds(), key=lambda r: r.number)
        if r.matches
    )
    return Report(rounds, _check_standings(event, ranks, tiebreakers), {p.id: p.name for p in event.players})


def _check_round(event: Event, number: int, matches: Iterable[Match], colour: str) -> RoundCheck:
    file_pairs, file_byes = _file_pairing(matches)
    try:
        ours: Pairing = pair_dutch(replace(dutch_from_event(event, number), initial_colour=colour))
    except PairingError as e:
        return RoundCheck(number, ({"what": "refused", "file": None, "rules": str(e)},))
    rules_pairs = {frozenset(p): p for p in ((x.a, x.b) for x in ours.pairs)}
    # The colours of the pairs both have, then the pairs only the file has, then those only the rules give.
    colours: list[dict[str, Any]] = []
    only_file: list[dict[str, Any]] = []
    only_rules: list[dict[str, Any]] = []
    for key in sorted(file_pairs.keys() | rules_pairs.keys(), key=_order):
        mine, theirs = file_pairs.get(key), rules_pairs.get(key)
        if mine is None:
            only_rules.append({"what": "pair", "file": None, "rules": list(theirs or ())})
        elif theirs is None:
            only_file.append({"what": "pair", "file": list(mine[0]), "rules": None})
        elif mine[1] and mine[0] != theirs:
            colours.append({"what": "colours", "file": list(mine[0]), "rules": list(theirs)})
    differences = colours + only_file + only_rules
    rules_byes = sorted(ours.byes, key=_number)
    if file_byes != rules_byes:
        differences.append({"what": "bye", "file": file_byes, "rules": rules_byes})
    return RoundCheck(number, tuple(differences))


def _file_pairing(matches: Iterable[Match]) -> tuple[dict[frozenset[str], tuple[Pair, bool]], list[str]]:
    """The round's pairs as the file has them (white first, and whether the colours are known) and its
    pairing-allocated byes."""
    pairs: dict[frozenset[str], tuple[Pair, bool]] = {}
    byes: list[str] = []
    for m in matches:
        if m.b is None:
            if m.result == BYE:
                byes.append(m.a)
            continue
        if m.result == PLAYED:
            pairs[frozenset((m.a, m.b))] = ((m.a, m.b), True)
        elif m.white in (m.a, m.b):
            black = m.b if m.white == m.a else m.a
            pairs[frozenset((m.a, m.b))] = ((m.white, black), True)
        else:
            pairs[frozenset((m.a, m.b))] = ((m.a, m.b), False)
    return pairs, sorted(byes, key=_number)


def _number(pid: str) -> tuple[int, str]:
    return (int(pid), pid) if pid.isascii() and pid.isdigit() else (10**9, pid)


def _order(key: frozenset[str]) -> list[tuple[int, str]]:
    return sorted(map(_number, key))


def _check_standings(event: Event, ranks: dict[str, int] | None, tiebreakers: tuple[str, ...] | None) -> StandingsCheck:
    last = max((r.number for r in event.swiss_rounds()), default=0)
    if tiebreakers is None:
        return StandingsCheck(last, None, note="the file names no tie-break list (TRF 202): standings not checked")
    if not ranks:
        return StandingsCheck(last, tiebreakers, note="the file gives no ranks: standings not checked")
    try:
        table = compute(replace(event, settings=replace(event.settings, tiebreakers=tiebreakers)), after_round=last)
    except StandingsError as e:
        raise CheckRefused(f"the standings cannot be computed: {e}") from None
    rank = {row.player_id: row.rank for row in table.rows}
    shared: dict[int, int] = {}
    for row in table.rows:
        shared[row.rank] = shared.get(row.rank, 0) + 1
    differences = []
    for pid, written in sorted(ranks.items(), key=lambda item: (item[1], _number(item[0]))):
        low = rank.get(pid)
        high = None if low is None else low + shared[low] - 1
        if low is None or high is None or not low <= written <= high:
            differences.append({"player": pid, "file": written, "rules": [low, high] if low is not None else None})
    return StandingsCheck(last, tiebreakers, tuple(differences))


# ---------------------------------------------------------------- output


def to_json(report: Report) -> dict[str, Any]:
    s = report.standings
    return {
        "rounds": [{"round": r.round, "ok": r.ok, "differences": list(r.differences)} for r in report.rounds],
        "standings": {
            "ok": s.ok,
            "differences": list(s.differences),
            "after_round": s.after_round,
            "tiebreakers": list(s.tiebreakers) if s.tiebreakers is not None else None,
            "note": s.note,
        },
    }


def to_text(report: Report) -> str:
    names = report.names

    def who(pid: str) -> str:
        return f"{pid} {names.get(pid, '?')}"

    def pair(p: list[str] | None, coloured: bool = True) -> str:
        if not p:
            return "-"
        return f"{who(p[0])} (White) v {who(p[1])}" if coloured else f"{who(p[0])} v {who(p[1])}"

    lines = []
    for r in report.rounds:
        lines.append(f"Round {r.round}: {'as the rules pair it' if r.ok else 'differs'}")
        for d in r.differences:
            if d["what"] == "refused":
                lines.append(f"  the rules pair no round here: {d['rules']}")
            elif d["what"] == "colours":
                lines.append(f"  colours: file {pair(d['file'])}; rules {pair(d['rules'])}")
            elif d["what"] == "pair" and d["file"] is not None:
                lines.append(f"  file has    {pair(d['file'])}")
            elif d["what"] == "pair":
                lines.append(f"  rules give  {pair(d['rules'])}")
            else:
                file_bye = ", ".join(map(who, d["file"])) or "nobody"
                rules_bye = ", ".join(map(who, d["rules"])) or "nobody"
                lines.append(f"  bye: file {file_bye}; rules {rules_bye}")
    s = report.standings
    if s.note:
        lines.append(f"Standings after round {s.after_round}: {s.note}")
    else:
        by = ", ".join(s.tiebreakers or ())
        lines.append(f"Standings after round {s.after_round} by {by}: {'as the rules rank them' if s.ok else 'differ'}")
        for d in s.differences:
            low, high = d["rules"] or (None, None)
            rules = "not ranked" if low is None else f"rank {low}" if low == high else f"rank {low}-{high}"
            lines.append(f"  {who(d['player'])}: file rank {d['file']}, rules {rules}")
    wrong = sum(not r.ok for r in report.rounds)
    if report.ok:
        lines.append("All agree.")
    else:
        lines.append(
            f"{wrong} round{'s' if wrong != 1 else ''} and {len(s.differences)} "
            f"player{'s' if len(s.differences) != 1 else ''} in the standings differ."
        )
    return "\n".join(lines) + "\n"
