"""Once the event is over, the public standings have a prize column and each player's phone says what they won,
in each language; before that, neither shows a prize."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from swiss import eventfile as ef
from swiss.prizemodel import Category, Prize, PrizeRules
from tests.conftest import EXAMPLES
from tournament.models import Player, Round
from tournament.records.prize_lists import store_prize_list
from tournament.services.locks import changed
from tournament.snapshot import import_event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def over():
    """seed002-hyogo (A 9; E, B, G 6; D, F, C 3; H 0), every round complete, with a prize list."""
    event = import_event(ef.loads((EXAMPLES / "seed002-hyogo.json").read_bytes()), slug="hyogo")
    event.rounds.update(state=Round.State.COMPLETE)
    prizes = (
        Prize("1st", 100),
        Prize("2nd", 60),
        Prize("3rd", 40),
        Prize("Best of the list", 25, category=Category(players=("C", "H"))),
    )
    store_prize_list(event, prizes, PrizeRules(currency="€"))
    changed(event)
    event.refresh_from_db()
    return event


def phone(event, key: str, language: str = "en") -> Client:
    p = Player.objects.get(event=event, key=key)
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert c.get(reverse("player:link", args=[event.slug, p.pk, p.token])).status_code == 302
    return c


def test_the_standings_show_the_prizes(over):
    html = Client().get(reverse("public:standings", args=["hyogo"])).content.decode()
    assert '<th scope="col" class="num prize">Prize</th>' in html
    assert '<td class="num prize">€ 100.00</td>' in html
    assert html.count('<td class="num prize">€ 33.33</td>') == 3
    assert '<td class="num prize">€ 25.00</td>' in html


def test_a_search_keeps_the_prize_column(over):
    html = Client().get(reverse("public:standings", args=["hyogo"]), {"q": "Player E"}).content.decode()
    assert '<td class="num prize">€ 33.33</td>' in html


def test_no_prize_column_before_the_end(over):
    over.rounds.filter(number=3).update(state=Round.State.IN_PROGRESS)
    changed(over)
    html = Client().get(reverse("public:standings", args=["hyogo"])).content.decode()
    assert 'class="num prize"' not in html
    assert "You won" not in phone(over, "E").get(reverse("player:me", args=["hyogo"])).content.decode()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "You won € 33.33 (shared 2nd + 3rd, places 2–4)"),
        ("ja", "€ 33.33を獲得しました（2nd + 3rdを分配、2〜4位）"),
        ("da", "Du vandt € 33.33 (delt 2nd + 3rd, pladserne 2–4)"),
    ],
)
def test_the_phone_says_what_the_player_won(over, language, said):
    html = phone(over, "E", language).get(reverse("player:me", args=["hyogo"])).content.decode()
    assert said in html


def test_a_player_without_a_prize_sees_none(over):
    html = phone(over, "D").get(reverse("player:me", args=["hyogo"])).content.decode()
    assert "You won" not in html
