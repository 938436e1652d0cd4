"""The organiser swaps two players in a published round; a player's phone, already on the public pairings, shows
the change on the round's trail at its next poll, with what it replaced, and never who made it."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.web.public.test_public import ROUND_1, pair
from tournament.forms.players import swap_label
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def test_a_swap_in_a_published_round_shows_on_the_public_trail(live_server, browser, page, event, shot):
    pair(event, 1, ROUND_1, state=Round.State.PAIRED)
    players = {p.name: p for p in event.players.all()}

    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    expect(phone.locator("#pairings tbody tr").filter(visible=True)).to_have_count(8)
    expect(phone.locator(".trail")).to_have_count(0)

    page.goto(f"{live_server.url}/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your events")).to_be_visible()
    page.goto(live_server.url + reverse("org_round", args=[event.slug, 1]))
    swap = page.locator("form.swap")
    expect(swap).to_contain_text("This round is published")
    swap.get_by_label("Swap").select_option(label=swap_label(players["Player B"]))
    swap.get_by_label("with").select_option(label=swap_label(players["Player C"]))
    swap.get_by_role("button", name="Swap").click()
    expect(page.get_by_text("Swapped Player B and Player C.")).to_be_visible()

    # The phone's page polls every 15 s: the trail comes by itself, without a reload.
    trail = phone.locator("#pairings .trail")
    expect(trail).to_be_visible(timeout=20_000)
    expect(trail.get_by_role("heading")).to_have_text("Changes since this round was published")
    lines = trail.locator("li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_have_text(
        re.compile(r"^Table 1, \d\d:\d\d: Player A – Player C, was Player A – Player B, changed by the organiser\.$")
    )
    expect(lines.nth(1)).to_contain_text("Table 2")
    expect(lines.nth(1)).to_contain_text("Player B – Player D, was Player C – Player D")
    assert "olga" not in phone.content()
    # Pleasant at 360 px: no sideways scrolling, the trail's lines wrap.
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    trail.scroll_into_view_if_needed()
    shot("phone-trail", phone)
