"""A swiss-event file (version 1, or 2 for an event with sections) uploaded as a new event, on the "New event" page
(docs/file-formats.md): read strictly (a refusal names its JSON path, and nothing is stored), imported through
`services.event_files.import_file` as `manage.py import_event` imports it, the importing account its organiser."""

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from swiss import model
from tournament.forms.event import EventCreateForm
from tournament.forms.files import EventFileForm
from tournament.forms.sections import TRFUploadForm
from tournament.services.event_files import import_file
from tournament.views.access import HtmxHttpRequest, creates_events, heavy
from tournament.views.pages import page
from tournament.views.trf import as_organiser, import_once


def without_slug(doc: model.Event | model.Venue) -> model.Event | model.Venue:
    """The file without its address: an event made on the web gets one drawn for it (`insert_with_new_slug`), so
    that what it gets tells nothing of the events that exist; its sections are named under it."""
    if isinstance(doc, model.Venue):
        return replace(doc, slug=None)
    return replace(doc, settings=replace(doc.settings, slug=None))


@require_http_methods(["GET", "POST"])
@login_required
@creates_events
@heavy
def import_event_file(request: HtmxHttpRequest):
    """The new-event page's event-file upload: a GET shows the page, a POST creates the event from the file."""
    form = EventFileForm(request.POST or None, request.FILES or None)
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


def imported_text(name: str, doc: model.Event | model.Venue) -> str:
    if isinstance(doc, model.Venue):
        players = len(doc.players) + sum(len(s.players) for s in doc.sections)
        return ngettext(
            "%(name)s is imported from the event file: %(sections)s section, %(players)s players.",
            "%(name)s is imported from the event file: %(sections)s sections, %(players)s players.",
            len(doc.sections),
        ) % {"name": name, "sections": len(doc.sections), "players": players}
    return gettext("%(name)s is imported from the event file: %(players)s players, %(rounds)s rounds.") % {
        "name": name,
        "players": len(doc.players),
        "rounds": len(doc.rounds),
    }
