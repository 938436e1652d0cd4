"""Sections: one event the venue knows, several Swiss tournaments in it (docs/sections.md).

A section is an `Event` whose `parent` is the event the venue knows. Everything one Swiss needs (preset,
scoring, pairing, rounds, standings, top cut, clock, reporting) is the section's own, so every page and
workflow that runs an event runs a section unchanged. What is the venue's is kept once, on the parent: its
address, its staff (a role there acts in every section) and its players' numbers (one run across sections).
"""

import dataclasses
import math

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from swiss.placement import Rules, section_for
from tournament.models import Event, Match, Player, Round, Seat, fresh_keys, new_code
from tournament.services import trail
from tournament.services.divisions import plays_in
from tournament.services.locks import ServiceError, changed, current_round, lock_event, log
from tournament.services.roster import NewPlayer, add_players
from tournament.services.staff import check_may_create
from tournament.snapshot import create_matches
from tournament.text.slugs import slug_text

# What a new section takes from its event unless told otherwise: the venue's facts, not a Swiss's settings.
VENUE_FIELDS = ("date", "language", "time_zone", "public", "city", "federation", "end_date")


def add_section(event: Event, name: str, by, **fields) -> Event:
    """A new section of `event` (the event the venue knows), last in its list, under the slug
    `<event's slug>-<name as a slug>` (with a number after it when that is taken). Only an account that may create
    events adds one (`staff.check_may_create`): an invited co-organiser without the permission runs the sections
    there are, and adds none."""
    check_may_create(by)
    name = name.strip()
    if not name:
        raise ServiceError(_("A section needs a name."))
    with transaction.atomic():
        root = lock_event(event.root)
        if root.rounds.exists():
            raise ServiceError(_("This event has paired rounds itself: sections can be added before round 1 only."))
        if root.sections.filter(name=name).exists():
            raise ServiceError(_("This event already has a section called “%(name)s”.") % {"name": name})
        section = Event(parent=root, name=name, position=root.sections.count() + 1)
        for field in VENUE_FIELDS:
            setattr(section, field, getattr(root, field))
        for field, value in fields.items():
            setattr(section, field, value)
        # FIDE mode as a file says; else on for a chess section, as for a new event (docs/fide-mode.md).
        if "fide_mode" not in fields:
            section.fide_mode = section.chess_results
        _insert_with_slug(section, root)
        log(root, "section_add", by, section=name)
        changed(root)
    return section


def _insert_with_slug(section: Event, root: Event) -> None:
    base = f"{root.slug}-{slug_text(section.name, 20) or 'section'}"[:76]
    for n in range(1, 100):
        section.slug = base if n == 1 else f"{base}-{n}"
        if Event.objects.filter(slug=section.slug).exists():
            continue
        try:
            with transaction.atomic():
                section.save(force_insert=True)
            return
        except IntegrityError:
            section.pk = None
    raise ServiceError(_("The section could not be created just now; try again."))


# ---------------------------------------------------------------- placement rules and table ranges


def rules_of(section: Event) -> Rules:
    return Rules(section.rating_min, section.rating_max, section.birth_year_min, section.birth_year_max)


def placed_by_rules(sections: list[Event], rating: int | None, birth_date: str = "") -> Event | None:
    """The section a player goes to by the rules (`swiss.placement`): the first they fit, or None."""
    i = section_for([rules_of(s) for s in sections], rating, birth_date)
    return None if i is None else sections[i]


# A section's range of tables, when its first table is automatic, is sized from its registered players: one
# table a pair, rounded up to whole tens (so that the next section's tables start at a round number), ten at least.
TABLES_STEP = 10


def range_size(players: int) -> int:
    return max(TABLES_STEP, math.ceil(math.ceil(players / 2) / TABLES_STEP) * TABLES_STEP)


def table_ranges(root: Event, first_tables: dict[int, int | None] | None = None) -> dict[int, tuple[int, int]]:
    """Each section's tables (first, last): its `first_table` set by hand, or automatic, right after the previous
    section's range (the first section's from table 1). `first_tables` overrides the stored ones (a form's)."""
    counts = dict(
        Player.objects.filter(event__parent=root)
        .values_list("event_id")
        .annotate(n=Count("id"))
        .values_list("event_id", "n")
    )
    overrides = first_tables or {}
    ranges, last = {}, 0
    for s in root.section_list:
        first = overrides.get(s.pk, s.first_table) or last + 1
        ranges[s.pk] = (first, first + range_size(counts.get(s.pk, 0)) - 1)
        if counts.get(s.pk) or s.first_table:
            # A section without players (none registered yet, or its players joined another section's Swiss:
            # services/divisions.py) holds no tables from the next one.
            last = ranges[s.pk][1]
    return ranges


def first_table(event: Event) -> int:
    """The table number a round's first match takes: 1 for an event running one Swiss, the start of its range
    for a section. The engines number tables from 1; a section's are shifted into its range."""
    if not event.is_section:
        return 1
    return table_ranges(event.root)[event.pk][0]


