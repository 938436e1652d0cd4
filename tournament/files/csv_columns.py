"""The columns of a players CSV: the headings an import reads (as spreadsheets and other tools name them, and
our own export's in every language) and an export writes, and the help that names them.
"""

import functools
import unicodedata

from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, pgettext, pgettext_lazy

from swiss.model import LANGUAGES
from tournament.text import l10n

# Header words a roster may use for each column, as spreadsheets and other tools name them.
COLUMN_NAMES = {
    "name": {
        "name",
        "player",
        "player name",
        "full name",
        "names",
        "players",
        "名前",
        "氏名",
        "プレイヤー名",
        "選手名",
        "navn",
        "spiller",
        "spillernavn",
        "fulde navn",
    },
    # How the name is read (furigana, a sort name): a column of its own, or in brackets after the name.
    "reading": {
        "reading",
        "furigana",
        "ふりがな",
        "フリガナ",
        "よみ",
        "よみがな",
        "読み",
        "読み仮名",
        "カナ",
        "sort name",
        "udtale",
    },
    # A name in two parts (swiss/names.py): shown family name first when it is Japanese (姓 山田, 名 太郎:
    # 山田 太郎), given name first otherwise (Efternavn Kirk, Fornavn Søren: Søren Kirk).
    "family": {
        "last",
        "last name",
        "lastname",
        "surname",
        "family name",
        "family_name",
        "efternavn",
        "姓",
        "苗字",
        "名字",
    },
    "given": {"first", "first name", "firstname", "given name", "given_name", "forename", "fornavn", "名"},
    "rating": {"rating", "elo", "rating (elo)", "elo-tal", "ratingtal", "レーティング", "レート"},
    "id": {
        "id",
        "external id",
        "external_id",
        "club id",
        "dci",
        "member id",
        "medlemsnummer",
        "dsu-nr",
        "会員番号",
        "id番号",
    },
    "byes": {"byes", "bye", "oversidder", "不戦勝"},
    # A chess event's FIDE details (the TRF player line).
    "fide_id": {"fide_id", "fide id", "fideid", "fide"},
    "federation": {"federation", "fed", "føderation", "連盟"},
    "title": {"title", "titel", "タイトル"},
    "sex": {"sex", "gender", "køn", "性別"},
    "birth_date": {"birth_date", "birth date", "birthdate", "born", "fødselsdato", "生年月日"},
    # FIDE's K-factor as the rating list gives it (docs/ratings.md).
    "k": {"k", "k-factor", "k factor", "kfactor", "k-faktor", "k faktor", "k係数", "k値"},
    # The section of an event with sections (docs/sections.md) the player is registered in.
    "section": {"section", "gruppe", "部門"},
}
HEADER_WORDS = {word: column for column, words in COLUMN_NAMES.items() for word in words}
# Columns an import reads past: our own players export's numbers (the new event numbers its own players),
# and a club or team, which the app keeps nowhere.
# A leading "No." or 番号 column numbers a hand-made list's rows (very common in Japanese lists).
IGNORED_COLUMNS = {"number", "#", "joined_round", "dropped_after", "club", "team", "klub", "hold", "所属", "チーム"}
IGNORED_COLUMNS |= {"no", "no.", "nr", "nr.", "nr:", "№", "番号", "通し番号", "順番", "lfd. nr."}
# The players export's columns, in order: its key, the column an import reads it as ("" for one read past),
# and its heading in the export's language (English, the source: `number`, `name`, …). An import reads the
# headings of every language back (`_translated_headings`), so an export comes back whatever its language.
PLAYER_COLUMNS = (
    ("number", "", pgettext_lazy("CSV column", "number")),
    ("name", "name", pgettext_lazy("CSV column", "name")),
    ("reading", "reading", pgettext_lazy("CSV column", "reading")),
    ("rating", "rating", pgettext_lazy("CSV column", "rating")),
    ("id", "id", pgettext_lazy("CSV column", "id")),
    ("byes", "byes", pgettext_lazy("CSV column", "byes")),
    ("joined_round", "", pgettext_lazy("CSV column", "joined_round")),
    ("dropped_after", "", pgettext_lazy("CSV column", "dropped_after")),
    ("family_name", "family", pgettext_lazy("CSV column", "family_name")),
    ("given_name", "given", pgettext_lazy("CSV column", "given_name")),
)
# A chess event's FIDE details, after those (text.chess_details.CHESS_FIELDS).
CHESS_COLUMNS = (
    ("fide_id", "fide_id", pgettext_lazy("CSV column", "fide_id")),
    ("federation", "federation", pgettext_lazy("CSV column", "federation")),
    ("title", "title", pgettext_lazy("CSV column", "title")),
    ("sex", "sex", pgettext_lazy("CSV column", "sex")),
    ("birth_date", "birth_date", pgettext_lazy("CSV column", "birth_date")),
    ("k", "k", pgettext_lazy("CSV column", "k")),
)
# The section a player plays in, at an event with sections (docs/sections.md).
SECTION_COLUMNS = (("section", "section", pgettext_lazy("CSV column", "section")),)
# The columns a roster is read by, as the help and a heading row we cannot read name them.
READ_COLUMNS = (
    "name",
    "reading",
    "family_name",
    "given_name",
    "rating",
    "id",
    "byes",
    "birth_date",
    "section",
    "fide_id",
    "federation",
    "title",
    "sex",
    "k",
)


