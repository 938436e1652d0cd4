"""FIDE mode on the organiser's pages (docs/fide-mode.md): turning it on before round 1 and leaving it (a level-4
warning, `views.warnings.ask`); a draft's manual pairing phase (opened, validated); forbidden pairs; a game
recorded as adjourned."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms import once
from tournament.forms.players import ForbiddenPairForm
from tournament.models import Match
from tournament.services import adjourned, forbidden, manual
from tournament.services.fide import enter_fide_mode, leave_fide_mode
from tournament.services.locks import ServiceError
from tournament.services.warnings import Unpassed
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.responses import back, round_or_404
from tournament.views.warnings import ask, passes


@require_POST
@login_required
def fide_mode(request: HtmxHttpRequest, slug: str):
    """`action=leave` leaves FIDE mode (after the warning), `action=enter` turns it on."""
    access = event_for(request, slug, need=ORGANISER)
    here = reverse("org_settings", args=[slug]) + "#fide"
    try:
        with transaction.atomic():
            once.claim(request)
            if request.POST.get("action") == "enter":
                enter_fide_mode(access.event, request.user)
                done = _("FIDE mode is on.")
            else:
                leave_fide_mode(access.event, request.user, passes(request))
                done = _("The event has left FIDE mode.")
    except Unpassed as w:
        return ask(request, access, w, here)
    except once.Repeated:
        return back(request, here)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, done)
    return back(request, here)


@require_POST
@login_required
def round_manual(request: HtmxHttpRequest, slug: str, number: int):
    """Open the manual pairing phase of a FIDE-mode draft (services/manual.py)."""
    access = event_for(request, slug, need=ORGANISER)
    rnd = round_or_404(access.event, number)
    try:
        manual.start(rnd, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
    return back(request, reverse("org_round", args=[slug, number]))


@require_POST
@login_required
def round_validate(request: HtmxHttpRequest, slug: str, number: int):
    """End the manual pairing phase: a level-4 warning when the round is not the engine's pairing."""
    access = event_for(request, slug, need=ORGANISER)
    rnd = round_or_404(access.event, number)
    here = reverse("org_round", args=[slug, number])
    try:
        with transaction.atomic():
            once.claim(request)
            differences = manual.validate(rnd, request.user, passes(request))
    except Unpassed as w:
        return ask(request, access, w, here)
    except once.Repeated:
        return back(request, here)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        if differences:
            messages.success(request, _("The pairings are validated as paired by hand; the TRF export records it."))
        else:
            messages.success(request, _("The pairings are validated: they are the engine's."))
    return back(request, here)


@require_POST
@login_required
def forbidden_pair(request: HtmxHttpRequest, slug: str):
    """Forbid the pairing of two players, or allow it again (`remove`); in FIDE mode after round 1 the event
    leaves FIDE mode for it, after the warning."""
    access = event_for(request, slug, need=ORGANISER)
    here = reverse("org_settings", args=[slug]) + "#forbidden"
    form = ForbiddenPairForm(request.POST)
    keys = [form.cleaned_data["first"], form.cleaned_data["second"]] if form.is_valid() else []
    found = {p.key: p for p in access.event.players.filter(key__in=keys)} if keys else {}
    try:
        if len(found) != 2:
            raise ServiceError(_("Pick two different players of this event."))
        with transaction.atomic():
            once.claim(request)
            add = request.POST.get("remove") != "1"
            forbidden.change_pair(
                access.event, found[keys[0]], found[keys[1]], request.user, add=add, passed=passes(request)
            )
    except Unpassed as w:
        return ask(request, access, w, here)
    except once.Repeated:
        return back(request, here)
    except ServiceError as e:
        messages.error(request, str(e))
    return back(request, here)


@require_POST
@login_required
def match_adjourn(request: HtmxHttpRequest, slug: str, number: int, match_id: int):
    """Record a game as adjourned (services/adjourned.py): organisers and judges, as a result."""
    access = event_for(request, slug)
    rnd = round_or_404(access.event, number)
    match = get_object_or_404(Match.objects.select_related("round__event"), pk=match_id, round=rnd)
    try:
        adjourned.adjourn(match, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Table %(table)s is adjourned.") % {"table": match.table})
    return back(request, reverse("org_round", args=[slug, number]) + f"#m-{match.pk}")