def fixed_tables_within(file_event, first: int):
    """The event as the engines read it, its players' fixed tables (absolute numbers, as the venue's tables are
    numbered) counted from the section's first table; a fixed table outside the section's range is not honoured."""
    if first == 1:
        return file_event

    def within(table: int | None) -> int | None:
        return table - first + 1 if table is not None and table >= first else None

    players = tuple(dataclasses.replace(p, fixed_table=within(p.fixed_table)) for p in file_event.players)
    return dataclasses.replace(file_event, players=players)


def _overlap(root: Event, section: Event, first: int | None) -> Event | None:
    """Another section whose range a hand-set first table for `section` would overlap (None when none does)."""
    ranges = table_ranges(root, {section.pk: first})
    a, b = ranges[section.pk]
    others = {s.pk: s for s in root.section_list if s.pk != section.pk}
    return next((others[pk] for pk, (c, d) in ranges.items() if pk in others and a <= d and c <= b), None)


def update_section(section: Event, by, **fields) -> None:
    """Save a section's placement rules and first table; a hand-set range overlapping another section's is refused."""
    with transaction.atomic():
        root = lock_event(section.root)
        for low, high in (("rating_min", "rating_max"), ("birth_year_min", "birth_year_max")):
            lo, hi = fields.get(low), fields.get(high)
            if lo is not None and hi is not None and lo > hi:
                raise ServiceError(_("The lower end of a range cannot be above its upper end."))
        if fields.get("first_table") is not None:
            other = _overlap(root, section, fields["first_table"])
            if other is not None:
                first, last = table_ranges(root)[other.pk]
                raise ServiceError(
                    _("Tables from %(first)s overlap section “%(name)s”, which uses tables %(from)s–%(to)s.")
                    % {"first": fields["first_table"], "name": other.name, "from": first, "to": last}
                )
        for name, value in fields.items():
            setattr(section, name, value)
        section.save(update_fields=list(fields))
        log(root, "section_rules", by, section=section.name)
        changed(root)
        changed(section)


# ---------------------------------------------------------------- placing and moving players


def _lock_venue(root: Event, sections) -> Event:
    """Lock the sections concerned (in id order), then the event the venue knows: the order a registration
    takes them in (a section's, then the venue's numbers: `models.number_players`), so that none waits on another."""
    for pk in sorted({s.pk for s in sections}):
        Event.objects.select_for_update(no_key=True).filter(pk=pk).values_list("pk").first()
    return lock_event(root)


def _enter(section: Event, players: list[Player], by=None) -> list[str]:
    """Make `players` (already registered at the venue) entries of `section`: they join at its next round (a late
    entry under its policy, as at registration) and keep their number, code and personal link's secret; a key
    the section's players already use (a swiss-event file's id) is given afresh."""
    if not players:
        return []
    # A joined section's entries play in its partner, in its division (services/divisions.py).
    section, division = plays_in(section)
    recent = list(section.rounds.order_by("-number")[:2])
    latest = recent[0] if recent else None
    if latest and latest.kind == Round.Kind.ELIMINATION:
        raise ServiceError(
            _("The top cut of section “%(name)s” has started: no more entries.") % {"name": section.name}
        )
    last = next((r for r in recent if r.state != Round.State.DRAFT), None)
    joined = last.number + 1 if last else 1
    keys = set(section.players.values_list("key", flat=True))
    codes = set(section.players.values_list("code", flat=True))
    spare = iter(fresh_keys(section.pk, len(players)))
    for p in players:
        p.event, p.joined_round, p.division = section, joined, division
        if p.key in keys:
            p.key = next(spare)
        while p.code in codes:  # 22**8 codes: two players of one section drawing the same is all but impossible
            p.code = new_code()
        keys.add(p.key)
        codes.add(p.code)
        p.save(update_fields=["event", "joined_round", "division", "key", "code"])
    notes = []
    if joined > 1 and section.late_entry == Event.LateEntry.LOSSES:
        losses = [
            (rnd, create_matches(rnd, [Match(round=rnd, player_a=p, result=Match.Result.LOSS) for p in players]))
            for rnd in section.rounds.filter(kind=Round.Kind.SWISS, number__lt=joined)
        ]
        trail.added_by_hand(section, losses, by)
    if latest and latest.state == Round.State.DRAFT:
        notes.append(
            _("Round %(round)d of section “%(name)s” is a draft without them: re-pair it to include them.")
            % {"round": latest.number, "name": section.name}
        )
    changed(section)
    return notes


