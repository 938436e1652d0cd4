"""Recording the public trail of a published round (`RoundChange`): each path that changes a published round
reads the lines it is about to change (`before`), changes them, and records what they became (`record`), in its
own transaction. A draft records nothing: players have not seen it. A re-pairing of a published round makes a
draft; what it became is what is published next (`settle_repair`, called by `publish_round`).

A line is a match as the round held it: its table, its players by key (`a`, `b`) and by name as they were then
(`a_name`, `b_name`), its result and game counts, and for a forfeit or a double loss who had White (`white`, as
`Match.white`). Player A has White in every other chess game."""

import datetime as dt
from dataclasses import dataclass

from swiss import model
from tournament.models import Event, Match, Player, Round, RoundChange


def line(m: Match) -> dict:
    """The match as the trail keeps it (its players read: select_related, or one query each)."""
    return {
        "table": m.table,
        "a": m.player_a.key,
        "a_name": m.player_a.name,
        "b": m.player_b.key if m.player_b_id else None,
        "b_name": m.player_b.name if m.player_b_id else None,
        "result": m.result,
        "games": list(m.games) if m.games else None,
        "white": m.white.key if m.white_id else None,
    }


def _lines(round_id: int, match_ids: list[int] | None) -> list[dict]:
    rows = Match.objects.filter(round_id=round_id).select_related("player_a", "player_b", "white")
    if match_ids is not None:
        rows = rows.filter(pk__in=match_ids)
    return [line(m) for m in rows.order_by("table", "id")]


@dataclass(frozen=True)
class Before:
    """The lines a change is about to touch, read before it: `match_ids` None for the whole round."""

    event: Event
    number: int
    kind: str
    match_ids: list[int] | None
    lines: list[dict] | None  # None: the round is a draft, and nothing is recorded


def before(rnd: Round, kind: str, match_ids: list[int] | None = None) -> Before:
    """What the change of `kind` is about to replace in `rnd` (its matches `match_ids`, or all of them)."""
    lines = _lines(rnd.pk, match_ids) if rnd.is_published else None
    return Before(rnd.event, rnd.number, kind, match_ids, lines)


def record(was: Before, by, rnd: Round | None = None) -> RoundChange | None:
    """The change `was` announced, recorded with what it became (in `rnd`: the round that replaced it, after a
    re-pairing). Nothing when the round was a draft or nothing changed."""
    if was.lines is None:
        return None
    round_id = rnd.pk if rnd is not None else Round.objects.get(event=was.event, number=was.number).pk
    became = _lines(round_id, was.match_ids)
    return _write(was.event, was.number, was.kind, was.lines, became, by)


def result_corrected(m: Match, was: dict, by) -> RoundChange | None:
    """A stored result replaced by another (never its first entry): `was` is `line(m)` read before."""
    return _write(m.round.event, m.round.number, RoundChange.Kind.RESULT, [was], [line(m)], by)


def added_by_hand(event: Event, added: list[tuple[Round, list[Match]]], by) -> None:
    """Lines added to published rounds by hand (late entrants' unpaired losses in the rounds played before), each
    round's one entry; two queries whatever the number of rounds and players (an import of hundreds)."""
    added = [(rnd, matches) for rnd, matches in added if rnd.is_published and matches]
    ids = {m.player_a_id for _rnd, matches in added for m in matches}
    if not ids:
        return
    players = {p.pk: p for p in Player.objects.filter(pk__in=ids).only("pk", "key", "name")}
    for _rnd, matches in added:
        for m in matches:
            m.player_a = players[m.player_a_id]
    RoundChange.objects.bulk_create(
        RoundChange(
            event=event,
            round_number=rnd.number,
            kind=RoundChange.Kind.BY_HAND,
            was=[],
            became=[line(m) for m in matches],
            by=by if getattr(by, "pk", None) else None,
        )
        for rnd, matches in added
    )


