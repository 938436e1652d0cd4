"""The organiser's player forms: one player, a pasted list, a CSV file, a requested bye, a swap."""

from django import forms
from django.conf import settings
from django.utils.html import format_html
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_lazy as _

from swiss import names
from swiss.model import MAX_ID as PLAYER_ID_MAX
from tournament.files import csv_columns, csv_rosters
from tournament.forms.fields import (
    LongSelect,
    RatingField,
)
from tournament.models import Player
from tournament.text import game_words, l10n
from tournament.text.chess_details import CHESS_FIELDS, chess_detail
from tournament.text.names import clean_player_name, numbered

# The K a chess player's rating changes by (docs/ratings.md), as the FIDE rating list gives it; blank: worked out.
K_CHOICES = [("", _("Worked out from the rating and birth date")), ("10", "10"), ("20", "20"), ("40", "40")]


class PlayerForm(forms.ModelForm):
    """A player's registration; a chess event's also carries the FIDE details (`CHESS_FIELDS`) and K."""

    k = forms.TypedChoiceField(
        choices=K_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        label=_("K-factor"),
        error_messages={"invalid_choice": _("K is 10, 20 or 40 (or blank), as the FIDE rating list gives it.")},
        help_text=_(
            "As the FIDE rating list gives it: 40 for a player new to the list until 30 rated games, and for a "
            "junior under 2300 until the end of the year of their 18th birthday; 20 under 2400; 10 once the "
            "rating has reached 2400. Blank: worked out from the rating and birth date."
        ),
    )

    def __init__(self, *args, chess: bool = False, fide: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not fide:  # FIDE mode: the arbiter may say a player takes no half-point bye
            del self.fields["half_bye_ok"]
        if not chess:
            for key in (*CHESS_FIELDS, "k"):
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
        field_classes = {"rating": RatingField}
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
            "k",
            "half_bye_ok",
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
            "byes": game_words.gettext_lazy("Pre-awarded byes"),
            "fixed_table": _("Fixed table"),
            "half_bye_ok": _("May take half-point byes"),
        }
        help_texts = {
            "given_name": _(
                "Optional, with the family name: the TRF writes “Family, Given” and lists sort by the family name. "
                "Typing the name as “Family, Given” fills both."
            ),
            "reading": _("Optional: orders alphabetical lists and is found by the pairings search (やまだ たろう)."),
            "byes": game_words.gettext_lazy("0–3: byes in rounds 1 to that number."),
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
            raise forms.ValidationError(game_words.gettext_lazy("At most 3 pre-awarded byes."))
        return byes or 0


def row_message(row: csv_rosters.CsvRow) -> str:
    return gettext("Line %(line)s (%(text)s): %(errors)s.") % {
        "line": row.line,
        "text": row.text,
        "errors": l10n.join_errors(row.errors),
    }


def parse_entry(line: str) -> csv_rosters.CsvRow:
    """One typed line: `Name`, `Name, rating`, `Family, Given` or `Family, Given, rating` (the parts kept:
    swiss/names.py); the name may carry its reading in brackets: `山田 太郎（やまだ たろう）, 1500`."""
    rows = csv_rosters.parse_pasted(line, header=False)
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
        label=game_words.gettext_lazy("Bye"),
        choices=[
            ("half_bye", game_words.gettext_lazy("½-point bye")),
            ("zero_bye", game_words.gettext_lazy("0-point bye (absent)")),
            ("", game_words.gettext_lazy("No bye (withdraw the request)")),
        ],
        required=False,
    )

    def __init__(self, *args, fide: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if fide:  # FIDE mode: the desk may give a full-point bye, after a warning (services/fide.py)
            choices = list(self.fields["kind"].choices)
            self.fields["kind"].choices = [
                *choices[:2],
                ("full_bye", _("Full-point bye (deprecated by FIDE)")),
                *choices[2:],
            ]


class QuickAddForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Add a player"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].help_text = format_html(
            gettext(
                "Name, or “Name, rating”; “Last, First, rating” keeps both names. For example: {examples}. Enter adds."
            ),
            examples=csv_columns.examples_html(csv_columns.name_examples()),
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
        return csv_columns.examples_html(csv_columns.name_examples())

    @property
    def headings(self) -> str:
        """A heading line in the page's language, its fields separated as the language types them."""
        separator = pgettext("between the fields of a typed line", ", ")
        return separator.join(csv_columns.headings(("name", "rating", "id", "byes")))

    def __init__(self, *args, sections: tuple[list[str], str | None] = ([], None), fide: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.sections = sections  # the section names a `section` column may give (csv_rosters.check_sections)
        self.fide = fide  # FIDE mode: rows with pre-awarded byes are refused (csv_rosters.check_fide_byes)

    def clean_lines(self):
        rows = csv_rosters.parse_pasted(self.cleaned_data["lines"])
        csv_rosters.check_sections(rows, *self.sections)
        if self.fide:
            csv_rosters.check_fide_byes(rows)
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
        self.fields["file"].help_text = csv_columns.columns_help()

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > settings.CSV_MAX_BYTES:
            raise forms.ValidationError(_csv_too_large())
        try:
            # UTF-8, or what Excel saves "CSV" as in Japanese (Shift_JIS) and Danish (Windows-1252).
            text, self.encoding = csv_rosters.decode(f.read(), get_language() or "")
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
    return numbered(p.name, p.number)


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


class ForbiddenPairForm(forms.Form):
    """Two players of the event, by key, whose pairing is forbidden or allowed again (the settings page's rows):
    in every round, or from one round to another (both given: a TRF-2026 260 record's range, three digits)."""

    first = forms.CharField(max_length=PLAYER_ID_MAX)
    second = forms.CharField(max_length=PLAYER_ID_MAX)
    first_round = forms.IntegerField(label=_("From round"), required=False, min_value=1, max_value=999)
    last_round = forms.IntegerField(label=_("To round"), required=False, min_value=1, max_value=999)

    def clean(self):
        data = super().clean()
        first, last = data.get("first_round"), data.get("last_round")
        if (first is None) != (last is None) and not self.errors:
            raise forms.ValidationError(_("Give both rounds of the range, or neither for every round."))
        if first is not None and last is not None and last < first:
            raise forms.ValidationError(_("The last round of the range comes before its first."))
        return data

    def rounds(self) -> tuple[int, int] | None:
        """The range of rounds the pair is kept apart in; None for every round."""
        first, last = self.cleaned_data.get("first_round"), self.cleaned_data.get("last_round")
        return None if first is None or last is None else (first, last)
