"""Imports, exports and prints as jobs (tournament/jobs/files.py): the page that follows one, running it again, its
download, and a TRF import's page (its event does not exist until the job made it); the job box's poll
(templates/organiser/_job.html, `job_status`), the pairing jobs' too. What the box shows is pages/jobs.py's."""

import gzip
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournament.jobs import files as job_files
from tournament.jobs import workflow as jobs
from tournament.models import Event, Job
from tournament.pages.jobs import job_context
from tournament.views.access import (
    JUDGE,
    ORGANISER,
    Access,
    HtmxHttpRequest,
    cannot_create,
    event_for,
    heavy,
    may_create_events,
)
from tournament.views.responses import back, live_headers, page

# Who may start (and download) each kind: the cards carry every player's personal link.
NEED = {Job.Kind.CARDS: ORGANISER, Job.Kind.PLAYERS: ORGANISER}
STARTED_BY_BUTTON = (Job.Kind.EXPORT, Job.Kind.CARDS, Job.Kind.CROSSTABLE)


def started(request: HtmxHttpRequest, job: Job):
    """After a job is queued: the page that follows it. A queue that runs jobs in the request (the immediate
    backend) has done it already."""
    job.refresh_from_db()
    if job.state == Job.State.DONE and (job.kind == Job.Kind.PLAYERS or job.kind in Job.FILE_IMPORTS):
        messages.success(request, job_files.done_text(job))
        return back(
            request,
            reverse("org_event", args=[job.event.slug]) if job.kind in Job.FILE_IMPORTS else job_files.page_of(job),
        )
    if job.state == Job.State.FAILED:
        messages.error(request, job.error)
    return back(request, job_files.page_of(job))


def start(request: HtmxHttpRequest, access: Access, kind: str, payload: str = "", then=None):
    """Queue a job of the event's, or say what the worker is busy with."""
    try:
        job = jobs.start(access.event, kind, 0, request.user, payload=payload, then=then)
    except jobs.AlreadyRunning as e:
        messages.warning(request, jobs.busy_text(e.job))
        return None
    return started(request, job)


def offer(request: HtmxHttpRequest, access: Access, kind: str):
    """A large print asked for (a GET): the page that makes it as a job, with the latest one of that kind."""
    job = Job.objects.filter(event=access.event, kind=kind).order_by("-created_at", "-id").first()
    label = Job.Kind(kind).label
    return page(request, "organiser/job.html", access, offered=kind, offered_label=label, **job_context(job))


@require_POST
@login_required
@heavy
def job_start(request: HtmxHttpRequest, slug: str, kind: str):
    """Make the event file, the player cards or the crosstable as a job."""
    if kind not in STARTED_BY_BUTTON:
        raise Http404("No such job.")
    access = event_for(request, slug, need=NEED.get(kind, JUDGE))
    payload = json.dumps({"base": request.build_absolute_uri("/").rstrip("/")}) if kind == Job.Kind.CARDS else ""
    response = start(request, access, kind, payload)
    return response or back(request, reverse("org_event", args=[slug]))


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
        return live_headers(unchanged, ctx["job_etag"])
    response = render(request, "organiser/_job.html", {"event": access.event, "access": access, **ctx})
    return live_headers(response, ctx["job_etag"])


def _job(access: Access, job_id: int) -> Job:
    job = get_object_or_404(Job, event=access.event, pk=job_id)
    if job.is_round or job.kind in Job.FILE_IMPORTS:  # a file import's page is its starter's alone (trf_job)
        raise Http404("No such job.")
    return job


@require_GET
@login_required
def job_page(request: HtmxHttpRequest, slug: str, job_id: int):
    access = event_for(request, slug)
    job = _job(access, job_id)
    if NEED.get(job.kind) == ORGANISER and not access.is_organiser:
        raise Http404("No such job.")
    return page(request, "organiser/job.html", access, **job_context(job))


@require_POST
@login_required
@heavy
def job_retry(request: HtmxHttpRequest, slug: str, job_id: int):
    """A stopped or failed job run again, from the same file: a new job (the old one stays, closed)."""
    access = event_for(request, slug, need=ORGANISER)
    old = _job(access, job_id)
    if old.is_active and not old.is_stale():
        messages.warning(request, jobs.busy_text(old))
        return back(request, job_files.page_of(old))
    if old.kind == Job.Kind.PLAYERS and not old.payload:  # its file was swept: there is nothing to run again
        messages.info(request, job_files.gone_text())
        return back(request, job_files.page_of(old))
    return start(request, access, old.kind, old.payload) or back(request, job_files.page_of(old))


@require_GET
@login_required
@never_cache  # the cards hold every player's personal link: no cache keeps them
def job_download(request: HtmxHttpRequest, slug: str, job_id: int):
    access = event_for(request, slug)
    job = _job(access, job_id)
    if NEED.get(job.kind) == ORGANISER and not access.is_organiser:
        raise PermissionDenied
    if job.state != Job.State.DONE or job.result is None:
        messages.info(request, job_files.gone_text())
        return redirect("org_job_page", slug=slug, job_id=job_id)
    response = HttpResponse(gzip.decompress(bytes(job.result)), content_type=job.result_type)
    disposition = "attachment" if job.kind == Job.Kind.EXPORT else "inline"
    response["Content-Disposition"] = f'{disposition}; filename="{job.result_name}"'
    return response


def _trf_job(request: HtmxHttpRequest, job_id: int) -> Job:
    """A file import's job (a TRF or an event file): its own page, for the account that started it."""
    return get_object_or_404(Job, pk=job_id, kind__in=Job.FILE_IMPORTS, created_by=request.user)


@require_GET
@login_required
def trf_job(request: HtmxHttpRequest, job_id: int):
    """A TRF import followed: the page (or, polled, the box); once the event is made, a redirect to it."""
    job = _trf_job(request, job_id)
    if job.state == Job.State.DONE and job.event_id:
        messages.success(request, job_files.done_text(job))
        return back(request, reverse("org_event", args=[job.event.slug]))
    ctx = job_context(job)
    if request.htmx:
        unchanged = get_conditional_response(request, etag=ctx["job_etag"])
        if unchanged is not None:
            return live_headers(unchanged, ctx["job_etag"])
        return live_headers(render(request, "organiser/_job.html", {"event": None, **ctx}), ctx["job_etag"])
    return page(request, "organiser/job.html", None, **ctx)


@require_POST
@login_required
@heavy
def trf_job_retry(request: HtmxHttpRequest, job_id: int):
    old = _trf_job(request, job_id)
    if old.event is not None:  # a section's import: the event's organisers' alone, as its upload is
        event_for(request, old.event.slug, need=ORGANISER)
    if not may_create_events(request.user):  # run again, it creates as the first run would (the worker asks again)
        return cannot_create(request)
    if (old.is_active and not old.is_stale()) or not old.payload:
        return redirect("org_trf_job", job_id=job_id)
    try:
        with transaction.atomic():
            if old.is_active:
                jobs.stop(old)
            # A section's import is its event's job again (the event is still the one it was started at).
            job = jobs.start(old.event, old.kind, 0, request.user, payload=old.payload)
    except jobs.AlreadyRunning as e:
        messages.warning(request, jobs.busy_text(e.job))
        return redirect("org_trf_job", job_id=job_id)
    return started(request, job)


def large_event(event: Event, kind: str) -> bool:
    """Whether the event's export or print of this kind is made by a job."""
    size = job_files.card_holders(event).count() if kind == Job.Kind.CARDS else job_files.rows_of(event)
    return job_files.large(kind, size)
