"""The event page's Sections panel on a 360-px phone, in Danish and Japanese (docs/sections.md): the page never
scrolls sideways, and each section's state, tables and rules ("Rating til og med") are on the screen."""

import pytest

from tests.browser.test_clock_and_search import sign_in
from tournament.models import Event
from tournament.services.rounds import pair_next_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.mark.parametrize("language", ["da", "ja"])
def test_the_sections_panel_fits_a_phone(live_server, browser, venue, organiser, language):
    a, b = venue.section_list
    Event.objects.filter(pk=a.pk).update(rating_min=1000, rating_max=1599, birth_year_min=2008, birth_year_max=2011)
    Event.objects.filter(pk=b.pk).update(rating_min=1600, first_table=101)
    pair_next_round(a, organiser)  # one section with a draft: its state has a badge
    context = browser.new_context(viewport=PHONE, locale=language, extra_http_headers={"Accept-Language": language})
    page = context.new_page()
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/events/{venue.slug}/#sections")
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.lang") == language
    panel = page.locator("#sections")
    panel.wait_for()
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width[0]} px wide in a {width[1]}-px window"
    # Nothing of the panel is cut: every cell, label and field lies within the window.
    outside = page.evaluate(
        """() => [...document.querySelectorAll(
                '#sections td, #sections th, #sections label, #sections input, #sections button, #sections .badge')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim() || e.name || e.tagName, e.getBoundingClientRect()])
            .filter(([, r]) => r.right > window.innerWidth + 0.5 || r.left < -0.5)
            .map(([t, r]) => `${t}: ${Math.round(r.left)}–${Math.round(r.right)}`)"""
    )
    assert not outside, outside
    label = {"da": "Rating til og med", "ja": "レーティング上限"}[language]
    if language == "da":
        assert panel.get_by_text(label).first.is_visible()
    context.close()
