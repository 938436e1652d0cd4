"""The organiser's event forms: a new event, its settings, its staff."""

from fractions import Fraction

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from swiss.model import BEST_OF, is_top_cut
from swiss.presets import PRESETS, preset_fields
from swiss.tiebreakers import CODES
from tournament.forms.cut_settings import CUT_FIELDS, CutFields
from tournament.forms.fields import (
    IsoDateField,
    LongSelect,
    OrderedChoicesField,
    RatingField,
    clean_fraction,
    fraction_field,
    time_zone_choices,
)
from tournament.forms.pair_with import PAIR_WITH_FIELDS, PairWithFields
from tournament.forms.rating_report import RATING_REPORT_FIELDS, RatingReportFields
from tournament.models import (
    Event,
    EventRole,
)
from tournament.text import game_words, l10n

# Games per match as the forms offer them: "One game" in a chess player's words on a chess event's page (the
# model's choices keep the plain ones).
BEST_OF_CHOICES = list(
    zip(BEST_OF, (game_words.gettext_lazy("One game"), _("Best of 3"), _("Best of 5"), _("Best of 7")), strict=True)
)
TIEBREAKER_CHOICES = [(c, l10n.LABELS[c]) for c in CODES]
LOCKED_FIELDS = Event.SCORING_FIELDS


REPORTING_LABEL = _("Results entered by")
REPORTING_HELP = _("Players can report from their phones through the personal link or code on their player card.")


