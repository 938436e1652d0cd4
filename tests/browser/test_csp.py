"""Under the strict Content-Security-Policy the pages work and nothing is blocked:
no inline style or script left, htmx adds no inline styles and evaluates nothing."""

import pytest
from playwright.sync_api import expect

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample || ""}`);
});
"""


def violations(page) -> list[str]:
    return page.evaluate("window.__csp")


def test_public_pages_run_under_the_policy_without_a_violation(live_server, page, event):
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2)
    page.add_init_script(RECORD)
    for path in ("", "pairings/", "standings/", "screen/", "bracket/"):
        response = page.goto(f"{live_server.url}/e/{event.slug}/{path}")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
        assert violations(page) == [], path
    # The page's own script still filters the list as a name is typed.
    page.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    page.get_by_label("Find your name").fill("player a")
    expect(page.locator("#pairings tbody tr").filter(visible=True)).to_have_count(1)
    expect(page.locator("#pairings tbody tr").filter(visible=True)).to_contain_text("Player A")
    assert violations(page) == []


def test_organiser_htmx_works_under_the_policy(live_server, page, organiser, event):
    page.add_init_script(RECORD)
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/events/{event.slug}/players/")
    page.get_by_label("Add a player").fill("Quinn Late, 1400")
    page.get_by_label("Add a player").press("Enter")
    expect(page.locator("#add-log")).to_contain_text("Added Quinn Late (#9, 1400).")
    expect(page.locator("#roster")).to_contain_text("Quinn Late")
    assert event.players.filter(name="Quinn Late").exists()
    assert violations(page) == []
