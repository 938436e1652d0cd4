"""The organiser's "What do I need" page: each player's claims for the round being played (pages/outlook.py)."""

from django.contrib.auth.decorators import login_required
from django.views.decorators.http import require_GET

from tournament.pages.outlook import outlook_context
from tournament.views.access import HtmxHttpRequest, event_for
from tournament.views.responses import page


@require_GET
@login_required
def outlook_page(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    context = outlook_context(access.event, request.GET.get("places"), request.GET.get("points"))
    return page(request, "organiser/outlook.html", access, **context)
