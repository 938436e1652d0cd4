"""Lists and sentences as each language writes them: a list's separator is the language's own (、 in
Japanese), and sentences built from parts end with the language's full stop (。), never an English ", " or "."."""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tests.web.public.test_public import ROUND_1, pair
from tournament.models import EventLog
from tournament.services.locks import changed
from tournament.text import l10n
from tournament.text.wording import log_sentence


@pytest.mark.parametrize(("language", "expected"), [("en", "a, b, c"), ("da", "a, b, c"), ("ja", "a、b、c")])
def test_a_list_is_joined_with_the_languages_separator(language, expected):
    with translation.override(language):
        assert l10n.join(["a", "b", "c"]) == expected
        assert l10n.join([]) == ""


def test_a_logged_list_of_settings_reads_as_japanese():
    entry = EventLog(action="settings_after_pairing", detail={"fields": ["best_of", "tiebreakers"]})
    with translation.override("ja"):
        sentence = log_sentence(entry, str, {})
    assert "、" in sentence and ", " not in sentence and sentence.endswith("。")


@pytest.mark.django_db
def test_the_event_home_and_the_recommendation_are_whole_japanese_sentences(client, organiser, event):
    client.force_login(organiser)
    client.cookies["swiss_language"] = "ja"
    body = client.get(reverse("org_event", args=[event.slug])).content.decode()
    assert "参加中のプレイヤーは8人、スイス式3ラウンド中0ラウンドを組み合わせ済みです。" in body
    body = client.get(reverse("org_players", args=[event.slug])).content.decode()
    assert "推奨：<strong>シングルエリミネーション（トップ8）</strong>。" in body, re.findall(r"推奨.{0,200}", body)
    client.cookies["swiss_language"] = "en"
    body = client.get(reverse("org_event", args=[event.slug])).content.decode()
    assert "8 active players, 0 of 3 Swiss rounds paired." in body


@pytest.mark.django_db
def test_the_screen_lists_the_tables_still_playing_with_the_languages_separator(client, event):
    pair(event, 1, ROUND_1)
    changed(event)
    body = client.get(reverse("public:screen", args=[event.slug]), headers={"Accept-Language": "ja"}).content.decode()
    assert "1、2、3、4" in body
    body = client.get(reverse("public:screen", args=[event.slug]), headers={"Accept-Language": "da"}).content.decode()
    assert "1, 2, 3, 4" in body


def test_places_are_written_the_japanese_way():
    with translation.override("ja"):
        assert translation.pgettext("place in a list", "%(place)s.") % {"place": 1} == "1位"
    with translation.override("da"):
        assert translation.pgettext("place in a list", "%(place)s.") % {"place": 1} == "1."


# A bare ", ".join is for what a machine reads: SQL, an HTTP header, a file's cells, a form's own syntax, a command's
# output, English column names. Anything a sentence shows joins with l10n.join (、 in Japanese).
MACHINE_JOINS = {
    "tournament/services/roster.py": 1,  # the upsert's column list
    "tournament/services/reports.py": 3,  # the upsert's columns, values and updates
    "tournament/pages/memo.py": 1,  # the poll's SQL
    "tournament/management/commands/export_event.py": 1,  # a command's English output
    "tournament/files/csv_columns.py": 1,  # the English headings an import reads
    "tournament/files/csv_rosters.py": 2,  # a roster line's cells quoted back as they were
    "tournament/models.py": 1,  # the tie-breaker codes, as code
    "tournament/infra/middleware.py": 1,  # Cache-Control
    "tournament/infra/fast/rows.py": 1,  # SQL
    "tournament/forms/prizes.py": 1,  # a prize line's conditions, as the form reads them back
}


def test_a_list_in_a_sentence_is_joined_in_the_pages_language():
    root = Path(__file__).resolve().parents[3]
    found = {}
    for path in (root / "tournament").rglob("*.py"):
        count = len(re.findall(r"""(?<!\) )["'], ["']\.join\(""", path.read_text()))
        if count:
            found[str(path.relative_to(root))] = count
    assert found == MACHINE_JOINS, "join a list a person reads with tournament.text.l10n.join"
