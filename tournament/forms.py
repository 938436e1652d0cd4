"""Organiser forms: they validate, keep what was typed, and say what is wrong in a sentence."""

from fractions import Fraction

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.html import format_html
from django.utils.translation import get_language, gettext, gettext_lazy, pgettext
from django.utils.translation import gettext_lazy as _

from standings import points_by_player
from swiss import eventfile as ef
from swiss import names, trf
from swiss.model import is_top_cut
from swiss.presets import PRESETS, TIEBREAKER_CODES
from tournament.cut_settings import CUT_FIELDS, CutFields
from tournament.fields import (
    IsoDateField,
    LongSelect,
    OrderedChoicesField,
    clean_fraction,
    fraction_field,
    time_zone_choices,
)
from tournament.files import csvio
from tournament.models import (
    CHESS_FIELDS,
    Event,
    EventRole,
    Player,
    chess_detail,
    clean_player_name,
    preset_fields,
)
from tournament.pair_with_settings import PAIR_WITH_FIELDS, PairWithFields
from tournament.rating_report import RATING_REPORT_FIELDS, RatingReportFields
from tournament.services.results import outcome_from_games
from tournament.text import engine_text, l10n

TIEBREAKER_CHOICES = [(c, l10n.LABELS.get(c, c)) for c in TIEBREAKER_CODES]
LOCKED_FIELDS = Event.SCORING_FIELDS


REPORTING_LABEL = _("Results entered by")
REPORTING_HELP = _("Players can report from their phones through the personal link or code on their player card.")


