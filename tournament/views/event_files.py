"""A swiss-event file (version 1, or 2 for an event with sections) uploaded as a new event, on the "New event" page
(docs/file-formats.md): read strictly (a refusal names its JSON path, and nothing is stored), imported through
`services.event_files.import_file` as `manage.py import_event` imports it, the importing account its organiser. A
large file (settings.JOBS_FROM["event_file"]) is stored by the worker, as a large TRF is (tournament/jobs/files.py)."""

import base64

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from tournament.forms.event import EventCreateForm
from tournament.forms.files import EventFileForm
from tournament.forms.sections import TRFUploadForm
from tournament.jobs.files import imported_text, large
from tournament.models import Job
from tournament.services.event_files import import_file, without_slug
from tournament.snapshot import file_size
from tournament.views.access import HtmxHttpRequest, creates_events, heavy
from tournament.views.responses import page
from tournament.views.trf import as_organiser, file_job, import_once


@require_http_methods(["GET", "POST"])
@login_required
@creates_events
@heavy
def import_event_file(request: HtmxHttpRequest):
    """The new-event page's event-file upload: a GET shows the page, a POST creates the event from the file."""
    form = EventFileForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid() and large("event_file", file_size(form.event_doc)):
        # Checked whole above (a bad file is refused at once); the worker reads it again and stores it.
        upload = form.cleaned_data["file"]
        upload.seek(0)
        payload = base64.b64encode(upload.read()).decode("ascii")
        return file_job(request, Job.Kind.EVENT_FILE, None, payload, reverse("event_list"))
    if request.method == "POST" and form.is_valid():
        make = lambda: as_organiser(import_file(without_slug(form.event_doc), by=request.user), request.user)  # noqa: E731
        event, repeated = import_once(request, form, make)
        if repeated:
            return repeated
        if event is not None:
            messages.success(request, imported_text(event.name, form.event_doc))
            return redirect("org_event", slug=event.slug)
    response = page(
        request, "organiser/event_new.html", None, form=EventCreateForm(), trf_form=TRFUploadForm(), file_form=form
    )
    if request.method == "POST":
        response.status_code = 400
    return response
