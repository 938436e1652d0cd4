"""The public crosstable of a chess event with ratings shows each rated game's FIDE rating change under its
cell and the event's in a column (docs/ratings.md), in each language; printed too."""

from dataclasses import replace
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from swiss.eventfile import loads
from tournament.models import EventRole
from tournament.snapshot import import_event

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data"
HEADING = {"en": "Rtg+/-", "ja": "Rtg±", "da": "Rtg+/-"}


@pytest.fixture
def chorrera():
    cache.clear()
    return import_event(loads((DATA / "ratings" / "fide-calc-chorrera-2017.json").read_bytes()), slug="chorrera")


def row_of(html: str, name: str) -> str:
    start = html.index(name)
    return html[start : html.index("</tr>", start)]


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_each_game_and_the_event(chorrera, language):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("public:crosstable", args=[chorrera.slug]))
    html = page.content.decode()
    assert HEADING[language] in html
    a = row_of(html, "Player A")
    changes = [part.split("<")[0] for part in a.split('<small class="rating-change">')[1:]]
    assert changes == ["+13.2", "-26.4", "+18.8"]
    assert '<td class="num rating-change">+5.6</td>' in a
    # Player C beat Player A (1801 against 1922: expected 0.34, K 20): +13.2 in round 2 alone.
    c = row_of(html, "Player C")
    assert '<small class="rating-change">+13.2</small>' in c and '<td class="num rating-change">+13.2</td>' in c


def test_printed_too(chorrera, organiser):
    EventRole.objects.create(event=chorrera, user=organiser, role=EventRole.Role.ORGANISER)
    c = Client()
    c.force_login(organiser)
    html = c.get(reverse("org_print_crosstable", args=[chorrera.slug])).content.decode()
    assert '<td class="num rating-change">+5.6</td>' in row_of(html, "Player A")


def test_no_ratings_no_column():
    cache.clear()
    doc = loads((DATA / "ratings" / "fide-calc-chorrera-2017.json").read_bytes())
    unrated = import_event(replace(doc, players=tuple(replace(p, rating=None) for p in doc.players)), slug="unrated")
    html = Client().get(reverse("public:crosstable", args=[unrated.slug])).content.decode()
    assert "Player A" in html and "Rtg+/-" not in html and "rating-change" not in html