@functools.cache
def _translated_headings() -> dict[str, str]:
    """The players export's headings in every language, each to the column it is read as."""
    words: dict[str, str] = {}
    for language in LANGUAGES:
        with translation.override(language):
            for _key, column, label in (*PLAYER_COLUMNS, *CHESS_COLUMNS, *SECTION_COLUMNS):
                words.setdefault(heading(str(label)), column)
    return words


def column_of(word: str) -> str | None:
    """The column a heading (as `heading` gives it) names; "" for one read past; None for one we do not read."""
    if word in HEADER_WORDS:
        return HEADER_WORDS[word]
    if word in IGNORED_COLUMNS:
        return ""
    return _translated_headings().get(word)


def headings(keys, language: str | None = None) -> list[str]:
    """The export's headings of these columns (`PLAYER_COLUMNS` keys), in the active language or `language`."""
    labels = {key: label for key, _column, label in (*PLAYER_COLUMNS, *CHESS_COLUMNS, *SECTION_COLUMNS)}
    if language is None:
        return [str(labels[key]) for key in keys]
    with translation.override(language):
        return [str(labels[key]) for key in keys]


def name_examples() -> list[str]:
    """The add and paste boxes' examples, in the page's language: each language's own names, typed as its
    organisers type them (a Japanese name with its reading, a Danish list's semicolon); every one of them
    parses (tests/test_native_rosters.py)."""
    return pgettext(
        "examples of players typed in the add and paste boxes, one a line", "Smith, John, 1500\nAnn Lee, 1400"
    ).splitlines()


def examples_html(examples: list[str]) -> str:
    """The examples as the help shows them: each in <code>, joined as the language joins a list."""
    return format_html_join(pgettext("list separator", ", "), "<code>{}</code>", ((e,) for e in examples))


def columns_help() -> str:
    """The CSV upload's help: the columns by their names in the page's language, and in English (read too)."""
    first = ("name", "rating", "id", "byes")
    more = tuple(c for c in READ_COLUMNS if c not in first)  # every other column a header row may name
    text = gettext("Columns: %(columns)s (a header row is optional; with one, also %(more)s).") % {
        "columns": l10n.join(headings(first)),
        "more": l10n.join(headings(more)),
    }
    if headings(first) == list(first):
        return text
    english = format_html_join(", ", "<code>{}</code>", ((c,) for c in (*first, *more)))
    return format_html(
        "{}{}{}",
        text,
        l10n.gap(),
        format_html(gettext("Headings in English are read too: {columns}."), columns=english),
    )


def columns_we_read() -> str:
    """The columns a roster is read by, in the page's language (and in English, which is read too)."""
    own = l10n.join(headings(READ_COLUMNS))
    english = ", ".join(READ_COLUMNS)
    return own if own == english else f"{own} ({english})"


def heading(cell: str) -> str:
    """A column heading as it is looked up: full-width letters as ASCII (Ｎｏ．), spaces collapsed, lower case."""
    return " ".join(unicodedata.normalize("NFKC", cell).split()).lower()
