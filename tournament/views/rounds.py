"""A round as the organiser runs it: pairing, the draft (swap, re-pair, publish), the published round's
page and its clock."""

import hashlib
import math

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F, Sum
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.forms import once
from tournament.forms.players import SwapForm
from tournament.forms.results import ClockForm
from tournament.jobs import workflow as jobs
from tournament.models import Event, Job, Match, Player, ResultChange, Round
from tournament.services import results_board
from tournament.services.clock import change_clock
from tournament.services.divisions import joined_into
from tournament.services.locks import ServiceError, latest_round
from tournament.services.results import shorthands
from tournament.services.rounds import (
    check_ready_to_pair,
    flip_colours,
    met_before,
    pair_next_round,
    publish_round,
    repair_loss,
    repair_round,
    swap_players,
)
from tournament.services.standings import chess_idents, event_standings
from tournament.services.top_cut import stage_name, stage_names
from tournament.text import engine_text, game_words, l10n, name_search
from tournament.text.names import Names
from tournament.views import results_rows
from tournament.views.access import ORGANISER, Access, HtmxHttpRequest, event_for, heavy, is_fragment
from tournament.views.pages import _next, _round, back, labelled, page
from tournament.views.public_cache import BUILD


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


def result_choices(best_of: int, elimination: bool, chess: bool = False, draws: bool = True) -> list[tuple[str, str]]:
    """The one-click results of a match format: every winning score, then the draws (none where a game has
    none: `draws=False`, backgammon); a chess game's 1-0, ½-½, 0-1 (White's result first)."""
    if chess and not elimination:
        return [("1-0", "1-0"), ("½-½", "½-½"), ("0-1", "0-1")]
    need = math.ceil(best_of / 2)
    wins_a = [(f"{need}-{j}", f"{need}-{j}") for j in range(need)]
    wins_b = [(f"{j}-{need}", f"{j}-{need}") for j in reversed(range(need))]
    choices = wins_a + wins_b
    if not elimination and draws:
        if best_of == 1:
            choices.append(("0-0-1", game_words.gettext("Draw")))
        else:
            choices += [
                ("1-1", _("1-1 draw")),
                (f"0-0-{best_of}", _("0-0-%(n)s ID") % {"n": best_of}),  # an intentional draw
            ]
    return choices


def _round_context(
    event: Event, rnd: Round, view: str = "default", q: str = "", start: int = 1, rows: bool = True, row=None
):
    """The results page: the counts, and the rows of `view` (none when `rows` is false); `row`: the one
    match an HTMX answer shows, prepared like a row of the page."""
    elimination = rnd.kind == Round.Kind.ELIMINATION
    choices = result_choices(event.best_of, elimination, event.chess_results, event.draws)
    if rows and row is None:
        overview = results_board.overview(rnd, view, q, start)
    else:
        counts = results_board.counts(rnd)
        overview = results_board.Overview(counts, [], [], counts.total > results_board.LARGE_ROUND, view, start, q)
    board = results_rows.Rows(event, rnd, choices)
    board.prepare_all([*overview.matches, *overview.attention, *([row] if row is not None else [])])
    latest = event.rounds.order_by("-number").values_list("number", flat=True).first()
    return {
        "round": rnd,
        "stage": stage_name(overview.counts.matches) if elimination else "",
        "matches": overview.matches,
        "overview": overview,
        "missing": overview.counts.outstanding,
        "entered": overview.counts.entered,
        "only_outstanding": overview.view == "outstanding",
        "choices": choices,
        "shorthands": shorthands(event.best_of, elimination, event.chess_results, event.draws),
        "is_latest": rnd.number == latest,
        "seconds_left": rnd.seconds_left(),
    }


# How often the judge's open round page asks whether anything changed (an unchanged answer is a 304 of a few
# queries); the full list of a large round is a big rendering each time a result comes in, so it asks less often.
LIVE_SECONDS = 3
LIVE_SECONDS_FULL_LIST = 15


