"""An organiser sets the prize list of a finished 40-player open, prints it, and a player's phone at 360 px says
what they won, in English, Japanese and Danish."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pairing.tools.files import read_event_bytes
from pairing.tools.generate import Options, generate
from tests.browser.test_clock_and_search import PHONE, sign_in
from tournament.models import EventRole, Player
from tournament.services.prizes import final_awards
from tournament.snapshot import import_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINES = "1st | 500\n2nd | 300\n3rd | 200\n4th | 100\nBest under 1600 | 80 | rating_below=1600"
WON = {"en": "You won", "ja": "を獲得しました", "da": "Du vandt"}
LOCALES = {"en": "en-GB", "ja": "ja-JP", "da": "da-DK"}


@pytest.fixture
def open40(organiser, tmp_path):
    """A 40-player open of five rounds, every round complete (generated and paired by the Dutch system)."""
    path = tmp_path / "open.trf"
    path.write_text(generate(Options(players=40, rounds=5, seed=3)), encoding="utf-8")
    event = import_event(read_event_bytes(str(path))[0], slug="open40")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    return event


def test_set_print_and_see_on_the_phone(live_server, browser, open40, shot):
    page = browser.new_page()
    sign_in(page, live_server.url)
    page.goto(live_server.url + reverse("org_prizes", args=["open40"]))
    page.locator("#id_lines").fill(LINES)
    page.locator("#id_ties").select_option("shared")
    page.locator("#id_one_per_player").check()
    page.locator("#id_currency").fill("€")
    page.get_by_role("button", name="Save the prize list").click()
    expect(page.locator(".messages")).to_contain_text("The prize list is saved.")
    expect(page.locator("table.prizes")).to_contain_text("€ ")

    page.goto(live_server.url + reverse("org_print_prizes", args=["open40"]))
    rows = page.locator("table.prizes tbody tr")
    assert rows.count() >= 5
    shot("prizes-print", page)
    page.close()

    awards = final_awards(open40)
    assert awards is not None and sum(m for a in awards.awards for m in a.money) <= 1180
    winner = Player.objects.get(event=open40, key=awards.awards[0].players[0])
    for language in ("en", "ja", "da"):
        context = browser.new_context(locale=LOCALES[language], viewport=PHONE)
        phone = context.new_page()
        phone.goto(live_server.url + reverse("player:link", args=["open40", winner.pk, winner.token]))
        box = phone.locator(".prizes-won")
        expect(box).to_contain_text(WON[language])
        assert box.bounding_box()["width"] <= PHONE["width"]
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(f"prizes-phone-{language}", phone)
        context.close()
