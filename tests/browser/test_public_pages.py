"""A player finds their table on a phone; the venue screen follows the event by itself."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Round
from tournament.services.locks import changed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture
def round_two(event):
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    rnd = pair(event, 2, ROUND_2)
    rnd.clock_started = timezone.now() - timedelta(minutes=5)
    rnd.save(update_fields=["clock_started"])
    changed(event)
    return event


def test_player_finds_their_table_by_typing_part_of_their_name(live_server, page, round_two, shot):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/e/{round_two.slug}/pairings/")
    rows = page.locator("#pairings tbody tr")
    expect(rows.filter(visible=True)).to_have_count(8)
    page.get_by_label("Find your name").press_sequentially("yer f")
    visible = rows.filter(visible=True)
    expect(visible).to_have_count(1)
    expect(visible.first).to_contain_text("Player F")
    expect(visible.first.locator(".table-no")).to_have_text("4")
    expect(visible.first).to_contain_text("Player H")
    expect(page.locator("#filter-count")).to_have_text("1 player matches.")
    # No sideways scrolling on a 360-px phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The round clock counts down in the browser from the server's deadline.
    expect(page.locator("#pairings .clock")).to_have_text(re.compile(r"^4[45]:\d\d$"))
    shot("phone-search")
    page.emulate_media(color_scheme="dark")
    shot("phone-search-dark")


def test_search_works_without_javascript(live_server, browser, round_two):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/e/{round_two.slug}/")
    page.get_by_label("Find your table").fill("player c")
    page.get_by_role("button", name="Find").click()
    expect(page).to_have_url(re.compile(r"/pairings/\?q=player\+c$"))
    expect(page.locator("#pairings tbody tr")).to_have_count(1)
    expect(page.locator("#pairings tbody tr")).to_contain_text("Player A")
    context.close()


def test_venue_screen_shows_a_newly_published_round_without_a_reload(live_server, page, event, shot):
    page.set_viewport_size(PROJECTOR)
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    expect(page.locator(".board-title")).to_have_text("Standings after round 1")
    page.evaluate("window.notReloaded = true")
    shot("screen-standings")

    pair(event, 2, ROUND_2, state=Round.State.PAIRED)  # published: changed() bumps the version
    expect(page.locator(".board-title")).to_have_text("Round 2 · pairings by name", timeout=15_000)
    assert page.evaluate("window.notReloaded") is True
    expect(page.locator(".board-list li").filter(has_text=re.compile("^Player H"))).to_contain_text("v Player F")
    shot("screen-pairings")


def test_venue_screen_pages_a_long_list_by_itself(live_server, page, event, shot):
    from tournament.models import Player

    Player.objects.bulk_create(Player(event=event, name=f"Extra {k:03d}") for k in range(300))
    names = sorted(event.players.values_list("name", flat=True))
    pair(event, 1, list(zip(names[::2], names[1::2], strict=True)))
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{live_server.url}/e/{event.slug}/screen/")
    label = page.locator(".board-page")
    expect(label).to_have_text(re.compile(r"^Page 1 of [2-9]$"))
    shot("screen-page-1")
    first = page.locator(".board-list li").filter(visible=True).first.inner_text()
    expect(label).to_have_text(re.compile(r"^Page 2 of"), timeout=15_000)
    assert page.locator(".board-list li").filter(visible=True).first.inner_text() != first


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_fits_a_phone_and_a_projector(live_server, page, round_two, shot, scheme):
    from tournament.models import Event

    Event.objects.filter(pk=round_two.pk).update(top_cut=4)
    changed(round_two)
    page.emulate_media(color_scheme=scheme)
    a = round_two.players.get(name="Player A")
    paths = ["", "pairings/", "standings/", f"players/{a.pk}/", "bracket/", "screen/"]
    for size, viewport in (("phone", PHONE), ("projector", PROJECTOR)):
        page.set_viewport_size(viewport)
        for path in paths:
            page.goto(f"{live_server.url}/e/{round_two.slug}/{path}")
            expect(page.locator("body")).to_contain_text(round_two.name)
            # Nothing runs off the side: wide tables scroll inside their own box.
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], path
            shot(f"{size}-{path.split('/')[0] or 'home'}")


def test_a_searched_link_widens_again_when_the_box_is_cleared(live_server, page, round_two):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/e/{round_two.slug}/pairings/?q=player+c")
    box = page.get_by_label("Find your name")
    expect(box).to_have_value("player c")
    rows = page.locator("#pairings tbody tr")
    # The server sent only the match; the page fetches everybody and keeps filtering in the browser.
    expect(rows).to_have_count(8)
    expect(rows.filter(visible=True)).to_have_count(1)
    box.fill("")
    expect(rows.filter(visible=True)).to_have_count(8)


def test_a_phone_coming_back_to_the_page_sees_changes_at_once(live_server, page, round_two):
    from tournament.models import Match

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/e/{round_two.slug}/pairings/")
    row = page.locator('#pairings tr[data-name="Player F"]')
    expect(row).not_to_contain_text("won")
    Match.objects.filter(round__event=round_two, round__number=2, table=4).update(games_a=2, games_b=0, games_drawn=0)
    changed(round_two)
    # The tab becomes visible again (the phone was in a pocket): no waiting for the next 15-s poll.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(row.locator("td.score")).to_contain_text("2-0 · Player F won", timeout=5_000)
