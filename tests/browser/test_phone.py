"""A player's phone at 360 px on the event day: what a live update changes, the
standings without sideways scrolling, results on one line, and a search for a player who dropped."""

import pytest
from playwright.sync_api import expect

from tests.browser import poll_now
from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Player, Round
from tournament.services.roster import drop_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def test_the_pairings_heading_follows_a_live_update(live_server, page, event, shot):
    pair(event, 1, ROUND_1, state=Round.State.PAIRED)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    heading = page.locator("#pairings h2")
    expect(heading).to_have_text("Round 1")
    rnd = event.rounds.get(number=1)
    rnd.matches.update(games_a=2, games_b=0, games_drawn=0)
    rnd.state = Round.State.COMPLETE
    rnd.save(update_fields=["state"])
    pair(event, 2, ROUND_2, state=Round.State.PAIRED)
    poll_now(page)
    expect(heading).to_have_text("Round 2")
    # The tables under the heading are round 2's: Player A plays Player C at table 1.
    expect(page.locator('#pairings tr[data-name="Player A"]')).to_contain_text("Player C")
    shot("after-update")


def test_standings_fit_a_phone_with_every_tie_breaker(live_server, page, event, shot):
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/e/{event.slug}/standings/")
    table = page.locator("table.standings")
    expect(table).to_be_visible()
    shot("standings")
    wrap = page.locator("#standings .table-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), "the standings scroll sideways"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The tie-breakers are under each name, all three, readable without scrolling.
    first = page.locator("table.standings tbody tr").first
    expect(first.locator(".tb-line")).to_be_visible()
    expect(first.locator(".tb-line span")).to_have_count(3)
    expect(first.locator(".tb-line")).to_contain_text("OMW%")


def test_a_result_never_wraps_and_one_point_is_singular(live_server, page, event, shot):
    Player.objects.filter(event=event, name="Player A").update(name="Alexandra Konstantinopoulou-Smythe")
    pair(
        event,
        1,
        [("Alexandra Konstantinopoulou-Smythe", "Player B"), *ROUND_1[1:]],
        state=Round.State.COMPLETE,
        results={1: (1, 1, 0), 2: (2, 0, 0), 3: (2, 0, 0), 4: (2, 0, 0)},
    )
    pair(event, 2, [("Alexandra Konstantinopoulou-Smythe", "Player C"), *ROUND_2[1:]], results={1: (2, 0, 0)})
    page.set_viewport_size(PHONE)
    a = event.players.get(name__startswith="Alexandra")
    page.goto(f"{live_server.url}/e/{event.slug}/players/{a.pk}/")
    won = page.locator("table.matches td", has_text="won 2-0")
    expect(won).to_be_visible()
    lines = won.evaluate(
        "td => { const r = document.createRange(); r.selectNodeContents(td); return r.getClientRects().length; }"
    )
    assert lines == 1, "“won 2-0” wraps"
    shot("player")
    page.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    row = page.locator('#pairings tr[data-name="Alexandra Konstantinopoulou-Smythe"]')
    expect(row.locator(".pts").first).to_have_text("1 pt")
    # The score between the two players stays on one line.
    score = row.locator("td.score")
    expect(score).to_contain_text("2-0")
    assert (
        score.evaluate(
            "td => { const r = document.createRange(); r.selectNodeContents(td.firstChild); return r.getClientRects().length; }"
        )
        == 1
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_find_your_table_for_a_player_who_dropped(live_server, page, event, shot):
    Player.objects.filter(event=event, name="Player H").update(name="Bob O’Brien")
    pair(event, 1, [*ROUND_1[:3], ("Player G", "Bob O’Brien")], state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    bob = event.players.get(name="Bob O’Brien")
    drop_player(bob, None)
    pair(event, 2, [("Player A", "Player C"), ("Player E", "Player G"), ("Player B", "Player D"), ("Player F", None)])
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/e/{event.slug}/")
    page.get_by_label("Find your table").fill("o'brien")
    page.get_by_role("button", name="Find").click()
    visible = page.locator("#pairings tbody tr").filter(visible=True)
    expect(visible).to_have_count(1)
    expect(visible.first).to_have_text("Bob O’Brien has dropped")
    shot("dropped")
    # Typing in the box on the pairings page (the browser filters) says the same.
    box = page.get_by_label("Find your name")
    box.fill("")
    expect(page.locator("#pairings tbody tr").filter(visible=True)).to_have_count(7)  # the round's players
    box.press_sequentially("o'bri")
    expect(visible).to_have_count(1)
    expect(visible.first).to_have_text("Bob O’Brien has dropped")