class EventCreateForm(forms.ModelForm):
    best_of = forms.TypedChoiceField(
        choices=[("", _("The preset’s format")), *BEST_OF_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
        label=game_words.gettext_lazy("Games per match"),
        help_text=_("The preset’s format is best of 3 for Magic and Pokémon, one game for chess and backgammon."),
    )
    time_zone = forms.ChoiceField(
        required=False,
        label=_("Time zone of the venue"),
        help_text=_("The times on the event’s pages (recent actions, result history, the clock) are in this zone."),
        widget=LongSelect,
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "preset",
            "best_of",
            "planned_rounds",
            "top_cut",
            "round_minutes",
            "reporting",
            "time_zone",
        ]
        field_classes = {"date": IsoDateField}
        labels = {
            "reporting": REPORTING_LABEL,
            "name": _("Name"),
            "date": _("Date"),
            "preset": _("Preset"),
            "top_cut": _("Top cut"),
            "planned_rounds": _("Swiss rounds"),
            "round_minutes": _("Round length (minutes)"),
        }
        help_texts = {
            "reporting": REPORTING_HELP,
            "planned_rounds": _("Leave empty to follow the recommendation for the number of players."),
            "top_cut": _("0 for none; 2, 4, 8, 16… play a single-elimination bracket after the Swiss rounds."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = l10n.preset_choices()
        self.fields["reporting"].required = False  # left out (an older form, a script): the desk enters results
        self.fields["time_zone"].choices = time_zone_choices()
        if not self.initial.get("time_zone"):
            # No venue of the organiser's, nor of their language: the page's script offers the browser's zone.
            self.fields["time_zone"].widget.attrs["data-browser-zone"] = ""

    def clean_top_cut(self):
        return _clean_top_cut(self.cleaned_data["top_cut"])

    def save(self, commit=True):
        event = super().save(commit=False)
        for field, value in preset_fields(event.preset).items():
            setattr(event, field, value)
        event.best_of = self.cleaned_data.get("best_of") or event.best_of
        if commit:
            event.save()
        return event


def _clean_top_cut(n: int) -> int:
    if not is_top_cut(n):
        raise forms.ValidationError(_("A top cut is 0 (none) or a power of two: 2, 4, 8, 16…"))
    return n


class EventSettingsForm(RatingReportFields, CutFields, PairWithFields, forms.ModelForm):
    win_points = fraction_field(_("Points for a win"))
    draw_points = fraction_field(game_words.gettext_lazy("Points for a draw"))
    loss_points = fraction_field(_("Points for a loss"))
    floor = fraction_field(_("Percentage floor"), percent=True)
    tiebreakers = OrderedChoicesField(choices=TIEBREAKER_CHOICES, required=False, widget=forms.MultipleHiddenInput)
    time_zone = forms.ChoiceField(
        required=False,
        label=_("Time zone of the venue"),
        help_text=_("The times on the event’s pages (recent actions, result history, the clock) are in this zone."),
        widget=LongSelect,
    )
    confirm_locked = forms.BooleanField(
        required=False, label=_("Yes, change scoring or tie-breakers although rounds are paired (this is logged)")
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "public",
            "language",
            "time_zone",
            "planned_rounds",
            "top_cut",
            "round_minutes",
            "round_one",
            "late_entry",
            "reporting",
            "bye_rating",
            "colours",
            # preset, the points, best of, floor, tie-breakers, rating breaks ties, the C.07 edition
            *Event.SCORING_FIELDS,
            "players_request_byes",
            "bye_requests_max",
            "bye_requests_closed_last",
            "pairing",
            "acceleration",
            "initial_colour",
            *RATING_REPORT_FIELDS,
            "title_norms",
            *CUT_FIELDS,
            *PAIR_WITH_FIELDS,
        ]
        field_classes = {"date": IsoDateField, "end_date": IsoDateField, "bye_rating": RatingField}
        widgets = RatingReportFields.WIDGETS
        labels = {
            **RatingReportFields.LABELS,
            **PairWithFields.LABELS,
            "name": _("Name"),
            "date": _("Date"),
            "preset": _("Preset"),
            "top_cut": _("Top cut"),
            "colours": _("Colours"),
            "rating_breaks_ties": _("Break remaining ties by rating (highest first)"),
            "tiebreak_rules": _("FIDE tie-break regulations"),
            "players_request_byes": game_words.gettext_lazy("Players may ask for a bye from their phones"),
            "bye_requests_max": _("Byes a player may ask for from the phone"),
            "bye_requests_closed_last": _("Last rounds in which no bye may be asked for from the phone"),
            "planned_rounds": _("Swiss rounds"),
            "round_minutes": _("Round length (minutes)"),
            "round_one": _("Round 1 pairing"),
            "pairing": _("Pairing system"),
            "acceleration": _("Acceleration (FIDE Dutch system)"),
            "initial_colour": _("Colour of pairing number 1 in round 1 (FIDE Dutch system)"),
            "late_entry": _("Late entries get"),
            "public": _("Public pages visible"),
            "language": _("Language of the public pages"),
            "bye_rating": game_words.gettext_lazy("Rating of a bye (rating sum)"),
            "best_of": game_words.gettext_lazy("Games per match (best of)"),
            "reporting": REPORTING_LABEL,
            "title_norms": _("This event asks for FIDE title norms"),
        }
        help_texts = {
            **RatingReportFields.HELP,
            **PairWithFields.HELP,
            "reporting": REPORTING_HELP,
            "title_norms": _(
                "The Norms page then shows each player's GM, IM, WGM and WIM norms (FIDE title regulations B.01), "
                "and each player's own and public pages the norms they have made or still have in reach."
            ),
            "tiebreak_rules": _(
                "The FIDE tie-breaks follow the edition in force on the event’s date (March 2026 from 1 March 2026, "
                "August 2024 before), unless you name one here."
            ),
            "initial_colour": _(
                "Round 1 alternates colours board by board from it, and later rounds give it to players with no "
                "colour preference. Fixed once round 1 is paired."
            ),
        }

    def clean_bye_requests_closed_last(self) -> int:
        return self.cleaned_data.get("bye_requests_closed_last") or 0  # left empty: every round is open

    def clean_acceleration(self) -> str:
        return self.cleaned_data.get("acceleration") or Event.Acceleration.NONE

    def __init__(self, *args, locked: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = l10n.preset_choices()
        self.fields["best_of"].choices = BEST_OF_CHOICES
        self.locked = locked
        self.fields["reporting"].required = False  # left out: the event keeps its rule
        self.fields["acceleration"].required = False  # left out: none
        # Round 1's colours came from it, and every later round must agree with them (C.04.3 E.5); the
        # acceleration (C.04.7) gave round 1's virtual points, which later rounds' pairings carry on from.
        self.fields["initial_colour"].disabled = locked
        self.fields["acceleration"].disabled = locked
        if locked and (seed := self.instance.rounds.filter(number=1).values_list("seed", flat=True).first()):
            # The lot is reproducible: random.Random(seed) draws it again (pairing/event.py initial_colour).
            self.fields["initial_colour"].help_text = gettext(
                "Fixed since round 1 was paired with seed %(seed)s: a colour not chosen before was drawn by lot "
                "from that seed, which draws it again."
            ) % {"seed": seed}
        if self.instance.pk:
            # As the organiser reads and types them: 0,5 in Danish, the floor as 33 %.
            for name in ("win_points", "draw_points", "loss_points"):
                self.initial[name] = l10n.exact(Fraction(self.initial[name]))
            self.initial["floor"] = l10n.exact_percent(Fraction(self.initial["floor"]))
        self.fields["time_zone"].choices = time_zone_choices()
        if self.instance.is_section:
            # The venue's: set on the event for every section, so that a section's times and the event's log agree.
            del self.fields["time_zone"]
        self.rating_report_for_chess_only()
        if self.instance.preset != "chess":  # title norms are a chess event's (its value stays as it is)
            del self.fields["title_norms"]
            del self.fields["tiebreak_rules"]  # as is the FIDE edition
        else:
            self.fields["tiebreak_rules"].choices = l10n.tiebreak_rules_choices()
        self.cut_initial()
        self.pair_with_for_sections_only()

    def clean_top_cut(self):
        return _clean_top_cut(self.cleaned_data["top_cut"])

    def clean_win_points(self):
        return clean_fraction(self.cleaned_data["win_points"], gettext("Points for a win"))

    def clean_draw_points(self):
        return clean_fraction(self.cleaned_data["draw_points"], game_words.gettext("Points for a draw"))

    def clean_loss_points(self):
        return clean_fraction(self.cleaned_data["loss_points"], gettext("Points for a loss"))

    def clean_floor(self):
        value = clean_fraction(self.cleaned_data["floor"], gettext("The floor"), percent=True)
        if Fraction(value) >= 1:
            raise forms.ValidationError(_("The floor must be below 1 (0.33 is 33%)."))
        return value

    def clean_tiebreakers(self):
        codes = self.cleaned_data["tiebreakers"]
        if len(set(codes)) != len(codes):
            raise forms.ValidationError(_("A tie-breaker is listed twice."))
        return codes

    def clean(self):
        data = super().clean()
        w, d, lo = (data.get(k) for k in ("win_points", "draw_points", "loss_points"))
        if w and d and lo and not (Fraction(w) > Fraction(lo) and Fraction(lo) <= Fraction(d) <= Fraction(w)):
            self.add_error(
                "draw_points", game_words.gettext_lazy("A win must score more than a loss, and a draw between the two.")
            )
        scoring = ("win_points", "draw_points", "loss_points", "best_of", "floor", "tiebreakers")
        if (
            "preset" in self.changed_data
            and data.get("preset") in PRESETS
            and not set(scoring) & set(self.changed_data)
        ):
            # A new preset with the old preset's numbers untouched: take the new preset's numbers.
            data.update({f: v for f, v in preset_fields(data["preset"]).items() if f not in ("preset", "colours")})
        if self.locked and self.changed_locked() and not data.get("confirm_locked"):
            self.add_error(
                "confirm_locked",
                _(
                    "Rounds are paired already: changing scoring or tie-breakers changes the standings. Tick to confirm."
                ),
            )
        self.clean_cut(data)
        return data

    def changed_locked(self) -> list[str]:
        return [f for f in LOCKED_FIELDS if f in self.changed_data]


class StaffForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))
    role = forms.ChoiceField(choices=EventRole.Role.choices, initial=EventRole.Role.JUDGE, label=_("Role"))

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_username(self):
        # Not looked up: whether an account of that name exists is nobody's business here (an invitation).
        return self.cleaned_data["username"].strip()
