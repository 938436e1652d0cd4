"""No page logs an error to the browser's console: every page type of an event that has everything (the
organiser's, the printed, the public and the player's), loaded and then made to poll at once. The polls'
`[!document.hidden]` trigger filters once logged `htmx:evalDisallowedError` twice a poll under the
Content-Security-Policy."""

import pytest

from tests.web.i18n.test_i18n_page_text import pages, whole_event  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A poll's trigger is evaluated when it fires: make every `visibilitychange` trigger fire now.
POLL_NOW = "document.dispatchEvent(new Event('visibilitychange'))"


def test_no_page_type_logs_a_console_error(live_server, page, context, organiser, whole_event):  # noqa: F811
    event, players = whole_event("en")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state("networkidle")
    found = {}
    for name, (who, url) in pages(event, players).items():
        if who == "me":
            context.clear_cookies()  # the personal link signs the phone in as the player, not the organiser
        errors.clear()
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        page.evaluate(POLL_NOW)
        page.wait_for_timeout(300)
        page.wait_for_load_state("networkidle")
        if errors:
            found[name] = list(errors)
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
