"""A chess event that asks for title norms: the seeker's phone at 360 px says what they need from the last round
for a GM norm, in English, Japanese and Danish, on one screen's width (docs/ratings.md, "Norms")."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.test_i18n_pages import PHONE
from tests.browser.test_rating_change import open_phone
from tests.web.organiser.test_norm_pages import norm_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINE = {
    "en": "You need ½ from the last round for a GM norm.",
    "ja": "GMノルムには残り1ラウンドで½点が必要です。",
    "da": "Du skal have ½ i sidste runde for en GM-norm.",
}


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_phone_says_what_the_norm_needs(live_server, browser, shot, language):
    event = norm_event(name="Seeker with a rather long name, Jr.")
    context, page = open_phone(browser, live_server, event, "Seeker with a rather long name, Jr.", language)
    line = page.locator("p.norm-line")
    expect(line).to_have_text(LINE[language])
    expect(line).to_be_in_viewport()
    box = line.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(f"norm-phone-{language}", page)
    # The player's public page says it about them.
    page.goto(live_server.url + reverse("public:player", args=[event.slug, event.players.get(key="P").pk]))
    expect(page.locator("p.norm-line")).to_contain_text("½")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
