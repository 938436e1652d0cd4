"""Who may do what with an event. Every organiser view starts with `event_for(request, slug, ...)`.

Outsiders get 404 (an event's existence is not revealed), judges asking for organiser-only actions 403.
"""

from dataclasses import dataclass
from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from tournament.models import Event, EventRole
from tournament.pages import memo
from tournament.services import budgets
from tournament.services.staff import MayNotCreate, claim_invites, may_create_events
from tournament.text.i18n import use_event, use_event_language

ORGANISER, JUDGE = EventRole.Role.ORGANISER, EventRole.Role.JUDGE


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware (typing for views)."""

    htmx: HtmxDetails


def is_fragment(request: HttpRequest) -> bool:
    """An htmx swap wants the page's named partial; a history restore (the back button, when htmx has not
    kept the page) wants the whole page."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


@dataclass(frozen=True)
class Access:
    event: Event
    role: str | None

    @property
    def is_organiser(self) -> bool:
        return self.role == ORGANISER

    @property
    def can_enter_results(self) -> bool:
        return self.role in (ORGANISER, JUDGE)


def role_of(user, event: Event) -> str | None:
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return ORGANISER
    # Staff are the venue's: a role in an event acts in every one of its sections (docs/sections.md).
    return (
        EventRole.objects.filter(event_id=event.parent_id or event.pk, user=user).values_list("role", flat=True).first()
    )


def event_for(request: HttpRequest, slug: str, need: str = JUDGE) -> Access:
    """The event and the user's role in it; 404 without any role, 403 when a judge needs organiser."""
    event = Event.objects.filter(slug=slug).first()
    role = role_of(request.user, event) if event else None
    if event is not None and role is None and request.user.is_authenticated:
        # Read again whether or not this request took the invitation: the judge's first page loads several
        # requests at once, and the one that did not take it waited for the one that did.
        claim_invites(request.user, event.root)
        role = role_of(request.user, event)
    if event is None or role is None:
        raise Http404("No such event.")
    if need == ORGANISER and role != ORGANISER:
        raise PermissionDenied("Only the event's organisers can do this.")
    use_event(event)
    return Access(event, role)


def public_event(request: HttpRequest, slug: str, event_language: bool = True) -> Event:
    """A public event, or a hidden one for its own organisers and judges; 404 for everybody else (a section is
    hidden while its event is).

    Read as a page polled every 15 s reads it: one small query (`memo.polled`), its sections with it in
    `event.polled_sections` (docs/sections.md, "Public pages"); the rest of the row is read once per event
    version when a page is rendered (`memo.load_rest`). `event_language`: the page speaks the event's language
    unless the visitor or the browser chose one (the public pages; not the player's own, which speak the
    visitor's)."""
    event, sections = memo.polled(slug)
    if event is None or (not event.public and role_of(request.user, event) is None):
        raise Http404("No such event.")
    event.polled_sections = sections
    if event_language:
        use_event_language(request, event.language)
    use_event(event)
    return event


def cannot_create(request):
    return render(request, "organiser/cannot_create.html", status=403)


def creates_events(view):
    """A view that creates an event: refused (403, with a page saying whom to ask) to an account that may not."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not may_create_events(request.user):
            return cannot_create(request)
        try:
            return view(request, *args, **kwargs)
        except MayNotCreate:  # taken away while the request ran: the services ask again as they store
            return cannot_create(request)

    return wrapped


def heavy(view):
    """A POST that can keep a server busy for seconds (pairing, re-pairing, creating or importing an event)
    takes a turn from the account's budget first (`budgets.take_heavy_turn`); past it, the page it came from
    says when to try again, and nothing is done."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method == "POST":
            try:
                budgets.take_heavy_turn(request.user)
            except budgets.Throttled as e:
                messages.error(request, str(e))
                came_from = request.headers.get("Referer", "")
                safe = url_has_allowed_host_and_scheme(came_from, {request.get_host()}, request.is_secure())
                url = came_from if came_from and safe else "/"
                response = HttpResponseClientRedirect(url) if getattr(request, "htmx", False) else redirect(url)
                response["Retry-After"] = str(e.seconds)
                return response
        return view(request, *args, **kwargs)

    return wrapped
