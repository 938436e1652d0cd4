"""A venue's screen (docs/sections.md, "Public pages"): a shell of the sections whose boards public.js fetches one
by one, in turns or side by side, each fitted as an event's own screen is (tests/browser/test_screen.py)."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_screen import LONG_NAMES, round_over
from tests.web.public.test_public import pair
from tournament.models import Event, Player, Round
from tournament.services.sections import add_section

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each visible board of the screen: its section's name, whether it shows rows, any cell cut (scrollWidth beyond
# clientWidth), and how far its rows reach.
MEASURE = """() => [...document.querySelectorAll('.venue .panel')].filter(p => !p.hidden).map(panel => {
  const rows = [...panel.querySelectorAll('.board-list > li')].filter(li => !li.hidden);
  const cut = [];
  for (const li of rows) for (const cell of li.children)
    if (cell.offsetParent !== null && cell.scrollWidth > cell.clientWidth)
      cut.push(cell.textContent + ' ' + cell.scrollWidth + '>' + cell.clientWidth);
  const box = panel.getBoundingClientRect();
  return {name: panel.getAttribute('aria-label'), pending: panel.classList.contains('pending'),
          names: rows.map(li => li.querySelector('.name').textContent), cut,
          minHeight: Math.min(...rows.map(li => li.querySelector('.name').getBoundingClientRect().height)),
          bottom: Math.max(0, ...rows.map(li => li.getBoundingClientRect().bottom)),
          right: box.right, left: box.left, scrollWidth: document.documentElement.scrollWidth};
})"""


@pytest.fixture
def three_sections(organiser) -> Event:
    """Open plays round 1 (long names), Juniors is between rounds (standings), Seniors waits for round 1."""
    root = Event.objects.create(slug="regionals", name="Regionals", planned_rounds=3)
    made = {}
    for name, count in (("Open", 12), ("Juniors", 10), ("Seniors", 6)):
        section = add_section(root, name, organiser, tiebreakers=["omw", "gw", "ogw"], planned_rounds=3)
        names = (LONG_NAMES + [f"{name} Player {k:02d} Sørensen" for k in range(count)])[:count]
        Player.objects.bulk_create(Player(event=section, name=n) for n in names)
        made[name] = section, sorted(names)
    for name in ("Open", "Juniors"):
        section, names = made[name]
        pair(section, 1, list(zip(names[::2], names[1::2], strict=True)), state=Round.State.PAIRED)
    round_over(made["Juniors"][0])
    return root


def shown_boards(page) -> list[dict]:
    return page.evaluate(MEASURE)


def assert_fitted(board: dict, width: int, height: int) -> None:
    assert board["cut"] == [], board["cut"][:5]
    assert board["bottom"] <= height and board["scrollWidth"] <= width
    if board["names"]:
        assert board["minHeight"] >= height / 48, board


def test_in_turns_each_sections_board_shows_in_its_turn_fitted(live_server, page, shot, three_sections):
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/screen/panel/" in r.url else None)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/e/{three_sections.slug}/screen/?layout=turns")
    seen = {}
    for turn in range(3):
        if turn:
            page.keyboard.press("ArrowRight")  # each board fits one page: the key moves to the next section
        expect(page.locator(".venue .panel:not([hidden]):not(.pending)")).to_have_count(1)
        expect(page.locator(".venue .panel:not([hidden]) .board-title")).to_be_visible()
        (board,) = shown_boards(page)
        if board["name"] != "Seniors":
            expect(page.locator(".venue .panel:not([hidden]) .board-list.fitted")).to_be_visible()
            (board,) = shown_boards(page)
        shot(f"turn-{board['name']}")
        assert_fitted(board, 1920, 1080)
        seen[board["name"]] = board["names"]
        if turn == 0:
            # Only the board on turn and the next were asked for, also once the hidden boards' 5-s polls came
            # due (they are not sent); the third waits for its turn.
            page.wait_for_timeout(5500)
            assert not any("regionals-seniors" in url for url in asked), asked
    assert set(seen) == {"Open", "Juniors", "Seniors"}
    assert len(seen["Open"]) == 12 and len(seen["Juniors"]) == 10 and seen["Seniors"] == []
    expect(page.locator(".venue .panel:not([hidden])")).to_contain_text("Waiting for round 1")


def test_side_by_side_every_sections_board_shows_at_once_fitted(live_server, page, shot, three_sections):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/e/{three_sections.slug}/screen/?layout=side")
    expect(page.locator(".venue .panel:not(.pending)")).to_have_count(3)
    expect(page.locator(".venue .panel .board-list.fitted")).to_have_count(2)
    shot("side")
    boards = shown_boards(page)
    assert [b["name"] for b in boards] == ["Open", "Juniors", "Seniors"]
    for board in boards:
        assert_fitted(board, 1920, 1080)
    assert [len(b["names"]) for b in boards] == [12, 10, 0]
    # Side by side: each board in its own column, left to right.
    assert boards[0]["right"] <= boards[1]["left"] + 1 and boards[1]["right"] <= boards[2]["left"] + 1
