"""The event's staff: organisers give roles by username, as invitations the named user takes on their
next visit. Nothing here tells whether an account exists; the event always keeps an organiser."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms.event import StaffForm
from tournament.models import EventRole, StaffInvite
from tournament.services.locks import ServiceError, log
from tournament.services.staff import invite_staff, remove_staff
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.responses import back


def _staff_section(slug: str) -> str:
    return reverse("org_settings", args=[slug]) + "#staff"


@require_POST
@login_required
def staff_add(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    venue = access.event.root  # staff are the venue's: a section's staff page acts on its event
    form = StaffForm(request.POST, event=venue)
    if form.is_valid():
        try:
            done = invite_staff(venue, form.cleaned_data["username"], form.cleaned_data["role"], request.user)
        except ServiceError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, done)
    else:
        for error in form.errors.get("username", []) + form.errors.get("role", []):
            messages.error(request, error)
    return back(request, _staff_section(slug))


@require_POST
@login_required
def staff_remove(request: HtmxHttpRequest, slug: str, role_id: int):
    access = event_for(request, slug, need=ORGANISER)
    role = get_object_or_404(EventRole.objects.select_related("user"), pk=role_id, event=access.event.root)
    try:
        remove_staff(access.event.root, role, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("%(user)s no longer has a role in this event.") % {"user": role.user.username})
    return back(request, _staff_section(slug))


@require_POST
@login_required
def invite_withdraw(request: HtmxHttpRequest, slug: str, invite_id: int):
    access = event_for(request, slug, need=ORGANISER)
    invite = get_object_or_404(StaffInvite, pk=invite_id, event=access.event.root)
    invite.delete()
    log(access.event.root, "staff_invite_withdrawn", request.user, user=invite.username)
    messages.success(request, _("The invitation for %(user)s is withdrawn.") % {"user": invite.username})
    return back(request, _staff_section(slug))
