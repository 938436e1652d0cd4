"""The organiser's file uploads beside the TRF import of `forms.TRFUploadForm`: a TRF file as a new section of an
event, and a swiss-event file (version 1, or 2 with sections) as a new event (docs/file-formats.md)."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from swiss import eventfile as ef
from swiss import venuefile
from swiss.strictjson import decode
from tournament.forms.sections import TRFUploadForm
from tournament.snapshot import check_file
from tournament.text import engine_text


class SectionTRFForm(TRFUploadForm):
    """A TRF file read exactly as a new event's (`TRFUploadForm`), and the name of the section it becomes."""

    name = forms.CharField(
        label=gettext_lazy("Name of the section from the file"),
        required=False,
        max_length=200,
        help_text=gettext_lazy("Left empty: the tournament name in the file"),
    )


class EventFileForm(forms.Form):
    """A swiss-event file this app (or `manage.py export_event`) wrote; a refusal names its JSON path."""

    file = forms.FileField(
        label=gettext_lazy("Event file"),
        help_text=gettext_lazy("A swiss-event JSON file, as an event's “Event file” download gives it"),
    )

    def clean_file(self):
        f = self.cleaned_data["file"]
        try:
            # The request's own bound (MAX_REQUEST_BYTES) keeps the file small enough to read whole.
            data = decode(f.read())
            check_file(data)  # the whole file's bounds, before it is read, stored or queued
            self.event_doc = venuefile.parse(data)
        except ef.EventFileError as e:
            raise forms.ValidationError(
                gettext("Nothing was imported: %(problem)s") % {"problem": engine_text.file_error(e)},
                code=getattr(e.message, "code", "file"),
            ) from None
        return f
