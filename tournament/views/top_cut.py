"""The organiser's top-cut pages: the seeding to start from, the bracket as a draft to publish or undo, each
result confirmed before it moves a player on, and the final placings."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament.forms.results import TopCutUndoForm
from tournament.models import Match, Round
from tournament.pages import top_cut as pages
from tournament.pages.round import result_choices
from tournament.services.locks import ServiceError, awaiting_result, swiss_rounds_played
from tournament.services.results import ConfirmAdvance, advance_question, parse_outcome
from tournament.services.rounds import publish_round
from tournament.services.top_cut import (
    placings_by_division,
    start_top_cut,
    top_cut_rounds,
    undo_top_cut,
)
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.responses import back, page
from tournament.views.sections import sections_index


def _pending(request: HtmxHttpRequest, stages: list[dict], best_of: int) -> ConfirmAdvance | None:
    """The result the organiser picked and is asked to confirm (?enter=<match>&result=2-1), if it is valid."""
    match_id, text = request.GET.get("enter", ""), request.GET.get("result", "")[:20]
    if not match_id.isdigit() or not text:
        return None
    match = next((r.match for s in stages for r in s["matches"] if r.match.pk == int(match_id)), None)
    if match is None:
        return None
    try:
        return advance_question(match, parse_outcome(text, best_of))
    except ServiceError:
        return None


@require_GET
@login_required
def top_cut(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    access = event_for(request, slug)
    event = access.event
    if event.sections.exists():  # each section cuts to its own top cut
        return sections_index(request, access, _("Top cut"))
    rounds = top_cut_rounds(event)
    stages = pages.stages(event, rounds, pages.seeds_of(event) if rounds else {})
    draft = rounds[0] if rounds and not rounds[0].is_published else None
    entered = Match.objects.filter(round__in=rounds).exclude(awaiting_result())
    planned = event.planned_rounds
    swiss = swiss_rounds_played(event)
    return page(
        request,
        "organiser/top_cut.html",
        access,
        stages=stages,
        size=event.top_cut,
        swiss_rounds=swiss,
        early=bool(planned and swiss < planned),
        preview=[] if rounds else pages.preview(event),
        draft=draft,
        can_undo=bool(rounds) and not entered.exists(),
        undo_form=TopCutUndoForm(),
        pending=_pending(request, stages, event.best_of),
        placings=placings_by_division(event),
        choices=result_choices(event.best_of, True),
    )


@require_POST
@login_required
def top_cut_start(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    access = event_for(request, slug, need=ORGANISER)
    try:
        start_top_cut(access.event, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            _("The top %(size)s bracket is paired as a draft. Check it, then publish it.")
            % {"size": access.event.top_cut},
        )
    return back(request, reverse("org_top_cut", args=[slug]))


@require_POST
@login_required
def top_cut_publish(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    access = event_for(request, slug, need=ORGANISER)
    draft = Round.objects.filter(event=access.event, kind=Round.Kind.ELIMINATION, state=Round.State.DRAFT).first()
    if draft is None:  # published meanwhile (a second click), or undone
        messages.info(request, _("There is no bracket draft to publish."))
    else:
        publish_round(draft, request.user)
        messages.success(request, _("The bracket is published: players and the venue screen show it now."))
    return back(request, reverse("org_top_cut", args=[slug]))


@require_POST
@login_required
def top_cut_undo(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    access = event_for(request, slug, need=ORGANISER)
    event = access.event
    published = event.rounds.filter(kind=Round.Kind.ELIMINATION).exclude(state=Round.State.DRAFT).exists()
    form = TopCutUndoForm(request.POST)
    # A draft nobody has seen goes at once; a published bracket may have players walking to their tables.
    if published and not (form.is_valid() and form.cleaned_data["confirm"]):
        messages.error(request, _("Tick to confirm: the published bracket disappears from the players' pages."))
        return back(request, reverse("org_top_cut", args=[slug]))
    try:
        undo_top_cut(event, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
        return back(request, reverse("org_top_cut", args=[slug]))
    messages.success(request, _("The top cut is undone: the event is back after its Swiss rounds."))
    return back(request, reverse("org_event", args=[slug]))
