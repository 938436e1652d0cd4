"""The player's phone at 360 px says what they need from their own match, in English, Japanese and Danish,
and the box fits the screen."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.test_i18n_pages import PHONE
from tests.web.phone.test_outlook_phone import SAID
from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Event, Player, Round
from tournament.services import outlooks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"en": "en-GB", "ja": "ja-JP", "da": "da-DK"}


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_sentence_on_a_phone(live_server, browser, event, shot, language):
    Event.objects.filter(pk=event.pk).update(planned_rounds=2, top_cut=2, language=language)
    event.refresh_from_db()
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    outlooks.refresh(pair(event, 2, ROUND_2, state=Round.State.PAIRED))
    a = Player.objects.get(event=event, name="Player A")
    context = browser.new_context(locale=LOCALES[language], viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("player:link", args=[event.slug, a.pk, a.token]))
    box = page.locator("#outlook")
    expect(box).to_contain_text(SAID[language][1])
    assert box.bounding_box()["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(f"outlook-{language}", page)
    context.close()
