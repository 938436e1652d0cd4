"""Every page of an event on a 360-px phone in English, Japanese and Danish, with the longest real
strings each language has: nothing scrolls sideways, no badge, tab or filter link breaks one character per
line, and no English is left on a Japanese or Danish page (tests/web/i18n/test_i18n_page_text.py checks the words of
every page without a browser; this checks what a phone shows)."""

import pytest
from django.core.cache import cache

from tests.browser.test_i18n_pages import PHONE, english_left, english_ui
from tests.web.i18n.test_i18n_page_text import NAMES, pages, whole_event  # noqa: F401 (a fixture)
from tournament.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The longest names a venue's list really holds, so a column's width is tested with them.
LONGEST = {
    "en": "Alexandra Montgomery-Fitzgerald",
    "ja": "勅使河原 三郎右衛門",
    "da": "Ærling Østergaard-Christiansen",
}
# Pages made for another screen: the venue's projector, and paper.
# A crosstable is a grid of every round by every player: it scrolls inside its own box by design.
GRIDS = {"public crosstable"}
NOT_FOR_PHONES = {"public screen", "by name", "by table", "slips", "print standings", "print crosstable", "cards"}

MEASURE = """() => {
  const wide = document.documentElement.scrollWidth;
  // A short label broken one character per line: taller than two lines and narrower than three characters.
  const broken = [...document.querySelectorAll('.badge, nav a, .round-nav a, .filter a, button, .button')]
    .filter(el => el.offsetParent !== null && el.innerText.trim().length >= 2)
    .filter(el => {
      const style = getComputedStyle(el);
      const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.3;
      const r = el.getBoundingClientRect();
      return r.height > 2.5 * line && r.width < 3 * parseFloat(style.fontSize);
    })
    .map(el => el.innerText.trim().slice(0, 30));
  const clipped = [...document.querySelectorAll('td, th')]
    .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1
                  && getComputedStyle(el).overflowX === 'hidden' && !el.closest('.table-wrap'))
    .map(el => el.innerText.trim().slice(0, 30));
  // A table wider than its box hides its last columns behind a sideways scroll (the result column).
  const hidden = [...document.querySelectorAll('.table-wrap')]
    .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
    .map(el => (el.querySelector('table') || el).className + ' ' + el.scrollWidth + '>' + el.clientWidth);
  return {wide, broken, clipped, hidden};
}"""


def sign_in(page, base: str) -> None:
    page.goto(f"{base}/login/")
    page.locator("#id_username").fill("olga")
    page.locator("#id_password").fill("organiser-pass-1")
    page.locator("form button[type=submit], form input[type=submit]").first.click()
    page.wait_for_load_state()


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_every_page_fits_a_phone_in_every_language(live_server, browser, whole_event, shot, language):  # noqa: F811
    event, players = whole_event(language)
    Player.objects.filter(pk=players[1].pk).update(name=LONGEST[language])
    cache.clear()
    patterns = english_ui(language) if language != "en" else []
    context = browser.new_context(locale={"en": "en-GB", "ja": "ja-JP", "da": "da-DK"}[language], viewport=PHONE)
    context.add_cookies([{"name": "swiss_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    sign_in(page, live_server.url)
    problems = {}
    for name, (who, url) in pages(event, players).items():
        page.goto(live_server.url + url)
        page.wait_for_load_state()
        found = page.evaluate(MEASURE)
        wrong = []
        if name not in NOT_FOR_PHONES and found["wide"] > PHONE["width"]:
            wrong.append(f"{found['wide']} px wide")
        if found["broken"]:
            wrong.append(f"broken one character per line: {found['broken']}")
        if found["clipped"]:
            wrong.append(f"clipped: {found['clipped']}")
        # A player's phone shows a table whole; the organiser's desk tables may scroll inside their box.
        if who != "org" and name not in NOT_FOR_PHONES | GRIDS and found["hidden"]:
            wrong.append(f"scrolls inside: {found['hidden']}")
        if patterns and (left := english_left(page, patterns)):
            wrong.append(f"English: {left}")
        if wrong:
            problems[name] = wrong
            shot(f"{language}-{name.replace(' ', '-')}", page)
    context.close()
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_the_longest_names_are_real_names():
    # The names the widths are tested with are a language's own, not filler.
    assert all(len(name) >= 10 for name in LONGEST.values())
    assert set(NAMES) >= {"ja", "da"}
