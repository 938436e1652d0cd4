"""The organiser's top-cut pages: the seeding to start from, the bracket as a draft to publish or undo, each
result confirmed before it moves a player on, and the final placings."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from pairing import topcut
from tournament.forms.results import TopCutUndoForm
from tournament.models import Event, Match, Round
from tournament.pages.round import result_choices
from tournament.services.locks import ServiceError, swiss_rounds_played
from tournament.services.results import ConfirmAdvance, advance_question, parse_outcome
from tournament.services.rounds import publish_round
from tournament.services.top_cut import (
    brackets_of,
    cut_sizes,
    division_seeds,
    placings_by_division,
    stage_name,
    start_top_cut,
    top_cut_rounds,
    undo_top_cut,
)
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.pages import back, page
from tournament.views.sections import sections_index


def seeds_of(event: Event) -> dict[str, int]:
    """Each player's seed, by key: their place in the final Swiss standings without dropped players (as
    `start_top_cut`), in their division when divisions are cut apart."""
    return {key: k for _, seeds in division_seeds(event) for k, key in enumerate(seeds, 1)}


def _stages(event: Event, rounds: list[Round], seed: dict[str, int]) -> list[dict]:
    stages = []
    for rnd in rounds:
        matches = list(rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True)))
        for m in matches:
            m.seed_a, m.seed_b = seed.get(m.player_a.key), seed.get(m.player_b.key)
        title = stage_name(max((len(b) for b in brackets_of(matches)), default=0))
        stages.append({"round": rnd, "title": title, "matches": matches})
    return stages


def _preview(event: Event) -> list[tuple[str, list[tuple[dict, dict]], int]]:
    """The first stage as it would be paired now, one bracket per division (or one): (division, [(seed, player)
    pairs], size), for the organiser to check before starting. A division too small for a cut has no bracket."""
    n = event.top_cut
    if n < 2 or n & (n - 1):
        return []
    divisions = cut_sizes(event)
    if any(len(keys) < size for _, keys, size in divisions) or not any(size for _, _, size in divisions):
        return []
    by_key = {p.key: p for p in event.players.filter(dropped_after__isnull=True)}
    preview = []
    for name, keys, size in divisions:
        seeded = [{"seed": k, "player": by_key[key]} for k, key in enumerate(keys[:size], 1) if key in by_key]
        if len(seeded) != size:
            return []
        preview.append((name, topcut.bracket(seeded) if size else [], size))
    return preview


def _pending(request: HtmxHttpRequest, stages: list[dict], best_of: int) -> ConfirmAdvance | None:
    """The result the organiser picked and is asked to confirm (?enter=<match>&result=2-1), if it is valid."""
    match_id, text = request.GET.get("enter", ""), request.GET.get("result", "")[:20]
    if not match_id.isdigit() or not text:
        return None
    match = next((m for s in stages for m in s["matches"] if m.pk == int(match_id)), None)
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
    seed = seeds_of(event) if rounds else {}
    stages = _stages(event, rounds, seed)
    draft = rounds[0] if rounds and not rounds[0].is_published else None
    entered = Match.objects.filter(round__in=rounds).exclude(result=Match.Result.PLAYED, games_a__isnull=True)
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
        preview=[] if rounds else _preview(event),
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
