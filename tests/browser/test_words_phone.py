"""Names and grids on a 360-px phone as their readers write them: a crosstable's names on one line and the
grid scrolling inside its box (not the page), names unbroken on the organiser's round and standings pages,
a player code whole on its card, and a slip's QR code whole inside its border."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.test_i18n_pages import PHONE
from tests.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Event, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

JAPANESE = [
    "斉藤 美穂",
    "勅使河原 三郎右衛門",
    "サイトウ ミホ",
    "高橋 湊",
    "佐藤 蓮",
    "鈴木 陽菜",
    "田中 結衣",
    "渡辺 健",
]


@pytest.fixture
def japanese_event(event):
    """The Friday event with Japanese names, round 1 finished and round 2 being played."""
    for p, name in zip(event.players.order_by("number"), JAPANESE, strict=True):
        Player.objects.filter(pk=p.pk).update(name=name)
    Event.objects.filter(pk=event.pk).update(language="ja")
    names = dict(zip([f"Player {c}" for c in "ABCDEFGH"], JAPANESE, strict=True))
    rename = lambda pairs: [(names[a], names[b]) for a, b in pairs]  # noqa: E731
    pair(event, 1, rename(ROUND_1), state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, rename(ROUND_2))
    event.refresh_from_db()
    return event


def japanese_phone(browser, live_server):
    context = browser.new_context(locale="ja-JP", viewport=PHONE)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ja", "url": live_server.url}])
    return context, context.new_page()


# Every cell of the table: the name cells' line count, any cell whose text is cut, how wide the page scrolls,
# and whether the grid scrolls inside its own box.
GRID = """(selector) => {
  const table = document.querySelector(selector);
  const lines = el => {
    const style = getComputedStyle(el);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.6;
    return Math.round((el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / line);
  };
  const names = [...table.querySelectorAll('th[scope=row]')];
  const cut = [...table.querySelectorAll('th, td')].filter(el => el.scrollWidth > el.clientWidth + 1)
    .map(el => el.innerText.trim());
  const wrap = table.closest('.table-wrap');
  return {names: names.map(n => [n.innerText.trim(), lines(n)]), cut,
          page: document.documentElement.scrollWidth, scrolls: wrap.scrollWidth > wrap.clientWidth,
          headers: [...table.querySelectorAll('thead th')].map(th => th.innerText.trim())};
}"""


def test_a_japanese_crosstable_keeps_names_whole_and_scrolls_inside_its_box(live_server, browser, shot, japanese_event):
    """On a Japanese phone the crosstable broke names one character per line and cut OMW%."""
    context, page = japanese_phone(browser, live_server)
    page.goto(f"{live_server.url}/e/{japanese_event.slug}/crosstable/")
    expect(page.locator("table.crosstable")).to_be_visible()
    m = page.evaluate(GRID, "table.crosstable")
    shot("ja-crosstable", page)
    assert all(lines == 1 for _name, lines in m["names"]), m["names"]
    assert m["cut"] == [] and "OMW%" in m["headers"], m
    assert m["page"] <= PHONE["width"] and m["scrolls"]
    context.close()