def _write(event: Event, number: int, kind: str, was: list[dict], became: list[dict], by) -> RoundChange | None:
    if was == became and kind != RoundChange.Kind.REPAIR:  # a re-pairing's lines are settled when published
        return None
    tables = [ln["table"] for ln in (*was, *became) if ln["table"] is not None]
    return RoundChange.objects.create(
        event=event,
        round_number=number,
        table=min(tables) if tables and kind != RoundChange.Kind.REPAIR else None,
        kind=kind,
        was=was,
        became=became,
        by=by if getattr(by, "pk", None) else None,
    )


def settle_repair(rnd: Round) -> None:
    """On publishing `rnd`: when the round's latest change is a re-pairing, what it became is what is published
    now (the draft it made may have been swapped or paired again since, unrecorded, as drafts are).

    Only a re-pairing turns a published round back into a draft, and each one of a published round is recorded:
    so the latest change of a round being published again is the re-pairing that made its draft."""
    latest = RoundChange.objects.filter(event=rnd.event, round_number=rnd.number).order_by("-at", "-id").first()
    if latest is None or latest.kind != RoundChange.Kind.REPAIR:
        return
    latest.became = _lines(rnd.pk, None)
    latest.save(update_fields=["became"])


def of_round(event: Event, number: int) -> list[RoundChange]:
    """The round's trail, oldest first."""
    return list(RoundChange.objects.filter(event=event, round_number=number).order_by("at", "id"))


def of_event(event: Event) -> list[RoundChange]:
    """Every change of the event's rounds, by round, oldest first."""
    return list(RoundChange.objects.filter(event=event).order_by("round_number", "at", "id"))


def touching(changes: list[RoundChange], key: str, numbers: list[int]) -> list[RoundChange]:
    """Those of `changes` in the rounds `numbers` that touched the player `key` (in what a line was or became).
    A round has a handful of changes: they are picked here, the same on every database."""
    wanted = set(numbers)
    return [
        c for c in changes if c.round_number in wanted and any(key in (ln["a"], ln["b"]) for ln in (*c.was, *c.became))
    ]


# ---------------------------------------------------------------- the trail in files (swiss/eventtrail.py)


def to_file(event: Event) -> dict[int, tuple[model.Change, ...]]:
    """The event's changes as a file writes them, by round number (one query). Who made a change is not written:
    a file names no account."""
    out: dict[int, list[model.Change]] = {}
    for c in of_event(event):
        out.setdefault(c.round_number, []).append(
            model.Change(
                kind=c.kind,
                at=c.at.astimezone(dt.UTC).isoformat(),
                table=c.table,
                was=tuple(_line_to_file(ln) for ln in c.was),
                became=tuple(_line_to_file(ln) for ln in c.became),
            )
        )
    return {number: tuple(changes) for number, changes in out.items()}


def _line_to_file(ln: dict) -> model.TrailLine:
    games = ln.get("games")
    return model.TrailLine(
        a=ln["a"],
        a_name=ln["a_name"],
        b=ln.get("b"),
        b_name=ln.get("b_name"),
        table=ln.get("table"),
        result=ln.get("result", model.PLAYED),
        games=(games[0], games[1], games[2]) if games else None,
        white=ln.get("white"),
    )


def from_file(event: Event, rounds: tuple[model.Round, ...]) -> None:
    """A file's trail into the event it made (in the import's transaction): nobody's, at the times it gives."""
    RoundChange.objects.bulk_create(
        RoundChange(
            event=event,
            round_number=r.number,
            table=c.table,
            kind=c.kind,
            was=[_line_to_row(ln) for ln in c.was],
            became=[_line_to_row(ln) for ln in c.became],
            at=dt.datetime.fromisoformat(c.at),
        )
        for r in rounds
        for c in r.changes
    )


def _line_to_row(ln: model.TrailLine) -> dict:
    return {
        "table": ln.table,
        "a": ln.a,
        "a_name": ln.a_name,
        "b": ln.b,
        "b_name": ln.b_name,
        "result": ln.result,
        "games": list(ln.games) if ln.games else None,
        "white": ln.white,
    }