def _round_tabs(event: Event) -> list[Round]:
    """The rounds for the page's tabs; a top-cut round carries its stage's name (Semifinals, Final) as `stage`."""
    rounds = list(event.rounds.order_by("number"))
    stages = stage_names(event) if any(r.kind == Round.Kind.ELIMINATION for r in rounds) else {}
    for r in rounds:
        r.stage = stages.get(r.number, "")
    return rounds


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
            return _live_headers(unchanged, etag)
    partial = {"outstanding": "outstanding", "live": "live"}.get(part, "matches")
    ctx = _round_context(event, rnd, view, q, first, rows=partial != "outstanding")
    whole = not is_fragment(request)  # a fragment shows neither the drops nor the corrections
    response = page(
        request,
        "organiser/round.html",
        access,
        partial=partial,
        rounds=_round_tabs(event),
        reporting_choices=Event.Reporting.choices,
        drops=results_board.phone_drops(event, rnd) if whole else [],
        changes=labelled(
            ResultChange.objects.filter(match__round=rnd, before__isnull=False).select_related(
                "by", "player", "match__player_a", "match__player_b"
            )[:50],
            event.chess_results,
        )
        if whole
        else [],
        # A re-pairing of this round under way (none once it has results: it can no longer be re-paired).
        **job_context(jobs.shown(event, number, Job.Kind.REPAIR) if whole and not ctx["entered"] else None),
        live_etag=etag,
        live_url="?" + urlencode({"part": "live", "view": view, "q": q, "from": first}),
        live_every=LIVE_SECONDS_FULL_LIST if len(ctx["matches"]) > results_board.LARGE_ROUND else LIVE_SECONDS,
        **ctx,
    )
    return _live_headers(response, etag) if part == "live" else response


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


def _live_headers(response, etag: str):
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, ("HX-Request", "Cookie"))
    return response


def _draft_page(request: HtmxHttpRequest, access: Access, rnd: Round, swap_form=None):
    event = access.event
    before = event_standings(event, after_round=rnd.number - 1)  # cached per event version
    points = {r.player_id: r.points for r in before.rows}
    met = met_before(event, rnd.number)
    idents = chess_idents(event)
    rows = []
    for m in rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True), "id"):
        pa = points.get(m.player_a.key, 0)
        pb = points.get(m.player_b.key, 0) if m.player_b else None
        rows.append(
            {
                "match": m,
                "points_a": l10n.points(pa),
                "points_b": l10n.points(pb) if pb is not None else "",
                "ident_a": idents.get(m.player_a_id),
                "ident_b": idents.get(m.player_b_id),
                "float": pb is not None and pa != pb,
                "rematch": m.player_b_id is not None and frozenset((m.player_a_id, m.player_b_id)) in met,
            }
        )
    in_round = [p for m in rows for p in (m["match"].player_a, m["match"].player_b) if p]
    bye_notes = [
        bye_note(event, r["match"].player_a, rnd.number)
        for r in rows
        if r["match"].result == Match.Result.BYE and r["match"].player_a.byes < rnd.number
    ]
    waiting = event.players.filter(dropped_after__isnull=True, joined_round__lte=rnd.number).exclude(
        pk__in=[p.pk for p in in_round]
    )
    return page(
        request,
        "organiser/draft.html",
        access,
        round=rnd,
        rows=rows,
        bye_notes=bye_notes,
        waiting=waiting,
        dropped=[p for p in in_round if p.dropped_after is not None and p.dropped_after < rnd.number],
        swap_form=swap_form
        or SwapForm(players=sorted(in_round, key=lambda p: (name_search.player_key(p, access.event.language), p.pk))),
        **job_context(jobs.shown(event, rnd.number, Job.Kind.REPAIR)),
    )


def bye_note(event: Event, player: Player, number: int) -> str:
    """Why this player has the round's bye; a late entrant's surprises organisers, so it says so."""
    name = Names.of(event.pk).label(player)
    if player.joined_round > 1 and event.late_entry == Event.LateEntry.NONE:
        return game_words.gettext(
            "The bye goes to the lowest-ranked player who has not had one: %(name)s, who entered late "
            "(in round %(joined)s, with no record for the rounds before)."
        ) % {"name": name, "joined": player.joined_round}
    if player.joined_round > 1:
        return game_words.gettext(
            "The bye goes to the lowest-ranked player who has not had one: %(name)s, who entered late "
            "(in round %(joined)s, with losses for the rounds before)."
        ) % {"name": name, "joined": player.joined_round}
    return game_words.gettext("The bye goes to the lowest-ranked player who has not had one: %(name)s.") % {
        "name": name
    }


