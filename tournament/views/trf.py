"""FIDE TRF files on the organiser pages: download a chess event as TRF, start a new event from a TRF upload, or
add one as a new section of an event (a large file as a job: tournament/jobs/files.py)."""

import base64
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from swiss import eventfile as ef
from swiss import trf
from swiss.messages import Message
from tournament.forms import once
from tournament.forms.event import EventCreateForm
from tournament.forms.files import EventFileForm, SectionTRFForm
from tournament.forms.sections import TRFUploadForm
from tournament.jobs import workflow as jobs
from tournament.jobs.files import large
from tournament.models import Event, EventRole, Job
from tournament.services.adjourned import final_blocked
from tournament.services.event_files import import_file, import_section
from tournament.services.locks import ServiceError
from tournament.snapshot import event_to_trf
from tournament.text import engine_text, l10n
from tournament.views.access import (
    ORGANISER,
    HtmxHttpRequest,
    cannot_create,
    creates_events,
    event_for,
    heavy,
    may_create_events,
)
from tournament.views.jobs import started
from tournament.views.responses import page


@require_GET
@login_required
def export_trf(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    missing = final_blocked(access.event)
    if missing:  # FIDE mode: no final TRF while a result is missing (services/adjourned.py)
        messages.error(
            request,
            gettext("No final TRF while a result is missing (round %(rounds)s): enter it first.")
            % {"rounds": l10n.join(missing)},
        )
        return redirect("org_event", slug=slug)
    try:
        text = event_to_trf(access.event)
    except trf.TRFExportError as e:
        if e.code == "trf_not_chess":
            messages.error(request, gettext("A TRF file is for chess events: one game a round, scored 1, ½ and 0."))
        else:
            messages.error(request, engine_text.sentence(Message(e.code, str(e), **e.params)))
        return redirect("org_event", slug=slug)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}.trf"'
    return response


@require_http_methods(["GET", "POST"])
@login_required
@creates_events
@heavy
def import_trf(request: HtmxHttpRequest):
    """The new-event page's TRF upload: a GET shows the page, a POST creates the event from the file."""
    if request.method == "GET":
        return page(
            request,
            "organiser/event_new.html",
            None,
            form=EventCreateForm(),
            trf_form=TRFUploadForm(),
            file_form=EventFileForm(),
        )
    form = TRFUploadForm(request.POST, request.FILES)
    if form.is_valid() and large("trf", _size(form.event_doc)):
        return _import_job(request, form)
    if form.is_valid():
        make = lambda: as_organiser(import_file(form.event_doc, by=request.user), request.user)  # noqa: E731
        event, repeated = import_once(request, form, make)
        if repeated:
            return repeated
        if event is not None:
            messages.success(
                request,
                gettext("%(name)s is imported from the TRF file: %(players)s players, %(rounds)s rounds.")
                % {"name": event.name, "players": len(form.event_doc.players), "rounds": len(form.event_doc.rounds)},
            )
            return redirect("org_event", slug=event.slug)
    response = page(
        request, "organiser/event_new.html", None, form=EventCreateForm(), trf_form=form, file_form=EventFileForm()
    )
    response.status_code = 400
    return response


def _import_job(request: HtmxHttpRequest, form: TRFUploadForm):
    """A large file (checked whole above, so a bad one is refused at once) stored by the worker: its page
    (views.jobs.trf_job) follows it and opens the new event when it is made. A repeat goes to that page."""
    upload = form.cleaned_data["file"]
    upload.seek(0)
    payload = base64.b64encode(upload.read()).decode("ascii")
    return file_job(request, Job.Kind.TRF, None, payload, reverse("event_list"))


def _size(doc) -> int:
    """A TRF's size as the import costs it: player-rounds."""
    return len(doc.players) * max(1, len(doc.rounds))


