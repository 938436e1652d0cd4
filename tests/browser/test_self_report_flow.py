"""Players report from their phones: the organiser switches it on, one player reports, the opponent confirms,
a dispute is settled by a judge, a player drops, and the public standings follow."""

import re

import pytest
from playwright.sync_api import expect

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Event, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def log_in(page, base, username, password):
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def open_phone(browser, base, player: Player):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(f"{base}/e/{player.event.slug}/me/{player.pk}/{player.token}/")
    # The secret leaves the address bar at once: the page lives at /me/.
    expect(phone).to_have_url(re.compile(rf"/e/{player.event.slug}/me/$"))
    return phone


def test_players_report_confirm_dispute_and_drop(live_server, browser, page, event, judge, shot):
    base = live_server.url
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2)
    players = {p.name: p for p in event.players.all()}

    # The organiser lets players report, the opponent confirming.
    log_in(page, base, "olga", "organiser-pass-1")
    page.goto(f"{base}/events/{event.slug}/rounds/2/")
    page.get_by_label("Results entered by").select_option("confirm")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("players report, the opponent confirms")
    assert Event.objects.get(pk=event.pk).reporting == Event.Reporting.CONFIRM

    # Table 1: Player A reports 2-1 in one tap; Player C confirms in one tap.
    anna = open_phone(browser, base, players["Player A"])
    expect(anna.locator(".me-table")).to_contain_text("1")
    expect(anna.locator(".me-opponent")).to_contain_text("Player C")
    assert anna.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot("phone-before", anna)
    anna.get_by_role("button", name="Won 2-1").tap()
    expect(anna.locator(".messages")).to_contain_text("Player C confirms it on their phone")
    expect(anna.locator(".me-status")).to_contain_text("You reported: you won 2-1.")
    shot("phone-reported", anna)

    carl = open_phone(browser, base, players["Player C"])
    expect(carl.locator(".me-status")).to_contain_text("Player A reported: you lost 1-2.")
    shot("phone-confirm", carl)
    carl.get_by_role("button", name="Confirm").tap()
    expect(carl.locator(".messages")).to_contain_text("Result stored: you lost 1-2 to Player A")
    # Player A's page sees the stored result by itself (the page polls every 3 s, each timer starting after the
    # last swap: on a loaded machine two polls can take past 5 s, which failed once in a whole SQLite run).
    expect(anna.locator(".me-result")).to_contain_text("you won 2-1 against Player C", timeout=10_000)

    page.goto(f"{base}/events/{event.slug}/rounds/2/")
    row = page.locator("tr.match").filter(has_text="Player C").first
    expect(row).to_contain_text("2-1")
    expect(row).to_contain_text("by Player C (phone)")
    expect(page.locator("#report-counts")).to_contain_text("1 of 4 stored")
    shot("organiser-stored-by-player")

    # Table 3: Player B and Player D disagree; a judge settles it with the normal result buttons.
    bea = open_phone(browser, base, players["Player B"])
    bea.get_by_role("button", name="Won 2-0").tap()
    dan = open_phone(browser, base, players["Player D"])
    dan.get_by_role("button", name="That's not right").tap()
    expect(dan.locator(".me-status")).to_contain_text("Disputed")
    shot("phone-disputed", dan)

    desk = browser.new_context(viewport=PHONE).new_page()
    log_in(desk, base, "jules", "judge-pass-1")
    desk.goto(f"{base}/events/{event.slug}/rounds/2/")
    expect(desk.locator("#report-counts")).to_contain_text("1 disputed")
    desk.get_by_role("link", name=re.compile(r"^Disputed \(1\)")).click()
    disputed = desk.locator("tr.match.state-disputed")
    expect(disputed).to_have_count(1)
    expect(disputed).to_contain_text("Player B: 2-0 for Player B")
    expect(disputed).to_contain_text("Player D: that's not right")
    shot("judge-dispute", desk)
    disputed.get_by_role("button", name="Table 3: 2-1").click()
    expect(desk.locator("tr.match").filter(has_text="Player D").first).to_contain_text("by jules")

    # A third player asks to drop from their phone.
    hana = open_phone(browser, base, players["Player H"])
    hana.get_by_text("Drop from the event").click()
    hana.get_by_label(re.compile("Drop me after round 2")).check()
    hana.get_by_role("button", name="Drop after this round").click()
    expect(hana.locator(".messages")).to_contain_text("You are dropped after this round")
    page.goto(f"{base}/events/{event.slug}/rounds/2/")
    expect(page.locator("#reporting")).to_contain_text("Dropped from their phones this round: Player H")
    shot("organiser-drop")

    # The last two tables at the desk: round 2 complete, the public standings follow.
    before = page.context.new_page()
    before.goto(f"{base}/e/{event.slug}/standings/")
    expect(before.locator("body")).to_contain_text("after round 1")
    for table in (2, 4):
        page.locator(f"tr.match[data-table='{table}']").get_by_role("button", name=f"Table {table}: 2-0").click()
        expect(page.locator(f"tr.match[data-table='{table}']")).to_contain_text("by olga")
    before.goto(f"{base}/e/{event.slug}/standings/")
    expect(before.locator("body")).to_contain_text("after round 2")
    # Player A's reported 2-1 win counts: two wins after round 2.
    expect(before.locator("table.standings tbody tr").filter(has_text="Player A")).to_contain_text("2-0-0")
    expect(before.locator("table.standings tbody tr").filter(has_text="Player C")).to_contain_text("1-1-0")
    shot("public-standings", before)


def test_a_refused_report_is_shown_on_a_page_that_has_polled(live_server, browser, event):
    """The answer to a refused report carries the version the page already shows: it is drawn all the same,
    with its message, every time (once, the poll's 'same version, don't redraw' rule dropped it)."""
    from tests.browser import poll_now

    pair(event, 1, ROUND_1)
    Event.objects.filter(pk=event.pk).update(reporting=Event.Reporting.CONFIRM)
    phone = open_phone(browser, live_server.url, event.players.get(name="Player A"))
    for _ in range(2):  # the page has polled: it has seen its version
        with phone.expect_response(re.compile(r"/me/$")):
            poll_now(phone)
    for typed in ("two-one", "three-nil", "two-one"):
        phone.get_by_label("Other result").fill(typed)
        with phone.expect_response(re.compile(r"/report/$")):
            phone.get_by_role("button", name="Send").tap()
        expect(phone.locator(".messages")).to_contain_text(typed)
        expect(phone.locator(".messages .msg-error")).to_have_count(1)
        phone.evaluate("document.querySelector('.messages').innerHTML = ''")  # the next message is a new one
