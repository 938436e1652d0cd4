"""A chess event with ratings, three rounds played (FIDE's published calculation for one of its players,
tests/data/ratings/): the player's phone at 360 px shows their rating change with K in English, Japanese and
Danish, the crosstable its Rtg+/- column, and a K the organiser gives on the player's page is the phone's."""

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from swiss.eventfile import loads
from tests.browser.test_i18n_pages import PHONE
from tournament.models import EventRole, Player
from tournament.snapshot import import_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parents[1] / "data"
LOCALES = {"en": "en-GB", "ja": "ja-JP", "da": "da-DK"}
TOTAL = {"en": "+5.6 (K 40)", "ja": "+5.6（K 40）", "da": "+5.6 (K 40)"}
HEADING = {"en": "Rating change", "ja": "レーティング変動", "da": "Ratingændring"}
COLUMN = {"en": "Rtg+/-", "ja": "Rtg±", "da": "Rtg+/-"}


@pytest.fixture
def chorrera():
    # 1922, K 40 from the file: beat 1798, lost to 1801, beat 1897: +13.2 −26.4 +18.8 = +5.6.
    return import_event(loads((DATA / "ratings" / "fide-calc-chorrera-2017.json").read_bytes()), slug="chorrera")


def open_phone(browser, live_server, event, name: str, language: str = "en"):
    p = Player.objects.get(event=event, name=name)
    context = browser.new_context(locale=LOCALES[language], viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("player:link", args=[event.slug, p.pk, p.token]))
    return context, page


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_phone_and_the_crosstable_show_the_rating_change(live_server, browser, chorrera, shot, language):
    context, page = open_phone(browser, live_server, chorrera, "Player A", language)
    expect(page.get_by_text(HEADING[language]).first).to_be_visible()
    expect(page.locator("body")).to_contain_text(TOTAL[language])
    expect(page.locator("td.rating-change")).to_have_text(["-26.4", "+13.2"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(f"rating-phone-{language}", page)

    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(live_server.url + reverse("public:crosstable", args=[chorrera.slug]))
    expect(page.locator("th", has_text=COLUMN[language]).first).to_be_visible()
    row = page.locator("tr", has_text="Player A")
    expect(row.locator("td.rating-change")).to_have_text("+5.6")
    expect(row.locator("small.rating-change")).to_have_text(["+13.2", "-26.4", "+18.8"])
    shot(f"rating-crosstable-{language}", page)
    context.close()


def test_the_organiser_gives_k_and_the_phone_uses_it(live_server, browser, page, chorrera, organiser):
    EventRole.objects.create(event=chorrera, user=organiser, role=EventRole.Role.ORGANISER)
    b = chorrera.players.get(name="Player B")
    context, phone = open_phone(browser, live_server, chorrera, "Player B")
    expect(phone.locator("body")).to_contain_text("-6.6 (K 20)")

    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + reverse("org_player_edit", args=[chorrera.slug, b.pk]))
    k = page.get_by_label("K-factor")
    expect(k).to_have_value("")
    expect(page.locator("body")).to_contain_text("until 30 rated games")
    k.select_option("10")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("body")).to_contain_text("Saved")
    b.refresh_from_db()
    assert b.k == 10

    phone.reload()
    expect(phone.locator("body")).to_contain_text("-3.3 (K 10)")
    context.close()
