"""The crosstable's pages: public, and printed by the organiser (what it shows: tournament/pages/crosstable.py)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_safe

from tournament.models import Job
from tournament.pages.crosstable import crosstable_context
from tournament.views.access import HtmxHttpRequest, event_for, is_fragment, public_event
from tournament.views.jobs import large_event, offer
from tournament.views.public import page_asked
from tournament.views.public_cache import public_response


@require_safe
def public_crosstable(request: HtmxHttpRequest, slug: str):
    event = public_event(request, slug)
    page = page_asked(request, event)
    template = "public/crosstable.html"
    if is_fragment(request):
        template += "#crosstable"
    return public_response(request, event, template, lambda: crosstable_context(event, page=page), page)


@require_GET
@login_required
def print_crosstable(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    if access.event.sections.exists():  # each section's crosstable is its own: the list of them
        return redirect("org_standings", slug)
    if large_event(access.event, Job.Kind.CROSSTABLE):
        return offer(request, access, Job.Kind.CROSSTABLE)
    return render(request, "print/crosstable.html", crosstable_context(access.event, live=True))
