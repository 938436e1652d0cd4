"""Organiser pages that change who is registered: deleting a mistaken registration."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament import services
from tournament.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.models import Player
from tournament.services import ServiceError
from tournament.views import player_confirm


@require_http_methods(["GET", "POST"])
@login_required
def player_delete(request: HtmxHttpRequest, slug: str, player_id: int):
    """Delete a mistaken registration (never paired); GET asks to confirm."""
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    if request.method == "GET":
        return player_confirm(request, access, player, "delete")
    label = player.numbered_name
    try:
        services.delete_player(player, request.user)
    except ServiceError as e:
        return player_confirm(request, access, player, "delete", error=str(e))
    messages.success(request, _("%(player)s is deleted.") % {"player": label})
    return redirect("org_players", slug=slug)
