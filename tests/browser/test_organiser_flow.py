"""A whole event through the browser only, as an organiser who has never seen the app would run it."""

import re

import pytest
from playwright.sync_api import expect

from tournament.forms.players import swap_label
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ONE_BY_ONE = ["Aiko Tanaka", "Bjørn Madsen, 1650", "Chiara Rossi", "Dmitri Volkov", "Emeka Okafor"]
PASTED = "Freya Lindqvist, 1510\nGabriel Souza\nHana Kim, 1460\nInes Duarte"


def follow(link):
    """Open the page `link` leads to and wait until that page has loaded: its scripts have run and htmx has taken
    its forms over. Pressed earlier, Enter posts the whole page, and an answer meant for a part of the page shows
    at its top (seen on slow runs, once in each whole-event test)."""
    with link.page.expect_navigation():
        link.click()


def enter_results(page, results=("2-0", "2-1", "1-2", "0-2", "1-1 draw")):
    """Click a result on every outstanding row, cycling through `results`; each row updates in place."""
    expect(page.locator("#matches")).to_be_visible()
    rows = page.locator("#matches tr.match:not(.done):has(button)")
    i = 0
    while rows.count():
        row = rows.first
        row_id = row.get_attribute("id")
        before = page.locator("#outstanding").inner_text()
        row.get_by_role("button", name=re.compile(f": {re.escape(results[i % len(results)])}$")).click()
        expect(page.locator(f"#{row_id}")).to_have_class(re.compile(r"\bdone\b"))
        expect(page.locator("#outstanding")).not_to_have_text(before)
        i += 1
    expect(page.locator("#outstanding")).to_have_text("All results in")


def pair_and_publish(page, number, shot):
    page.get_by_role("button", name=f"Pair round {number}").click()
    expect(page.get_by_role("heading", name=re.compile(f"Round {number}"))).to_contain_text("draft")
    shot(f"round-{number}-draft")
    page.get_by_role("button", name=f"Publish round {number}").click()
    expect(page.locator("#outstanding")).to_be_visible()


