"""What every organiser page does: render a page or its htmx fragment, go back where the person came
from, answer a live part's poll, save a form's own fields. What a page shows is tournament/pages/'s."""

import uuid

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect

from tournament.models import Event, Round
from tournament.services.locks import current_round
from tournament.views.access import Access, HtmxHttpRequest, is_fragment


def page(request: HtmxHttpRequest, template: str, access: Access | None, partial: str | None = None, **context):
    """Render a page, or only its named partial for an htmx swap (not for a history restore, which wants
    the whole page); every event page shows the clock."""
    if access is not None:
        event = access.event
        context.setdefault("current", current_round(event))
        context.update(event=event, access=access)
        if event.parent_id:  # a section's pages say whose it is and lead to the others (docs/sections.md)
            context.update(venue_root=event.parent, venue_sections=event.parent.section_list)
    context.setdefault("once", uuid.uuid4().hex)
    if partial and is_fragment(request):
        template += f"#{partial}"
    response = render(request, template, context)
    if partial:
        patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    return response


def next_url(request: HtmxHttpRequest, default: str) -> str:
    """Where a form asks to go back to, if it is on this site; `default` otherwise."""
    nxt = request.POST.get("next", "")
    # A path on this site: anything else (a view name such as "abc" included) is not followed.
    ok = nxt.startswith("/") and url_has_allowed_host_and_scheme(nxt, {request.get_host()}, request.is_secure())
    return nxt if ok else default


def save_changed(form) -> None:
    """Save the form's own fields only: the event's version counter and other columns are not rewritten."""
    form.save(commit=False).save(update_fields=[f for f in form._meta.fields if f in form.cleaned_data])


def back(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """After a POST: a redirect for a plain form, a client-side redirect for an HTMX one."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def round_or_404(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


def live_headers(response: HttpResponse, etag: str) -> HttpResponse:
    """A live part's answer (the round page's poll, a job's box): its ETag, asked about every time, kept by
    nobody but the browser, varying on who asks."""
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, ("HX-Request", "Cookie"))
    return response
