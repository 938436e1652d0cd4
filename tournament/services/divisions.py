"""Divisions paired together, ranked apart (Play! Pokémon's age-modified Swiss; docs/sections.md).

A section may be set to pair with another section of its event (`Event.pair_with`) when either has fewer than
`pair_with_below` active players. Whichever of the two pairs its round 1 first decides: if either is that small,
the section holding the setting joins its partner (`join_small_divisions`): its players move into the partner
with `Player.division` the section's name, and the partner's own players get the partner's name. From then on
one Swiss pairs them all, and each division is ranked (`division_standings`), cut and prized apart.
"""

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from standings import Standings
from standings.divisions import Division, split
from tournament.infra.fast.rows import single
from tournament.models import Event, Player, fresh_keys, unique_codes
from tournament.services.locks import ServiceError, changed, log


def joined_into(event: Event) -> Event | None:
    """The section `event`'s players were moved into, once they were (`Event.joined_partner`; None otherwise): it
    pairs nothing itself. Read from the row as it is now, not from `event` as it was loaded: a pairing started
    on a page shown before the join must see it."""
    if not event.pair_with_id:
        return None
    return single(Event.objects.filter(pk=Event.objects.filter(pk=event.pk).values("joined_partner")[:1]))


def plays_in(event: Event) -> tuple[Event, str]:
    """Where a player entered in section `event` plays, and their division: a joined section's entries play in
    its partner, in the joined section's division; a partner's own, once joined, in the partner's division.
    (event, "") for every other event: its players have no division."""
    if not event.parent_id:
        return event, ""
    partner = joined_into(event)
    if partner is not None:
        return partner, event.name
    if Event.objects.filter(joined_partner=event).exists():  # sections were joined into this one
        return event, event.name
    return event, ""


def _active(event: Event) -> int:
    return event.players.filter(dropped_after__isnull=True, joined_round__lte=1).count()


def will_join(holder: Event, partner: Event) -> bool:
    """Whether `holder` would join `partner` if either paired its round 1 now (the test `join_small_divisions`
    makes), before either has a round."""
    below = holder.pair_with_below or 0
    return bool(below) and (_active(holder) < below or _active(partner) < below)


def paired_together(event: Event) -> list[Event]:
    """The other sections whose players `event`'s will be paired with, counted as they stand now: before round
    1, the partner and the other sections joining it when the join would happen (`will_join`); none once
    paired (the partner then holds every player itself) or for a section in no pairing."""
    if not event.parent_id or event.rounds.exists() or joined_into(event) is not None:
        return []
    partner = event.pair_with if event.pair_with_id else event
    if partner.rounds.exists():
        return []
    holders = [h for h in Event.objects.filter(pair_with=partner).order_by("position", "pk") if will_join(h, partner)]
    if event.pk != partner.pk and event.pk not in {h.pk for h in holders}:
        return []
    return [e for e in [partner, *holders] if e.pk != event.pk and joined_into(e) is None]


def join_small_divisions(event: Event, by) -> Event:
    """Before `event` pairs its round 1, in the caller's transaction: join every pairing of divisions it is in
    whose sections are small enough, and return the section that pairs (the partner, if `event` joined it).

    Both sections are locked (in one order, so two at once cannot deadlock). Nothing happens once either of
    the two has a round: the first round decides.
    """
    if event.rounds.exists():
        return event
    pairs = [(event, event.pair_with)] if event.pair_with_id else []
    pairs += [(holder, event) for holder in Event.objects.filter(pair_with=event).order_by("position", "pk")]
    target = event
    for holder, partner in pairs:
        if partner is None:
            continue
        rows = Event.objects.select_for_update(no_key=True).filter(pk__in=[holder.pk, partner.pk]).order_by("pk")
        locked = {e.pk: e for e in rows}
        holder, partner = locked[holder.pk], locked[partner.pk]
        if holder.rounds.exists() or partner.rounds.exists() or joined_into(holder) is not None:
            continue
        below = holder.pair_with_below or 0
        if not (_active(holder) < below or _active(partner) < below):
            continue
        if (holder.preset, holder.scoring) != (partner.preset, partner.scoring):
            raise ServiceError(
                gettext(
                    "“%(section)s” is set to pair with “%(partner)s”, but the two no longer have the same preset "
                    "and scoring. Make them the same, or clear the setting, then pair again."
                )
                % {"section": holder.name, "partner": partner.name}
            )
        _join(holder, partner, by)
        if event.pk == holder.pk:
            target = partner
    return target


def _join(holder: Event, partner: Event, by) -> None:
    moving = list(holder.players.all())
    for p, key in zip(moving, fresh_keys(partner.pk, len(moving)), strict=True):
        p.event_id, p.key, p.division = partner.pk, key, holder.name
    unique_codes(moving)  # a personal code is unique in its section
    with transaction.atomic():
        Player.objects.bulk_update(moving, ["event", "key", "division", "code"])
        partner.players.filter(division="").exclude(pk__in=[p.pk for p in moving]).update(division=partner.name)
        Event.objects.filter(pk=holder.pk).update(joined_partner=partner)
        holder.joined_partner = partner
        detail = {"into": partner.pk, "section": holder.name, "partner": partner.name, "players": len(moving)}
        log(holder, "divisions_joined", by, **detail)
        log(partner, "divisions_join", by, **detail)
    changed(holder)
    changed(partner)


def division_order(event: Event) -> list[str]:
    """The division names of `event`'s players in the order of the sections they come from (then by name)."""
    names = set(event.players.exclude(division="").values_list("division", flat=True))
    if not names:
        return []
    root = event.root
    order = list(
        Event.objects.filter(Q(parent=root) | Q(pk=root.pk), name__in=names)
        .order_by("position", "pk")
        .values_list("name", flat=True)
    )
    return list(dict.fromkeys(order)) + sorted(names - set(order))


def division_standings(event: Event, result: Standings) -> tuple[Division, ...]:
    """The standings one table per division, each ranked from 1 (`standings.divisions.split`); empty for an
    event whose players have no divisions (one table, as ever)."""
    order = division_order(event)
    if not order:
        return ()
    return split(result, dict(event.players.values_list("key", "division")), order)