def test_run_a_whole_event(live_server, page, organiser, shot):
    for old in shot("start").parent.glob("*.png"):  # screenshots of an earlier run
        old.unlink()
    page.set_viewport_size({"width": 1024, "height": 800})
    page.goto(f"{live_server.url}/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your events")).to_be_visible()
    shot("event-list")

    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name").fill("Thursday Draft")
    page.get_by_label("Swiss rounds").fill("3")
    page.get_by_label("Top cut").fill("4")
    shot("new-event")
    page.get_by_role("button", name="Create event").click()
    expect(page.get_by_role("heading", name="Players")).to_be_visible()

    name = page.get_by_label("Add a player")
    for entry in ONE_BY_ONE:
        name.fill(entry)
        name.press("Enter")
        expect(page.locator("#roster")).to_contain_text(entry.split(",")[0])
        expect(page.get_by_label("Add a player")).to_be_focused()
        expect(page.get_by_label("Add a player")).to_have_value("")
    shot("one-by-one")
    page.get_by_text("Paste a list").click()
    page.get_by_label("Paste players, one per line").fill(PASTED)
    page.get_by_role("button", name="Add these players").click()
    expect(page.locator("#recommendation")).to_contain_text("9 active players")
    shot("nine-players")

    # Round 1: a draft, published, the clock started, results by click and by keyboard.
    follow(page.get_by_role("link", name="Thursday Draft"))
    expect(page.get_by_role("heading", name="Next step")).to_be_visible()
    shot("event-home")
    pair_and_publish(page, 1, shot)
    page.get_by_role("button", name="Start clock").click()
    expect(page.locator("header .nav-clock .clock")).to_have_text(re.compile(r"^(49|50):\d\d$"))
    page.get_by_label("Table", exact=True).fill("1")
    page.get_by_label("Table", exact=True).press("Enter")  # on to the result
    expect(page.get_by_label("Result", exact=True)).to_be_focused()
    page.keyboard.type("21")
    page.keyboard.press("Enter")
    expect(page.locator("#desk-log")).to_contain_text("Table 1:")
    expect(page.get_by_label("Table", exact=True)).to_be_focused()
    expect(page.locator("#outstanding")).to_have_text("3 results outstanding")
    page.get_by_role("link", name="Only outstanding").click()
    expect(page.locator("#matches tr.match")).to_have_count(3)
    shot("round-1-keyboard-and-filter")
    page.set_viewport_size({"width": 360, "height": 740})  # a phone at the desk
    shot("round-1-phone")
    page.set_viewport_size({"width": 1024, "height": 800})
    enter_results(page)
    shot("round-1-complete")

    # Round 2: swap two players who met in round 1; the rematch is flagged.
    page.get_by_role("button", name="Pair round 2").click()
    r1 = Round.objects.get(number=1, event__name="Thursday Draft")
    r2 = Round.objects.get(number=2, event__name="Thursday Draft")
    # Pick a round-1 pair both of whom play a game in round 2: moving one next to the other is a rematch.
    games2 = list(r2.matches.filter(player_b__isnull=False).select_related("player_a", "player_b"))
    opponent = {m.player_a_id: m.player_b for m in games2} | {m.player_b_id: m.player_a for m in games2}
    met = next(
        m
        for m in r1.matches.filter(player_b__isnull=False).select_related("player_a", "player_b")
        if m.player_a_id in opponent and m.player_b_id in opponent
    )
    opponent_of_b = opponent[met.player_b_id]
    # The swap list names players with their number and rating (two may share a name).
    page.get_by_label("Swap").select_option(label=swap_label(met.player_a))
    page.get_by_label("with").select_option(label=swap_label(opponent_of_b))
    page.get_by_role("button", name="Swap", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("Rematch")
    # The swap puts the round-1 pair together again (the other moved player may meet an old opponent too).
    rematch = page.locator("tr.rematch").filter(has_text=met.player_a.name).filter(has_text=met.player_b.name)
    expect(rematch).to_have_count(1)
    shot("round-2-swap-rematch")
    page.get_by_role("button", name="Publish round 2").click()

    # A drop during round 2: paired this round, not the next.
    follow(page.get_by_role("link", name="Players"))
    page.get_by_role("link", name="Drop Ines Duarte").click()
    expect(page.get_by_role("heading", name=re.compile("Drop Ines Duarte"))).to_be_visible()
    expect(page.get_by_text("They leave the event after round 2")).to_be_visible()
    shot("drop-confirm")
    page.get_by_role("button", name="Yes, drop Ines Duarte").click()
    expect(page.locator(".messages")).to_contain_text("Ines Duarte dropped after round 2")
    shot("drop")
    follow(page.get_by_role("link", name="Round 2"))
    enter_results(page, ("2-0", "0-2", "2-1"))

    # A late entry: joins round 3.
    follow(page.get_by_role("link", name="Players"))
    page.get_by_label("Add a player").fill("Jonas Weber, 1400")
    page.get_by_label("Add a player").press("Enter")
    expect(page.locator("#roster")).to_contain_text("joined R3")
    expect(page.locator("#add-log")).to_contain_text("joins late, from round 3")
    shot("late-entry")

    # Correct a result of round 1: confirmation, audit, standings follow.
    follow(page.get_by_role("link", name="Round 2"))
    follow(page.get_by_role("link", name="R1", exact=True))
    row = page.locator("#matches tr.match[data-table='1']")
    row.get_by_role("link", name="Correct…").click()
    page.get_by_label("Games won by A").fill("0")
    page.get_by_label("Games won by B").fill("2")
    page.get_by_label("Games drawn").fill("0")
    page.get_by_role("button", name="Save result").click()
    expect(page.get_by_role("alert")).to_contain_text("Replace it with 0-2?")
    page.get_by_role("button", name=re.compile("^Replace .* with 0-2$")).click()
    expect(page.locator(".messages")).to_contain_text("Standings are updated")
    expect(page.locator("section", has_text="Corrections")).to_contain_text("→ 0-2")
    shot("corrected")

    # Round 3 with the late entrant, and not the dropped player.
    follow(page.get_by_role("link", name="R2", exact=True))
    pair_and_publish(page, 3, shot)
    expect(page.locator("#matches")).to_contain_text("Jonas Weber")
    expect(page.locator("#matches")).not_to_contain_text("Ines Duarte")
    # Printing: plain pages with print CSS, no JavaScript needed.
    page.get_by_role("link", name="Print by name").click()
    page.emulate_media(media="print")
    names = page.locator("table.by-name tbody tr td:first-child").all_inner_texts()
    assert names == sorted(names, key=str.casefold) and len(names) == 9
    shot("print-by-name")
    page.emulate_media(media="screen")
    page.go_back()
    page.get_by_role("link", name="Match slips").click()
    page.emulate_media(media="print")
    expect(page.locator(".slip")).to_have_count(4)
    shot("print-slips")
    page.go_back()
    page.emulate_media(media="screen")
    enter_results(page, ("2-1", "0-2"))

    # Top 4: the seeding to check, a draft to publish, each result confirmed, the final placings.
    page.get_by_role("link", name="Start top 4", exact=True).click()
    expect(page.get_by_role("heading", name="The bracket if you start now")).to_be_visible()
    page.get_by_role("button", name="Pair the top 4 as a draft").click()
    expect(page.get_by_role("heading", name="Semifinals")).to_be_visible()
    expect(page.get_by_text("The bracket is a draft")).to_be_visible()
    shot("top-4-draft")
    page.get_by_role("button", name="Publish the bracket").click()
    expect(page.get_by_text("The bracket is published")).to_be_visible()
    for k in range(2):
        page.locator(".bracket-match").nth(k).get_by_role("link", name=re.compile(": 2-1$")).click()
        expect(page.get_by_text(re.compile(r"beats .* 2-1\?"))).to_be_visible()
        page.get_by_role("button", name="Confirm result").click()
    expect(page.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    page.locator(".bracket-match").last.get_by_role("link", name=re.compile(": 0-2$")).click()
    page.get_by_role("button", name="Confirm result").click()
    expect(page.get_by_role("heading", name="Final placings")).to_be_visible()
    shot("final-placings")

    page.get_by_role("link", name="Standings").first.click()
    expect(page.get_by_role("heading", name="Final placings")).to_be_visible()
    table = page.locator("table.standings tbody tr")
    expect(table).to_have_count(10)
    expect(page.locator("table.standings")).to_contain_text("dropped")
    shot("final-standings")

    follow(page.get_by_role("link", name="Settings"))
    expect(page.get_by_text("these settings are locked")).to_be_visible()
    shot("settings-locked")
    page.get_by_role("button", name="Move OMW% down").click()
    expect(page.locator(".tiebreakers li").first).to_contain_text("GW%")
    # The reordered form already says "Tick to confirm": wait for the form Save answers with, or the tick
    # would go into the form that answer replaces.
    page.locator("#settings-form").evaluate("form => form.dataset.answered = 'no'")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("#settings-form:not([data-answered])")).to_be_visible()
    expect(page.locator("#id_confirm_locked + *, .errorlist").first).to_contain_text("Tick to confirm")
    page.get_by_label("Yes, change scoring").check()
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator(".messages")).to_contain_text("the change is logged")
    expect(page.locator(".tiebreakers li").first).to_contain_text("GW%")
