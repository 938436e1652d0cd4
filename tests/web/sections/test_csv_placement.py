"""Placements can be checked before a file is confirmed: the CSV preview shows each row's birth date and the
section it goes to (named, by the rules, or none; a joined section's rows where they play), the roster shows
birth years and divisions, and the upload's help lists every column the reader takes."""

import html as html_lib
import re

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.web.organiser.test_concurrency import logged_in
from tests.web.sections.test_divisions import pairing
from tournament.files.csv_columns import READ_COLUMNS, headings
from tournament.models import Event, Player
from tournament.services.rounds import pair_next_round

pytestmark = pytest.mark.django_db

FILE = "name,rating,birth_date,section\nKid,1200,2014/05/01,\nAdult,1500,1980-02-03,\nLost,900,,\nNamed,1000,,B\n"


def rows_of(html: str) -> dict[str, list[str]]:
    """The preview's rows by name: their cells' text."""
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    rows = {}
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [
            html_lib.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        ]
        rows[cells[1]] = cells
    return rows


def preview(client, event, text=FILE) -> str:
    upload = SimpleUploadedFile("p.csv", text.encode(), content_type="text/csv")
    response = client.post(reverse("org_players_csv", args=[event.slug]), {"file": upload})
    assert response.status_code == 200
    return response.content.decode()


def test_the_preview_shows_birth_dates_and_where_each_row_is_placed(venue, organiser):
    a, b = venue.section_list
    Event.objects.filter(pk=a.pk).update(birth_year_min=2010)  # juniors
    Event.objects.filter(pk=b.pk).update(rating_min=1000)  # the rest, rated 1000 or more
    client = logged_in(organiser)
    html = preview(client, venue)
    assert "<th>Born</th>" in html and "<th>Placed in</th>" in html
    rows = rows_of(html)
    assert "2014/05/01" in rows["Kid"] and rows["Kid"][-2] == "A"
    assert "1980/02/03" in rows["Adult"] and rows["Adult"][-2] == "B"
    assert rows["Lost"][-2] == "fits no section's rules"
    assert rows["Named"][-2] == "B"
    client.post(reverse("org_players_csv_confirm", args=[venue.slug]), {"text": FILE})
    # The preview said what the import did.
    placed = dict(Player.objects.filter(name__in=["Kid", "Adult", "Lost", "Named"]).values_list("name", "event__name"))
    assert placed == {"Kid": "A", "Adult": "B", "Lost": "Regionals", "Named": "B"}
    roster = client.get(reverse("org_players", args=[venue.slug])).content.decode()
    assert '<th class="num">Born</th>' in roster and ">2014<" in roster and ">1980<" in roster


def test_a_joined_sections_rows_say_where_they_play_and_the_roster_shows_divisions(venue, organiser):
    a, b = pairing(venue, below=8)
    pair_next_round(a, organiser)  # A joins B
    client = logged_in(organiser)
    rows = rows_of(preview(client, a, "name\nLate Junior\n"))
    assert rows["Late Junior"][-2] == "A, plays in B"
    rows = rows_of(preview(client, venue, "name,section\nLate Junior,A\nLate Senior,B\n"))
    assert rows["Late Junior"][-2] == "A, plays in B" and rows["Late Senior"][-2] == "B"
    roster = client.get(reverse("org_players", args=[b.slug])).content.decode()
    assert "<th>Division</th>" in roster and "<td>A</td>" in roster and "<td>B</td>" in roster
    venue_roster = client.get(reverse("org_players", args=[venue.slug])).content.decode()
    assert "A division" in venue_roster


@pytest.mark.parametrize("language", ["en", "da", "ja"])
def test_the_help_lists_every_column_the_reader_takes(venue, organiser, language):
    assert {"birth_date", "section", "fide_id", "sex"} <= set(READ_COLUMNS)
    client = logged_in(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("org_players", args=[venue.slug])).content.decode()
    assert f'<html lang="{language}"' in html
    help_text = html[html.index('type="file"') :]
    for column in READ_COLUMNS:
        assert column in help_text, column  # the English headings, read in every language
    if language != "en":  # and the headings in the page's language, then the English ones as code
        with translation.override(language):
            for heading in headings(READ_COLUMNS):
                assert heading in help_text, heading
        for column in READ_COLUMNS:
            assert f"<code>{column}</code>" in help_text, column
