"""The `swiss-event` file of an event with sections: version 2 (docs/file-formats.md, docs/sections.md).

`{"format": "swiss-event", "version": 2, "name": …, "sections": [ … ]}`: the top level holds what is the
venue's (its name and address, its day, the public pages' language, its time zone, whether the pages are
public, its city, federation and last day, and the players not yet placed in a section); each section is a
version-1 event's body, everything but `format` and `version`, and takes the venue's date, language, time
zone and visibility when it leaves them out. `loads` reads either version: a version-1 file is an Event
exactly as `swiss.eventfile` reads it.
Player numbers are the venue's: one run across its players and every section's.
"""

from __future__ import annotations

import json
from typing import Any

from swiss import eventfile
from swiss.messages import Message
from swiss.model import Event, Venue
from swiss.sectionfacts import Paired, pair_with_problem
from swiss.strictjson import EventFileError, decode, list_at, object_at

VERSION = 2
# The venue's rating-report facts: the defaults of a section made on the web (not inherited by the file's sections).
VENUE_REPORT = ("city", "federation", "end_date")
_VENUE_KEYS = {"format", "version", "name", "slug", *eventfile.INHERITED, *VENUE_REPORT, "players", "sections"}


def loads(text: str | bytes) -> Event | Venue:
    """Parse the text of a swiss-event file of either version."""
    return parse(decode(text))


def parse(data: Any) -> Event | Venue:
    """A version-1 document as an Event (`swiss.eventfile.parse`), a version-2 one as a Venue."""
    if not isinstance(data, dict) or data.get("version") != VERSION:
        if isinstance(data, dict) and data.get("format") == eventfile.FORMAT and data.get("version") != 1:
            raise EventFileError(
                "version", Message("file_expected_one_of", "expected one of {choices}", choices="1, 2")
            )
        return eventfile.parse(data)
    data = object_at(data, "", _VENUE_KEYS)
    if data.get("format") != eventfile.FORMAT:
        raise EventFileError("format", Message("file_format", 'expected "{format}"', format=eventfile.FORMAT))
    # The venue's facts are checked as an event's body checks the same keys (paths and refusals alike).
    own = eventfile.parse_section(
        {"name": "Event", **{k: v for k, v in data.items() if k in _VENUE_KEYS - {"format", "version", "sections"}}}, {}
    )
    inherited = {k: data[k] for k in eventfile.INHERITED if k in data}
    raw = list_at(data.get("sections"), "sections")
    if not raw:
        raise EventFileError("sections", Message("file_no_sections", "a version-2 file has at least one section"))
    sections = tuple(_section(body, f"sections[{i}]", inherited) for i, body in enumerate(raw))
    _check_venue(own.players, sections)
    s = own.settings
    return Venue(
        name=s.name,
        slug=s.slug,
        date=s.date,
        language=s.language,
        time_zone=s.time_zone,
        public=s.public,
        players=own.players,
        sections=sections,
        city=s.city,
        federation=s.federation,
        end_date=s.end_date,
    )


def _section(body: Any, path: str, inherited: dict[str, Any]) -> Event:
    try:
        return eventfile.parse_section(body, inherited)
    except EventFileError as e:
        raise EventFileError(f"{path}.{e.path}" if e.path else path, e.message) from None


def _check_venue(players, sections: tuple[Event, ...]) -> None:
    """Across sections: names told apart, the pairing of two sections together as the settings form checks it
    (`sectionfacts.pair_with_problem`), player numbers the venue's."""
    names: dict[str, int] = {}
    for i, section in enumerate(sections):
        name = section.settings.name
        if name in names:
            raise EventFileError(
                f"sections[{i}].name",
                Message(
                    "file_section_twice",
                    "a section called {name} is given twice",
                    name=json.dumps(name, ensure_ascii=False),
                ),
            )
        names[name] = i
    paired = [
        Paired(
            key=s.settings.name,
            name=s.settings.name,
            pair_with=s.settings.pair_with,
            pair_with_below=s.settings.pair_with_below,
            scoring=(s.settings.preset, s.settings.scoring),
        )
        for s in sections
    ]
    for i, one in enumerate(paired):
        problem = pair_with_problem(one, paired)
        if problem:
            key, message = problem
            raise EventFileError(f"sections[{i}].{key}", message)
    numbers: set[int] = {p.number for p in players if p.number is not None}
    for i, section in enumerate(sections):
        for j, p in enumerate(section.players):
            if p.number is None:
                continue
            if p.number in numbers:
                raise EventFileError(
                    f"sections[{i}].players[{j}].number",
                    Message("file_player_number_twice", "player number {number} is given twice", number=p.number),
                )
            numbers.add(p.number)


def dump(venue: Venue) -> dict[str, Any]:
    """The version-2 document of a Venue; parse(dump(v)) == v."""
    doc: dict[str, Any] = {"format": eventfile.FORMAT, "version": VERSION, "name": venue.name}
    if venue.slug is not None:
        doc["slug"] = venue.slug
    if venue.date is not None:
        doc["date"] = venue.date
    if venue.language != "en":
        doc["language"] = venue.language
    if venue.time_zone:
        doc["time_zone"] = venue.time_zone
    doc["public"] = venue.public
    for key in VENUE_REPORT:
        if getattr(venue, key):
            doc[key] = getattr(venue, key)
    if venue.players:
        doc["players"] = eventfile.dump_players(venue.players)
    shared = {key: getattr(venue, key) for key in eventfile.INHERITED}
    doc["sections"] = [eventfile.dump_section(s, shared) for s in venue.sections]
    return doc


def dumps(doc: Event | Venue) -> str:
    """The text of either version: an Event as version 1 (`swiss.eventfile.dumps`), a Venue as version 2."""
    if isinstance(doc, Event):
        return eventfile.dumps(doc)
    return json.dumps(dump(doc), indent=1, ensure_ascii=False) + "\n"
