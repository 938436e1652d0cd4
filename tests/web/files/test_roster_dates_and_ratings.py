"""Dates and ratings as each language's spreadsheets write them: Japanese Excel's birth dates (1998/3/3) in a
Shift_JIS roster, 1998-3-3 and 1998年3月3日 (and Danish 3.3.1998 in Danish), and ratings with a thousands
separator (2.105 from Danish Excel, 2,105 and 2 105 in English) read as ratings in the CSV file, the pasted
list, the add box and the forms, while 2.1 or 2,10 are still no whole number."""

import html
import re

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tournament.files import csv_rosters as csvio
from tournament.text import l10n
from tournament.text.chess_details import chess_detail

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "ja", "da"])
@pytest.mark.parametrize(
    "typed", ["1998/3/3", "1998/03/03", "1998-3-3", "1998-03-03", "1998年3月3日", "1998年 3月 3日", "１９９８／３／３"]
)
def test_a_year_first_birth_date_is_read_in_every_language(language, typed):
    with translation.override(language):
        assert chess_detail("birth_date", typed) == ("1998/03/03", "")


def test_a_danish_day_first_date_is_still_read_in_danish_only():
    with translation.override("da"):
        assert chess_detail("birth_date", "3.3.1998") == ("1998/03/03", "")
    with translation.override("en"):
        assert chess_detail("birth_date", "3.3.1998")[1]


def test_a_date_that_is_none_asks_for_the_forms_in_natural_japanese():
    with translation.override("ja"):
        _, problem = chess_detail("birth_date", "3/3/98")
    assert problem.endswith("の形式で入力してください。") and "1969/12/06" in problem
    with translation.override("ja"):
        assert chess_detail("birth_date", "1998/2/30")[1] == "1998/02/30という日付はありません。"


JAPANESE_ROSTER = (
    "氏名,レーティング,生年月日\n山田 太郎,1500,1998/3/3\n木村 拓也,1600,2001/12/24\n佐藤 花子,1550,1999年4月1日\n"
)


def test_a_shift_jis_roster_with_japanese_excels_dates_is_imported(client, organiser, chess):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    client.force_login(organiser)
    upload = SimpleUploadedFile("players.csv", JAPANESE_ROSTER.encode("cp932"))
    body = client.post(reverse("org_players_csv", args=[chess.slug]), {"file": upload}).content.decode()
    assert 'class="bad-row"' not in body, body[:3000]
    confirm = re.search(r'name="text" value="([^"]*)"', body, re.S)[1]
    client.post(reverse("org_players_csv_confirm", args=[chess.slug]), {"text": html.unescape(confirm)})
    stored = dict(
        chess.players.filter(name__in=["山田 太郎", "木村 拓也", "佐藤 花子"]).values_list("name", "birth_date")
    )
    assert stored == {"山田 太郎": "1998/03/03", "木村 拓也": "2001/12/24", "佐藤 花子": "1999/04/01"}


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("2105", 2105),
        ("2.105", 2105),
        ("2,105", 2105),
        ("2 105", 2105),
        ("2\u00a0105", 2105),
        ("1.234.567", 1234567),
        ("２，１０５", 2105),
        ("2.1", None),
        ("2,10", None),
        ("2105.5", None),
        ("2.105,5", None),
        ("21.05", None),
        ("2.105.1", None),
        ("2,105.000", None),
    ],
)
def test_a_rating_may_carry_a_thousands_separator_but_no_decimals(typed, read):
    assert l10n.read_whole(typed, grouped=True) == read
    assert l10n.read_whole(typed) == (2105 if typed == "2105" else None)


@pytest.mark.parametrize("parse", [csvio.parse_players, csvio.parse_pasted])
def test_the_roster_reads_grouped_ratings_and_refuses_decimals(parse):
    rows = parse('name;rating\nMads Holm;2.105\nSøren Kirk;"1.990"\nAnne Høj;2,5\n')
    assert [(r.name, r.rating) for r in rows[:2]] == [("Mads Holm", 2105), ("Søren Kirk", 1990)]
    assert not rows[2].ok and "whole number" in rows[2].errors[0]
    english = parse('name,rating\n"Smith, John","2,105"\nJane Roe,2 105\n')
    assert [(r.name, r.rating) for r in english] == [("John Smith", 2105), ("Jane Roe", 2105)]


def test_a_danish_csv_upload_stores_the_ratings(client, organiser, event):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    client.force_login(organiser)
    text = "Navn;Rating\nMads Holm;2.105\nSøren Kirk;1.990\n"
    upload = SimpleUploadedFile("players.csv", text.encode("cp1252"))
    body = client.post(reverse("org_players_csv", args=[event.slug]), {"file": upload}).content.decode()
    assert 'class="bad-row"' not in body
    confirm = re.search(r'name="text" value="([^"]*)"', body, re.S)[1]
    client.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": html.unescape(confirm)})
    assert dict(event.players.filter(name__in=["Mads Holm", "Søren Kirk"]).values_list("name", "rating")) == {
        "Mads Holm": 2105,
        "Søren Kirk": 1990,
    }


def test_the_forms_read_grouped_ratings(client, organiser, event, venue):
    client.force_login(organiser)
    client.post(reverse("org_player_add", args=[event.slug]), {"name": "Mads Holm, 2.105", "once": "q1"})
    client.post(
        reverse("org_players_paste", args=[event.slug]), {"lines": "Søren Kirk; 1.990\nAnne Høj; 2,105", "once": "p1"}
    )
    got = dict(event.players.filter(name__in=["Mads Holm", "Søren Kirk", "Anne Høj"]).values_list("name", "rating"))
    assert got == {"Mads Holm": 2105, "Søren Kirk": 1990, "Anne Høj": 2105}
    # The player's own form.
    player = event.players.get(name="Mads Holm")
    url = reverse("org_player_edit", args=[event.slug, player.pk])
    assert client.post(url, {"name": "Mads Holm", "rating": "2 150", "byes": 0}).status_code == 302
    player.refresh_from_db()
    assert player.rating == 2150
    refused = client.post(url, {"name": "Mads Holm", "rating": "2.15", "byes": 0})
    assert refused.status_code == 200 and "whole number" in refused.content.decode()
    # A section's rating band.
    a = venue.section_list[0]
    rules = {
        "rating_min": "1.600",
        "rating_max": "2,000",
        "birth_year_min": "",
        "birth_year_max": "",
        "first_table": "",
    }
    client.post(reverse("org_section_rules", args=[venue.slug]) + f"?section={a.pk}", rules)
    from tournament.forms.sections import SectionRulesForm

    form = SectionRulesForm(rules, instance=a)
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["rating_min"], form.cleaned_data["rating_max"]) == (1600, 2000)
