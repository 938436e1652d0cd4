"""The venue's public pages: the address of an event with sections (docs/sections.md, "Public pages").

`/e/<event>/`, its pairings search and its screen show every section the visitor may see; an event without
sections, and every section at its own address, get the pages of views/public.py unchanged. The home and the
search are cached on the versions of the event and its sections, read in the poll's one query
(`public_cache.venue_view`); what they show of each section is made once per version of that section, so a
result stored in one section re-makes only that section's part. The screen is a shell of the sections' names;
each section's board is a fragment of its own (`screen_panel`), so no request renders more than one section.
"""

from dataclasses import dataclass

from django.db.models import Count
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from tournament.models import Event, Player, Round
from tournament.services.divisions import joined_into
from tournament.text import name_search
from tournament.views import public
from tournament.views.access import HtmxHttpRequest, is_fragment, role_of
from tournament.views.public_cache import cached, event_key, load_rest, public_event, public_response, venue_view
from tournament.views.public_rows import absent_rows, pairing_rows, published_rounds, qr_svg, round_title

SCREEN_LAYOUTS = ("turns", "side")


# --- Views ---------------------------------------------------------------------------------------


@require_safe
def home(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    if not event.polled_sections:
        return public.home(request, event)
    sections = shown_sections(request, event)
    url = public.public_url(request, reverse("public:home", args=[slug]))
    shown, versions = venue_view(event, sections)
    template = "public/venue_home.html"
    if is_fragment(request):
        template += "#live"
    return public_response(request, shown, template, lambda: home_context(event, sections, url), url, versions)


@require_safe
def pairings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    q = public.query(request)
    if q and not public.search_allowed(request):
        return public.too_many_searches()
    if not event.polled_sections:
        return public.pairings(request, event, q)
    sections = shown_sections(request, event)
    shown, versions = venue_view(event, sections)
    context = lambda: search_context(event, sections, q)  # noqa: E731
    return public_response(request, shown, "public/venue_pairings.html", context, q, versions, search=bool(q))


@require_safe
def screen(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The venue's screen: a shell naming the shown sections, each of whose boards public.js fetches from
    `screen_panel`. It shows nothing of a section's round, so it is validated on the event's own version and the
    sections it names: a result in a section leaves it 304."""
    event = public_event(request, slug)
    if not event.polled_sections:
        return public.screen(request, event)
    sections = shown_sections(request, event)
    layout = request.GET.get("layout")
    layout = layout if layout in SCREEN_LAYOUTS else SCREEN_LAYOUTS[0]
    url = public.public_url(request, reverse("public:home", args=[slug]))
    named = "\n".join(f"{s.pk} {s.slug} {s.name}" for s in sections)
    template = "public/venue_screen.html"
    if is_fragment(request):
        template += "#venue"
    context = lambda: screen_context(event, sections, url, layout)  # noqa: E731
    return public_response(request, event, template, context, url, layout, named)


@require_safe
def screen_panel(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One section's board on its venue's screen, cached and validated on that section's version alone (any
    event's board, as the venue screen shows it)."""
    section = public_event(request, slug)

    def board() -> dict:
        # A section whose players play in another's Swiss shows where, not an empty "Waiting for round 1".
        into = joined_into(section)
        return {"event": section, "joined": into} if into else public.screen_board(section)

    return public_response(request, section, "public/venue_screen.html#panel", board)


def shown_sections(request: HtmxHttpRequest, event: Event) -> list[Event]:
    """The sections of `event` a visitor sees: the public ones; every one for the event's staff."""
    sections = event.polled_sections
    if all(s.public for s in sections) or role_of(request.user, event) is None:
        return [s for s in sections if s.public]
    return sections


# --- What each section shows ---------------------------------------------------------------------


@dataclass(frozen=True)
class SectionNow:
    """A section on the venue's home: where it is in its day."""

    section: Event
    state: str  # registration, playing, finished (a round), top_cut, over
    title: str  # "Round 3 in progress", ...
    players: int


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
            section.joined = into
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
        rows.append(SectionNow(section, state, title, counts.get(section.pk, 0)))
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
                    if len(found) < public.SEARCH_ROWS:
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
