"""The form fields and widgets the organiser's forms share: exact fractions as the page's language writes them,
dates the browser reads, long selects joined fast, tie-breakers in order, the venue's time zone."""

from django import forms
from django.conf import settings
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from swiss.model import time_zones
from tournament.text import l10n
from tournament.text.i18n import VENUE_ZONES


class FractionField(forms.CharField):
    """A score or the floor, typed as a person writes it (0,5 in Danish; the floor as 33 %): changed only
    when its value changes, not its spelling."""

    def __init__(self, *args, percent: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.percent = percent

    def has_changed(self, initial, data):
        try:
            return l10n.read_fraction(str(initial), self.percent) != l10n.read_fraction(str(data), self.percent)
        except ValueError:
            return super().has_changed(initial, data)


def fraction_field(label: str, percent: bool = False) -> forms.CharField:
    return FractionField(
        label=label, max_length=20, percent=percent, help_text=_("A number, a decimal or a fraction such as 1/2.")
    )


def clean_fraction(value: str, label: str, percent: bool = False) -> str:
    try:
        f = l10n.read_fraction(value, percent)
    except ValueError:
        raise forms.ValidationError(
            gettext("%(label)s must be a number such as 3, 0.5 or 1/2.") % {"label": label}
        ) from None
    if f < 0:
        raise forms.ValidationError(gettext("%(label)s cannot be negative.") % {"label": label})
    return str(f)


class RatingField(forms.IntegerField):
    """A rating (or a rating band's end): a whole number, which a spreadsheet may write with a thousands separator
    (2.105 in Danish, 2,105 or 2 105 in English): read as 2105, as the roster import reads it."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip():
            read = l10n.read_whole(value, grouped=True)
            if read is not None:
                return super().to_python(str(read))
        return super().to_python(value)


# Self-reporting is chosen with the event (or in its settings), before round 1 and the player cards.


class LongSelect(forms.Select):
    """A select of every player of a round (2048 at a large event): its options are joined here rather
    than rendered through a template each, which took most of the draft page's time at that size."""

    def render(self, name, value, attrs=None, renderer=None):
        chosen = {str(v) for v in self.format_value(value)}

        def options(choices):
            return format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                ((v, mark_safe(" selected") if str(v) in chosen else "", label) for v, label in choices),
            )

        # A group is (its label, its choices), as Django's own Select takes it; plain choices are joined in runs.
        parts, run = [], []
        for v, label in self.choices:
            if isinstance(label, list | tuple):
                parts += [options(run), format_html('<optgroup label="{}">{}</optgroup>', v, options(label))]
                run = []
            else:
                run.append((v, label))
        parts.append(options(run))
        return format_html(
            '<select name="{}"{}>{}</select>',
            name,
            flatatt(self.build_attrs(self.attrs, attrs)),
            mark_safe("".join(parts)),  # noqa: S308 - each part is built by format_html
        )


class IsoDateField(forms.DateField):
    """An `<input type="date">`: the browser shows the date as its reader writes it, but reads and sends ISO
    (2026-12-06) whatever the page's language; a Danish value ("06.12.2026") would leave the field empty."""

    widget = forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    input_formats = ["%Y-%m-%d"]


class OrderedChoicesField(forms.MultipleChoiceField):
    """A list of choices whose order matters: tie-breakers apply one after the other."""

    def has_changed(self, initial, data):
        return [str(v) for v in initial or []] != [str(v) for v in data or []]


# The venues the app is made for first (tournament.text.i18n.VENUE_ZONES), named in the reader's language; then every
# zone by its IANA name.


def time_zone_choices() -> list:
    """The server's zone, the venues' own zones (the page language's first), then every other zone."""
    named = {"Asia/Tokyo": gettext("Japan (Asia/Tokyo)"), "Europe/Copenhagen": gettext("Denmark (Europe/Copenhagen)")}
    first = VENUE_ZONES.get(get_language() or "", "")
    venues = sorted(named, key=lambda z: z != first)
    server = gettext("The server’s (%(zone)s)") % {"zone": settings.TIME_ZONE}
    others = [(z, z) for z in sorted(time_zones()) if z not in named]
    return [("", server), *((z, named[z]) for z in venues), (gettext("Every time zone"), others)]
