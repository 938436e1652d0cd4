"""A round as the organiser runs it: pairing, the draft (swap, re-pair, publish), the published round's
page and its clock. What those pages show is tournament/pages/round.py's."""

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Sum
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.forms import once
from tournament.forms.players import SwapForm
from tournament.forms.results import ClockForm
from tournament.jobs import workflow as jobs
from tournament.models import Event, Job, Player, ResultChange, Round
from tournament.pages import results_board
from tournament.pages.jobs import job_context
from tournament.pages.memo import BUILD
from tournament.pages.round import change_lines, draft_context, round_context, round_lines
from tournament.pages.why import round_log
from tournament.services import adjourned, manual
from tournament.services.clock import change_clock
from tournament.services.divisions import joined_into
from tournament.services.locks import ServiceError, latest_round
from tournament.services.rounds import (
    check_ready_to_pair,
    pair_next_round,
    repair_loss,
    repair_round,
)
from tournament.services.warnings import Unpassed
from tournament.text import engine_text, name_search
from tournament.views.access import ORGANISER, Access, HtmxHttpRequest, event_for, heavy, is_fragment
from tournament.views.responses import back, live_headers, next_url, page, round_or_404
from tournament.views.warnings import ask, passes


@require_POST
@login_required
@heavy
def round_pair(request: HtmxHttpRequest, slug: str):
    """Pair the next round: in the request, or for a large round as a job the worker runs (tournament/jobs/workflow.py),
    the POST then answered at once with the event's page, which follows the job."""
    access = event_for(request, slug, need=ORGANISER)
    event = access.event
    busy = jobs.running(event)
    if busy is not None:
        messages.warning(request, jobs.busy_text(busy))
        return back(request, reverse("org_event", args=[slug]))
    if event.fide:
        # FIDE mode: results still missing are recorded as adjourned games, after a warning (services/adjourned.py).
        try:
            with transaction.atomic():
                once.claim(request)
                if not adjourned.adjourn_missing(event, request.user, passes(request)):
                    transaction.set_rollback(True)  # nothing adjourned: the form's token stays the pairing's
        except Unpassed as w:
            return ask(request, access, w, reverse("org_event", args=[slug]))
        except once.Repeated:
            return back(request, reverse("org_event", args=[slug]))
    previous = latest_round(event)
    number = previous.number + 1 if previous else 1
    if jobs.in_background(event, number):
        try:
            # The refusals that need no engine, at once; the job checks again, under the event's lock.
            check_ready_to_pair(event, number, previous)
            job = jobs.start(event, Job.Kind.PAIR, number, request.user)
        except ServiceError as e:
            messages.error(request, str(e))
        except jobs.AlreadyRunning as e:
            messages.warning(request, jobs.busy_text(e.job))
        else:
            return _started(request, access, job)
        return back(request, reverse("org_event", args=[slug]))
    try:
        rnd = pair_next_round(event, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
        return back(request, reverse("org_event", args=[slug]))
    messages.success(
        request, _("Round %(number)s is paired as a draft. Check it, then publish it.") % {"number": rnd.number}
    )
    return back(request, reverse("org_round", args=[rnd.event.slug, rnd.number]))


# How often the judge's open round page asks whether anything changed (an unchanged answer is a 304 of a few
# queries); the full list of a large round is a big rendering each time a result comes in, so it asks less often.
LIVE_SECONDS = 3
LIVE_SECONDS_FULL_LIST = 15


@require_GET
@login_required
def round_page(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug)
    event = access.event
    into = joined_into(event)
    if into is not None:  # a job pairing this section's round 1 paired its partner's (services/divisions.py)
        return redirect("org_round", slug=into.slug, number=number)
    rnd = _round_with_stamp(event, number)
    if rnd.state == Round.State.DRAFT and rnd.kind == Round.Kind.ELIMINATION:
        return redirect("org_top_cut", slug=slug)
    if rnd.state == Round.State.DRAFT:
        return _draft_page(request, access, rnd)
    view = "outstanding" if request.GET.get("outstanding") == "1" else request.GET.get("view", "default")
    start = request.GET.get("from", "1")
    part = request.GET.get("part")
    q = request.GET.get("q", "").replace("\x00", "")[:60]  # PostgreSQL text cannot hold NUL: a search never finds it
    first = int(start) if start.isdigit() and len(start) < 7 else 1
    etag = _live_etag(request, access, rnd, view, q, first)
    if part == "live":
        # The page's own poll: 304 while neither the event nor a report of this round changed.
        unchanged = get_conditional_response(request, etag=etag)
        if unchanged is not None:
            return live_headers(unchanged, etag)
    partial = {"outstanding": "outstanding", "live": "live"}.get(part, "matches")
    ctx = round_context(event, rnd, view, q, first, rows=partial != "outstanding")
    whole = not is_fragment(request)  # a fragment shows neither the drops nor the corrections
    response = page(
        request,
        "organiser/round.html",
        access,
        partial=partial,
        rounds=round_lines(event, list(event.rounds.order_by("number"))),
        reporting_choices=Event.Reporting.choices,
        drops=results_board.phone_drops(event, rnd) if whole else [],
        changes=change_lines(
            ResultChange.objects.filter(match__round=rnd, before__isnull=False).select_related(
                "by", "player", "match__player_a", "match__player_b"
            )[:50],
            event.chess_results,
        )
        if whole
        else [],
        # A re-pairing of this round under way (none once it has results: it can no longer be re-paired).
        **job_context(jobs.shown(event, number, Job.Kind.REPAIR) if whole and not ctx["entered"] else None),
        # Why the round is paired so, group by group (pages/why.py): the whole page only.
        why_log=round_log(event, rnd) if whole and rnd.kind == Round.Kind.SWISS else None,
        swap_form=_published_swap_form(access, rnd) if whole and not ctx["entered"] else None,
        live_etag=etag,
        live_url="?" + urlencode({"part": "live", "view": view, "q": q, "from": first}),
        live_every=LIVE_SECONDS_FULL_LIST if len(ctx["matches"]) > results_board.LARGE_ROUND else LIVE_SECONDS,
        **ctx,
    )
    return live_headers(response, etag) if part == "live" else response


def _published_swap_form(access: Access, rnd: Round) -> SwapForm | None:
    """A published Swiss round without results may still have two players swapped, by an organiser: the
    change goes on the round's public trail (services/trail.py)."""
    if not access.is_organiser or rnd.kind != Round.Kind.SWISS:
        return None
    in_round = Player.objects.filter(seats__round=rnd)
    return SwapForm(players=sorted(in_round, key=lambda p: (name_search.player_key(p, access.event.language), p.pk)))


def _round_with_stamp(event: Event, number: int) -> Round:
    """The round, and the sum of its matches' report stamps (every report from a phone moves it): one query."""
    rnd = Round.objects.filter(event=event, number=number).annotate(stamp=Sum("matches__report_stamp")).first()
    if rnd is None:
        raise Http404("No such round.")
    return rnd


def _live_etag(request: HtmxHttpRequest, access: Access, rnd: Round, view: str, q: str, first: int) -> str:
    """What the round page shows depends on: the event's version (every result, swap, clock, setting), the
    round's reports (a report waiting for the opponent, or a dispute, does not move the version), who asks
    (an organiser sees more buttons), the view, and the language."""
    who = "\0".join([BUILD, get_language(), str(request.user.pk), access.role, view, q])
    ident = hashlib.blake2b(f"{who}\0{first}".encode(), digest_size=8).hexdigest()
    return f'W/"r{rnd.pk}.{access.event.version}.{rnd.stamp or 0}.{ident}"'


def _draft_page(request: HtmxHttpRequest, access: Access, rnd: Round, swap_form=None):
    event = access.event
    ctx = draft_context(event, rnd)
    in_round = ctx.pop("in_round")
    return page(
        request,
        "organiser/draft.html",
        access,
        swap_form=swap_form
        or SwapForm(players=sorted(in_round, key=lambda p: (name_search.player_key(p, access.event.language), p.pk))),
        **job_context(jobs.shown(event, rnd.number, Job.Kind.REPAIR)),
        why_log=round_log(event, rnd),
        **ctx,
    )


@require_POST
@login_required
def round_publish(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug, need=ORGANISER)
    rnd = round_or_404(access.event, number)
    try:
        manual.publish(rnd, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request, _("Round %(number)s is published: players can see their tables now.") % {"number": number}
        )
    return back(request, reverse("org_round", args=[slug, number]))


@require_http_methods(["GET", "POST"])
@login_required
def round_repair(request: HtmxHttpRequest, slug: str, number: int):
    """Pair a round again with a new seed. A draft is thrown away at once (the draft page's “Pair again”).
    A published round is asked about first, on a page of its own (no script needed) that says what goes: the
    pairings players may have seen, the results entered, the players' reports. Only a POST with `confirm`
    re-pairs it; a POST without it (an old page's button) shows the question and changes nothing."""
    access = event_for(request, slug, need=ORGANISER)
    rnd = round_or_404(access.event, number)
    if request.method == "GET" and not rnd.is_published:
        return redirect("org_round", slug=slug, number=number)
    if rnd.is_published and (request.method == "GET" or request.POST.get("confirm") != "1"):
        return page(request, "organiser/round_repair.html", access, round=rnd, loss=repair_loss(rnd))
    return _repair(request, access, rnd)


@heavy
def _repair(request: HtmxHttpRequest, access: Access, rnd: Round):
    """The re-pairing itself: a turn from the account's budget (`heavy`), then the engine, in the request or for a
    large round as a job the worker runs (tournament/jobs/workflow.py)."""
    slug, number = access.event.slug, rnd.number
    busy = jobs.running(access.event)
    if busy is not None:
        messages.warning(request, jobs.busy_text(busy))
        return back(request, reverse("org_round", args=[slug, number]))
    if jobs.in_background(access.event, number):
        refusal = repair_loss(rnd).refusal
        if refusal:
            messages.error(request, refusal)
            return back(request, reverse("org_round", args=[slug, number]))
        try:
            job = jobs.start(access.event, Job.Kind.REPAIR, number, request.user, published=rnd.is_published)
        except jobs.AlreadyRunning as e:
            messages.warning(request, jobs.busy_text(e.job))
            return back(request, reverse("org_round", args=[slug, number]))
        return _started(request, access, job)
    try:
        repair_round(rnd, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request, _("Round %(number)s is paired again as a draft. Check it, then publish it.") % {"number": number}
        )
    return back(request, reverse("org_round", args=[slug, number]))


def _started(request: HtmxHttpRequest, access: Access, job: Job):
    """After a job is queued: the page that follows it (the event's for a pairing, the round's for a re-pairing).
    A queue that runs jobs in the request (TASKS_BACKEND's immediate backend) has done it already."""
    job.refresh_from_db()
    slug = access.event.slug
    if job.state == Job.State.DONE:
        messages.success(request, jobs.done_text(job))
        return back(request, reverse("org_round", args=[slug, job.round_number]))
    if job.state == Job.State.FAILED:
        messages.error(request, job.error)
    if job.kind == Job.Kind.REPAIR:
        return back(request, reverse("org_round", args=[slug, job.round_number]))
    return back(request, reverse("org_event", args=[slug]))


@require_POST
@login_required
def round_swap(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug, need=ORGANISER)
    rnd = round_or_404(access.event, number)
    in_round = list(Player.objects.filter(seats__round=rnd))
    form = SwapForm(request.POST, players=in_round)
    if form.is_valid():
        by_pk = {p.pk: p for p in in_round}
        try:
            # A second click on the same swap must not swap the two back.
            with transaction.atomic():
                once.claim(request)
                first, second = by_pk[form.cleaned_data["first"]], by_pk[form.cleaned_data["second"]]
                warnings = manual.swap(rnd, first, second, request.user, passes(request))
        except Unpassed as w:  # FIDE mode: the warnings to pass first (services/manual.py)
            return ask(request, access, w, reverse("org_round", args=[slug, number]))
        except once.Repeated:
            return back(request, reverse("org_round", args=[slug, number]))
        except ServiceError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, _("Swapped %(first)s and %(second)s.") % {"first": first, "second": second})
            for w in warnings:
                messages.warning(request, engine_text.translate(w))
            return back(request, reverse("org_round", args=[slug, number]))
    if rnd.state != Round.State.DRAFT:
        for error in form.non_field_errors():
            messages.error(request, error)
        return back(request, reverse("org_round", args=[slug, number]))
    return _draft_page(request, access, rnd, swap_form=form)


