"""Lists and sentences as each language writes them: a list's separator is the language's own (、 in
Japanese), and sentences built from parts end with the language's full stop (。), never an English ", " or "."."""

import re

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
