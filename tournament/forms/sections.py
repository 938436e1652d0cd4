"""TRF upload and the sections of an event (docs/sections.md)."""

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from standings import points_by_player
from swiss import eventfile as ef
from swiss import trf
from swiss.presets import preset_fields
from tournament.forms.fields import RatingField
from tournament.models import Event
from tournament.text import engine_text, l10n


class TRFUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("TRF file"),
        help_text=gettext_lazy("FIDE TRF-16, as Swiss-Manager, Vega or lichess write it"),
    )

    def clean_file(self):
        f = self.cleaned_data["file"]
        try:
            # The same bounds as the import command's: a file too large is refused unread.
            trf.check_size(f.size)
            self.event_doc = trf.loads(f.read(), points_by_player)
        except trf.TRFError as e:
            # The engine's stable code and parameters; the sentence names the line and what is wrong.
            raise forms.ValidationError(
                gettext("Nothing was imported: line %(line)s: %(problem)s")
                % {"line": e.line, "problem": engine_text.translate(e.message)},
                code=e.code,
                params=e.params,
            ) from None
        except ef.EventFileError as e:
            raise forms.ValidationError(
                gettext("Nothing was imported: %(problem)s") % {"problem": engine_text.file_error(e)},
                code=getattr(e.message, "code", "trf"),
            ) from None
        return f


# ---------------------------------------------------------------- sections (docs/sections.md)


class SectionForm(forms.ModelForm):
    """A new section of an event: its name and preset; it takes the preset's scoring and tie-breakers exactly
    as a new event does (`EventCreateForm.save`)."""

    class Meta:
        model = Event
        fields = ["name", "preset"]
        labels = {"name": _("Section name"), "preset": _("Preset")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = l10n.preset_choices()

    def settings(self) -> dict:
        return preset_fields(self.cleaned_data["preset"])


class SectionRulesForm(forms.ModelForm):
    """A section's placement rules (a rating band, birth years: either end open) and its first table."""

    class Meta:
        model = Event
        fields = ["rating_min", "rating_max", "birth_year_min", "birth_year_max", "first_table"]
        field_classes = {"rating_min": RatingField, "rating_max": RatingField}
        labels = {
            "rating_min": _("Rating from"),
            "rating_max": _("Rating up to"),
            "birth_year_min": _("Born from (year)"),
            "birth_year_max": _("Born up to (year)"),
            "first_table": _("First table"),
        }
        help_texts = {"first_table": _("Empty: right after the previous section's tables.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("birth_year_min", "birth_year_max"):
            self.fields[name].validators += [MinValueValidator(1900), MaxValueValidator(2100)]
            self.fields[name].widget.attrs.update(min=1900, max=2100)
        self.fields["first_table"].validators.append(MinValueValidator(1))
        self.fields["first_table"].widget.attrs.update(min=1)


class PlaceForm(forms.Form):
    """The section a player is registered in (the event's page), or moved or entered again in."""

    section = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label=_("Section"))

    def __init__(self, *args, sections, blank=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.sections = {s.pk: s for s in sections}
        self.fields["section"].choices = [("", blank or _("By the rules"))] + [(s.pk, s.name) for s in sections]

    def chosen(self) -> Event | None:
        return self.sections.get(self.cleaned_data["section"])
