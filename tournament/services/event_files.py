"""Importing a swiss-event file: a version-1 file as an event of its own, a version-2 file as an event with
its sections (docs/sections.md), each section made as the organiser's "add section" makes one; and a TRF file as
a new section of an event (`import_section`).

All or nothing: a refusal names the place in the file (`sections[1].players[3].name: …`).
"""

from dataclasses import replace

from django.db import transaction

from swiss import model
from swiss.messages import Message
from swiss.strictjson import EventFileError
from tournament import snapshot
from tournament.models import Event
from tournament.services.locks import ServiceError
from tournament.services.sections import add_section
from tournament.services.staff import check_may_create


def without_slug(doc: model.Event | model.Venue) -> model.Event | model.Venue:
    """The file without its address: an event made on the web gets one drawn for it (`insert_with_new_slug`), so
    that what it gets tells nothing of the events that exist; its sections are named under it."""
    if isinstance(doc, model.Venue):
        return replace(doc, slug=None)
    return replace(doc, settings=replace(doc.settings, slug=None))


def import_file(doc: model.Event | model.Venue, slug: str | None = None, by=None) -> Event:
    """The parsed file (`swiss.venuefile`, or a TRF's) as a new event; `by` is who imported it (None: the command
    line), refused when that account may not create events (`staff.check_may_create`), and a file larger than an
    event is (`snapshot.check_file`) refused whole, as the web upload refuses it."""
    check_may_create(by)
    snapshot.check_file(doc)
    if isinstance(doc, model.Venue):
        return import_venue(doc, slug, by)
    return snapshot.import_event(doc, slug)


@transaction.atomic
def import_venue(doc: model.Venue, slug: str | None = None, by=None) -> Event:
    """A version-2 file as a new event with sections: the venue's facts and players on the event, each
    section under the event's address; when the event gets the file's own slug (a restore), each section
    keeps the file's slug too where it is free."""
    doc = _numbered(doc)
    venue = model.Settings(
        name=doc.name,
        slug=doc.slug,
        date=doc.date,
        language=doc.language,
        time_zone=doc.time_zone,
        public=doc.public,
        city=doc.city,
        federation=doc.federation,
        end_date=doc.end_date,
    )
    event = snapshot.import_event(model.Event(settings=venue, players=doc.players), slug)
    sections = {}
    for i, section in enumerate(doc.sections):
        place = f"sections[{i}]"
        try:
            snapshot.check_fits(section)
            row = add_section(event, section.settings.name, by, **snapshot.event_fields(section.settings))
            wanted = section.settings.slug if event.slug == doc.slug else None  # a restore keeps them
            if wanted and wanted != row.slug and not Event.objects.filter(slug=wanted).exists():
                row.slug = wanted
                row.save(update_fields=["slug"])
            snapshot.write_players_and_rounds(row, section)
        except EventFileError as e:
            raise EventFileError(f"{place}.{e.path}" if e.path else place, e.message) from None
        except ServiceError as e:
            raise EventFileError(
                f"{place}.name", Message("file_section_refused", "{problem}", problem=str(e))
            ) from None
        sections[section.settings.name] = row
    for section in doc.sections:
        if section.settings.pair_with:
            row = sections[section.settings.name]
            row.pair_with = sections[section.settings.pair_with]
            row.joined_partner = row.pair_with if section.settings.joined else None  # its players moved there
            row.save(update_fields=["pair_with", "joined_partner"])
    return event


# What a section imported from a file keeps of the venue's, whatever the file says (a TRF says none of them).
KEEP_VENUES = ("language", "time_zone", "public")


@transaction.atomic
def import_section(event: Event, doc: model.Event, name: str = "", by=None) -> Event:
    """A parsed file (a TRF's) as a new section of `event`, named `name` or else the file's own name, as the
    organiser's "add section" makes one: the file's settings, players and rounds, the venue's language, time zone
    and visibility kept, the file's date and rating-report facts where it has them. Its players take the venue's
    next player numbers in start-rank order; their ids stay the start ranks, the pairing numbers (swiss/numbers.py).
    All or nothing: a refusal is an EventFileError naming its place, or the ServiceError of `add_section`."""
    root = event.root
    snapshot.check_fits(doc)
    fields = snapshot.event_fields(doc.settings)
    for key in KEEP_VENUES:
        fields.pop(key)
    for key in ("date", "city", "federation", "end_date"):  # the file's where it has them, else the venue's
        if not getattr(doc.settings, key):
            fields.pop(key)
    section = add_section(root, name.strip() or doc.settings.name, by, **fields)
    players = sorted(doc.players, key=lambda p: p.number if p.number is not None else len(doc.players) + 1)
    snapshot.write_players_and_rounds(section, replace(doc, players=tuple(replace(p, number=None) for p in players)))
    return section


def _numbered(doc: model.Venue) -> model.Venue:
    """Every player numbered, in the file's order, around the numbers the file gives: numbers are the venue's
    (one run across sections), and a section read first must not take a number a later one gives."""
    given = {p.number for p in doc.players if p.number is not None}
    given |= {p.number for s in doc.sections for p in s.players if p.number is not None}
    free = (n for n in range(1, 10**9) if n not in given)

    def number(players):
        return tuple(p if p.number is not None else replace(p, number=next(free)) for p in players)

    return replace(
        doc, players=number(doc.players), sections=tuple(replace(s, players=number(s.players)) for s in doc.sections)
    )