@require_http_methods(["GET", "POST"])
@login_required
@heavy
def import_trf_section(request: HtmxHttpRequest, slug: str):
    """A TRF file as a new section of the event (docs/sections.md "Files"): the event page's upload posts here; a
    GET, or a refusal, shows this page with the form (and what is wrong)."""
    access = event_for(request, slug, need=ORGANISER)
    if not may_create_events(request.user):  # a section is created as an event is (services.staff)
        return cannot_create(request)
    event = access.event
    if event.is_section:
        messages.error(request, gettext("A section has no sections of its own: add them on the event's page."))
        return redirect(reverse("org_event", args=[event.root.slug]) + "#sections")
    form = SectionTRFForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["name"]
        if large("trf", _size(form.event_doc)):
            response = _section_job(request, access, form, name)
            if response is not None:
                return response
        else:
            try:
                make = lambda: import_section(event, form.event_doc, name, request.user)  # noqa: E731
                section, repeated = import_once(request, form, make, reverse("org_event", args=[slug]))
            except ServiceError as e:  # a section of that name exists already, the event has paired rounds
                form.add_error("name" if form.cleaned_data["name"] else None, str(e))
            else:
                if repeated:
                    return repeated
                if section is not None:
                    messages.success(request, section_imported(section.name, form.event_doc))
                    return redirect("org_event", slug=section.slug)
    # A refusal shows the page again with what is wrong (as a section's rules page does), the event untouched.
    return page(request, "organiser/section_import.html", access, form=form)


def section_imported(name: str, doc) -> str:
    return gettext("Section “%(name)s” is imported from the TRF file: %(players)s players, %(rounds)s rounds.") % {
        "name": name,
        "players": len(doc.players),
        "rounds": len(doc.rounds),
    }


def _section_job(request: HtmxHttpRequest, access, form: SectionTRFForm, name: str):
    """A large file as a job of the event's (one at a time, as its other jobs): the worker reads it again and makes
    the section (job_files._trf); None when the worker is busy with this event (said on the page)."""
    upload = form.cleaned_data["file"]
    upload.seek(0)
    payload = json.dumps({"name": name, "trf": base64.b64encode(upload.read()).decode("ascii")})
    try:
        return file_job(request, Job.Kind.TRF, access.event, payload, reverse("org_event", args=[access.event.slug]))
    except jobs.AlreadyRunning as e:
        form.add_error(None, jobs.busy_text(e.job))
        return None


def file_job(request: HtmxHttpRequest, kind: str, event, payload: str, repeat_url: str) -> HttpResponse:
    """A TRF file stored by the worker (a new event's when `event` is None, else a new section of it), started once
    per submission: its page (views.jobs.trf_job) follows it; a repeat goes there, or to `repeat_url`."""
    try:
        with transaction.atomic():
            submission = once.claim(request)
            job = jobs.start(
                event,
                kind,
                0,
                request.user,
                payload=payload,
                then=lambda job: once.done(submission, reverse("org_trf_job", args=[job.pk])),
            )
    except once.Repeated as r:
        messages.info(request, gettext("That file was imported already."))
        return redirect(r.outcome or repeat_url)
    except jobs.AlreadyRunning as e:
        if event is not None:
            raise  # the event's own job under way: said on the section's form (`_section_job`)
        # One new event's import at a time per account: the one under way, followed on its page.
        messages.warning(request, jobs.busy_text(e.job))
        return redirect("org_trf_job", job_id=e.job.pk) if e.job else redirect(repeat_url)
    return started(request, job)


def as_organiser(event: Event, user) -> Event:
    """A new event from a file, with the account that imported it as its organiser."""
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return event


def import_once(request: HtmxHttpRequest, form, make, repeat_url: str | None = None):
    """Store what `make()` makes of the form's file (a new event or section), once per submission.

    Returns (what was made, None); (None, a redirect) for a submission already imported (to where it led, else
    `repeat_url`, else the event list); (None, None) for a file an event cannot hold, said on the form's file
    field. Any other refusal (a ServiceError) rolls the claim back and reaches the caller."""
    try:
        with transaction.atomic():
            submission = once.claim(request)
            made = make()
            once.done(submission, reverse("org_event", args=[made.slug]))
    except once.Repeated as r:
        messages.info(request, gettext("That file was imported already."))
        return None, redirect(r.outcome or repeat_url or reverse("event_list"))
    except ef.EventFileError as e:
        # A file the reader accepts but an event cannot hold (too many players, a name the forms refuse).
        form.add_error("file", gettext("Nothing was imported: %(problem)s") % {"problem": engine_text.file_error(e)})
        return None, None
    return made, None
