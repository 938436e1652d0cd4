"""Why a round is paired so, in a browser: a player's phone at 360 px in English, Japanese and Danish shows their
reasons under their table and answers "why am I not playing X?"; the organiser opens the whole round's log."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.browser.test_i18n_pages import PHONE, english_left, english_ui
from tests.browser.test_i18n_phone import sign_in
from tests.web.phone.test_phone_why import played_rounds
from tournament.models import Player, RoundExplanation
from tournament.pages.why import said, why_not_said
from tournament.services import explanations
from tournament.text import engine_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"en": "en-GB", "ja": "ja-JP", "da": "da-DK"}
# Names that are no English word of the interface ("Player A" would read as the English "Player").
NAMES = ["Aiko Tanaka", "Bjørn Madsen", "Chiara Rossi", "Dmitri Volkov", "Emeka Okafor", "Freya Lindqvist"]


def test_a_phone_shows_its_reasons_and_answers_why_not_in_every_language(live_server, browser, chess, organiser, shot):
    for p, name in zip(chess.players.order_by("pk"), NAMES, strict=True):
        Player.objects.filter(pk=p.pk).update(name=name)
    rnd = played_rounds(chess, organiser)
    m1, m2 = rnd.matches.filter(player_b__isnull=False).order_by("table")[:2]
    me, other = m1.player_a, m2.player_b
    stored = RoundExplanation.objects.get(round=rnd).players[str(me.pk)]["reasons"]
    for language, locale in LOCALES.items():
        context = browser.new_context(locale=locale, viewport=PHONE)
        context.add_cookies([{"name": "swiss_language", "value": language, "url": live_server.url}])
        page = context.new_page()
        page.goto(live_server.url + reverse("player:link", args=[chess.slug, me.pk, me.token]))
        page.wait_for_load_state()
        with translation.override(language):
            lines = said(chess, stored)
            answer = why_not_said(explanations.answer(rnd, me, other), rnd, me, other)
        shown = page.locator(".me-why-lines")
        assert shown.is_visible()
        assert shown.inner_text().split() == " ".join(lines).split(), language
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], language
        page.locator(".me-why-more summary").click()
        assert page.locator(".me-why-more .why-group").is_visible()
        page.locator(".me-why-not summary").click()
        patterns = english_ui(language) if language != "en" else []
        assert not english_left(page, patterns), (language, english_left(page, patterns))
        page.locator("#why-not-with").select_option(str(other.pk))
        page.locator(".me-why-not button[type=submit]").click()
        page.wait_for_load_state()
        assert page.locator(".why-not-answer p").inner_text().strip() == answer, language
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], language
        assert not english_left(page, patterns), (language, english_left(page, patterns))
        shot(f"why-not-{language}")
        context.close()


def test_the_organiser_opens_the_whole_round_group_by_group(live_server, page, chess, organiser):
    rnd = played_rounds(chess, organiser)
    groups = RoundExplanation.objects.get(round=rnd).groups
    sign_in(page, live_server.url)
    page.goto(live_server.url + reverse("org_round", args=[chess.slug, rnd.number]))
    page.locator("#why-log summary").click()
    shown = page.locator("#why-log .why-group")
    assert shown.count() == len(groups)
    for k, g in enumerate(groups):
        text = shown.nth(k).inner_text()
        assert all(engine_text.sentence(n) in text for n in g["notes"])
