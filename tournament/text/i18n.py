"""Which language a page speaks, and the switcher that chooses it (docs/languages.md).

The order: the visitor's own choice (the switcher's cookie), then the browser's Accept-Language when it
names one of our languages, then — on an event's public pages — the event's language, which the
organiser sets (it is what the venue screen speaks when its browser asks for none of ours). Organiser
pages follow the signed-in person's choice: the switcher stores it in the cookie and, for a signed-in
person, on their account (`LanguagePreference`). Signing in on another device brings the account's
language to that device's organiser pages, and the cookie follows it (so its public pages speak it too,
until the visitor chooses otherwise). Without any choice, organiser pages follow the browser, then English.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from tournament.text import game_words

CODES = tuple(code for code, _ in settings.LANGUAGES)

# How the request's language was found; a public page replaces a DEFAULT one by its event's language.
COOKIE, HEADER, DEFAULT, ACCOUNT = "cookie", "header", "default", "account"
# The signed-in person's account language, copied into their session when they sign in or choose one,
# so an organiser page reads it without a query.
SESSION_KEY = "account_language"
# Pages whose language is the visitor's (cookie, browser, event), never an account's.
PUBLIC_NAMESPACES = ("public", "player")


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


# The zone of the venues each language's organisers run (a new event's default, before they have a venue of their
# own); English is spoken everywhere: none (the browser's zone, when the page can tell, else the server's).
VENUE_ZONES = {"ja": "Asia/Tokyo", "da": "Europe/Copenhagen"}


def use_event(event) -> None:
    """On any page of an event: its times (logs, history, the clock) in the venue's time zone, and the words of
    the game it plays (`games`: a chess event's words, a Pokémon event's record), for the rest of the request."""
    timezone.activate(event.zone)
    game_words.use_game(event.preset)


def chess_words() -> bool:
    """Whether this page speaks as chess players do (a chess event's page: `use_event`)."""
    return game_words.game() == "chess"


def pokemon_words() -> bool:
    """Whether this page speaks as Pokémon players do (a Pokémon event's page: `use_event`): a record is
    wins-losses-ties there."""
    return game_words.game() == "pokemon"


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
        # The time zone too: an event's page activates its own, and the next request starts from the server's.
        # And no game's words until an event's page says which game it plays (`use_event`).
        with translation.override(language), timezone.override(None), game_words.playing(None):
            request.LANGUAGE_CODE = language
            request.language_source = source
            response = self.get_response(request)
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", translation.get_language())
        account = request.LANGUAGE_CODE if request.language_source == ACCOUNT else None
        if account and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != account:
            remember(response, account)  # the device's cookie follows the account
        return response

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        """On an organiser page, a signed-in person's account language comes before the device's cookie."""
        if request.resolver_match.namespace in PUBLIC_NAMESPACES or request.resolver_match.url_name == "set_language":
            return
        account = supported(request.session.get(SESSION_KEY)) if hasattr(request, "session") else None
        if account and request.user.is_authenticated:
            translation.activate(account)
            request.LANGUAGE_CODE = account
            request.language_source = ACCOUNT


def remember(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def keep_in_session(request: HttpRequest, language: str | None) -> None:
    """The signed-in person's account language (`LanguagePreference`, which the caller read or stored) in this
    session, where the organiser pages read it without a query; nothing for an account without one."""
    if supported(language):
        request.session[SESSION_KEY] = language