class EventCreateForm(forms.ModelForm):
    best_of = forms.TypedChoiceField(
        choices=[("", _("The preset’s format"))] + Event._meta.get_field("best_of").choices,
        coerce=int,
        empty_value=None,
        required=False,
        label=_("Games per match"),
        help_text=_("The preset’s format is best of 3 for Magic and Pokémon, one game for chess and backgammon."),
    )

    class Meta:
        model = Event
        fields = ["name", "date", "preset", "best_of", "planned_rounds", "top_cut", "round_minutes", "reporting"]
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
        self.fields["reporting"].required = False  # left out (an older form, a script): the desk enters results

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
    draw_points = fraction_field(_("Points for a draw"))
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
            "preset",
            "win_points",
            "draw_points",
            "loss_points",
            "best_of",
            "floor",
            "tiebreakers",
            "rating_breaks_ties",
            "players_request_byes",
            "bye_requests_max",
            "bye_requests_closed_last",
            "pairing",
            "acceleration",
            "initial_colour",
            *RATING_REPORT_FIELDS,
            *CUT_FIELDS,
            *PAIR_WITH_FIELDS,
        ]
        field_classes = {"date": IsoDateField, "end_date": IsoDateField}
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
            "players_request_byes": _("Players may ask for a bye from their phones"),
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
            "bye_rating": _("Rating of a bye (rating sum)"),
            "best_of": _("Games per match (best of)"),
            "reporting": REPORTING_LABEL,
        }
        help_texts = {
            **RatingReportFields.HELP,
            **PairWithFields.HELP,
            "reporting": REPORTING_HELP,
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
        self.locked = locked
        self.fields["reporting"].required = False  # left out: the event keeps its rule
        self.fields["acceleration"].required = False  # left out: none
        # Round 1's colours came from it, and every later round must agree with them (C.04.3 E.5).
        self.fields["initial_colour"].disabled = locked
        if self.instance.pk:
            # As the organiser reads and types them: 0,5 in Danish, the floor as 33 %.
            for name in ("win_points", "draw_points", "loss_points"):
                self.initial[name] = l10n.exact(Fraction(self.initial[name]))
            self.initial["floor"] = l10n.exact_percent(Fraction(self.initial["floor"]))
        self.fields["time_zone"].choices = time_zone_choices()
        self.rating_report_for_chess_only()
        self.cut_initial()
        self.pair_with_for_sections_only()

    def clean_top_cut(self):
        return _clean_top_cut(self.cleaned_data["top_cut"])

    def clean_win_points(self):
        return clean_fraction(self.cleaned_data["win_points"], gettext("Points for a win"))

    def clean_draw_points(self):
        return clean_fraction(self.cleaned_data["draw_points"], gettext("Points for a draw"))

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
            self.add_error("draw_points", _("A win must score more than a loss, and a draw between the two."))
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


class PlayerForm(forms.ModelForm):
    """A player's registration; a chess event's also carries the FIDE details (`CHESS_FIELDS`)."""

    def __init__(self, *args, chess: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not chess:
            for key in CHESS_FIELDS:
                del self.fields[key]
        elif (get_language() or "").startswith("da") and self.initial.get("sex") == "w":
            self.initial["sex"] = "k"  # kvinde, as the Danish label "Køn (m/k)" asks; stored as FIDE's w

    def _clean_chess(self, key: str) -> str:
        value, problem = chess_detail(key, self.cleaned_data.get(key) or "")
        if problem:
            raise forms.ValidationError(problem)
        return value

    def clean_fide_id(self):
        return self._clean_chess("fide_id")

    def clean_federation(self):
        return self._clean_chess("federation")

    def clean_title(self):
        return self._clean_chess("title")

    def clean_sex(self):
        return self._clean_chess("sex")

    def clean_birth_date(self):
        return self._clean_chess("birth_date")

    def clean_family_name(self):
        return clean_player_name(self.cleaned_data["family_name"]) if self.cleaned_data["family_name"].strip() else ""

    def clean_given_name(self):
        return clean_player_name(self.cleaned_data["given_name"]) if self.cleaned_data["given_name"].strip() else ""

    def clean(self):
        """The name and its parts (swiss/names.py): both parts or neither; parts changed alone rewrite the name
        ("Viktor Hellström"), a name typed "Family, Given" gives the parts, and a name that is not its parts is
        said so rather than kept beside parts of another name."""
        data = super().clean()
        name, family, given = data.get("name"), data.get("family_name"), data.get("given_name")
        if name is None or family is None or given is None:
            return data
        if bool(family) != bool(given):
            self.add_error(
                "given_name" if family else "family_name",
                _("Give both the family name and the given name, or neither."),
            )
            return data
        if family and "name" not in self.changed_data and {"family_name", "given_name"} & set(self.changed_data):
            data["name"] = clean_player_name(names.display_name(family, given))
            return data
        try:
            entry = names.entered(name, family, given)
        except names.Disagree:
            self.add_error(
                "name",
                _("This name is not the family and given names below: change them too, or empty them."),
            )
            return data
        data["name"] = clean_player_name(entry.name)
        data["family_name"], data["given_name"] = (
            clean_player_name(p) if p else "" for p in (entry.family, entry.given)
        )
        return data

    class Meta:
        model = Player
        fields = [
            "name",
            "family_name",
            "given_name",
            "reading",
            "rating",
            "external_id",
            "byes",
            "fixed_table",
            *CHESS_FIELDS,
        ]
        labels = {
            "family_name": _("Family name"),
            "given_name": _("Given name"),
            "fide_id": _("FIDE ID"),
            "federation": _("Federation"),
            "title": _("Title"),
            "sex": _("Sex (m or w)"),
            "birth_date": _("Birth date"),
            "name": _("Name"),
            "reading": _("Reading (furigana) or sort name"),
            "rating": _("Rating"),
            "external_id": _("Club or federation ID"),
            "byes": _("Pre-awarded byes"),
            "fixed_table": _("Fixed table"),
        }
        help_texts = {
            "given_name": _(
                "Optional, with the family name: the TRF writes “Family, Given” and lists sort by the family name. "
                "Typing the name as “Family, Given” fills both."
            ),
            "reading": _("Optional: orders alphabetical lists and is found by the pairings search (やまだ たろう)."),
            "byes": _("0–3: byes in rounds 1 to that number."),
            "fixed_table": _("Keep this player at one table (accessibility)."),
            "federation": _("Three letters, as FIDE writes it: GER, JPN, DEN."),
            "birth_date": _("1969/12/06, or the year alone."),
        }

    def clean_name(self):
        if not self.cleaned_data["name"].strip():
            raise forms.ValidationError(_("A player needs a name."))
        return clean_player_name(self.cleaned_data["name"])

    def clean_byes(self):
        byes = self.cleaned_data["byes"]
        if byes is not None and byes > 3:
            raise forms.ValidationError(_("At most 3 pre-awarded byes."))
        return byes or 0


def row_message(row: csvio.CsvRow) -> str:
    return gettext("Line %(line)s (%(text)s): %(errors)s.") % {
        "line": row.line,
        "text": row.text,
        "errors": l10n.join_errors(row.errors),
    }


def parse_entry(line: str) -> csvio.CsvRow:
    """One typed line: `Name`, `Name, rating`, `Family, Given` or `Family, Given, rating` (the parts kept:
    swiss/names.py); the name may carry its reading in brackets: `山田 太郎（やまだ たろう）, 1500`."""
    rows = csvio.parse_pasted(line, header=False)
    if not rows:
        raise forms.ValidationError(gettext("Type a name."))
    if not rows[0].ok:
        raise forms.ValidationError(
            gettext("“%(text)s”: %(errors)s.") % {"text": line.strip()[:80], "errors": l10n.join_errors(rows[0].errors)}
        )
    return rows[0]


def parse_line(line: str) -> tuple[str, str, int | None]:
    """`parse_entry`'s (name, reading, rating)."""
    row = parse_entry(line)
    return row.name, row.reading, row.rating


class RequestedByeForm(forms.Form):
    """A bye the player asks for in a round not yet paired (FIDE C.07: half-point, or zero-point if absent)."""

    round = forms.IntegerField(min_value=1, max_value=999, label=_("Round"))
    kind = forms.ChoiceField(
        label=_("Bye"),
        choices=[
            ("half_bye", _("½-point bye")),
            ("zero_bye", _("0-point bye (absent)")),
            ("", _("No bye (withdraw the request)")),
        ],
        required=False,
    )


class QuickAddForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Add a player"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].help_text = format_html(
            gettext(
                "Name, or “Name, rating”; “Last, First, rating” keeps both names. For example: {examples}. Enter adds."
            ),
            examples=csvio.examples_html(csvio.name_examples()),
        )

    def clean_name(self):
        self.entry = parse_entry(self.cleaned_data["name"])
        self.reading, self.rating = self.entry.reading, self.entry.rating
        return self.entry.name


class PasteForm(forms.Form):
    """A list pasted from anywhere: one player per line, commas or tabs between fields, an optional header
    row naming the columns (name or first/last name, rating, id, byes), quotes around names with commas."""

    lines = forms.CharField(widget=forms.Textarea(attrs={"rows": 6}), label=_("Paste players, one per line"))

    @property
    def examples(self) -> str:
        return csvio.examples_html(csvio.name_examples())

    @property
    def headings(self) -> str:
        """A heading line in the page's language, its fields separated as the language types them."""
        separator = pgettext("between the fields of a typed line", ", ")
        return separator.join(csvio.headings(("name", "rating", "id", "byes")))

    def __init__(self, *args, sections: tuple[list[str], str | None] = ([], None), **kwargs):
        super().__init__(*args, **kwargs)
        self.sections = sections  # the section names a `section` column may give (csvio.check_sections)

    def clean_lines(self):
        rows = csvio.parse_pasted(self.cleaned_data["lines"])
        csvio.check_sections(rows, *self.sections)
        errors = [row_message(r) for r in rows if not r.ok]
        if errors:
            raise forms.ValidationError(errors)
        if not rows:
            raise forms.ValidationError(gettext("Paste at least one name."))
        self.rows = rows
        return self.cleaned_data["lines"]


class CsvUploadForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = csvio.columns_help()

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > settings.CSV_MAX_BYTES:
            raise forms.ValidationError(_csv_too_large())
        try:
            # UTF-8, or what Excel saves "CSV" as in Japanese (Shift_JIS) and Danish (Windows-1252).
            text, self.encoding = csvio.decode(f.read(), get_language() or "")
        except ValueError:
            raise forms.ValidationError(
                _("The file is not text in UTF-8, Shift_JIS or Windows-1252; save it as “CSV UTF-8”.")
            ) from None
        return text


def _csv_too_large() -> str:
    return gettext("That file is too large for a player list (%(mb)d MB at most).") % {
        "mb": settings.CSV_MAX_BYTES // (1024 * 1024)
    }


class CsvConfirmForm(forms.Form):
    text = forms.CharField(widget=forms.HiddenInput, strip=False)

    def clean_text(self):
        # The file comes back from the preview page: the same limit as the upload, whatever is posted.
        text = self.cleaned_data["text"]
        if len(text.encode()) > settings.CSV_MAX_BYTES:
            raise forms.ValidationError(_csv_too_large())
        return text


def swap_label(p: Player) -> str:
    if p.rating is not None:
        return gettext("%(name)s (#%(number)s, rating %(rating)s)") % {
            "name": p.name,
            "number": p.number,
            "rating": p.rating,
        }
    return p.numbered_name


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(coerce=int, label=_("Swap"), widget=LongSelect)
    second = forms.TypedChoiceField(coerce=int, label=_("with"), widget=LongSelect)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        # The number (and the rating, when known) tells two players of the same name apart in the list.
        choices = [("", "—")] + [(p.pk, swap_label(p)) for p in players]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Pick two different players."))
        return data


OUT_OF_DATE = _("This page is out of date: reload it and enter the result again.")
NOT_A_RESULT = _("That is not a result: type it like 2-0, 2-1, 1-1 or 0-0-3.")


def version_field() -> forms.IntegerField:
    """The match version the page showed: without it a result could overwrite one the person never saw."""
    return forms.IntegerField(
        min_value=0, widget=forms.HiddenInput, error_messages={"required": OUT_OF_DATE, "invalid": OUT_OF_DATE}
    )


class ResultForm(forms.Form):
    """A one-click result button (round page, top cut)."""

    result = forms.CharField(
        max_length=40, error_messages={"required": _("Pick a result."), "max_length": NOT_A_RESULT}
    )
    version = version_field()
    confirm = forms.BooleanField(required=False)


class TopCutUndoForm(forms.Form):
    confirm = forms.BooleanField(required=False, label=_("Yes, remove the published bracket"))


class TableResultForm(forms.Form):
    """The keyboard path. `version` and `confirm` come with the answer to “replace the stored result?”."""

    table = forms.IntegerField(
        min_value=1,
        max_value=99999,
        label=_("Table"),
        error_messages={"required": _("No table number: nothing was entered. Type the table, Enter, then the result.")},
    )
    result = forms.CharField(
        max_length=40,
        label=_("Result"),
        error_messages={
            "max_length": NOT_A_RESULT,
            "required": _("No result: nothing was entered. Type the table, Enter, then the result."),
        },
    )
    version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    confirm = forms.BooleanField(required=False)
    keep = forms.BooleanField(required=False)


class GamesForm(forms.Form):
    """The “other…” result: any game counts, or a double loss."""

    games_a = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Games won by A"))
    games_b = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Games won by B"))
    games_drawn = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Games drawn"))
    double_loss = forms.BooleanField(required=False, label=_("Double loss (both players lose)"))
    forfeit = forms.ChoiceField(
        required=False,
        label=_("Forfeit"),
        choices=[
            ("", _("No: the games above")),
            ("a", _("A wins by forfeit (+/−)")),
            ("b", _("B wins by forfeit (−/+)")),
        ],
    )
    version = version_field()
    confirm = forms.BooleanField(required=False)
    # A chess game's result, White's first, instead of game counts "won by A/B" (`chess=True`).
    CHESS_CHOICES = {"1-0": (1, 0, 0), "0-0-1": (0, 0, 1), "0-1": (0, 1, 0)}
    chess_result = forms.ChoiceField(required=False, label=_("Result"), widget=forms.RadioSelect, choices=[])

    def __init__(self, *args, chess: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.chess = chess
        if chess:
            self.fields["chess_result"].choices = [
                ("1-0", _("White won 1-0")),
                ("0-0-1", _("Draw %(score)s") % {"score": "½-½"}),
                ("0-1", _("Black won 0-1")),
            ]
            self.fields["forfeit"].choices = [
                ("", _("No: the result above")),
                ("a", _("White wins by forfeit (+/−)")),
                ("b", _("Black wins by forfeit (−/+)")),
            ]
            self.fields["double_loss"].label = _("Both lose (double forfeit −/−)")
            games = tuple(self.initial.get(k) for k in ("games_a", "games_b", "games_drawn"))
            chosen = {v: k for k, v in self.CHESS_CHOICES.items()}.get(games)
            if chosen and "chess_result" not in self.initial:
                self.initial["chess_result"] = chosen

    def outcome(self):
        d = self.cleaned_data
        games = (d.get("games_a"), d.get("games_b"), d.get("games_drawn"))
        if self.chess and d.get("chess_result"):
            games = self.CHESS_CHOICES[d["chess_result"]]
        return outcome_from_games(*games, d["double_loss"], d.get("forfeit", ""))


class ClockForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in ("start", "restart", "pause", "resume", "add")])
    minutes = forms.IntegerField(required=False, min_value=-60, max_value=120)


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

    def settings(self) -> dict:
        return preset_fields(self.cleaned_data["preset"])


class SectionRulesForm(forms.ModelForm):
    """A section's placement rules (a rating band, birth years: either end open) and its first table."""

    class Meta:
        model = Event
        fields = ["rating_min", "rating_max", "birth_year_min", "birth_year_max", "first_table"]
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
