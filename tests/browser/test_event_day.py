"""The event day, done when a first-time organiser can run it: 13 players, best of 3, four Swiss rounds
with corrections, a drop and a late entry, then the top 4 to a winner, all in the browser, with a player's
phone (360 px) and the venue screen (1920x1080) open beside the organiser's page.

It checks what a person at the event would: the table on the phone, the screen legible from the back of the
room, an impossible result refused on every path, each top-cut result confirmed, and the winner announced
on the screen, the phone and the organiser's page.
"""

import re

import pytest
from django.db.models import F
from playwright.sync_api import expect

from tests.browser import poll_now
from tests.browser.test_organiser_flow import enter_results, follow, pair_and_publish
from tests.browser.test_screen import MEASURE
from tournament.models import Event, Match, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
SCREEN = {"width": 1920, "height": 1080}
ONE_BY_ONE = ["Aiko Tanaka", "Bjørn Madsen, 1650", "Chiara Rossi"]
# A pasted list as organisers keep them: ratings after a comma, one “Last, First” name.
PASTED = """Freya Lindqvist, 1510
Okafor, Emeka
Gabriel Souza
Hana Kim, 1460
Ines Duarte
Jonas Weber
Katarzyna Wiśniewska
Lars Østergaard
Mateo García
Dmitri Volkov"""


def screen_is_legible(screen, title: str) -> dict:
    """The screen (polling by itself every 5 s) shows `title`, every name whole and large from across the room."""
    expect(screen.locator(".board-title")).to_have_text(title, timeout=15_000)
    expect(screen.locator(".board-list.fitted")).to_be_visible()
    m = screen.evaluate(MEASURE)
    assert m["cut"] == [], m["cut"]
    assert m["bottom"] <= SCREEN["height"] and m["scrollWidth"] <= SCREEN["width"]
    # 13 or 14 rows of real names: well over twice the old board's 24 px, on one page.
    assert m["minHeight"] >= 2.5 * 24, m
    assert screen.locator(".board-page").inner_text() == ""
    return m


def type_result(org, table: int, result: str):
    """Table, Enter, result, Enter, once the page's script is running (a page just published may still load)."""
    org.wait_for_load_state("domcontentloaded")
    org.get_by_label("Table", exact=True).fill("")
    org.get_by_label("Table", exact=True).focus()
    org.keyboard.type(str(table))
    org.keyboard.press("Enter")
    org.keyboard.type(result)
    org.keyboard.press("Enter")


def test_a_first_time_organiser_runs_the_event_day(live_server, browser, page, organiser, shot):
    org = page
    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    screen = browser.new_context(viewport=SCREEN, locale="en-GB").new_page()
    try:
        run_the_event(live_server.url, org, phone, screen, shot)
    finally:
        phone.context.close()
        screen.context.close()


