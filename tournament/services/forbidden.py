"""Forbidden pairs (docs/fide-mode.md): two players of an event who must never be paired together (team-mates,
members of one family), kept on the event as a list of player-key pairs (`Event.forbidden_pairs`), each in every
round or in a range of rounds only (`[key, key, first, last]`, a TRF-2026 260 record's). In FIDE mode
they are set before round 1; adding or removing one later leaves FIDE mode, a level-4 warning
(`services.fide.leaving_warning`). A draft edited by hand that pairs them is a level-3 warning
(services/manual.py)."""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from tournament.models import Event, Player
from tournament.services.fide import leaving_warning, left
from tournament.services.locks import ServiceError, changed, lock_event, log, swiss_rounds_played
from tournament.services.warnings import NONE, Passed, check


def pairs(event: Event, round_number: int | None = None) -> set[frozenset[str]]:
    """The event's forbidden pairs, each a pair of player keys: those of every round, and with `round_number`
    also those kept apart in that round only (`[key, key, first, last]`, read from a TRF-2026 260 record)."""
    found = {frozenset(p) for p in event.forbidden_pairs if len(p) == 2 and len(set(p)) == 2}
    if round_number is not None:
        found |= {
            frozenset(p[:2]) for p in event.forbidden_pairs if len(p) == 4 and int(p[2]) <= round_number <= int(p[3])
        }
    return found


@dataclass(frozen=True)
class Forbidden:
    """One forbidden pair as the settings page lists it: its players, and the rounds it holds in (None: every
    round)."""

    first: Player
    second: Player
    rounds: tuple[int, int] | None


def _entry(stored: list) -> tuple[frozenset[str], tuple[int, int] | None] | None:
    """A stored pair as (keys, rounds); None for one that names a player twice or has the wrong shape."""
    if len(stored) not in (2, 4) or len(set(stored[:2])) != 2:
        return None
    return frozenset(stored[:2]), (int(stored[2]), int(stored[3])) if len(stored) == 4 else None


def named(event: Event) -> list[Forbidden]:
    """Every forbidden pair with its players and rounds, as the settings page lists them: by the players'
    numbers, the every-round pair before its ranges."""
    entries = {e for e in map(_entry, event.forbidden_pairs) if e is not None}
    players = {p.key: p for p in event.players.filter(key__in={k for keys, _ in entries for k in keys})}
    found = [
        Forbidden(*sorted((players[k] for k in keys), key=lambda p: p.number), rounds)
        for keys, rounds in entries
        if all(k in players for k in keys)
    ]
    return sorted(found, key=lambda f: (f.first.number, f.second.number, f.rounds or (0, 0)))


def change_pair(
    event: Event,
    first: Player,
    second: Player,
    by,
    *,
    add: bool,
    rounds: tuple[int, int] | None = None,
    passed: Passed = NONE,
) -> None:
    """Forbid (`add`) or allow again the pairing of two players: in every round, or in `rounds` (first, last)
    only. In FIDE mode after round 1 is paired, the event leaves FIDE mode for it (a level-4 warning)."""
    if first.pk == second.pk or first.event_id != event.pk or second.event_id != event.pk:
        raise ServiceError(gettext("Pick two different players of this event."))
    if rounds is not None and not 1 <= rounds[0] <= rounds[1]:
        raise ServiceError(gettext("The last round of the range comes before its first."))
    with transaction.atomic():
        event = lock_event(event)
        pair = frozenset((first.key, second.key))
        wanted = (pair, rounds)
        if any(_entry(stored) == wanted for stored in event.forbidden_pairs) == add:
            return
        played = swiss_rounds_played(event)
        if event.fide and played:
            why = gettext("Forbidden pairs are set before round 1 in FIDE mode.")
            check(event, by, [leaving_warning(played, why)], passed, round=played)
            left(event, played)
        every = {keys for keys, r in filter(None, map(_entry, event.forbidden_pairs)) if r is None}
        # A file's ranged lines stay as they came, in their order (the TRF export writes them back so).
        ranged = [p for p in event.forbidden_pairs if len(p) == 4 and _entry(p) != wanted]
        if rounds is None:
            every = every | {pair} if add else every - {pair}
        elif add:
            ranged.append([*sorted(pair), *rounds])
        event.forbidden_pairs = sorted(sorted(p) for p in every) + ranged
        event.save(update_fields=["forbidden_pairs"])
        log(
            event,
            "forbidden_pair" if add else "forbidden_pair_removed",
            by,
            players=sorted(pair),
            **({"rounds": list(rounds)} if rounds else {}),
        )
    changed(event)
