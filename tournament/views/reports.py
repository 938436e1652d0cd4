"""The organiser's side of players reporting from their phones: the event's rule, closing a round,
player cards with their personal QR codes, and reissuing one player's link and code."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournament.jobs.files import card_holders
from tournament.models import Event, Job, Player, Round
from tournament.services import reports
from tournament.services.locks import ServiceError
from tournament.text import name_search
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.jobs import large_event, offer
from tournament.views.player import personal_qr
from tournament.views.responses import back, next_url, page


@require_POST
@login_required
def reporting_mode(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    try:
        reports.set_mode(access.event, request.POST.get("reporting", ""), request.user)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request, _("Results: %(rule)s.") % {"rule": Event.Reporting(access.event.reporting).label.lower()}
        )
    return back(request, next_url(request, reverse("org_event", args=[slug])))


@require_POST
@login_required
def round_reporting(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug, need=ORGANISER)
    rnd = get_object_or_404(Round, event=access.event, number=number)
    closed = request.POST.get("closed") == "1"
    reports.close_reporting(rnd, closed, request.user)
    if closed:
        messages.success(request, _("Players can no longer report round %(number)s.") % {"number": number})
    else:
        messages.success(request, _("Players can report round %(number)s again.") % {"number": number})
    return back(request, reverse("org_round", args=[slug, number]))


@require_GET
@login_required
@never_cache  # it shows the personal link: no cache keeps it
def player_card(request: HtmxHttpRequest, slug: str, player_id: int):
    """One player's QR code and code on screen, for the registration desk."""
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    url, qr = personal_qr(request, player)
    return page(request, "organiser/player_card.html", access, player=player, url=url, qr=qr)


@require_POST
@login_required
def player_reissue(request: HtmxHttpRequest, slug: str, player_id: int):
    """A lost or shared phone: a new link and code; the old ones stop working at once."""
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    reports.reissue(player, request.user)
    messages.success(
        request, _("%(name)s has a new link and code; the old ones no longer work.") % {"name": player.name}
    )
    return redirect("org_player_card", slug=slug, player_id=player.pk)


# Cards printed at once: 50 A4 sheets of eight, a job a browser and a printer take in one go. Each QR code
# takes a few milliseconds to make, so a 2048-player event's cards are printed in six parts of about 2 s
# each rather than one page of 9 s (and 19 MB at 8192 players, near the server's 60-second limit).
CARDS_PER_PART = 400


@require_GET
@login_required
@never_cache  # every player's personal link: no cache keeps them
def print_cards(request: HtmxHttpRequest, slug: str):
    """Player cards: name, the personal link's QR code and the code, eight to an A4 page with cut marks.

    A big event's cards come in parts (`?part=2`) in the order of their names; each part says which
    names it holds, so the stacks are handed out alphabetically."""
    access = event_for(request, slug, need=ORGANISER)
    if "part" not in request.GET and large_event(access.event, Job.Kind.CARDS):
        return offer(request, access, Job.Kind.CARDS)  # every card in one file, made by the worker
    language = access.event.language
    players = sorted(card_holders(access.event), key=lambda p: (name_search.player_key(p, language), p.pk))
    names = [p.name for p in players]
    paginator = Paginator(names, CARDS_PER_PART)
    part = paginator.get_page(request.GET.get("part"))  # not a number: the first; past the last: the last
    chosen = players[part.start_index() - 1 : part.end_index()] if names else []
    parts = [
        {"number": n, "first": names[(n - 1) * CARDS_PER_PART], "last": names[min(n * CARDS_PER_PART, len(names)) - 1]}
        for n in paginator.page_range
        if names  # no player yet: one empty part, nothing to name
    ]
    context = {
        "event": access.event,
        "cards": [(p, *personal_qr(request, p)) for p in chosen],
        "part": part,
        "parts": parts if len(parts) > 1 else [],
    }
    return render(request, "print/cards.html", context)
