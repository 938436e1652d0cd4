"""The public pairings say why each table is paired so: both players' reasons behind a "Why?" on each row, in
the reader's language; the page is cached by the event's version, so a swap after publication shows at once."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.web.phone.test_phone_why import played_rounds
from tests.web.public.test_public import ROUND_1, pair
from tournament.models import Round, RoundExplanation
from tournament.pages.why import said
from tournament.services.rounds import swap_players

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def pairings(event, language: str = "en") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("public:pairings", args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_each_table_says_both_players_reasons_in_the_reader_s_language(chess, organiser, language):
    rnd = played_rounds(chess, organiser)
    page = pairings(chess, language)
    stored = RoundExplanation.objects.get(round=rnd).players
    assert page.count('<details class="why">') == len(stored)  # one per row: every player of the round
    for m in rnd.matches.filter(player_b__isnull=False):
        for p in (m.player_a, m.player_b):
            with translation.override(language):
                text = " ".join(said(chess, stored[str(p.pk)]["reasons"]))
            assert escape(text) in page
            if language != "en":
                assert escape(" ".join(said(chess, stored[str(p.pk)]["reasons"]))) not in page
    if language != "en":
        assert "Score group" not in page and "Why?" not in page


def test_a_swap_after_publication_changes_the_cached_page(event, organiser):
    rnd = played_rounds(event, organiser)
    before = pairings(event)
    assert "Paired by the organiser by hand" not in before
    a, b = (m.player_a for m in rnd.matches.filter(player_b__isnull=False).order_by("table")[:2])
    swap_players(rnd, a, b, organiser)
    after = pairings(event)
    # The two tables changed: four rows (one per player), each with both players' reasons.
    assert after.count("Paired by the organiser by hand") == 4 * 2
    assert after != before


def test_a_round_without_an_explanation_has_no_why(event):
    pair(event, 1, ROUND_1, state=Round.State.PAIRED)
    page = pairings(event)
    assert "Player A" in page and 'class="why"' not in page
