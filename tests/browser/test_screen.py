"""The venue screen, read from the back of the room: as large as the screen allows, every name whole.

At each common screen size and event size the test measures what a person at the back would see: no name
or opponent cut (a cell's scrollWidth within its clientWidth), the letters' rendered height, every row
reachable (paging only when the rows truly do not fit), and nothing off the bottom or the side.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.web.public.test_public import pair
from tournament.models import Event, Match, Player, Round
from tournament.services.locks import changed

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

# Names as a real 14-player event has them: the longest here is 21 characters.
REAL_NAMES = [
    "Hannah Müller",
    "Alice Archer",
    "Bob O’Brien",
    "Chiara Rossi",
    "Dmitri Volkov",
    "Emeka Okafor",
    "Freya Lindqvist",
    "Gabriel Souza",
    "Hana Kim",
    "Ines Duarte",
    "Jonas Weber",
    "Katarzyna Wiśniewska",
    "Lars Østergaard",
    "Mateo García",
]

# A visible row's cells, their text fitting (scrollWidth <= clientWidth), and the rendered height of the names:
# the height of a name's line box and its font size, and whether the secondary cells (opponent, tie-breakers)
# are shown and where.
MEASURE = """() => {
  const list = document.querySelector('.board-list');
  const rows = [...list.querySelectorAll(':scope > li')].filter(li => !li.hidden);
  const cut = [];
  for (const li of rows) for (const cell of li.children)
    if (cell.offsetParent !== null && cell.scrollWidth > cell.clientWidth)
      cut.push(cell.textContent + ' ' + cell.scrollWidth + '>' + cell.clientWidth);
  const names = rows.map(li => li.querySelector('.name'));
  const heights = names.map(n => n.getBoundingClientRect().height);
  const bottom = Math.max(...rows.map(li => li.getBoundingClientRect().bottom));
  const subs = rows.map(li => li.querySelector('.sub')).filter(Boolean);
  return {names: names.map(n => n.textContent), cut, minHeight: Math.min(...heights),
          namePx: parseFloat(getComputedStyle(names[0]).fontSize),
          mode: ['stacked', 'brief', 'primary'].find(m => list.classList.contains(m)) || 'inline',
          subsShown: subs.filter(s => s.offsetParent !== null).length,
          columns: new Set(rows.map(li => Math.round(li.getBoundingClientRect().left))).size,
          bottom, scrollWidth: document.documentElement.scrollWidth};
}"""


def big_event(count: int, names: list[str] | None = None) -> Event:
    event = Event.objects.create(slug=f"big-{count}", name="Saturday Open", tiebreakers=["omw", "gw", "ogw"])
    names = names or LONG_NAMES + [f"Player {k:03d} Sørensen" for k in range(count - len(LONG_NAMES))]
    Player.objects.bulk_create(Player(event=event, name=n) for n in names)
    ordered = sorted(names)
    pair(event, 1, list(zip(ordered[::2], ordered[1::2], strict=True)), state=Round.State.PAIRED)
    return event


def round_over(event: Event) -> Event:
    """Every result of round 1 in: the screen shows the standings."""
    Match.objects.filter(round__event=event).update(games_a=2, games_b=1, games_drawn=0)
    Round.objects.filter(event=event).update(state=Round.State.COMPLETE)
    changed(event)
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
    print(
        f"{width}x{height}, {count} players: {measures[0]['minHeight']:.1f} px high, {len(measures)} page(s), "
        f"{measures[0]['columns']} column(s), secondary {measures[0]['mode']}"
    )
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


@pytest.mark.parametrize("view", ["pairings", "standings"])
@pytest.mark.parametrize("names", ["real", "long"])
def test_fourteen_players_read_from_the_back_of_the_room(live_server, page, shot, names, view):
    """The event of the report: 14 players on 1920x1080 used 4 narrow columns in the top 180 px, with names
    24 px high and cut. Now the names are about three times as high, and the opponent or the tie-breakers
    move to a smaller line under the name (or out) where keeping them in the row would make the names smaller."""
    event = big_event(14, REAL_NAMES if names == "real" else None)
    if view == "standings":
        round_over(event)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(f".board-list.{view}.fitted")).to_be_visible()
    m = page.evaluate(MEASURE)
    shot(f"fourteen-{names}-{view}")
    print(
        f"14 players, {names} names, {view}: {m['minHeight']:.1f} px high (font {m['namePx']:.1f} px), "
        f"{m['columns']} column(s), secondary {m['mode']} ({m['subsShown']} shown)"
    )
    assert m["cut"] == [], m["cut"]
    assert sorted(m["names"]) == sorted(event.players.values_list("name", flat=True))
    assert m["bottom"] <= 1080 and m["scrollWidth"] <= 1920
    if names == "real" and view == "pairings":
        # Three times the old board's 24 px: two columns of name and table, the opponents left out.
        assert m["minHeight"] >= 3 * 24, m
    elif names == "real":
        # Rank, name and points share the line, so the longest name (21 characters) is the limit: 2.8x.
        assert m["minHeight"] >= 2.75 * 24, m
    else:
        # Deliberately long names (up to 30 characters, whole in every row) leave less room: still 2.2x.
        assert m["minHeight"] >= 2.2 * 24, m
    # The rows use the screen's height, not a strip at the top.
    assert m["bottom"] >= 1080 * 0.75


@pytest.mark.parametrize("count", [8, 64, 512])
def test_standings_fit_or_page_at_1080p(live_server, page, shot, count):
    event = round_over(big_event(count))
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-list.standings.fitted")).to_be_visible()
    shot(f"standings-{count}")
    seen, measures = read_every_page(page, page.viewport_size)
    assert sorted(seen) == sorted(event.players.values_list("name", flat=True))
    for m in measures:
        assert m["cut"] == [], m["cut"][:5]
        assert m["bottom"] <= 1080 and m["scrollWidth"] <= 1920
        assert m["minHeight"] >= 1080 / 48, m
    print(
        f"standings, {count} players: {measures[0]['minHeight']:.1f} px high, {len(measures)} page(s), "
        f"{measures[0]['columns']} column(s), secondary {measures[0]['mode']}"
    )
    if count == 8:
        assert measures[0]["minHeight"] >= 1080 / 20
    if count == 512:
        assert len(measures) > 1


def test_the_screen_shows_which_tables_are_still_playing(live_server, page, shot):
    event = big_event(8)
    rnd = event.rounds.get()
    Match.objects.filter(round=rnd, table__in=[1, 2, 4]).update(games_a=2, games_b=1, games_drawn=0)
    changed(event)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-playing")).to_have_text("Still playing: table 3")
    done = page.locator(".board-list li.done")
    expect(done).to_have_count(6)
    shot("playing")


def test_standings_and_the_final_placings_fit_too(live_server, page, shot):
    event = round_over(big_event(64))
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


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_the_winner_with_the_longest_name_fits_the_final_placings(live_server, page, shot, width, height):
    """The winner's row is marked, not enlarged: a winner with the longest name stays within its column."""
    event = round_over(big_event(14))
    Event.objects.filter(pk=event.pk).update(top_cut=2)
    pair(
        event,
        2,
        [("Jean-Baptiste Delacroix-Moreau", "Bob O’Brien")],
        state=Round.State.COMPLETE,
        kind=Round.Kind.ELIMINATION,
        results={1: (2, 1, 0)},
    )
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-winner")).to_contain_text("Jean-Baptiste Delacroix-Moreau wins the event")
    expect(page.locator(".board-list.placings.fitted")).to_be_visible()
    m = page.evaluate(MEASURE)
    shot(f"placings-{width}x{height}")
    assert m["names"][0] == "Jean-Baptiste Delacroix-Moreau" and len(m["names"]) == 14
    assert m["cut"] == [], m["cut"]
    assert m["scrollWidth"] <= width and m["bottom"] <= height
    # Every row within its column of the grid, the winner's too.
    widths = page.evaluate(
        """() => { const list = document.querySelector('.board-list'), style = getComputedStyle(list);
          const cols = style.gridTemplateColumns.split(' ').map(parseFloat);
          return [...list.children].map(li => [li.scrollWidth, Math.max(...cols)]); }"""
    )
    assert all(row <= column + 0.5 for row, column in widths), widths


