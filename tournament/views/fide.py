"""FIDE mode on the organiser's pages (docs/fide-mode.md): turning it on before round 1, and leaving it (a
level-4 warning, `views.warnings.ask`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms import once
from tournament.services.fide import enter_fide_mode, leave_fide_mode
from tournament.services.locks import ServiceError
from tournament.services.warnings import Unpassed
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.responses import back
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