@require_POST
@login_required
def round_flip(request: HtmxHttpRequest, slug: str, number: int):
    """A chess board's colours flipped by hand, with the FIDE colour rules it breaks as warnings."""
    access = event_for(request, slug, need=ORGANISER)
    rnd = round_or_404(access.event, number)
    match_id = request.POST.get("match", "")
    try:
        with transaction.atomic():
            once.claim(request)  # a second click must not flip the board back
            if not match_id.isdigit():
                raise ServiceError(_("That board has no two players to flip."))
            warnings = manual.flip(rnd, int(match_id), request.user, passes(request))
    except Unpassed as w:  # FIDE mode: the warnings to pass first (services/manual.py)
        return ask(request, access, w, reverse("org_round", args=[slug, number]))
    except once.Repeated:
        pass
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Colours flipped."))
        for w in warnings:
            messages.warning(request, engine_text.translate(w))
    return back(request, reverse("org_round", args=[slug, number]))


@require_POST
@login_required
def round_clock(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug)
    rnd = round_or_404(access.event, number)
    form = ClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That clock change is not possible."))
    else:
        try:
            # A double click on "+10 min" adds ten minutes, not twenty.
            with transaction.atomic():
                once.claim(request)
                change_clock(rnd, form.cleaned_data["action"], request.user, form.cleaned_data["minutes"] or 0)
        except once.Repeated:
            pass
        except ServiceError as e:
            messages.error(request, str(e))
    return back(request, next_url(request, reverse("org_round", args=[slug, number])))
