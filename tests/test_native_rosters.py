"""Names, numbers and spreadsheets as Japanese and Danish organisers type and save them (Japanese/Danish
issue items 2, 4, 5, 6, 11 and 12): the Japanese comma and full-width digits, Danish semicolon lists, the
encodings Excel saves CSV in, a leading "No." column, Danish birth dates and k for kvinde, each language's
own example in the help, and CSV column names in the language both ways."""

import pytest
from django.urls import reverse

from tournament.files import csvio
from tournament.forms import QuickAddForm

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def read(text: str, header: bool = True) -> list[tuple]:
    return [(r.name, r.rating, r.errors) for r in csvio.parse_pasted(text, header=header)]


# ---------------------------------------------------------------- item 2: 、 and ， are commas


@pytest.mark.parametrize(
    ("line", "name", "rating"),
    [
        ("中村 翔、1650", "中村 翔", 1650),
        ("松本 大輔，1500", "松本 大輔", 1500),
        ("中村 翔、１６５０", "中村 翔", 1650),
        ("木村、拓也、１６００", "木村 拓也", 1600),
        ("Søren Kirk，1800", "Søren Kirk", 1800),
    ],
)
def test_the_japanese_comma_and_full_width_digits_separate_and_count_as_typed(line, name, rating):
    assert read(line, header=False) == [(name, rating, [])]
    form = QuickAddForm({"name": line})
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["name"], form.rating) == (name, rating)


def test_a_pasted_japanese_list_and_csv_file_read_the_japanese_comma():
    assert read("名前、レーティング\n中村 翔、1650\n松本 大輔，1500\n") == [
        ("中村 翔", 1650, []),
        ("松本 大輔", 1500, []),
    ]
    rows = csvio.parse_players("名前、レーティング\n中村 翔、１６５０\n松本 大輔，1500\n")
    assert [(r.name, r.rating, r.ok) for r in rows] == [("中村 翔", 1650, True), ("松本 大輔", 1500, True)]


# ---------------------------------------------------------------- item 4: Danish semicolon lists


def test_a_danish_semicolon_list_is_read_and_its_heading_row_is_no_player(client, organiser, event):
    text = "Navn;Klub;Elo;Medlemsnummer\nAnne-Mette Høj;Skakklubben Nord;1490;12345\nHøj, Mads;SK;1620;77\n"
    client.force_login(organiser)
    assert client.post(reverse("org_players_paste", args=[event.slug]), {"lines": text}).status_code == 302
    anne = event.players.get(name="Anne-Mette Høj")
    assert (anne.rating, anne.external_id) == (1490, "12345")
    mads = event.players.get(name="Mads Høj")
    assert (mads.family_name, mads.given_name, mads.rating) == ("Høj", "Mads", 1620)
    assert not event.players.filter(name__icontains="Navn").exists() and event.players.count() == 10


def test_quick_add_reads_a_semicolon_as_the_add_box_separator(client, organiser, event):
    client.force_login(organiser)
    client.post(reverse("org_player_add", args=[event.slug]), {"name": "Anne-Mette Høj; 1490"}, headers=HX)
    assert event.players.get(name="Anne-Mette Høj").rating == 1490


def test_a_heading_row_that_is_not_understood_is_refused_not_added(client, organiser, event):
    client.force_login(organiser)
    text = "Navn;Klub;Elo;Fødselsår\nAnne-Mette Høj;SK;1490;1980\n"
    r = client.post(reverse("org_players_paste", args=[event.slug]), {"lines": text})
    assert r.status_code == 200 and "»Fødselsår«" not in r.content.decode()  # English page: “Fødselsår”
    assert "“Fødselsår”" in r.content.decode()
    assert event.players.count() == 8