def place_unplaced(root: Event, by) -> tuple[dict[str, int], int]:
    """Place the event's unplaced players by the sections' rules: how many went to each section (by name), and
    how many fit no section's rules and still wait on the event."""
    with transaction.atomic():
        sections = root.section_list
        root = _lock_venue(root, sections)
        groups: dict[int, list[Player]] = {}
        left = 0
        for p in root.players.filter(dropped_after__isnull=True).order_by("number"):
            section = placed_by_rules(sections, p.rating, p.birth_date)
            if section is None:
                left += 1
            else:
                groups.setdefault(section.pk, []).append(p)
        placed = {}
        for section in sections:
            if groups.get(section.pk):
                _enter(section, groups[section.pk], by)
                placed[section.name] = len(groups[section.pk])
                log(section, "section_place", by, count=len(groups[section.pk]))
                changed(section)
        log(root, "section_place", by, count=sum(placed.values()), left=left)
        changed(root)
    return placed, left


def paired_in(player: Player) -> bool:
    """Whether the player's section has paired a round with them (a draft included, an unpaired loss too)."""
    return (
        Seat.objects.filter(player=player).exists()
        or Match.objects.filter(Q(player_a=player) | Q(player_b=player)).exists()
    )


def _target(player: Player, section: Event) -> Event:
    if section.parent_id != player.event.root.pk:
        raise ServiceError(_("Choose one of this event's sections."))
    return section


def move_player(player: Player, section: Event, by) -> list[str]:
    """Move a player (unplaced, or in a section) to `section`, keeping their number, code and personal link's
    secret. Refused once their section has paired a round with them: withdraw and enter again instead."""
    section = _target(player, section)
    root = section.root
    with transaction.atomic():
        before = player.event
        target, division = plays_in(section)
        _lock_venue(root, [s for s in (before, section, target) if s.is_section])
        player = Player.objects.select_related("event").get(pk=player.pk)
        before = player.event
        if (before.pk, player.division) == (target.pk, division):
            return []
        if before.is_section and paired_in(player):
            raise ServiceError(
                _(
                    "%(name)s has been paired in section “%(from)s”, so they cannot be moved. Withdraw them there "
                    "and enter them again in “%(to)s” instead."
                )
                % {"name": player.name, "from": before.name, "to": section.name}
            )
        notes = _enter(section, [player], by)
        detail = {"player": player.key, "name": player.name, "number": player.number, "to": section.name}
        for event in {root.pk: root, before.pk: before, section.pk: section}.values():
            log(event, "section_move", by, **detail, **({"from": before.name} if before.is_section else {}))
            changed(event)
    return notes


def reenter_player(player: Player, section: Event, by) -> tuple[Player, list[str]]:
    """Withdraw a player from their section (dropped after its last round) and enter them again in `section`
    with the same details: a new entry, with the venue's next player number and a new personal link."""
    section = _target(player, section)
    root = section.root
    with transaction.atomic():
        _lock_venue(root, [player.event, section, plays_in(section)[0]])
        player = Player.objects.select_related("event").get(pk=player.pk)
        before = player.event
        if not before.is_section or before.pk == section.pk:
            raise ServiceError(_("Choose another section."))
        if player.is_active:
            last = current_round(before)
            player.dropped_after = last.number if last else 0
            player.save(update_fields=["dropped_after"])
        entry = NewPlayer(
            name=player.name,
            rating=player.rating,
            external_id=player.external_id,
            reading=player.reading,
            chess={k: getattr(player, k) for k in ("fide_id", "federation", "title", "sex", "birth_date")},
            family_name=player.family_name,
            given_name=player.given_name,
        )
        added, notes = add_players(section, by, [entry])
        new = Player.objects.get(pk=added[0])
        detail = {"name": player.name, "number": player.number, "new_number": new.number}
        detail |= {"from": before.name, "to": section.name, "after_round": player.dropped_after}
        for event in (root, before, section):
            log(event, "section_reenter", by, **detail)
            changed(event)
    return new, notes


def register(root: Event, by, entries: list[tuple[NewPlayer, Event | None]]) -> tuple[list[int], list[str]]:
    """Register players at the event: each in the section chosen for them, else by the rules; those fitting no
    section's rules wait on the event, unplaced. The new players' ids and notes for the organiser."""
    sections = root.section_list
    groups: dict[int, list[NewPlayer]] = {}
    for entry, chosen in entries:
        target = chosen or placed_by_rules(sections, entry.rating, entry.chess.get("birth_date", ""))
        groups.setdefault(target.pk if target else root.pk, []).append(entry)
    added, notes = [], []
    with transaction.atomic():
        chosen = [s for s in sections if s.pk in groups]
        _lock_venue(root, chosen + [plays_in(s)[0] for s in chosen])
        for event in (*sections, root):
            if groups.get(event.pk):
                ids, said = add_players(event, by, groups[event.pk])
                added += ids
                notes += said
    left = len(groups.get(root.pk, []))
    if left and sections:
        notes.append(
            ngettext(
                "%(count)d player fits no section's rules: place them by hand.",
                "%(count)d players fit no section's rules: place them by hand.",
                left,
            )
            % {"count": left}
        )
    return added, notes
