"""Forbidden pairs (docs/fide-mode.md): two players of an event who must never be paired together (team-mates,
members of one family), kept on the event as a list of player-key pairs (`Event.forbidden_pairs`). In FIDE mode
they are set before round 1; adding or removing one later leaves FIDE mode, a level-4 warning
(`services.fide.leaving_warning`). A draft edited by hand that pairs them is a level-3 warning
(services/manual.py)."""

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


def named(event: Event) -> list[tuple[Player, Player]]:
    """The forbidden pairs with their players, as the settings page lists them."""
    wanted = pairs(event)
    players = {p.key: p for p in event.players.filter(key__in={k for pair in wanted for k in pair})}
    found = [tuple(players[k] for k in sorted(pair)) for pair in wanted if all(k in players for k in pair)]
    return sorted(found, key=lambda pair: (pair[0].number, pair[1].number))


def change_pair(event: Event, first: Player, second: Player, by, *, add: bool, passed: Passed = NONE) -> None:
    """Forbid (`add`) or allow again the pairing of two players. In FIDE mode after round 1 is paired, the
    event leaves FIDE mode for it (a level-4 warning)."""
    if first.pk == second.pk or first.event_id != event.pk or second.event_id != event.pk:
        raise ServiceError(gettext("Pick two different players of this event."))
    with transaction.atomic():
        event = lock_event(event)
        pair = frozenset((first.key, second.key))
        kept = pairs(event)
        if (pair in kept) == add:
            return
        played = swiss_rounds_played(event)
        if event.fide and played:
            why = gettext("Forbidden pairs are set before round 1 in FIDE mode.")
            check(event, by, [leaving_warning(played, why)], passed, round=played)
            left(event, played)
        kept = kept | {pair} if add else kept - {pair}
        ranged = [p for p in event.forbidden_pairs if len(p) == 4]
        event.forbidden_pairs = sorted(sorted(p) for p in kept) + ranged
        event.save(update_fields=["forbidden_pairs"])
        log(event, "forbidden_pair" if add else "forbidden_pair_removed", by, players=sorted(pair))
    changed(event)
