"""A chess player's phone shows their FIDE rating change: each earlier round's and the event's, with K, in
each language (docs/ratings.md); an event without ratings shows none."""

from pathlib import Path

import pytest
from django.core.cache import cache

from swiss.eventfile import loads
from tests.web.phone.test_player_page import me, phone
from tournament.snapshot import event_to_file, import_event

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data"
TOTAL = {"en": "+5.6 (K 40)", "ja": "+5.6（K 40）", "da": "+5.6 (K 40)"}
HEADING = {"en": "Rating change", "ja": "レーティング変動", "da": "Ratingændring"}


@pytest.fixture
def chorrera():
    cache.clear()
    # FIDE's published calculation for one player (tests/data/README.md): 1922, K 40, +13.2, −26.4, +18.8.
    return import_event(loads((DATA / "ratings" / "fide-calc-chorrera-2017.json").read_bytes()), slug="chorrera")


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_phone_shows_each_rounds_change_and_the_total(chorrera, language):
    html = me(phone(chorrera, "Player A", language), chorrera).content.decode()
    assert HEADING[language] in html and TOTAL[language] in html
    rounds = [part.split("</td>")[0] for part in html.split('<td class="num rating-change">')[1:]]
    # Newest round first, as the page lists earlier rounds; the last round is the one on show above them.
    assert rounds == ["-26.4", "+13.2"]


def test_an_opponent_has_their_own_k(chorrera):
    html = me(phone(chorrera, "Player B"), chorrera).content.decode()
    assert "-6.6 (K 20)" in html


def test_a_game_kept_without_a_table_number_shows_no_table(chorrera):
    """The file's games have no table numbers: the phone names the opponent and leaves the table out."""
    html = me(phone(chorrera, "Player A"), chorrera).content.decode()
    assert "None" not in html and 'class="me-opponent"' in html


def test_no_ratings_no_rating_change(event):
    html = me(phone(event, "Player A"), event).content.decode()
    assert "Rating change" not in html and "rating-change" not in html


def test_the_k_survives_the_database(chorrera):
    assert [p.k for p in event_to_file(chorrera).players] == [40, None, None, None]
