"""Flows people do, in a real browser (Chromium, driven by Playwright): tests/browser/conftest.py starts every
test with an empty cache."""


def poll_now(page) -> None:
    """The phone comes back out of the pocket: the page asks at once instead of at its next poll."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
