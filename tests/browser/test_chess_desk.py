"""A chess round in the browser: the desk types ½ and sees ½-½; a phone at 360 px reads its colour
on the pairings in Japanese, and the crosstable, without the page scrolling sideways."""

import pytest
from playwright.sync_api import expect

from tests.web.organiser.test_chess_desk import games, play_round
from tournament.services.results import parse_outcome, record_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def test_the_desk_types_a_half_and_the_phone_reads_its_colour(live_server, page, chess, organiser, shot):
    rnd = play_round(chess, organiser)
    first, *_ = games(rnd)
    page.set_viewport_size({"width": 1024, "height": 800})
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/events/{chess.slug}/rounds/1/")
    expect(page.locator("#tf-hint")).to_contain_text("½-½ (=, ½, 1/2, 0.5-0.5)")
    page.keyboard.type(str(first.table))
    page.keyboard.press("Enter")
    page.keyboard.type("½")
    page.keyboard.press("Enter")
    expect(page.locator(f"#matches tr.match[data-table='{first.table}'] .result-label")).to_have_text("½-½")
    shot("desk")

    for m in games(rnd)[1:]:
        record_result(m, parse_outcome("1-0", 1, True), organiser)
    phone = page.context.browser.new_page(viewport=PHONE, locale="ja-JP", extra_http_headers={"Accept-Language": "ja"})
    phone.goto(f"{live_server.url}/e/{chess.slug}/pairings/")
    row = phone.locator(f'#pairings tr[data-name="{first.player_a.name}"]')
    expect(row).to_contain_text("白")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.goto(f"{live_server.url}/e/{chess.slug}/crosstable/")
    expect(phone.locator("table.crosstable tbody tr")).to_have_count(6)
    expect(phone.locator("table.crosstable")).to_contain_text("白½")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the page scrolls sideways"
    shot("phone-crosstable")
    phone.close()
