"""Which language a page speaks, and the switcher that chooses it (issue 14).

The order: the visitor's own choice (the switcher's cookie), then the browser's Accept-Language when it
names one of our languages, then — on an event's public pages — the event's language, which the
organiser sets (it is what the venue screen speaks when its browser asks for none of ours). Organiser
pages follow the signed-in person's choice, which the switcher stores in the same cookie; without one
they follow the browser, then English.
"""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_safe

CODES = tuple(code for code, _ in settings.LANGUAGES)

# How the request's language was found; a public page replaces a DEFAULT one by its event's language.
COOKIE, HEADER, DEFAULT = "cookie", "header", "default"


def supported(code: str | None) -> str | None:
    """One of our language codes for `code` ("da-DK" -> "da", "ja" -> "ja"), or None."""
    if not code:
        return None
    code = code.strip().lower().replace("_", "-")
    if code in CODES:
        return code
    base = code.split("-", 1)[0]
    return base if base in CODES else None


def chosen_language(request: HttpRequest) -> tuple[str, str]:
    """(language, how it was found) for `request`, before any event is known."""
    cookie = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if cookie:
        return cookie, COOKIE
    for accepted, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        code = supported(accepted) if accepted != "*" else None
        if code:
            return code, HEADER
    return settings.LANGUAGE_CODE, DEFAULT


def use_event_language(request: HttpRequest, language: str) -> None:
    """On an event's public page: speak the event's language unless the visitor or the browser chose one."""
    if getattr(request, "language_source", DEFAULT) == DEFAULT and supported(language):
        translation.activate(language)
        request.LANGUAGE_CODE = language


class LanguageMiddleware:
    """Activates the chosen language for the request; every response varies on what chose it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language, source = chosen_language(request)
        # override, not activate: the thread speaks its former language again after the response
        # (a worker thread's next request, or code run outside a request, never inherits this one's).
        with translation.override(language):
            request.LANGUAGE_CODE = language
            request.language_source = source
            response = self.get_response(request)
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", translation.get_language())
        return response


@require_safe
def set_language(request: HttpRequest, code: str) -> HttpResponse:
    """The switcher: a plain link (public pages are shared renderings without a CSRF token).

    Remembers the choice in a cookie and goes back to `next` (a page of this site) or the home page.
    Changing one's own display language is harmless to force, so a GET link is fine here.
    """
    language = supported(code)
    if language is None or language != code:
        raise Http404("No such language.")
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
