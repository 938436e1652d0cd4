"""The player's phone at 360 px in the last round says what each result of their game gives (the rating change
and the prizes), in English, Japanese and Danish, and the box fits the screen."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from swiss.prizemodel import PrizeRules
from tests.browser.test_i18n_pages import PHONE
from tests.conftest import new_chess_event
from tests.web.phone.test_result_gives import CHESS_WINS, PRIZES, SAID
from tests.web.public.test_public import ROUND_1, ROUND_2, pair
from tournament.models import Player, Round
from tournament.services import outlooks
from tournament.services.prizes import save_prize_list

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"en": "en-GB", "ja": "ja-JP", "da": "da-DK"}


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_what_each_result_gives_on_a_phone(live_server, browser, organiser, shot, language):
    ratings = {f"Player {c}": 1500 - i * 10 for i, c in enumerate("ABCDEFGH")}
    event = new_chess_event(organiser, ratings, planned_rounds=2, language=language)
    save_prize_list(event, PRIZES, PrizeRules(currency="€"))
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=CHESS_WINS)
    outlooks.refresh(pair(event, 2, ROUND_2, state=Round.State.PAIRED))
    a = Player.objects.get(event=event, name="Player A")
    context = browser.new_context(locale=LOCALES[language], viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("player:link", args=[event.slug, a.pk, a.token]))
    box = page.locator("#gives")
    said = SAID[language]
    expect(box).to_contain_text(said["heading"])
    for key in ("win", "draw", "rating", "win_prize", "draw_prize", "loss_prize"):
        expect(box).to_contain_text(said[key])
    assert box.bounding_box()["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(f"result-gives-{language}", page)
    context.close()
