"""FIDE mode on the organiser's pages (docs/fide-mode.md): turning it on before round 1 and leaving it (a level-4
warning, `views.warnings.ask`); a draft's manual pairing phase (opened, validated); forbidden pairs; a game
recorded as adjourned."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms.players import ForbiddenPairForm
from tournament.models import Match
from tournament.services import adjourned, forbidden, manual
from tournament.services.fide import enter_fide_mode, leave_fide_mode
from tournament.services.locks import ServiceError
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.responses import back, round_or_404
from tournament.views.warnings import submit


@require_POST
@login_required
def fide_mode(request: HtmxHttpRequest, slug: str):
    """`action=leave` leaves FIDE mode (after the warning), `action=enter` turns it on."""
    access = event_for(request, slug, need=ORGANISER)

    def work(passed):
        if request.POST.get("action") == "enter":
            enter_fide_mode(access.event, request.user)
            return _("FIDE mode is on.")
        leave_fide_mode(access.event, request.user, passed)
        return _("The event has left FIDE mode.")

    return submit(request, access, reverse("org_settings", args=[slug]) + "#fide", work)


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

    def work(passed):
        if manual.validate(rnd, request.user, passed):
            return _("The pairings are validated as paired by hand; the TRF export records it.")
        return _("The pairings are validated: they are the engine's.")

    return submit(request, access, reverse("org_round", args=[slug, number]), work)


@require_POST
@login_required
def forbidden_pair(request: HtmxHttpRequest, slug: str):
    """Forbid the pairing of two players (in every round, or in a range of rounds), or allow it again (`remove`);
    in FIDE mode after round 1 the event leaves FIDE mode for it, after the warning."""
    access = event_for(request, slug, need=ORGANISER)
    form = ForbiddenPairForm(request.POST)

    def work(passed):
        keys = [form.cleaned_data["first"], form.cleaned_data["second"]] if form.is_valid() else []
        found = {p.key: p for p in access.event.players.filter(key__in=keys)} if keys else {}
        if form.is_valid() and len(found) != 2 or "first" in form.errors or "second" in form.errors:
            raise ServiceError(_("Pick two different players of this event."))
        if not form.is_valid():  # the range of rounds
            raise ServiceError(" ".join(e for errors in form.errors.values() for e in errors))
        add = request.POST.get("remove") != "1"
        forbidden.change_pair(
            access.event, found[keys[0]], found[keys[1]], request.user, add=add, rounds=form.rounds(), passed=passed
        )
        return None

    return submit(request, access, reverse("org_settings", args=[slug]) + "#forbidden", work)


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
