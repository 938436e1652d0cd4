"""A chess roster's optional `k` column: FIDE's K-factor as the rating list gives it (docs/ratings.md), read
under its heading in each language, refused when it is not 10, 20 or 40, and written back by the export."""

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.web.files.test_native_rosters import csv_rows, preview, speak
from tournament.files import csv_columns, csv_rosters

pytestmark = pytest.mark.django_db

LISTS = {
    "en": "name,rating,federation,k\nAnna Berg,1651,SWE,40\nBo Lund,2411,DEN,10\nCai Moe,1901,NOR,\n",
    "ja": "氏名,レーティング,K係数\n山田 太郎,1651,４０\n木村 拓也,2411,10\n佐藤 花子,1901,\n",
    "da": "Navn;Elo;K-faktor\nAnna Berg;1651;40\nBo Lund;2411;10\nCai Moe;1901;\n",
}


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_a_k_column_is_read_previewed_and_stored(client, organiser, chess, language):
    speak(client, organiser, language)
    body = preview(client, chess, LISTS[language].encode()).content.decode()
    assert 'class="bad-row"' not in body and "K 40" in body and "K 10" in body
    confirm = re.search(r'name="text" value="([^"]*)"', body, re.S)[1]
    client.post(reverse("org_players_csv_confirm", args=[chess.slug]), {"text": html.unescape(confirm)})
    new = chess.players.filter(rating__in=[1651, 2411, 1901]).order_by("rating")
    assert [p.k for p in new] == [40, None, 10]


@pytest.mark.parametrize(("language", "problem"), [("en", "K “25” must be 10, 20 or 40"), ("da", "K »25« skal")])
def test_a_k_fide_does_not_use_is_refused(language, problem):
    with translation.override(language):
        rows = csv_rosters.parse_players("name,k\nAnna Berg,25\nBo Lund,20\n")
    assert rows[0].errors == [problem] if language == "en" else problem in rows[0].errors[0]
    assert (rows[1].ok, rows[1].k) == (True, 20)


def test_an_event_without_colours_keeps_no_k(client, organiser, event):
    speak(client, organiser, "en")
    client.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": "name,k\nAnna Berg,40\n"})
    assert event.players.get(name="Anna Berg").k is None


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_export_writes_k_and_the_help_names_it(client, organiser, chess, language):
    chess.players.filter(name="Player B").update(k=40)
    c = speak(client, organiser, language)
    rows = csv_rows(c.get(reverse("org_export_players", args=[chess.slug])))
    with translation.override(language):
        assert rows[0][-1] == csv_columns.headings(["k"])[0]
        assert [r[-1] for r in rows[1:3]] == ["", "40"]
        assert csv_columns.column_of(csv_columns.heading(rows[0][-1])) == "k"
    help_text = c.get(reverse("org_players", args=[chess.slug])).content.decode()
    assert "<code>k</code>" in help_text or language == "en"
