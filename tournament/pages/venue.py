"""What the venue's public pages show (the address of an event with sections; docs/sections.md, "Public pages"):
each section where it is in its day, the search across every section, the venue screen's shell. What they show of
each section is made once per version of that section (views/venue.py answers the request)."""

from dataclasses import dataclass

from django.db.models import Count
from django.utils.translation import get_language, gettext

from tournament.models import Event, Player, Round
from tournament.pages.memo import cached, event_key, load_rest
from tournament.pages.public import SEARCH_ROWS, screen_board
from tournament.pages.rows import absent_rows, pairing_rows, published_rounds, qr_svg, round_title
from tournament.services.divisions import joined_into
from tournament.text import name_search

SCREEN_LAYOUTS = ("turns", "side")


# --- What each section shows ---------------------------------------------------------------------


@dataclass(frozen=True)
class SectionNow:
    """A section on the venue's home: where it is in its day."""

    section: Event
    state: str  # registration, playing, finished (a round), top_cut, over, joined
    title: str  # "Round 3 in progress", ...
    players: int
    joined: Event | None = None  # the section whose Swiss its players play in (services/divisions.py)


def sections_now(sections: list[Event]) -> list[SectionNow]:
    """Each section's latest published round and its state: two queries, and one per section in its top cut."""
    ids = [s.pk for s in sections]
    latest: dict[int, Round] = {}
    for rnd in Round.objects.filter(event_id__in=ids).exclude(state=Round.State.DRAFT).order_by("event_id", "-number"):
        latest.setdefault(rnd.event_id, rnd)
    counts = dict(Player.objects.filter(event_id__in=ids).values_list("event_id").annotate(n=Count("id")).order_by())
    # The final is the elimination round of one match: played once it has a winner.
    final_played = set()
    for rnd in latest.values():
        final = list(rnd.matches.all()[:2]) if rnd.kind == Round.Kind.ELIMINATION else []
        if len(final) == 1 and final[0].winner is not None:
            final_played.add(rnd.pk)
    rows = []
    for section in sections:
        rnd = latest.get(section.pk)
        into = joined_into(section) if rnd is None and section.pair_with_id else None
        if into is not None:  # its players play in the partner's Swiss (services/divisions.py)
            state, title = "joined", gettext("Plays in %(section)s") % {"section": into.name}
        elif rnd is None:
            state, title = "registration", gettext("Registration")
        elif rnd.kind == Round.Kind.ELIMINATION:
            over = rnd.pk in final_played
            state, title = ("over", gettext("Finished")) if over else ("top_cut", round_title(rnd))
        elif rnd.state == Round.State.COMPLETE:
            last = section.planned_rounds and rnd.number >= section.planned_rounds and not section.top_cut
            state = "over" if last else "finished"
            title = gettext("Finished") if last else gettext("Round %(number)s finished") % {"number": rnd.number}
        else:
            state, title = "playing", gettext("Round %(number)s in progress") % {"number": rnd.number}
        rows.append(SectionNow(section, state, title, counts.get(section.pk, 0), into))
    return rows


def home_context(event: Event, sections: list[Event], url: str) -> dict:
    load_rest(event)
    for section in sections:
        load_rest(section)
    return {
        "event": event,
        "sections": sections_now(sections),
        "qr": qr_svg(url),
        "url": url,
        "nav": "home",
        "venue": True,
    }


# --- The search across sections ------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A player as the venue's search finds them: in their section's current round, or not (yet) in it."""

    pk: int
    number: int | None
    name: str
    table: int | None = None
    opponent: str = ""
    colour: str = ""
    note: str = ""


def section_entries(section: Event) -> tuple[tuple[str, Entry], ...]:
    """Every player of `section` with what the search compares (name and reading, folded), made once per
    version of the section and language (from its pairing rows, themselves cached per version)."""

    def make() -> tuple[tuple[str, Entry], ...]:
        numbers = dict(section.players.values_list("pk", "number").order_by())
        swiss = [r for r in published_rounds(section) if r.kind == Round.Kind.SWISS]
        entries: list[tuple[str, str, Entry]] = []
        if swiss:
            rows = pairing_rows(section, swiss[-1])
            for r in rows:
                entry = Entry(
                    r.pk, numbers.get(r.pk), r.name, r.table, r.opponent, r.colour, "" if r.opponent else r.note
                )
                entries.append((r.name, r.reading, entry))
            for a in absent_rows(section, swiss[-1], rows):
                entries.append((a.name, "", Entry(a.pk, numbers.get(a.pk), a.name, note=a.note)))
        else:
            waiting = gettext("Not paired yet")
            for pk, name, reading in section.players.values_list("pk", "name", "reading").order_by("name", "pk"):
                entries.append((name, reading, Entry(pk, numbers.get(pk), name, note=waiting)))
        return tuple(
            (f"{name_search.fold(name)}\n{name_search.fold(reading)}", entry) for name, reading, entry in entries
        )

    return cached(f"venue-entries:{event_key(section)}:{get_language()}", make, keep=True)


def search_context(event: Event, sections: list[Event], q: str) -> dict:
    """The venue's pairings page: its sections, and with `q` the players of any section whose name holds it
    or whose number it is (numbers are one run across the sections)."""
    load_rest(event)
    for section in sections:
        load_rest(section)
    found: list[tuple[Event, Entry]] = []
    count = 0
    if q:
        needle = name_search.fold(q)
        number = int(q) if q.isdigit() else None
        for section in sections:
            for folded, entry in section_entries(section):
                if needle in folded or (number is not None and entry.number == number):
                    count += 1
                    if len(found) < SEARCH_ROWS:
                        found.append((section, entry))
    return {
        "event": event,
        "sections": sections,
        "q": q,
        "found": found,
        "count": count,
        "nav": "pairings",
        "venue": True,
    }


# --- The venue screen ----------------------------------------------------------------------------


def screen_context(event: Event, sections: list[Event], url: str, layout: str) -> dict:
    return {
        "event": event,
        "sections": sections,
        "layout": layout,
        "layouts": SCREEN_LAYOUTS,
        "qr": qr_svg(url),
        "url": url,
    }


def panel_context(section: Event) -> dict:
    """One section's board on its venue's screen: the board any event's screen shows; a section whose players play
    in another's Swiss shows where, not an empty "Waiting for round 1"."""
    into = joined_into(section)
    return {"event": section, "joined": into} if into else screen_board(section)
