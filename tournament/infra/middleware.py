"""What every request and response goes through before the views: size limits, proxies, HEAD, CSP.

- A request body larger than `MAX_REQUEST_BYTES` is refused (413) before anything reads it: Django
  would otherwise spool a huge anonymous upload to disk just to find the CSRF token in it.
- `X-Forwarded-*` headers count only when the connection comes from a configured proxy
  (`TRUSTED_PROXIES`); from anybody else they are dropped, so nobody claims HTTPS, another host or
  another address by sending a header.
- `HEAD` is answered as `GET` without the body, on every page.
- Every response carries the Content-Security-Policy: the app serves all its scripts and styles
  itself, so nothing inline or from elsewhere runs.
- `shared_cache_rules`, outermost, has the last word on what a shared cache (nginx, a CDN) may do with a
  response: one that sets a cookie is never shareable (a cache keeping it would hand one visitor's cookie, a
  CSRF token or a session, to the next), and one that varies on `HX-Request` also varies on
  `HX-History-Restore-Request` (the back button asks for the whole page with both headers, a swap for a
  fragment with the first only).
"""

import functools
import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _

FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT")


@functools.cache
def _networks(entries: tuple[str, ...]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(e, strict=False) for e in entries]


def from_trusted_proxy(request: HttpRequest) -> bool:
    try:
        peer = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(peer in net for net in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_ip(request: HttpRequest) -> str | None:
    """The address of the person, not of the proxy in front of us (django-axes and throttles use it).

    Each of the `PROXY_COUNT` proxies appends the address it received the request from to
    X-Forwarded-For, so the real client is that many entries from the right; entries further left are
    whatever the client sent and are never trusted.
    """
    remote = request.META.get("REMOTE_ADDR") or None
    count = settings.PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count <= 0 or not forwarded:
        return remote
    hops = [h.strip() for h in forwarded.split(",")]
    if len(hops) < count:
        return remote
    try:
        return str(ipaddress.ip_address(hops[-count]))
    except ValueError:
        return remote


def request_limits(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return HttpResponse(_("The request's length is not a number."), status=400, content_type="text/plain")
        if length > settings.MAX_REQUEST_BYTES:
            limit = settings.MAX_REQUEST_BYTES // (1024 * 1024)
            return HttpResponse(
                _("This request is too large: at most %(mb)d MB.") % {"mb": limit},
                status=413,
                content_type="text/plain; charset=utf-8",
            )
        return get_response(request)

    return middleware


def forwarded_headers(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        if not from_trusted_proxy(request):
            for header in FORWARDED:
                request.META.pop(header, None)
        return get_response(request)

    return middleware


def head_as_get(get_response: Callable[[HttpRequest], HttpResponse]):
    """RFC 9110: HEAD is GET without the body; the headers (length, ETag, type) are the GET's."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.method != "HEAD":
            return get_response(request)
        request.method = "GET"
        response = get_response(request)
        if response.streaming:
            response.streaming_content = []
        else:
            if not response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
            length = response["Content-Length"]
            response.content = b""
            response["Content-Length"] = length
        return response

    return middleware


def security_headers(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response

    return middleware


# What makes a response shareable: taken out of a response that sets a cookie.
_SHAREABLE = ("public", "s-maxage")


def shared_cache_rules(get_response: Callable[[HttpRequest], HttpResponse]):
    """The last word on the response, whatever view or middleware made it (docs/scaling.md#caching)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if response.cookies:
            # Whatever the page would have allowed: kept by the browser that got the cookie, never by a cache
            # between. `private` and `no-cache` together: the browser asks again before reusing it.
            kept = [d.strip() for d in response.get("Cache-Control", "").split(",")]
            kept = [d for d in kept if d and d.split("=")[0].strip().lower() not in _SHAREABLE]
            response["Cache-Control"] = ", ".join(kept)
            patch_cache_control(response, private=True, no_cache=True)
            if response.has_header("CDN-Cache-Control"):
                del response["CDN-Cache-Control"]
        vary = {v.strip().lower() for v in response.get("Vary", "").split(",")}
        if "hx-request" in vary and "hx-history-restore-request" not in vary:
            patch_vary_headers(response, ("HX-History-Restore-Request",))
        return response

    return middleware
