"""Names and grids on a 360-px phone as their readers write them: a crosstable's names on one line and the
grid scrolling inside its box (not the page), names unbroken on the organiser's round and standings pages,
a player code whole on its card, and a slip's QR code whole inside its border."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.test_i18n_pages import PHONE
from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Event, Match, Player, Report, Round
from tournament.services.locks import changed

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
def japanese_event(event, organiser):
    """The Friday event with Japanese names, round 1 finished and round 2 being played."""
    for p, name in zip(event.players.order_by("number"), JAPANESE, strict=True):
        Player.objects.filter(pk=p.pk).update(name=name)
    Event.objects.filter(pk=event.pk).update(language="ja")
    names = dict(zip([f"Player {c}" for c in "ABCDEFGH"], JAPANESE, strict=True))
    rename = lambda pairs: [(names[a], names[b]) for a, b in pairs]  # noqa: E731
    pair(event, 1, rename(ROUND_1), state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    rnd = pair(event, 2, rename(ROUND_2))
    # Two results in, one from a phone: the result column then holds "2-1" and who entered it.
    first, second = rnd.matches.order_by("table")[:2]
    Match.objects.filter(pk=first.pk).update(games_a=2, games_b=1, games_drawn=0, entered_by_player=first.player_a)
    Match.objects.filter(pk=second.pk).update(games_a=0, games_b=2, games_drawn=0, entered_by=organiser)
    # A report waiting for the opponent: the result column then says who reported what.
    third = rnd.matches.get(table=3)
    Report.objects.create(match=third, player=third.player_a, games_a=2, games_b=0, games_drawn=0)
    changed(event)
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


# Each name's words (its family and given names) and the lines each word's letters stand on: a word on two
# lines is a name split inside itself (斉藤 美/穂, サ/イトウ).
SPLIT_WORDS = """(selector) => {
  const split = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.offsetParent === null) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let text = '', tops = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        text += node.data[i]; tops.push(rect ? Math.round(rect.top) : null);
      }
    }
    let start = 0;
    for (const word of text.split(/\\s/)) {
      const lines = new Set(tops.slice(start, start + word.length).filter(t => t !== null));
      if (word && lines.size > 1) split.push(text.trim() + ': ' + word);
      start += word.length + 1;
    }
  }
  return split;
}"""


def sign_in(page, base: str) -> None:
    page.goto(f"{base}/login/")
    page.locator("#id_username").fill("olga")
    page.locator("#id_password").fill("organiser-pass-1")
    page.locator("form button[type=submit], form input[type=submit]").first.click()
    page.wait_for_load_state()


@pytest.mark.parametrize(
    ("view", "names"),
    [("round", ".players-cell .pa, .players-cell .pb"), ("standings", "table.standings td.name")],
)
def test_a_japanese_name_is_never_split_inside_itself(live_server, browser, shot, japanese_event, view, names):
    """At 360 px the organiser's round and standings pages split names inside a given name ("斉藤 美/穂",
    "サ/イトウ"): a name breaks, if it must, only between its family and given names."""
    context, page = japanese_phone(browser, live_server)
    sign_in(page, live_server.url)
    url = {
        "round": f"/events/{japanese_event.slug}/rounds/2/",
        "standings": f"/events/{japanese_event.slug}/standings/",
    }
    page.goto(live_server.url + url[view])
    expect(page.locator(names).first).to_be_visible()
    split = page.evaluate(SPLIT_WORDS, names)
    shot(f"ja-{view}", page)
    assert split == [], split
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


ONE_LINE = """(selector) => [...document.querySelectorAll(selector)].map(el => {
  const style = getComputedStyle(el), r = el.getBoundingClientRect();
  const box = el.closest('.player-card, main, body').getBoundingClientRect();
  return {text: el.innerText.trim(), lines: Math.round(r.height / parseFloat(style.lineHeight)),
          inside: r.right <= box.right + 0.5 && el.scrollWidth <= el.clientWidth + 1};
})"""


def test_a_player_code_stays_on_one_line(live_server, browser, shot, japanese_event):
    """The code on a player's card ("12-ACEF-HJKM") wrapped mid-code: a player typing it from two lines
    misreads it."""
    for k, p in enumerate(japanese_event.players.order_by("pk")):
        Player.objects.filter(pk=p.pk).update(number=2040 + k)  # four digits: the widest a venue gives
    first = japanese_event.players.order_by("pk").first()
    context, page = japanese_phone(browser, live_server)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/events/{japanese_event.slug}/players/{first.pk}/card/")
    codes = page.evaluate(ONE_LINE, ".big-code")
    shot("card-360", page)
    assert codes and all(c["lines"] == 1 and c["inside"] for c in codes), codes
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.emulate_media(media="print")
    page.goto(f"{live_server.url}/events/{japanese_event.slug}/print/cards/")
    codes = page.evaluate(ONE_LINE, ".card-code")
    shot("cards-print", page)
    assert len(codes) == 8 and all(c["lines"] == 1 and c["inside"] for c in codes), codes
    context.close()


QR_INSIDE = """() => [...document.querySelectorAll('.slip')].map(slip => {
  const s = slip.getBoundingClientRect(), q = slip.querySelector('.slip-qr svg').getBoundingClientRect();
  const border = parseFloat(getComputedStyle(slip).borderBottomWidth) || 0;
  return {top: q.top >= s.top, bottom: q.bottom <= s.bottom - border + 0.5, right: q.right <= s.right + 0.5};
})"""


@pytest.mark.parametrize("media", ["screen", "print"])
def test_a_slips_qr_code_is_whole_inside_its_border(live_server, browser, shot, japanese_event, media):
    """The QR code of a match slip floated below the table and was cut by the slip's border, on screen and in
    print: its bottom-left finder square was gone, and a phone could not read it."""
    Event.objects.filter(pk=japanese_event.pk).update(reporting=Event.Reporting.CONFIRM)
    context, page = japanese_phone(browser, live_server)
    sign_in(page, live_server.url)
    page.set_viewport_size({"width": 794, "height": 1123})
    page.emulate_media(media=media)
    page.goto(f"{live_server.url}/events/{japanese_event.slug}/rounds/2/print/slips/")
    found = page.evaluate(QR_INSIDE)
    shot(f"slips-{media}", page)
    assert len(found) == 4 and all(all(q.values()) for q in found), found
    context.close()
