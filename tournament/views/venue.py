"""The venue's public pages: the address of an event with sections (docs/sections.md, "Public pages").

`/e/<event>/`, its pairings search and its screen show every section the visitor may see; an event without
sections, and every section at its own address, get the pages of views/public.py unchanged. The home and the
search are cached on the versions of the event and its sections, read in the poll's one query
(`memo.venue_view`); what they show of each section (pages/venue.py) is made once per version of it, so a
result stored in one section re-makes only that section's part. The screen is a shell of the sections' names;
each section's board is a fragment of its own (`screen_panel`), so no request renders more than one section.
"""

from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from tournament.models import Event
from tournament.pages import venue as pages
from tournament.pages.memo import venue_view
from tournament.views import public
from tournament.views.access import HtmxHttpRequest, is_fragment, public_event, role_of
from tournament.views.public_cache import public_response

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
    return public_response(request, shown, template, lambda: pages.home_context(event, sections, url), url, versions)


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
    context = lambda: pages.search_context(event, sections, q)  # noqa: E731
    return public_response(request, shown, "public/venue_pairings.html", context, q, versions, search=bool(q))


@require_safe
def screen(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The venue's screen: a shell naming the shown sections, each of whose boards public.js fetches from
    `screen_panel`. It shows nothing of a section's round, so it is validated on the event's own version and the
    sections it names: a result in a section leaves it 304."""
    event = public_event(request, slug)
    if not event.polled_sections:
        return public.screen(request, event)
    # A section joined into its partner has no board of its own: its players are on the partner's, by division.
    sections = [s for s in shown_sections(request, event) if s.joined_partner_id is None]
    layout = request.GET.get("layout")
    layout = layout if layout in pages.SCREEN_LAYOUTS else pages.SCREEN_LAYOUTS[0]
    url = public.public_url(request, reverse("public:home", args=[slug]))
    named = "\n".join(f"{s.pk} {s.slug} {s.name}" for s in sections)
    template = "public/venue_screen.html"
    if is_fragment(request):
        template += "#venue"
    context = lambda: pages.screen_context(event, sections, url, layout)  # noqa: E731
    return public_response(request, event, template, context, url, layout, named)


@require_safe
def screen_panel(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One section's board on its venue's screen, cached and validated on that section's version alone (any
    event's board, as the venue screen shows it)."""
    section = public_event(request, slug)
    return public_response(request, section, "public/venue_screen.html#panel", lambda: pages.panel_context(section))


def shown_sections(request: HtmxHttpRequest, event: Event) -> list[Event]:
    """The sections of `event` a visitor sees: the public ones; every one for the event's staff."""
    sections = event.polled_sections
    if all(s.public for s in sections) or role_of(request.user, event) is None:
        return [s for s in sections if s.public]
    return sections
