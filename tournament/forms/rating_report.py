"""The FIDE rating report's facts in a chess event's settings (the TRF header's 022 city, 032 federation,
052 last day, 102 chief arbiter, 112 deputies, 122 time control, 132 round dates; the first day is the
event's date): their labels, help and checks in the settings form, shown in a fieldset of their own for a
chess event only. The TRF export writes them (swiss/trfheader.py); docs/file-formats.md says what a
federation's rating officer receives.
"""

import datetime as dt

from django import forms
from django.utils.translation import gettext_lazy as _

from swiss.chessfacts import MAX_ROUND_VALUES
from tournament.text.chess_details import chess_detail

RATING_REPORT_FIELDS = (
    "city",
    "federation",
    "end_date",
    "chief_arbiter",
    "deputy_arbiters",
    "time_control",
    "round_dates",
)


class RatingReportFields:
    """For a ModelForm of Event listing RATING_REPORT_FIELDS: their cleaning, and their removal from a form for
    an event other than chess (whose values stay as they are)."""

    WIDGETS = {"deputy_arbiters": forms.Textarea(attrs={"rows": 2}), "round_dates": forms.Textarea(attrs={"rows": 3})}
    LABELS = {
        "city": _("City"),
        "federation": _("Federation"),
        "end_date": _("Last day"),
        "chief_arbiter": _("Chief arbiter"),
        "deputy_arbiters": _("Deputy chief arbiters"),
        "time_control": _("Time control"),
        "round_dates": _("Dates of the rounds"),
    }
    HELP = {
        "federation": _("The three-letter FIDE code of the federation the event is rated in, such as DEN."),
        "deputy_arbiters": _("One a line."),
        "time_control": _("As the rating report gives it, such as 90 min/40 moves + 30 min, 30 s/move."),
        "round_dates": _("One a line, round 1 first, such as 2026-11-21; an empty line for a round not yet dated."),
    }

    def rating_report_for_chess_only(self) -> None:
        if self.instance.preset != "chess":
            for name in RATING_REPORT_FIELDS:
                del self.fields[name]

    def clean_federation(self) -> str:
        value, problem = chess_detail("federation", self.cleaned_data["federation"])
        if problem:
            raise forms.ValidationError(problem)
        return value

    def clean_deputy_arbiters(self) -> str:
        return "\n".join(line.strip() for line in self.cleaned_data["deputy_arbiters"].splitlines() if line.strip())

    def clean_round_dates(self) -> str:
        """One ISO date a line, round 1 first; an empty line is a round without a date."""
        lines = [line.strip() for line in self.cleaned_data["round_dates"].splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        for k, line in enumerate(lines, start=1):
            try:
                if line:
                    dt.date.fromisoformat(line)
            except ValueError:
                raise forms.ValidationError(
                    _("Round %(round)s: %(date)s is not a date such as 2026-11-21."), params={"round": k, "date": line}
                ) from None
        if len(lines) > MAX_ROUND_VALUES:
            raise forms.ValidationError(_("At most %(limit)s rounds."), params={"limit": MAX_ROUND_VALUES})
        return "\n".join(lines)
