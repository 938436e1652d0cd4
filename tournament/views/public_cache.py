"""The HTTP answer of the public pages: ETags, 304s, Last-Modified, who may keep a page and for how long.

A poll costs one query for the event row (`access.public_event`): an unchanged page answers 304 with no body,
and a changed one is rendered once per version and then served as kept (tournament/pages/memo.py).

Written by hand, not with Django's `condition` decorator or `cache_page`, for measured reasons
(docs/scaling.md): the validators come from the event row the view has already read (`condition` would read it
again, in a function of its own, before the view), and a busy page may be answered with the ETag of the last
rendering made rather than the event's (`memo.may_lag`), which is known only once the rendering is looked up.
`cache_page` keeps a page for a time, keyed on its URL: these pages are kept per event version instead, so a
result shows at the next poll and an unchanged page is never rendered twice. The conditional answer itself is
Django's (`get_conditional_response`), and so are the cache headers (`patch_cache_control`, `patch_vary_headers`).
"""

import gzip
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from tournament.infra.routers import wrote_recently
from tournament.models import Event
from tournament.pages import memo


def _etag(event_pk: str, version: int, public: bool, ident: str) -> str:
    # Weak: the gzipped and the plain body are the same page. The version comes from the event row.
    return f'W/"{event_pk}.{version}.{int(public)}.{ident}"'


def public_response(
    request: HttpRequest,
    event: Event,
    template: str,
    context: Callable[[], dict],
    *params: object,
    search: bool = False,
) -> HttpResponse:
    """The page `template` of `event` for `params`, or 304 when the client has this version already.

    `context()` is called only when the rendering is not kept. A rendering is in one language: the
    language is part of its key and ETag, and the response varies on what chose it (tournament/text/i18n.py).

    A big page whose event changes faster than it can sensibly be rendered is served as last rendered
    for a few seconds (`memo.may_lag`), with that rendering's own ETag: the phones' next polls answer 304
    until a newer rendering exists, and the page is never more than PUBLIC_LAG_MAX seconds behind.

    A `search` (what one person typed) is not kept, and is exact: its page is its template's `content`
    partial, picked out of rows rendered once per version (`memo.RowIndex`), in the page's frame, also rendered
    once per version (`memo.searched`).
    """
    language = get_language()
    ident = memo.page_ident(template, language, params)
    event_pk = memo.event_identity(event)
    etag = _etag(event_pk, event.version, event.public, ident)
    last_modified = int(event.updated_at.timestamp())

    gzip_ok = "gzip" in request.headers.get("Accept-Encoding", "")

    def render_html(name: str = template) -> bytes:
        return memo.render_page(event, name, context, request.path)

    if search:
        # Not kept, and its rows may be a busy event's last rendered ones (`memo.lagging`): no validators, so no
        # browser is ever told "unchanged" about a search it holds.
        html = memo.searched(event, template, render_html, language, request.path)
        zipped = gzip_ok and len(html) >= memo.GZIP_MIN_BYTES
        response = _body(gzip.compress(html, memo.GZIP_LEVEL, mtime=0) if zipped else html, zipped)
    else:
        response = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if response is None:
        made = memo.rendering(event, ident, render_html)
        if made.version != event.version:
            etag = _etag(event_pk, made.version, made.public, ident)
            last_modified = int(made.updated_at)
            response = get_conditional_response(request, etag=etag, last_modified=last_modified)
        if response is None:
            kept = made
            made, body, zipped = memo.page_body(event, made, ident, gzip_ok, render_html)
            if made is not kept:  # rendered again: the cache had lost its body
                etag, last_modified = _etag(event_pk, made.version, made.public, ident), int(made.updated_at)
            response = _body(body, zipped)
    if not search:
        response["ETag"] = etag
        response["Last-Modified"] = http_date(last_modified)
    cache_control(request, response, event, search)
    patch_vary_headers(
        response, ("HX-Request", "HX-History-Restore-Request", "Accept-Encoding", "Accept-Language", "Cookie")
    )
    response["Content-Language"] = language
    return response


def cache_control(request: HttpRequest, response: HttpResponse, event: Event, search: bool) -> None:
    """Who may keep a public page, and for how long without asking.

    A public event's page is the same for every visitor (it varies only on what the Vary header names), so a CDN or
    nginx may serve it for PUBLIC_MAX_AGE seconds without asking (s-maxage; browsers still ask every time), and a CDN
    as long again while it asks (CDN-Cache-Control's stale-while-revalidate): a page polled every 15 s is then never
    more than twice that behind, as a big page may already be (`memo.may_lag`). Not to a visitor whose own change
    must show at once: one signed in (the organiser, a judge) or who wrote a moment ago (`routers.WROTE_COOKIE`: a
    phone that reported); their cookies differ, so a cache honouring `Vary: Cookie` keeps their pages apart. Those,
    and a search, are `no-cache`: kept, but asked about every time (a 304 when nothing changed). A hidden event is
    shown only to its organisers: no shared cache may keep it.
    """
    if not event.public:
        patch_cache_control(response, no_cache=True, private=True)
    elif search or not settings.PUBLIC_MAX_AGE or wrote_recently(request):
        patch_cache_control(response, no_cache=True)
    else:
        # Shared caches only (s-maxage; CDN-Cache-Control, RFC 9213, for a CDN that reads it): a phone's own
        # browser still asks every time (max-age=0, a 304 when nothing changed), so a poll never shows an older
        # page than the shared cache has, and a reload shows the newest at once.
        seconds = settings.PUBLIC_MAX_AGE
        patch_cache_control(response, public=True, max_age=0, s_maxage=seconds)
        response["CDN-Cache-Control"] = f"max-age={seconds}, stale-while-revalidate={seconds}"


def _body(body: bytes, zipped: bool) -> HttpResponse:
    response = HttpResponse(body)
    if zipped:
        response["Content-Encoding"] = "gzip"
    return response
