"""A venue's screen read from 5 m at 1080p, whatever its sections and divisions (docs/sections.md, "Public pages"):
a section joined into its partner has no board of its own (its players are on the partner's, by division), and
no text on the screen is set below 20 px, in turns or side by side: boards page through their rows instead.

Why 20 px: at 1080 lines a 55-inch screen is about 68 cm tall, 0.63 mm a pixel, so 20-px type has capitals
about 9 mm high, some 6 minutes of arc at 5 m: above the 5 minutes a person with normal sight resolves a
letter at. The names, tables and points are larger still (a 46th of the height, 23.5 px, public.js)."""

import pytest
from playwright.sync_api import expect

from tournament.models import Event, Player, Round
from tournament.services.results import parse_outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round
from tournament.services.sections import add_section

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FLOOR_PX = 20
SCREEN = {"width": 1920, "height": 1080}

# The smallest computed font size of every text node a person sees on the screen, and the texts set below the
# floor (with their size and tag).
SMALLEST = """(floor) => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let smallest = Infinity; const small = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || !el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (!box.width || !box.height || box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    smallest = Math.min(smallest, size);
    if (size < floor - 0.01) small.push(`${text.slice(0, 30)} (${el.tagName}.${el.className}): ${size.toFixed(1)} px`);
  }
  return {smallest, small};
}"""


def play_all(rnd: Round, by) -> None:
    for m in rnd.matches.filter(player_b__isnull=False).order_by("table"):
        record_result(m, parse_outcome("2-0", rnd.event.best_of), by)


@pytest.fixture
def venue_day(organiser) -> Event:
    """Juniors (5) joined into Seniors (9), standings by division; Masters (40) and a chess Open (16) mid-round."""
    root = Event.objects.create(slug="regionals", name="Regionals", planned_rounds=4, public=True)
    sections = {}
    for name, preset, count in (("Juniors", "pokemon", 5), ("Seniors", "pokemon", 9), ("Masters", "pokemon", 40)) + (
        ("Open", "chess", 16),
    ):
        section = add_section(root, name, organiser, preset=preset, planned_rounds=4)
        Player.objects.bulk_create(
            Player(event=section, name=f"{name} Kristoffersen-Yamamoto {k:02}", rating=2000 - k) for k in range(count)
        )
        sections[name] = section
    Event.objects.filter(pk=sections["Juniors"].pk).update(pair_with=sections["Seniors"], pair_with_below=8)
    seniors = pair_next_round(Event.objects.get(pk=sections["Juniors"].pk), organiser)
    publish_round(seniors, organiser)
    play_all(seniors, organiser)  # between rounds: the combined board shows each division's standings
    for name in ("Masters", "Open"):
        rnd = pair_next_round(sections[name], organiser)
        publish_round(rnd, organiser)
    return root


def check_screen(page) -> dict:
    page.wait_for_timeout(300)  # one layout pass after the last board arrived
    found = page.evaluate(SMALLEST, FLOOR_PX)
    assert not found["small"], found["small"][:10]
    assert found["smallest"] >= FLOOR_PX
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
    return found


def test_in_turns_no_text_on_the_screen_is_smaller_than_the_floor(live_server, page, shot, venue_day):
    page.set_viewport_size(SCREEN)
    page.goto(f"{live_server.url}/e/{venue_day.slug}/screen/?layout=turns")
    panels = page.locator(".venue .panel")
    expect(panels).to_have_count(3)  # Juniors play on the Seniors' board: no panel of their own
    assert "Juniors" not in [panels.nth(k).get_attribute("aria-label") for k in range(3)]
    seen = set()
    for step in range(8):
        if step:
            page.keyboard.press("ArrowRight")
        expect(page.locator(".venue .panel:not([hidden]):not(.pending) .board-list.fitted")).to_be_visible()
        name = page.locator(".venue .panel:not([hidden])").get_attribute("aria-label")
        seen.add(name)
        if name == "Seniors":
            board = page.locator(".venue .panel:not([hidden])")
            expect(board.locator("li.division").first).to_be_visible()
        check_screen(page)
        shot(f"turn-{step}-{name}")
    assert seen == {"Seniors", "Masters", "Open"}


def test_side_by_side_no_text_on_the_screen_is_smaller_than_the_floor(live_server, page, shot, venue_day):
    page.set_viewport_size(SCREEN)
    page.goto(f"{live_server.url}/e/{venue_day.slug}/screen/?layout=side")
    expect(page.locator(".venue .panel")).to_have_count(3)
    expect(page.locator(".venue .panel .board-list.fitted")).to_have_count(3)
    check_screen(page)
    shot("side")
    # Every board has the room its rows need: none narrower than a readable list, none running off the screen.
    boxes = page.evaluate(
        "[...document.querySelectorAll('.venue .panel')].map(p => p.getBoundingClientRect().toJSON())"
    )
    for box in boxes:
        assert box["width"] >= 500 and box["right"] <= SCREEN["width"] + 0.5 and box["bottom"] <= SCREEN["height"] + 0.5
