"""An adjourned game's result at the desk in the browser (docs/fide-mode.md): the one-click button asks its level-3
warning in the row, Confirm stores it there without leaving the page; the keyboard entry asks in its line, where
Escape cancels and Confirm stores. The TRF gets the `### Adjournment` line once."""

import pytest
from playwright.sync_api import expect

from tests.conftest import new_chess_event
from tests.web.public.test_public import pair
from tournament.models import Event, EventLog, Match, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_adjourned_games_result_is_confirmed_where_it_was_entered(live_server, page, organiser, shot):
    new_chess_event(organiser, {"Anna": 2000, "Bo": 1900, "Cleo": 1800, "Dan": 1700, "Eva": 1600, "Finn": 1500})
    Event.objects.filter(slug="open").update(fide_mode=True)
    event = Event.objects.get(slug="open")
    pair(event, 1, [("Anna", "Bo"), ("Cleo", "Dan"), ("Eva", "Finn")], state=Round.State.IN_PROGRESS)
    Match.objects.filter(round__event=event, table__in=(2, 3)).update(adjourned=True)
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    url = f"{live_server.url}/events/open/rounds/1/"
    page.goto(url)

    # The one-click button: the warning in the row, Confirm there, the page never left.
    row = page.locator("tr.match[data-table='2']")
    row.get_by_role("button", name="Table 2: 1-0").click()
    expect(row.locator(".warnings")).to_contain_text("was adjourned")
    expect(row).to_have_class("match state-empty asking")
    shot("row-asks")
    row.get_by_role("button", name="Confirm").dblclick()
    expect(row.locator(".result-label")).to_have_text("1-0")
    expect(row.locator(".warnings")).to_have_count(0)
    assert page.url == url

    # The keyboard entry: the warning in its line; Escape cancels, then Confirm stores.
    page.get_by_label("Table", exact=True).fill("3")
    page.keyboard.press("Enter")
    page.keyboard.type("0-1")
    page.keyboard.press("Enter")
    line = page.locator("#desk-log li.entry").first
    expect(line.locator(".warnings")).to_contain_text("Table 3 of round 1 was adjourned")
    shot("line-asks")
    line.get_by_role("button", name="Confirm").focus()
    page.keyboard.press("Escape")
    expect(page.locator("#desk-log li.entry").first).to_contain_text("nothing entered")
    assert Match.objects.get(round__event=event, table=3).games is None
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    page.keyboard.type("0-1")
    page.keyboard.press("Enter")
    page.locator("#desk-log li.entry").first.get_by_role("button", name="Confirm").click()
    expect(page.locator("#desk-log li.entry").first).to_contain_text("Table 3: Eva 0-1 Finn")
    expect(page.locator("tr.match[data-table='3'] .result-label")).to_have_text("0-1")
    shot("both-stored")

    assert [
        d["params"]["result"]
        for d in EventLog.objects.filter(action="warning").order_by("id").values_list("detail", flat=True)
    ] == [
        "1-0",
        "0-1",
    ]
    trf = page.request.get(f"{live_server.url}/events/open/export/event.trf").text()
    assert trf.count("### Adjournment @ Round 1: ") == 2
