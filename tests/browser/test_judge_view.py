"""The judge's round page during self-reporting: it follows two phones' dispute by
itself while the judge types, and fits a 360 px phone."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_self_report_flow import PHONE, log_in, open_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_judges_page_shows_a_dispute_by_itself_and_keeps_what_the_judge_types(
    live_server, browser, page, live, shot
):
    base = live_server.url
    players = {p.name: p for p in live.players.all()}
    log_in(page, base, "jules", "judge-pass-1")
    page.goto(f"{base}/events/{live.slug}/rounds/2/")
    expect(page.get_by_role("link", name="Disputed (0)")).to_be_visible()
    # The judge is half-way through typing table 4's result at the keyboard.
    page.locator("#tf-table").fill("4")
    page.locator("#tf-table").press("Enter")
    expect(page.locator("#tf-result")).to_be_focused()
    page.keyboard.type("2-")

    # Two phones, Player B and Player D at table 3: one reports, the other disputes it.
    bea = open_phone(browser, base, players["Player B"])
    bea.get_by_role("button", name="Won 2-0").tap()
    expect(bea.locator(".me-status")).to_contain_text("You reported: you won 2-0")
    dan = open_phone(browser, base, players["Player D"])
    dan.get_by_role("button", name="That's not right").tap()
    expect(dan.locator(".me-status")).to_contain_text("Disputed")

    # No reload: the counts, the filter and the row follow within a few seconds.
    expect(page.get_by_role("link", name="Disputed (1)")).to_be_visible(timeout=8_000)
    expect(page.locator("#report-counts")).to_contain_text("1 disputed")
    row = page.locator("tr.match[data-table='3']")
    expect(row).to_have_class(re.compile(r"\bstate-disputed\b"))
    expect(row).to_contain_text("Player D: that's not right")
    # What the judge was typing is untouched, and typing goes on where it was.
    expect(page.locator("#tf-table")).to_have_value("4")
    expect(page.locator("#tf-result")).to_have_value("2-")
    expect(page.locator("#tf-result")).to_be_focused()
    shot("judge-follows-dispute")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(page.locator("tr.match[data-table='4']")).to_contain_text("by jules")
    expect(page.locator("tr.match[data-table='4']")).to_contain_text("2-1")

    # A question open in a row ("Replace 2-1 with 2-0?") stays open while the page follows another phone.
    page.locator("tr.match[data-table='4']").get_by_role("button", name="Table 4: 2-0").click()
    question = page.locator("tr.match[data-table='4'] .replace-question")
    expect(question).to_be_visible()
    anna = open_phone(browser, base, players["Player A"])
    anna.get_by_role("button", name="Won 2-0").tap()
    expect(page.get_by_role("link", name="Waiting (1)")).to_be_visible(timeout=8_000)
    expect(page.locator("tr.match[data-table='1']")).to_contain_text("Player A reported 2-0 for Player A")
    expect(question).to_be_visible()
    question.get_by_role("button", name="Keep 2-1").click()
    expect(question).to_have_count(0)
    expect(page.locator("tr.match[data-table='4']")).to_contain_text("2-1")

    # The disputed view: the judge settles table 3 from the filter the counts led to.
    page.get_by_role("link", name="Disputed (1)").click()
    expect(page.locator("tr.match")).to_have_count(1)
    page.locator("tr.match[data-table='3']").get_by_role("button", name="Table 3: 2-0").click()
    expect(page.locator("tr.match[data-table='3']")).to_contain_text("by jules")
    expect(page.get_by_role("link", name="Disputed (0)")).to_be_visible(timeout=8_000)


def test_the_results_page_fits_a_phone(live_server, browser, live, shot):
    base = live_server.url
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desk = context.new_page()
    log_in(desk, base, "jules", "judge-pass-1")
    for query in ("", "?view=disputed", "?outstanding=1", "?q=Player"):
        desk.goto(f"{base}/events/{live.slug}/rounds/2/{query}")
        expect(desk.locator("#results-q")).to_be_visible()
        width = desk.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{query or 'the round page'} is {width} px wide"
    shot("judge-phone", desk)


def test_the_personal_link_is_copied_as_text_for_a_player_not_at_the_desk(live_server, browser, live, shot):
    base = live_server.url
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    desk = context.new_page()
    log_in(desk, base, "olga", "organiser-pass-1")
    p = live.players.get(name="Player B")
    desk.goto(f"{base}/events/{live.slug}/players/{p.pk}/card/")
    link = f"{base}/e/{live.slug}/me/{p.pk}/{p.token}/"
    expect(desk.get_by_label("Or send them their personal link:")).to_have_value(link)
    assert desk.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    desk.get_by_role("button", name="Copy link").click()
    expect(desk.get_by_role("button", name="Copied")).to_be_visible()
    assert desk.evaluate("navigator.clipboard.readText()") == link
    shot("personal-link", desk)
