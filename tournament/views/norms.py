"""The norms page of a chess event that asks for FIDE title norms (docs/ratings.md, "Norms"): every player's
chances, for the organisers and judges, on the screen and printed."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.pages.norms import norm_context
from tournament.views.access import HtmxHttpRequest, event_for
from tournament.views.responses import page


@require_GET
@login_required
def norms_page(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    return page(request, "organiser/norms.html", access, **norm_context(access.event))


@require_GET
@login_required
def print_norms(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    return render(request, "print/norms.html", {"event": access.event, **norm_context(access.event)})
