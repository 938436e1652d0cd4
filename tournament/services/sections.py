"""Sections: one event the venue knows, several Swiss tournaments in it (docs/sections.md).

A section is an `Event` whose `parent` is the event the venue knows. Everything one Swiss needs (preset,
scoring, pairing, rounds, standings, top cut, clock, reporting) is the section's own, so every page and
workflow that runs an event runs a section unchanged. What is the venue's is kept once, on the parent: its
address, its staff (a role there acts in every section) and its players' numbers (one run across sections).
"""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.models import Event
from tournament.services.locks import ServiceError, changed, lock_event, log
from tournament.text.slugs import slug_text

# What a new section takes from its event unless told otherwise: the venue's facts, not a Swiss's settings.
VENUE_FIELDS = ("date", "language", "time_zone", "public", "city", "federation", "end_date")


def add_section(event: Event, name: str, by, **fields) -> Event:
    """A new section of `event` (the event the venue knows), last in its list, under the slug
    `<event's slug>-<name as a slug>` (with a number after it when that is taken)."""
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