@require_POST
@login_required
def round_publish(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug, need=ORGANISER)
    rnd = _round(access.event, number)
    try:
        publish_round(rnd, request.user)
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
    rnd = _round(access.event, number)
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


# How often a page showing a job asks for its state (an unchanged job answers 304).
JOB_POLL_SECONDS = 2


def job_context(job: Job | None) -> dict:
    """What templates/organiser/_job.html shows of a job: its state, whether it stopped, how long ago it was
    started (counted on by the page's script), the jobs ahead of it in the queue."""
    if job is None:
        return {"job": None}
    seconds = max(0, int((timezone.now() - job.created_at).total_seconds()))
    stale = job.is_stale()
    ahead = jobs.queued_ahead(job) if job.state == Job.State.QUEUED and not stale else 0
    parts = [BUILD, get_language(), str(job.pk), job.state, str(int(stale)), str(ahead), job.progress, job.error]
    ident = hashlib.blake2b("\0".join(parts).encode(), digest_size=8).hexdigest()
    return {
        "job": job,
        "job_stale": stale,
        "job_ahead": ahead,
        "job_since": format_html('<span data-seconds-since="{}">{}</span>', seconds, seconds),
        "job_etag": f'W/"job{job.pk}.{ident}"',
        "job_poll": JOB_POLL_SECONDS,
    }


@require_GET
@login_required
def job_status(request: HtmxHttpRequest, slug: str):
    """The job box's poll (templates/organiser/_job.html): 304 while nothing changed; the box as it is now; or, once
    the draft is stored, a redirect to it."""
    access = event_for(request, slug)
    pk = request.GET.get("job")
    if pk is None:  # the event's job, if its pages show one (nothing otherwise)
        job = jobs.shown(access.event)
        if job is None:
            return HttpResponse("")
    else:
        job = Job.objects.filter(event=access.event, pk=int(pk)).first() if pk.isdigit() and len(pk) < 18 else None
        if job is None:
            raise Http404("No such job.")
    if job.state == Job.State.DONE and job.is_round:
        messages.success(request, jobs.done_text(job))
        return back(request, reverse("org_round", args=[slug, job.round_number]))
    if job.state == Job.State.DONE and job.kind == Job.Kind.PLAYERS:  # the roster, with what was imported
        messages.success(request, jobs.done_text(job))
        return back(request, reverse("org_players", args=[slug]))
    ctx = job_context(job)
    unchanged = get_conditional_response(request, etag=ctx["job_etag"])
    if unchanged is not None:
        return _live_headers(unchanged, ctx["job_etag"])
    response = render(request, "organiser/_job.html", {"event": access.event, "access": access, **ctx})
    return _live_headers(response, ctx["job_etag"])


@require_POST
@login_required
def round_swap(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug, need=ORGANISER)
    rnd = _round(access.event, number)
    in_round = list(Player.objects.filter(seats__round=rnd))
    form = SwapForm(request.POST, players=in_round)
    if form.is_valid():
        by_pk = {p.pk: p for p in in_round}
        try:
            # A second click on the same swap must not swap the two back.
            with transaction.atomic():
                once.claim(request)
                warnings = swap_players(
                    rnd, by_pk[form.cleaned_data["first"]], by_pk[form.cleaned_data["second"]], request.user
                )
        except once.Repeated:
            return back(request, reverse("org_round", args=[slug, number]))
        except ServiceError as e:
            messages.error(request, str(e))
        else:
            first, second = by_pk[form.cleaned_data["first"]], by_pk[form.cleaned_data["second"]]
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
    rnd = _round(access.event, number)
    match_id = request.POST.get("match", "")
    try:
        with transaction.atomic():
            once.claim(request)  # a second click must not flip the board back
            if not match_id.isdigit():
                raise ServiceError(_("That board has no two players to flip."))
            warnings = flip_colours(rnd, int(match_id), request.user)
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
    rnd = _round(access.event, number)
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
    return back(request, _next(request, reverse("org_round", args=[slug, number])))
