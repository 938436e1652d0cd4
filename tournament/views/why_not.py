"""Why two players of a round are not paired together (docs/explanations.md#in-the-web-app): the player asks
from their phone about their own round (them and one other player), the organiser about any two players of
any round. GET, without side effects but the budget a phone's uncached questions take
(`services.explanations.answer`: cached per round, its changes by hand and the two players)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_safe

from tournament.models import Player, Round
from tournament.pages.why import why_not_choices, why_not_said
from tournament.services import explanations
from tournament.services.budgets import Throttled
from tournament.services.locks import ServiceError
from tournament.views.access import HtmxHttpRequest, event_for
from tournament.views.player import phone_page
from tournament.views.responses import page

FOUND = 20  # the players a typed name finds, at most


def _pk(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 12 else None


@require_safe
def player_why_not(request: HtmxHttpRequest, slug: str):
    """ "Why am I not playing X?" about the round on the player's own page, and nothing else."""
    phone = phone_page(request, slug)
    if phone.player is None:
        return redirect("player:me", slug=slug)
    event, player, rnd = phone.event, phone.player, phone.round
    context = {"event": event, "player": player, "round": rnd, "answer": "", "other": None, "error": "", "found": []}
    status = 200
    if rnd is None or rnd.kind != Round.Kind.SWISS:
        context["error"] = _("There is no Swiss round of yours to ask about.")
    else:
        other_pk = _pk(request.GET.get("with", ""))
        name = request.GET.get("name", "").replace("\x00", "").strip()[:60]  # PostgreSQL text cannot hold NUL
        other = Player.objects.filter(event=event, pk=other_pk).first() if other_pk is not None else None
        if other is not None:
            context["other"] = other
            try:
                context["answer"] = why_not_said(
                    explanations.answer(rnd, player, other, asker=player), rnd, player, other
                )
            except Throttled as e:
                context["error"], status = str(e), 429
            except ServiceError as e:
                context["error"] = str(e)
        elif name:
            seated = Player.objects.filter(seats__round=rnd, name__icontains=name).exclude(pk=player.pk)
            context["found"] = list(seated.order_by("name", "pk").values_list("pk", "name")[:FOUND])
            if not context["found"]:
                context["error"] = _("Nobody in this round has a name containing “%(name)s”.") % {"name": name}
        elif other_pk is not None:
            context["error"] = _("That player is not in this event.")
        context["choices"] = why_not_choices(rnd, player)
    response = render(request, "player/why_not.html", context, status=status)
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_GET
@login_required
def round_why_not(request: HtmxHttpRequest, slug: str, number: int):
    """The organiser asks why any two players of round `number` are not paired together."""
    access = event_for(request, slug)
    event = access.event
    rnd = get_object_or_404(Round, event=event, number=number)
    a, b = _pk(request.GET.get("a", "")), _pk(request.GET.get("b", ""))
    players = list(Player.objects.filter(seats__round=rnd).order_by("name", "pk").values_list("pk", "name"))
    answer = error = ""
    if a is not None and b is not None:
        found = {p.pk: p for p in Player.objects.filter(event=event, pk__in=[a, b])}
        try:
            if a not in found or b not in found:
                raise ServiceError(_("Both players must be in this event."))
            answer = why_not_said(explanations.answer(rnd, found[a], found[b]), rnd, found[a], found[b])
        except ServiceError as e:
            error = str(e)
    return page(
        request, "organiser/why_not.html", access, round=rnd, players=players, a=a, b=b, answer=answer, error=error
    )
