"""One clock on every page, written as the server writes it; the filter that runs as you type finds the players
the server's search finds (the same folding tables: tournament/text/name_search.py)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.web.public.test_public import pair
from tournament.models import Player, Round
from tournament.services.locks import changed
from tournament.text import l10n

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def sign_in(page, base: str) -> None:
    page.goto(f"{base}/login/")
    page.locator("#id_username").fill("olga")
    page.locator("#id_password").fill("organiser-pass-1")
    page.locator("form button[type=submit], form input[type=submit]").first.click()
    page.wait_for_load_state()


@pytest.fixture
def long_round(event):
    """Round 1 of a 95-minute round, started five minutes ago."""
    rnd = pair(event, 1, [("Player A", "Player B"), ("Player C", "Player D"), ("Player E", "Player F")])
    rnd.clock_minutes = 95
    rnd.clock_started = timezone.now() - timedelta(minutes=5)
    rnd.save(update_fields=["clock_minutes", "clock_started"])
    changed(event)
    return rnd


def test_the_organisers_and_the_publics_clock_count_alike(live_server, page, event, long_round):
    over_an_hour = re.compile(r"^1:(29|30):\d\d$")
    page.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    expect(page.locator("#pairings .clock")).to_have_text(over_an_hour)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/events/{event.slug}/")
    expect(page.locator("header .nav-clock .clock")).to_have_text(over_an_hour)


def test_a_paused_clock_reads_as_the_server_wrote_it(live_server, page, event, long_round):
    long_round.clock_paused_at = long_round.clock_started + timedelta(minutes=2)
    long_round.save(update_fields=["clock_paused_at"])
    changed(event)
    page.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    clock = page.locator("#pairings .clock")
    expect(clock).to_have_text(f"{l10n.clock(93 * 60)} (paused)")
    page.wait_for_timeout(1500)  # a tick later: still the server's words, standing still
    expect(clock).to_have_text("1:33:00 (paused)")


NAMES = ["Søren Østergaard", "髙橋 一郎", "Seán O’Brien", "Jürgen Strauß", "やまだ たろう", "Aase Ærø"]
TYPED = ["soren", "高橋", "o'brien", "strauss", "ヤマダタロウ", "aero", "åse", "ｓｏｒｅｎ"]


@pytest.mark.parametrize("typed", TYPED)
def test_the_filter_finds_whom_the_servers_search_finds(live_server, browser, page, event, typed):
    Player.objects.filter(event=event).delete()
    Player.objects.bulk_create(Player(event=event, name=n) for n in [*NAMES, "Anne Berg"])
    pair(event, 1, [(NAMES[0], NAMES[1]), (NAMES[2], NAMES[3]), (NAMES[4], NAMES[5]), ("Anne Berg", None)])
    Round.objects.filter(event=event).update(state=Round.State.IN_PROGRESS)
    # The server's search: the page as a phone without JavaScript gets it for ?q=.
    without_script = browser.new_context(java_script_enabled=False, viewport=PHONE)
    served_page = without_script.new_page()
    served_page.goto(f"{live_server.url}/e/{event.slug}/pairings/?q={typed}")
    served = sorted(served_page.locator("#pairings tbody tr").all_inner_texts())
    without_script.close()
    assert 0 < len(served) < len(NAMES), typed
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    page.get_by_label("Find your name").fill(typed)
    expect(page.locator("#pairings tbody tr").filter(visible=True)).to_have_count(len(served))
    assert sorted(page.locator("#pairings tbody tr").filter(visible=True).all_inner_texts()) == served
