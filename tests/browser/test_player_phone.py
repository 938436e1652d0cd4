"""The player's phone at 360 px: a message is shown once, a report on its way says
so and is sent once, the opponent's page learns of it within seconds and says when it is offline, and every
target is large enough for a thumb."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Event, Player, Report, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def reporting(event):
    """Round 1 played, round 2 being played; players report, the opponent confirms."""
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2)
    Event.objects.filter(pk=event.pk).update(reporting=Event.Reporting.CONFIRM)
    return {p.name: p for p in event.players.all()}


def open_phone(browser, base, player: Player):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(f"{base}/e/{player.event.slug}/me/{player.pk}/{player.token}/")
    expect(phone).to_have_url(re.compile(rf"/e/{player.event.slug}/me/$"))
    return phone


def test_a_message_is_shown_once_and_a_reload_does_not_bring_it_back(live_server, browser, reporting):
    anna = open_phone(browser, live_server.url, reporting["Player A"])
    anna.get_by_role("button", name="Won 2-1").tap()
    expect(anna.locator(".messages")).to_be_visible()
    anna.reload()
    expect(anna.locator(".me-status")).to_contain_text("You reported")
    expect(anna.locator(".messages")).to_have_count(0)


@pytest.mark.parametrize("javascript", [True, False])
def test_a_refusal_is_shown_once_with_or_without_javascript(live_server, browser, reporting, javascript):
    """Without JavaScript the report is a plain post and a redirect to the page carrying the message; a reload
    of that page used to be answered 304, and the browser showed the message again from the copy it kept."""
    player = reporting["Player A"]
    context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
    anna = context.new_page()
    anna.goto(f"{live_server.url}/e/{player.event.slug}/me/{player.pk}/{player.token}/")
    anna.get_by_label("Other result").fill("7-7")
    anna.get_by_role("button", name="Send").click()
    expect(anna.locator(".messages .msg-error")).to_contain_text("nobody wins more than 2 games")
    for _ in range(2):
        anna.reload()
        expect(anna.locator("#live")).to_be_visible()
        expect(anna.locator(".messages")).to_have_count(0)


def test_a_report_on_its_way_is_sent_once_and_says_so(live_server, browser, reporting):
    anna = open_phone(browser, live_server.url, reporting["Player A"])
    held = []  # the report posts, held back as slow venue Wi-Fi would
    anna.route("**/me/report/", lambda route: held.append(route))

    anna.get_by_role("button", name="Won 2-1").tap()
    anna.wait_for_timeout(300)
    busy = anna.get_by_role("button", name="Won 2-1")
    expect(busy).to_have_attribute("aria-busy", "true")
    expect(busy).to_have_class(re.compile(r"\bbusy\b"))
    expect(anna.get_by_role("button", name="Lost 1-2")).to_be_disabled()
    expect(anna.locator("#sending")).to_be_visible()
    # A second tap of the same button, then one of another: nothing more is sent, nothing is changed.
    busy.tap(force=True)
    anna.get_by_role("button", name="Lost 1-2").tap(force=True)
    anna.wait_for_timeout(3500)  # the poll (every 3 s) waits too: it would redraw live buttons
    assert len(held) == 1
    assert "result=2-1" in held[0].request.post_data

    held[0].continue_()
    expect(anna.locator(".messages")).to_contain_text("Reported: you won 2-1")
    report = Report.objects.get(player=reporting["Player A"])
    assert (report.games_a, report.games_b) == (2, 1)
    # The next page is live again.
    anna.get_by_text("Change my report").click()
    expect(anna.get_by_role("button", name="Lost 1-2")).to_be_enabled()


def test_the_opponents_page_learns_of_a_report_within_seconds_and_says_when_it_is_offline(
    live_server, browser, reporting
):
    base = live_server.url
    carl = open_phone(browser, base, reporting["Player C"])
    anna = open_phone(browser, base, reporting["Player A"])
    anna.get_by_role("button", name="Won 2-1").tap()
    expect(anna.locator(".messages")).to_contain_text("Reported")
    reported = time.monotonic()
    expect(carl.locator(".me-status")).to_contain_text("Player A reported", timeout=4500)
    assert time.monotonic() - reported < 4.5

    # Offline: the page says so; back online, it catches up at once.
    carl.context.set_offline(True)
    expect(carl.locator("#offline")).to_be_visible(timeout=4000)
    anna.get_by_text("Change my report").click()
    anna.get_by_role("button", name="Won 2-0").tap()
    expect(anna.locator(".messages")).to_contain_text("Reported: you won 2-0")
    carl.wait_for_timeout(3500)
    expect(carl.locator(".me-status")).to_contain_text("you lost 1-2")  # still the old page, and it says why
    expect(carl.locator("#offline")).to_be_visible()
    carl.context.set_offline(False)
    back = time.monotonic()
    expect(carl.locator(".me-status")).to_contain_text("Player A reported: you lost 0-2.", timeout=2500)
    assert time.monotonic() - back < 2.5
    expect(carl.locator("#offline")).to_be_hidden()


# What a thumb taps: everything on the player's pages at least 24 x 24 CSS px (WCAG 2.2, 2.5.8), and 44 px
# high for what sends something.
TARGETS = """
Array.from(document.querySelectorAll('a[href], button, summary, input, select, label'))
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .filter(el => !el.closest('.skip, .visually-hidden'))
  .map(el => {
    const r = el.getBoundingClientRect();
    const form = el.closest('form');
    const sends = el.tagName === 'BUTTON' && !!form && form.method === 'post';
    return {what: el.tagName + ' ' + (el.textContent || el.name || el.type).trim().slice(0, 40),
            width: r.width, height: r.height, sends: sends};
  })
"""


def small_targets(page) -> list[str]:
    return [
        f"{t['what']}: {t['width']:.0f}x{t['height']:.0f}"
        for t in page.evaluate(TARGETS)
        if t["width"] < 24 or t["height"] < 24 or (t["sends"] and t["height"] < 44)
    ]


def test_every_target_is_large_enough_and_not_me_asks_first(live_server, browser, reporting, shot):
    base = live_server.url
    anna = open_phone(browser, base, reporting["Player A"])
    anna.get_by_text("Drop from the event").click()
    shot("phone", anna)
    assert small_targets(anna) == []
    anna.get_by_role("button", name="Won 2-1").tap()
    expect(anna.locator(".messages")).to_contain_text("Reported")
    anna.get_by_text("Change my report").click()
    assert small_targets(anna) == []

    carl = open_phone(browser, base, reporting["Player C"])
    carl.get_by_text("Report a different result").click()
    assert small_targets(carl) == []

    # "Not me" asks first: the first tap forgets nothing.
    not_me = anna.get_by_text("Not me", exact=True)
    box = not_me.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    not_me.tap()
    expect(anna).to_have_url(re.compile(r"/me/$"))
    forget = anna.get_by_role("button", name="Forget this phone")
    expect(forget).to_be_visible()
    shot("not-me-asks", anna)
    assert small_targets(anna) == []
    anna.reload()
    expect(anna.locator("h1")).to_have_text(re.compile("Player A"))
    anna.get_by_text("Not me", exact=True).tap()
    anna.get_by_role("button", name="Forget this phone").tap()
    expect(anna).to_have_url(re.compile(r"/pairings/$"))
    anna.goto(f"{base}/e/{reporting['Player A'].event.slug}/me/")
    expect(anna.locator("h1")).to_have_text("This is me")
    assert small_targets(anna) == []
