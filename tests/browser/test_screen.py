"""The venue screen, read from the back of the room: as large as the screen allows, every name whole.

At each common screen size and event size the test measures what a person at the back would see: no name
or opponent cut (a cell's scrollWidth within its clientWidth), the letters' rendered height, every row
reachable (paging only when the rows truly do not fit), and nothing off the bottom or the side.
"""

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.test_public import pair
from tournament import services
from tournament.models import Event, Match, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [(1280, 720), (1920, 1080), (3840, 2160)]
# Real names run long; the screen must show the longest whole.
LONG_NAMES = [
    "Hannah Müller-Lüdenscheid",
    "Alice Archer-Fitzwilliam",
    "Bob O’Brien",
    "Jean-Baptiste Delacroix-Moreau",
    "Zoë Ødegaard",
]

# A visible row's cells, their text fitting (scrollWidth <= clientWidth), and the rendered height of the names.
MEASURE = """() => {
  const rows = [...document.querySelectorAll('.board-list li')].filter(li => !li.hidden);
  const cut = [];
  for (const li of rows) for (const cell of li.children)
    if (cell.scrollWidth > cell.clientWidth) cut.push(cell.textContent + ' ' + cell.scrollWidth + '>' + cell.clientWidth);
  const heights = rows.map(li => li.querySelector('.name').getBoundingClientRect().height);
  const bottom = Math.max(...rows.map(li => li.getBoundingClientRect().bottom));
  return {names: rows.map(li => li.querySelector('.name').textContent), cut, minHeight: Math.min(...heights),
          bottom, scrollWidth: document.documentElement.scrollWidth,
          fontSize: document.querySelector('.board-list').style.fontSize};
}"""


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def big_event(count: int) -> Event:
    event = Event.objects.create(slug=f"big-{count}", name="Saturday Open", tiebreakers=["omw", "gw", "ogw"])
    names = LONG_NAMES + [f"Player {k:03d} Sørensen" for k in range(count - len(LONG_NAMES))]
    Player.objects.bulk_create(Player(event=event, name=n) for n in names)
    ordered = sorted(names)
    pair(event, 1, list(zip(ordered[::2], ordered[1::2], strict=True)), state=Round.State.PAIRED)
    return event


def read_every_page(page, viewport) -> tuple[list[str], list[dict]]:
    """Each page of the screen as measured; the arrow key turns the page as a person at the laptop would."""
    label = page.locator(".board-page")
    # A key turns the page and restarts the 12-s period, so the screen does not turn a page while being read.
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    text = label.inner_text()
    pages = int(re.fullmatch(r"Page 1 of (\d+)", text).group(1)) if text else 1
    seen, measures = [], []
    for number in range(1, pages + 1):
        if number > 1:
            page.keyboard.press("ArrowRight")
            expect(label).to_have_text(f"Page {number} of {pages}")
        m = page.evaluate(MEASURE)
        seen += m["names"]
        measures.append(m)
    return seen, measures


@pytest.mark.parametrize("count", [8, 64, 512])
@pytest.mark.parametrize("width,height", SCREENS)
def test_every_name_whole_and_as_large_as_the_screen_allows(live_server, page, shot, width, height, count):
    event = big_event(count)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-list.fitted")).to_be_visible()
    shot(f"{width}x{height}-{count}")
    seen, measures = read_every_page(page, page.viewport_size)
    # Every player is on some page, exactly once.
    assert sorted(seen) == sorted(event.players.values_list("name", flat=True))
    for m in measures:
        assert m["cut"] == [], m["cut"][:5]
        assert m["bottom"] <= height
        assert m["scrollWidth"] <= width
        # Legible from the back of the room: the smallest letters the screen uses are a 48th of its height.
        assert m["minHeight"] >= height / 48, m["minHeight"]
    if count == 8:
        # A small event fills the screen: letters at least a 20th of the screen's height (54 px at 1080p).
        assert measures[0]["minHeight"] >= height / 20
    if len(measures) > 1:
        # Paging only when the rows do not fit: the first page is full, at the smallest legible size.
        assert measures[0]["minHeight"] < height / 30
        assert measures[0]["bottom"] >= height * 0.9


def test_fourteen_players_fill_the_screen_instead_of_a_strip(live_server, page, shot):
    """The event of the report: 14 players on 1920x1080 used 4 narrow columns in the top 180 px."""
    event = big_event(14)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-list.fitted")).to_be_visible()
    m = page.evaluate(MEASURE)
    shot("fourteen")
    assert m["cut"] == []
    assert len(m["names"]) == 14
    # The old board's names were 24 px high and cut; now whole and about twice as high.
    assert m["minHeight"] >= 45
    # The rows use the screen's height, not a strip at the top.
    assert m["bottom"] >= 1080 * 0.75


def test_the_screen_shows_which_tables_are_still_playing(live_server, page, shot):
    event = big_event(8)
    rnd = event.rounds.get()
    Match.objects.filter(round=rnd, table__in=[1, 2, 4]).update(games_a=2, games_b=1, games_drawn=0)
    services.changed(event)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-playing")).to_have_text("Still playing: table 3")
    done = page.locator(".board-list li.done")
    expect(done).to_have_count(6)
    shot("playing")


def test_standings_and_the_final_placings_fit_too(live_server, page, shot):
    event = big_event(64)
    Match.objects.filter(round__event=event).update(games_a=2, games_b=0, games_drawn=0)
    Round.objects.filter(event=event).update(state=Round.State.COMPLETE)
    services.changed(event)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-title")).to_have_text("Standings after round 1")
    expect(page.locator(".board-list.standings.fitted")).to_be_visible()
    seen, measures = read_every_page(page, page.viewport_size)
    assert len(seen) == 64
    for m in measures:
        assert m["cut"] == [], m["cut"][:5]
        assert m["minHeight"] >= 720 / 48, m
    shot("standings")
