"""FIDE TRF files on the organiser pages: download a chess event as TRF, start a new event from a TRF upload (a
large one as a job: tournament/job_files.py)."""

import base64

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
from tournament import jobs, once
from tournament.files.eventio import event_to_trf, import_event
from tournament.forms import EventCreateForm, TRFUploadForm
from tournament.job_files import large
from tournament.models import EventRole, Job
from tournament.text import engine_text
from tournament.views.access import HtmxHttpRequest, creates_events, event_for, heavy
from tournament.views.jobs import started
from tournament.views.pages import page


@require_GET
@login_required
def export_trf(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
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
        return page(request, "organiser/event_new.html", None, form=EventCreateForm(), trf_form=TRFUploadForm())
    form = TRFUploadForm(request.POST, request.FILES)
    if form.is_valid() and large("trf", len(form.event_doc.players) * max(1, len(form.event_doc.rounds))):
        return _import_job(request, form)
    if form.is_valid():
        try:
            with transaction.atomic():
                submission = once.claim(request)
                event = import_event(form.event_doc)
                EventRole.objects.create(event=event, user=request.user, role=EventRole.Role.ORGANISER)
                once.done(submission, reverse("org_event", args=[event.slug]))
        except once.Repeated as r:
            messages.info(request, gettext("That file was imported already."))
            return redirect(r.outcome or reverse("event_list"))
        except ef.EventFileError as e:
            # A file the TRF reader accepts but an event cannot hold (too many players, a name the forms refuse).
            form.add_error(
                "file", gettext("Nothing was imported: %(problem)s") % {"problem": engine_text.file_error(e)}
            )
        else:
            messages.success(
                request,
                gettext("%(name)s is imported from the TRF file: %(players)s players, %(rounds)s rounds.")
                % {"name": event.name, "players": len(form.event_doc.players), "rounds": len(form.event_doc.rounds)},
            )
            return redirect("org_event", slug=event.slug)
    response = page(request, "organiser/event_new.html", None, form=EventCreateForm(), trf_form=form)
    response.status_code = 400
    return response


def _import_job(request: HtmxHttpRequest, form: TRFUploadForm):
    """A large file (checked whole above, so a bad one is refused at once) stored by the worker: its page
    (views.jobs.trf_job) follows it and opens the new event when it is made. A repeat goes to that page."""
    upload = form.cleaned_data["file"]
    upload.seek(0)
    payload = base64.b64encode(upload.read()).decode("ascii")
    try:
        with transaction.atomic():
            submission = once.claim(request)
            job = jobs.start(
                None,
                Job.Kind.TRF,
                0,
                request.user,
                payload=payload,
                then=lambda job: once.done(submission, reverse("org_trf_job", args=[job.pk])),
            )
    except once.Repeated as r:
        messages.info(request, gettext("That file was imported already."))
        return redirect(r.outcome or reverse("event_list"))
    return started(request, job)
