"""Pasted and typed rosters: "Last, First" names, tab- or comma-separated lists with a
header, quoted names, and messages that say what is wrong with a number."""

import pytest
from django.urls import reverse

from tournament.files import csv_rosters
from tournament.forms.players import PasteForm, QuickAddForm

pytestmark = pytest.mark.django_db


def pasted(text):
    return [(r.name, r.rating, r.external_id, r.byes, r.errors) for r in csv_rosters.parse_pasted(text)]


@pytest.mark.parametrize(
    "line, name, rating",
    [
        ("Smith, John", "John Smith", None),
        ("Smith, John, 1500", "John Smith", 1500),
        ("  Smith ,  John  ", "John Smith", None),
        ('"Smith, John", 1500', "John Smith", 1500),
        ("O'Brien, Bob", "Bob O'Brien", None),
        ("Müller-Lüdenscheidt, Anna-Lena", "Anna-Lena Müller-Lüdenscheidt", None),
        ("Ann, 1600", "Ann", 1600),
        ("Davis, Jr.", "Davis, Jr.", None),  # a suffix, not a given name
        ('Jo "JJ" Ng, 1200', 'Jo "JJ" Ng', 1200),  # quotes inside a name are the name's
        ("李 小龍", "李 小龍", None),
    ],
)
def test_a_line_is_a_name_then_maybe_a_rating(line, name, rating):
    assert pasted(line) == [(name, rating, "", 0, [])]
    form = QuickAddForm({"name": line})
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["name"], form.rating) == (name, rating)


@pytest.mark.parametrize(
    "line, message",
    [
        ("Ann, -5", "rating -5 cannot be negative"),
        ("Ann, 15.5", "rating 15.5 must be a whole number, without a decimal part"),
        ("Ann, 99999999999", "rating 99999999999 is too large (at most 2147483647)"),
        ("Smith, John, abc", "rating “abc” is not a number"),
    ],
)
def test_a_bad_rating_says_what_is_wrong(line, message):
    assert pasted(line)[0][4] == [message]
    form = QuickAddForm({"name": line})
    assert not form.is_valid() and form.errors["name"] == [f"“{line}”: {message}."]


def test_a_spreadsheet_copy_is_tab_separated_with_a_header():
    text = "Name\tRating\tDCI\tByes\nSmith, John\t1500\t123\t1\nBo Li\t\t\t\n\nAnn\t1400\n"
    assert pasted(text) == [("John Smith", 1500, "123", 1, []), ("Bo Li", None, "", 0, []), ("Ann", 1400, "", 0, [])]


def test_first_and_last_name_columns_make_one_name():
    text = "Last name,First name,Rating\nSmith,John,1500\nNg,Jo,\n"
    assert pasted(text) == [("John Smith", 1500, "", 0, []), ("Jo Ng", None, "", 0, [])]


def test_a_header_with_an_unquoted_last_first_name():
    assert pasted("name,rating\nSmith, John, 1500\nAnn,1400") == [
        ("John Smith", 1500, "", 0, []),
        ("Ann", 1400, "", 0, []),
    ]


def test_a_stray_quote_never_joins_lines():
    assert [r[0] for r in pasted('"Ann, 1500\nBob\nCat')] == ['"Ann', "Bob", "Cat"]


def test_lines_of_only_commas_are_blank():
    assert pasted("Ann\n,,\n , \nBob") == [("Ann", None, "", 0, []), ("Bob", None, "", 0, [])]


def test_the_paste_form_names_each_bad_line():
    form = PasteForm({"lines": "Ann, 1600\nBen, -5\nCat, 12.5"})
    assert not form.is_valid()
    assert form.errors["lines"] == [
        "Line 2 (Ben, -5): rating -5 cannot be negative.",
        "Line 3 (Cat, 12.5): rating 12.5 must be a whole number, without a decimal part.",
    ]


def test_pasting_keeps_every_column(client, organiser, event):
    client.force_login(organiser)
    text = "name\trating\tid\tbyes\nSmith, John\t1500\tDCI-7\t2\nNg, Jo\t\t\t\n"
    r = client.post(reverse("org_players_paste", args=[event.slug]), {"lines": text})
    assert r.status_code == 302
    john = event.players.get(name="John Smith")
    assert (john.rating, john.external_id, john.byes, john.number) == (1500, "DCI-7", 2, 9)
    assert event.players.get(name="Jo Ng").number == 10
    assert not event.players.filter(name__icontains="name").exists()


def test_a_csv_file_reads_last_first_names_too():
    rows = csv_rosters.parse_players('name,rating\n"Smith, John",1500\n"=HYPERLINK(""a"",""x"")",1\n')
    assert [(r.name, r.rating, r.ok) for r in rows] == [("John Smith", 1500, True), ('=HYPERLINK("a","x")', 1, True)]


def test_an_empty_name_under_a_header_is_not_joined_to_the_next_field():
    rows = csv_rosters.parse_players("name\nAnn\n,notanumber\n")
    assert rows[1].name == "" and rows[1].errors == ["no name", "2 columns; expected at most 1"]