def run_the_event(url, org, phone, screen, shot):
    org.set_viewport_size({"width": 1280, "height": 800})
    org.goto(f"{url}/")
    org.get_by_label("Username").fill("olga")
    org.get_by_label("Password").fill("organiser-pass-1")
    org.get_by_role("button", name="Log in").click()

    # The event: best of 3 on the New event form, four Swiss rounds, a top 4.
    org.get_by_role("link", name="New event").click()
    org.get_by_label("Name").fill("Saturday Event Day")
    org.get_by_label("Games per match").select_option(label="Best of 3")
    org.get_by_label("Swiss rounds").fill("4")
    org.get_by_label("Top cut").fill("4")
    org.get_by_role("button", name="Create event").click()
    expect(org.get_by_role("heading", name="Players")).to_be_visible()
    event = Event.objects.get(name="Saturday Event Day")
    assert (event.best_of, event.planned_rounds, event.top_cut) == (3, 4, 4)

    # Registration: three at the desk, the rest pasted.
    name = org.get_by_label("Add a player")
    for entry in ONE_BY_ONE:
        name.fill(entry)
        name.press("Enter")
        expect(org.locator("#roster")).to_contain_text(entry.split(",")[0])
    org.get_by_text("Paste a list").click()
    org.get_by_label("Paste players, one per line").fill(PASTED)
    org.get_by_role("button", name="Add these players").click()
    expect(org.locator("#recommendation")).to_contain_text("13 active players")
    expect(org.locator("#roster")).to_contain_text("Emeka Okafor")  # “Okafor, Emeka” read as a name
    shot("registered")

    # The phone and the screen, opened before round 1.
    phone.goto(f"{url}/e/{event.slug}/")
    expect(phone.locator("#now-title")).to_have_text("Not started yet")
    screen.goto(f"{url}/e/{event.slug}/screen/")
    expect(screen.locator(".board-title")).to_have_text("Waiting for round 1")

    # Round 1: published, the phone finds its table, the screen shows the pairings.
    follow(org.get_by_role("link", name="Saturday Event Day"))
    pair_and_publish(org, 1, shot)
    phone.get_by_label("Find your table").fill("chiara")
    phone.get_by_role("button", name="Find").click()
    expect(phone.locator("#pairings h2")).to_have_text("Round 1")
    expect(phone.locator('#pairings tr[data-name="Chiara Rossi"]')).to_be_visible()
    shot("phone-round-1", phone)
    m = screen_is_legible(screen, "Round 1 · pairings by name")
    print(f"screen, round 1: names {m['minHeight']:.1f} px high, {m['columns']} column(s)")
    # 13 players: somebody has the bye, and the screen says so where the table number stands.
    bye = Match.objects.select_related("player_a").get(round__event=event, round__number=1, player_b=None)
    expect(screen.locator(".board-list li", has_text=bye.player_a.name).locator(".table-no")).to_have_text("Bye")
    shot("screen-round-1", screen)

    # A result the rules forbid is refused on the keyboard and in the “other…” form; nothing is stored.
    type_result(org, 1, "2-0-5")
    expect(org.locator("#desk-log .entry.refused")).to_contain_text("at most 3 drawn games")
    type_result(org, 1, "21")
    expect(org.locator("#desk-log .entry.stored")).to_contain_text(re.compile(r"Table 1: .* 2-1 "))
    org.locator("#matches tr.match[data-table='2']").get_by_role("link", name="other…").click()
    org.get_by_label("Games won by A").fill("1")
    org.get_by_label("Games won by B").fill("1")
    org.get_by_label("Games drawn").fill("5")
    org.get_by_role("button", name="Save result").click()
    expect(org.get_by_role("alert")).to_contain_text("drawn games")
    shot("forbidden-refused")
    follow(org.get_by_role("link", name="Back to round 1"))
    enter_results(org)
    screen_is_legible(screen, "Standings after round 1")

    # Round 2, with a drop during the round (asked first).
    pair_and_publish(org, 2, shot)
    follow(org.get_by_role("link", name="Players"))
    org.get_by_role("link", name="Drop Ines Duarte").click()
    org.get_by_role("button", name="Yes, drop Ines Duarte").click()
    expect(org.locator(".messages")).to_contain_text("Ines Duarte dropped after round 2")
    follow(org.get_by_role("link", name="Round 2"))
    poll_now(phone)
    expect(phone.locator("#pairings h2")).to_have_text("Round 2")
    enter_results(org, ("2-0", "0-2", "2-1", "1-2"))

    # A late entry for round 3, and a correction of round 1 (asked once, logged).
    follow(org.get_by_role("link", name="Players"))
    org.get_by_label("Add a player").fill("Nina Petrova, 1400")
    org.get_by_label("Add a player").press("Enter")
    expect(org.locator("#add-log")).to_contain_text("joins late, from round 3")
    follow(org.get_by_role("link", name="Round 2"))
    follow(org.get_by_role("link", name="R1", exact=True))
    org.locator("#matches tr.match[data-table='1']").get_by_role("link", name="Correct…").click()
    org.get_by_label("Games won by A").fill("0")
    org.get_by_label("Games won by B").fill("2")
    org.get_by_label("Games drawn").fill("0")
    org.get_by_role("button", name="Save result").click()
    expect(org.get_by_role("alert")).to_contain_text("already has 2-1")
    org.get_by_role("button", name=re.compile("^Replace 2-1 with 0-2$")).click()
    expect(org.locator(".messages")).to_contain_text("2-1 replaced by 0-2")
    screen_is_legible(screen, "Standings after round 2")
    expect(screen.locator(".board-list li", has_text="Ines Duarte").locator(".name")).to_contain_text("dropped")

    # Rounds 3 and 4: the late entrant plays, the dropped player does not; the screen keeps up.
    follow(org.get_by_role("link", name="R2", exact=True))
    for number in (3, 4):
        pair_and_publish(org, number, shot)
        expect(org.locator("#matches")).to_contain_text("Nina Petrova")
        expect(org.locator("#matches")).not_to_contain_text("Ines Duarte")
        m = screen_is_legible(screen, f"Round {number} · pairings by name")
        if number == 3:
            print(f"screen, round 3: names {m['minHeight']:.1f} px high, {m['columns']} column(s)")
            shot("screen-round-3", screen)
        enter_results(org, ("2-1", "0-2", "2-0", "1-2", "1-1 draw"))
    m = screen_is_legible(screen, "Standings after round 4")
    print(f"screen, standings after round 4: names {m['minHeight']:.1f} px high, {m['columns']} column(s)")
    shot("screen-standings-4", screen)

    # The top 4: a draft to check and publish, each result confirmed, the keyboard path too.
    org.get_by_role("link", name="Start top 4", exact=True).click()
    org.get_by_role("button", name="Pair the top 4 as a draft").click()
    expect(org.get_by_text("The bracket is a draft")).to_be_visible()
    org.get_by_role("button", name="Publish the bracket").click()
    semis = Round.objects.get(event=event, kind=Round.Kind.ELIMINATION)
    one = semis.matches.select_related("player_a", "player_b").get(table=1)
    org.goto(f"{url}/events/{event.slug}/rounds/{semis.number}/")
    type_result(org, 1, "2-1")
    desk = org.locator("#desk-log")
    expect(desk).to_contain_text(f"{one.player_a.name} beats {one.player_b.name} 2-1?")
    assert semis.matches.get(table=1).games is None  # nothing stored before the answer
    desk.get_by_role("button", name="Confirm result").click()
    expect(desk).to_contain_text(f"Table 1: {one.player_a.name} 2-1 {one.player_b.name}")
    org.goto(f"{url}/events/{event.slug}/top-cut/")
    org.locator(".bracket-match").nth(1).get_by_role("link", name=re.compile(": 0-2$")).click()
    org.get_by_role("button", name="Confirm result").click()
    expect(org.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    final = Round.objects.get(event=event, number=semis.number + 1).matches.select_related("player_a", "player_b").get()
    org.goto(f"{url}/events/{event.slug}/rounds/{final.round.number}/")
    type_result(org, final.table, "0-2")
    desk = org.locator("#desk-log")
    desk.get_by_role("button", name="Cancel").click()  # second thoughts: nothing entered
    expect(desk).to_contain_text("nothing entered")
    type_result(org, final.table, "1-2")
    expect(desk).to_contain_text(f"{final.player_b.name} beats {final.player_a.name} 2-1?")
    desk.get_by_role("button", name="Confirm result").click()
    winner = final.player_b
    expect(desk).to_contain_text(f"1-2 {winner.name}")

    # The winner, announced where people look: the screen (by itself), the phone, the organiser's pages.
    expect(screen.locator(".board-winner")).to_have_text(re.compile(f"{winner.name} wins the event"), timeout=15_000)
    expect(screen.locator(".board-title")).to_have_text("Final placings")
    expect(screen.locator(".board-list.placings li").first).to_contain_text(winner.name)
    m = screen.evaluate(MEASURE)
    assert m["cut"] == [] and m["scrollWidth"] <= SCREEN["width"] and m["minHeight"] >= 2.5 * 24, m
    shot("screen-winner", screen)
    phone.goto(f"{url}/e/{event.slug}/")
    expect(phone.locator("#now-title")).to_have_text(re.compile(f"{winner.name} wins the event"))
    phone.goto(f"{url}/e/{event.slug}/players/{winner.pk}/")
    expect(phone.locator(".final-place")).to_contain_text(f"{winner.name} wins the event.")
    phone.goto(f"{url}/e/{event.slug}/standings/")
    expect(phone.get_by_role("heading", name="Final placings")).to_be_visible()
    shot("phone-winner", phone)
    org.goto(f"{url}/events/{event.slug}/")
    expect(org.locator(".winner-line")).to_have_text(re.compile(f"The event is over: {winner.name} wins."))
    shot("organiser-winner")

    # No result stored that the rules forbid: at most 3 drawn games beside the games won, no draw in the top cut.
    matches = Match.objects.filter(round__event=event, games_a__isnull=False)
    assert not matches.filter(games_a__gt=2).exists() and not matches.filter(games_b__gt=2).exists()
    assert not matches.filter(games_drawn__gt=3).exists()
    assert not matches.filter(round__kind=Round.Kind.ELIMINATION, games_a=F("games_b")).exists()
    assert (
        not Match.objects.filter(round__event=event, result=Match.Result.PLAYED, games_a__isnull=True)
        .exclude(player_b__isnull=True)
        .exists()
    )
