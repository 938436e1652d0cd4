"""Public pages: what players see on their phones and what the venue screen shows. Read-only, no login.

Each view fetches the event row (one query), and `public_response` answers 304 for an unchanged page
before any other work; what each page shows (tournament/pages/public.py) is made only when a page has to be
rendered for a new event version.
"""

import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from tournament.infra.middleware import client_ip
from tournament.models import Event
from tournament.pages import public as pages
from tournament.views.access import HtmxHttpRequest, is_fragment, public_event
from tournament.views.public_cache import public_response

MAX_QUERY = 60


# --- Views ---------------------------------------------------------------------------------------


def home(request: HtmxHttpRequest, event: Event) -> HttpResponse:
    """The home of an event that runs one Swiss, or of a section (views/venue.py routes here)."""
    # The QR code holds this page's absolute address: the configured one, whatever Host was asked for.
    url = public_url(request, reverse("public:home", args=[event.slug]))
    template = "public/home.html"
    if is_fragment(request):
        template += "#live"
    return public_response(request, event, template, lambda: pages.home_context(event, url), url)


def pairings(request: HtmxHttpRequest, event: Event, q: str) -> HttpResponse:
    """The pairings of an event that runs one Swiss, or of a section (views/venue.py routes here)."""
    template = "public/pairings.html"
    if is_fragment(request):
        template += "#pairings"
    return public_response(request, event, template, lambda: pages.pairings_context(event, q), q, search=bool(q))


@require_safe
def standings_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    q = query(request)
    if q and not search_allowed(request):
        return too_many_searches()
    page = page_asked(request, event)
    template = "public/standings.html"
    if is_fragment(request):
        template += "#standings"
    return public_response(
        request, event, template, lambda: pages.standings_context(event, page, q), page, q, search=bool(q)
    )


@require_safe
def player(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    event = public_event(request, slug)
    template = "public/player.html"
    if is_fragment(request):
        template += "#matches"
    return public_response(request, event, template, lambda: pages.player_context(event, pk), pk)


def screen(request: HtmxHttpRequest, event: Event) -> HttpResponse:
    """The screen of an event that runs one Swiss, or of a section (views/venue.py routes here)."""
    url = public_url(request, reverse("public:home", args=[event.slug]))
    template = "public/screen.html"
    if is_fragment(request):
        template += "#board"
    return public_response(request, event, template, lambda: pages.screen_context(event, url), url)


@require_safe
def bracket(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    template = "public/bracket.html"
    if is_fragment(request):
        template += "#bracket"
    return public_response(request, event, template, lambda: pages.bracket_context(event))


# --- Shared pieces ---------------------------------------------------------------------------------


def search_allowed(request: HttpRequest) -> bool:
    """At most PUBLIC_SEARCHES per PUBLIC_SEARCH_SECONDS from one address (the real one, behind the proxy).

    Searches typed on a phone are filtered in the page itself; the server filters only for browsers
    without JavaScript, so a person never comes near the limit and a loop of requests soon does.
    """
    limit, seconds = settings.PUBLIC_SEARCHES, settings.PUBLIC_SEARCH_SECONDS
    now = time.time() / seconds
    window = int(now)
    address = client_ip(request)
    key = f"searches:{address}:{window}"
    cache.add(key, 0, seconds * 2)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add and incr
        count = 1
    # The last `seconds` reach back into the window before: its count, for the part still inside, so that a
    # loop is not let off afresh each time a window begins.
    before = cache.get(f"searches:{address}:{window - 1}", 0)
    return count + before * (1 - (now - window)) <= limit


def too_many_searches() -> HttpResponse:
    seconds = settings.PUBLIC_SEARCH_SECONDS
    message = gettext("Too many searches from your address: wait %(seconds)d seconds and try again.")
    return HttpResponse(
        message % {"seconds": seconds},
        status=429,
        content_type="text/plain; charset=utf-8",
        headers={"Retry-After": str(seconds)},
    )


def public_url(request: HttpRequest, path: str) -> str:
    """The address people should type or scan: SITE_URL when configured, else the one this request used."""
    return settings.SITE_URL + path if settings.SITE_URL else request.build_absolute_uri(path)


def page_asked(request: HttpRequest, event: Event) -> int:
    """The page of a long table (standings, crosstable) asked for, within the pages there are: any other
    value would be one more rendering."""
    try:
        number = int(request.GET.get("page", "1")[:6])
    except ValueError:
        return 1
    if number <= 1:
        return 1
    return min(number, max(1, math.ceil(event.players.count() / pages.STANDINGS_PAGE_SIZE)))


def query(request: HttpRequest) -> str:
    return " ".join(request.GET.get("q", "").split())[:MAX_QUERY]
