"""Who may do what with an event. Every organiser view starts with `event_for(request, slug, ...)`.

Outsiders get 404 (an event's existence is not revealed), judges asking for organiser-only actions 403.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django_htmx.middleware import HtmxDetails

from tournament.models import Event, EventRole
from tournament.services import claim_invites
from tournament.text.i18n import use_event

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
    return EventRole.objects.filter(event=event, user=user).values_list("role", flat=True).first()


def event_for(request: HttpRequest, slug: str, need: str = JUDGE) -> Access:
    """The event and the user's role in it; 404 without any role, 403 when a judge needs organiser."""
    event = Event.objects.filter(slug=slug).first()
    role = role_of(request.user, event) if event else None
    if event is not None and role is None and request.user.is_authenticated:
        # Read again whether or not this request took the invitation: the judge's first page loads several
        # requests at once, and the one that did not take it waited for the one that did.
        claim_invites(request.user, event)
        role = role_of(request.user, event)
    if event is None or role is None:
        raise Http404("No such event.")
    if need == ORGANISER and role != ORGANISER:
        raise PermissionDenied("Only the event's organisers can do this.")
    use_event(event)
    return Access(event, role)


def public_event(request: HttpRequest, slug: str) -> Event:
    """A public event, or a hidden one for its own organisers and judges; 404 for everybody else."""
    event = Event.objects.filter(slug=slug).first()
    if event is None or (not event.public and role_of(request.user, event) is None):
        raise Http404("No such event.")
    use_event(event)
    return event
