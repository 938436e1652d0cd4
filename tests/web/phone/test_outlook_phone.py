"""The player's phone says what they need from their own match, in their language, from the outlook stored
with the round; a new outlook (the pairing changed) gives the page a new ETag."""

import pytest
from django.core.cache import cache

from tests.web.organiser.test_outlook_pages import last_round  # noqa: F401  (the fixture)
from tests.web.phone.test_player_page import me, phone
from tournament.services import outlooks

pytestmark = pytest.mark.django_db

SAID = {
    "en": ("What do I need", "Win: you are in the top 2."),
    "ja": ("What do I need", "勝ち：上位2位以内が確定します。"),
    "da": ("What do I need", "Vind: du er i top 2."),
}


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_sentence_in_each_language(event, last_round, language):  # noqa: F811
    outlooks.refresh(last_round)
    html = me(phone(event, "Player A", language), event).content.decode()
    assert SAID[language][1] in html
    assert 'id="outlook"' in html


def test_no_outlook_no_box(event, last_round):  # noqa: F811
    assert 'id="outlook"' not in me(phone(event, "Player A"), event).content.decode()


def test_a_new_outlook_is_a_new_page(event, last_round):  # noqa: F811
    c = phone(event, "Player A")
    first = me(c, event)
    outlooks.refresh(last_round)
    again = me(c, event, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and "Win: you are in the top 2." in again.content.decode()