BOARDS = """() => {
  const list = document.querySelector('.board-list');
  const rows = [...list.querySelectorAll(':scope > li')].filter(li => !li.hidden);
  const cut = [];
  for (const li of rows) for (const cell of li.children)
    if (cell.offsetParent !== null && cell.scrollWidth > cell.clientWidth) cut.push(cell.textContent);
  const shown = el => el && el.offsetParent !== null && el.getBoundingClientRect().width > 0;
  return {boards: rows.map(li => [...li.children].map(c => shown(c) ? c.textContent.trim() : null)), cut,
          legend: [...document.querySelectorAll('.board-legend .legend-row')].map(r => [...r.children].map(c => c.textContent)),
          bottom: Math.max(...rows.map(li => li.getBoundingClientRect().bottom)),
          scrollWidth: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("count", [16, 200])
@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_a_chess_screen_shows_board_white_and_black(live_server, page, shot, width, height, count):
    """A chess round on the screen read as a card game's: a player's name and table, the opponent dropped at
    every size that mattered. A chess screen lists boards: the number, White and Black, every name whole."""
    event = Event.objects.create(
        slug=f"chess-{count}",
        name="Club Open",
        preset="chess",
        colours=True,
        best_of=1,
        win_points="1",
        draw_points="1/2",
        tiebreakers=["BH-C1", "BH"],
    )
    names = LONG_NAMES + [f"Player {k:03d} Sørensen" for k in range(count - len(LONG_NAMES))]
    Player.objects.bulk_create(Player(event=event, name=n) for n in names)
    pair(event, 1, list(zip(names[::2], names[1::2], strict=True)), state=Round.State.PAIRED)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-list.boards.fitted")).to_be_visible()
    shot(f"chess-{width}x{height}-{count}")
    label = page.locator(".board-page")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    text = label.inner_text()
    pages = int(re.fullmatch(r"Page 1 of (\d+)", text).group(1)) if text else 1
    seen = []
    for number in range(1, pages + 1):
        if number > 1:
            page.keyboard.press("ArrowRight")
            expect(label).to_have_text(f"Page {number} of {pages}")
        m = page.evaluate(BOARDS)
        assert m["cut"] == [] and m["bottom"] <= height and m["scrollWidth"] <= width, m["cut"][:3]
        assert all(legend == ["Board", "White", "Black"] for legend in m["legend"]), m["legend"]
        seen += m["boards"]
    pairs = zip(names[::2], names[1::2], strict=True)
    expected = [[str(k), white, black] for k, (white, black) in enumerate(pairs, start=1)]
    assert seen == expected
