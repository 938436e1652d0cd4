"""The trail of a published round as the public pages say it (templates/public/_round_trail.html): one line per
table a change touched, oldest first, with the local time, what the table holds now and what it replaced,
"changed by the organiser" (never who: a name or an address is the organiser's to see, not the hall's).

A change (`RoundChange`, written by services/trail.py) keeps its lines as the round held them; a re-pairing or
a swap touches several tables, and each is said on its own: "Table 4, 14:32: Ann – Cid, was Ann – Bob". A bye
or an unpaired line has no table: it is said with its player ("Bye: Bob, was Cid")."""

import datetime as dt
import zoneinfo
from dataclasses import dataclass
from itertools import zip_longest
from types import SimpleNamespace

from django.utils import timezone
from django.utils.translation import gettext

from tournament.models import Event, RoundChange
from tournament.pages.memo import cached, event_key
from tournament.services import trail
from tournament.text import game_words
from tournament.text.results import result_label, result_word


@dataclass(frozen=True)
class TrailLine:
    """One table's change: `place` ("Table 4", or the bye's word), `time` as the venue's clock read it then
    (`iso` for the page's <time>), and the sentence."""

    round: int
    place: str
    time: str
    iso: str
    text: str
    kind: str


def _local(event: Event, at: dt.datetime) -> dt.datetime:
    zone = zoneinfo.ZoneInfo(event.time_zone) if event.time_zone else timezone.get_default_timezone()
    return at.astimezone(zone)


def _shim(line: dict) -> SimpleNamespace:
    """A line as `result_label` reads a match."""
    games = line["games"]
    return SimpleNamespace(
        result=line["result"],
        games=tuple(games) if games else None,
        games_a=games[0] if games else None,
        games_b=games[1] if games else None,
        games_drawn=games[2] if games else None,
        black_won_by_forfeit=line["white"] is not None and line["white"] != line["a"],
    )


def _seats(line: dict) -> tuple[tuple[str, str], tuple[str | None, str | None]]:
    """The line's two players, (key, name) each, White first (player A unless a forfeit moved the winner there)."""
    a, b = (line["a"], line["a_name"]), (line["b"], line["b_name"])
    return (b, a) if line["white"] is not None and line["white"] != line["a"] else (a, b)


def _pairing(line: dict) -> str:
    """Who plays (White first in a chess event), or a line without an opponent with its kind: "Ann: bye"."""
    if line["b"] is None:
        return gettext("%(name)s: %(result)s") % {"name": line["a_name"], "result": result_word(line["result"])}
    first, second = _seats(line)
    return f"{first[1]} – {second[1]}"


def _result(line: dict, chess: bool) -> str:
    return result_label(_shim(line), chess) or gettext("no result")


def _same_pairing(one: dict, other: dict) -> bool:
    return [key for key, _name in _seats(one)] == [key for key, _name in _seats(other)]


def _pairs(change: RoundChange) -> list[tuple[int | None, dict | None, dict | None]]:
    """(table, what it was, what it became) for each table the change touched; lines without a table paired in
    the order they come, those the change left alone left out."""
    was = {ln["table"]: ln for ln in change.was if ln["table"] is not None}
    became = {ln["table"]: ln for ln in change.became if ln["table"] is not None}
    found: list[tuple[int | None, dict | None, dict | None]] = []
    for table in sorted(was.keys() | became.keys()):
        old, new = was.get(table), became.get(table)
        if old is None or new is None or old != new:
            found.append((table, old, new))
    loose_was = [ln for ln in change.was if ln["table"] is None]
    loose_became = [ln for ln in change.became if ln["table"] is None]
    gone = [ln for ln in loose_was if ln not in loose_became]
    come = [ln for ln in loose_became if ln not in loose_was]
    found += [(None, old, new) for old, new in zip_longest(gone, come)]
    return found


def _sentence(change: RoundChange, old: dict | None, new: dict | None, chess: bool) -> str:
    if change.kind == RoundChange.Kind.RESULT and old is not None and new is not None and _same_pairing(old, new):
        return gettext("%(pairing)s: result %(was)s corrected to %(now)s by the organiser.") % {
            "pairing": _pairing(new),
            "was": _result(old, chess),
            "now": _result(new, chess),
        }
    if old is None and new is not None:
        return gettext("%(now)s added by the organiser.") % {"now": _pairing(new)}
    if new is None and old is not None:
        return gettext("No longer paired here: was %(was)s, changed by the organiser.") % {"was": _pairing(old)}
    return gettext("%(now)s, was %(was)s, changed by the organiser.") % {"now": _pairing(new), "was": _pairing(old)}


def _place(table: int | None, old: dict | None, new: dict | None) -> str:
    if table is not None:
        return gettext("Table %(table)s") % {"table": table}
    line = new or old
    if line is not None and line["result"] == "loss":
        return gettext("Unpaired")
    return game_words.gettext("Bye")


def lines_of(event: Event, changes: list[RoundChange], player_key: str | None = None) -> list[TrailLine]:
    """The changes as the page says them, table by table; `player_key`: only the tables that player was or is at."""
    found = []
    for change in changes:
        local = _local(event, change.at)
        for table, old, new in _pairs(change):
            if player_key is not None and not any(ln and player_key in (ln["a"], ln["b"]) for ln in (old, new)):
                continue
            found.append(
                TrailLine(
                    round=change.round_number,
                    place=_place(table, old, new),
                    time=f"{local:%H:%M}",
                    iso=local.isoformat(timespec="minutes"),
                    text=_sentence(change, old, new, event.chess_results),
                    kind=change.kind,
                )
            )
    return found


def round_trail(event: Event, number: int | None) -> list[TrailLine]:
    """The trail of round `number` (published: the pages read published rounds only), oldest first."""
    if number is None:
        return []
    return lines_of(event, trail.of_round(event, number))


def player_trail(event: Event, player_key: str, numbers: list[int]) -> list[TrailLine]:
    """The tables of the rounds `numbers` (the published ones) whose changes touched this player.

    A phone's page is read in one query (pages/player.py): the event's changes are read once per event version,
    by the first phone that renders, and picked from for each player."""
    if not numbers:
        return []
    return lines_of(event, trail.touching(event_changes(event), player_key, numbers), player_key)


def event_changes(event: Event) -> list[RoundChange]:
    """Every change of the event's published rounds, read once per event version by the first page that asks."""
    return cached(f"round-changes:{event_key(event)}", lambda: trail.of_event(event))
