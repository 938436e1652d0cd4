"""Registration in the browser: a pasted list with "Last, First" names and a header,
a bad rating explained, two players of one name told apart, a mistaken entry deleted after a question."""

import re

import pytest
from playwright.sync_api import expect

from tournament.models import Event, EventRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_paste_tell_apart_and_delete(live_server, page, organiser, shot):
    event = Event.objects.create(slug="reg", name="Registration Night")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    page.set_viewport_size({"width": 1024, "height": 800})
    page.goto(f"{live_server.url}/events/reg/players/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()

    page.get_by_text("Paste a list").click()
    box = page.get_by_label("Paste players, one per line")
    box.fill("Name\tRating\nSmith, John\t1500\nKim, Alex\t-5\n")
    page.get_by_role("button", name="Add these players").click()
    expect(page.locator(".errorlist")).to_contain_text("Line 3 (Kim, Alex, -5): rating -5 cannot be negative.")
    expect(page.get_by_label("Paste players, one per line")).to_have_value(re.compile("Smith, John"))
    page.get_by_label("Paste players, one per line").fill(
        'Name\tRating\nSmith, John\t1500\nKim, Alex\t1400\n"Kim, Alex"\n'
    )
    page.get_by_role("button", name="Add these players").click()
    roster = page.locator("#roster table.players")
    expect(roster).to_contain_text("John Smith")
    expect(roster.locator("tr", has_text="Alex Kim")).to_have_count(2)
    expect(roster.locator("tr", has_text="Alex Kim").first.locator(".player-number")).to_have_text(re.compile(r"\d"))
    shot("pasted")

    page.get_by_role("link", name="Delete Alex Kim").last.click()
    expect(page.get_by_role("heading", name=re.compile(r"Delete Alex Kim \(#3\)\?"))).to_be_visible()
    shot("delete-confirm")
    page.get_by_role("button", name="Yes, delete Alex Kim").click()
    expect(page.locator(".messages")).to_contain_text("Alex Kim (#3) is deleted.")
    expect(roster.locator("tr", has_text="Alex Kim")).to_have_count(1)
    assert sorted(event.players.values_list("name", "number")) == [("Alex Kim", 2), ("John Smith", 1)]
