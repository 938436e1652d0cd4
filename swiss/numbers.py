"""Pairing numbers (FIDE C.04.2): the order a chess event's players are numbered in, which the FIDE Dutch
system pairs by (pairing/dutch.py) and a TRF writes as their start ranks (swiss/trf.py).

An event made here numbers its players by rating, then FIDE title, then name, and numbers them again when a
late entry comes, until round 4 is paired: from then on the numbers are frozen and a late entry gets the next
one. An event imported from a TRF keeps the file's start ranks, as the endorsed engines read
them: the arbiter who made the file may have ranked by another list (a national rating for players without
a FIDE one) or broken ties another way. The start rank is the player's id (a TRF's players are keyed by it); their
player number is the start rank too, except in a section imported from a TRF, whose players take the venue's next
numbers (one run across sections, in start-rank order). A player added here since the import is placed among the file's
players by the same rule (after the last of them it ranks below), without reordering them.
"""

from __future__ import annotations

from swiss.model import SWISS, Event, Player
from swiss.names import sort_form

TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")  # in the order C.04.2 ranks equal ratings


# The round whose pairing freezes the numbers (the checklist's rule for late entries).
FROZEN_FROM_ROUND = 4


def pairing_numbers(event: Event) -> dict[str, int]:
    """Every player's pairing number, by id: 1, 2, 3… without gaps.

    Until round 4 is paired the numbers are made whole again from the rule whenever anything changes (a
    rating, a late entry): all of them or none. Once it is paired they are frozen (each player's
    `pairing_number`, stored then): a later entry gets the next number, in the rule's order among later
    entries, and a frozen player deleted since leaves no gap (the others keep their order)."""
    frozen = sorted((p for p in event.players if p.pairing_number is not None), key=lambda p: (p.pairing_number, p.id))
    if frozen:
        later = sorted((p for p in event.players if p.pairing_number is None), key=_rule)
        return {p.id: k for k, p in enumerate([*frozen, *later], start=1)}
    by_rule = sorted(event.players, key=_rule)
    if event.settings.trf_header:
        # A TRF's players have their start rank as id (and, but in a section, as number); players added here
        # have keys of their own ("p17").
        kept = sorted((p for p in event.players if _from_file(p)), key=lambda p: int(p.id))
        added = [p for p in by_rule if not _from_file(p)]
        if kept and _paired_up_to(event) >= FROZEN_FROM_ROUND:
            # A file past round 4 comes with its numbers frozen: a player added here gets the next one.
            by_rule = [*kept, *added]
        elif kept:
            by_rule = _merged(kept, added)
    return {p.id: k for k, p in enumerate(by_rule, start=1)}


def _paired_up_to(event: Event) -> int:
    return max((r.number for r in event.rounds if r.kind == SWISS), default=0)


def _rule(p: Player) -> tuple:
    title = p.title.strip().upper()
    rank = TITLES.index(title) if title in TITLES else len(TITLES)
    # Alphabetical by family name where it is known, as FIDE's lists are ("Hellström, Viktor").
    return (-(p.rating or 0), rank, sort_form(p.name, p.family_name, p.given_name), p.number or 0, p.id)


def _from_file(p: Player) -> bool:
    return p.number is not None and p.id.isascii() and p.id.isdigit()


def _merged(kept: list[Player], added: list[Player]) -> list[Player]:
    """The file's players in its order, each added player after the last of them the rule ranks above it (a
    file ranked by a national list keeps a late entrant below everyone rated above them)."""
    keys = [_rule(p) for p in kept]
    at: dict[int, list[Player]] = {}
    for p in added:  # in the rule's order
        key = _rule(p)
        place = next((i + 1 for i in range(len(kept) - 1, -1, -1) if keys[i] < key), 0)
        at.setdefault(place, []).append(p)
    out: list[Player] = []
    for i in range(len(kept) + 1):
        out += at.get(i, [])
        if i < len(kept):
            out.append(kept[i])
    return out
