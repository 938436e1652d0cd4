"""A large round paired by the worker, in the browser: the button answers at once, the event's page says what is
being paired and counts the seconds, and opens the draft by itself once the worker has stored it."""

import re
import threading
import time

import pytest
from django.db import connections
from django_tasks_db.management.commands.db_worker import Worker
from playwright.sync_api import expect

from tests.web.jobs.test_jobs import mtg_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker():
    """The task queue's worker, running as `manage.py db_worker` does (in a thread here), until the test ends."""
    w = Worker(
        queue_names=["default"],
        interval=0.2,
        batch=False,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="browser-test",
        excluded_queue_names=[],
    )

    def run():
        try:
            w.run()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield w
    w.running = False
    thread.join(timeout=30)


def test_a_large_round_is_paired_by_the_worker_and_the_page_follows_it(
    live_server, page, organiser, settings, worker, monkeypatch, shot
):
    from tournament.services import rounds

    settings.PAIR_IN_BACKGROUND_FROM = {"dutch": 10, "optimal": 10}
    event = mtg_event(organiser, 24)
    engine = rounds.pair

    def slow(inp, seed):  # long enough to see the page follow it
        time.sleep(4)
        return engine(inp, seed=seed)

    monkeypatch.setattr(rounds, "pair", slow)
    page.set_viewport_size({"width": 1024, "height": 800})
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/events/{event.slug}/")
    polls = []
    page.on("response", lambda r: polls.append(r.status) if "/job/" in r.url else None)

    started = time.monotonic()
    page.get_by_role("button", name="Pair round 1").click()
    box = page.locator("#job-status")
    expect(box).to_contain_text("Pairing round 1…")
    assert time.monotonic() - started < 4, "the button waited for the pairing"
    expect(page.get_by_role("button", name="Pair round 1")).to_have_count(0)
    expect(box.locator("[data-seconds-since]")).to_have_text(re.compile(r"^[1-9]"), timeout=3000)  # it counts
    shot("pairing")

    expect(page.get_by_role("heading", name=re.compile("Round 1"))).to_contain_text("draft", timeout=20_000)
    expect(page.get_by_text("Round 1 is paired as a draft. Check it, then publish it.")).to_be_visible()
    assert page.url.endswith(f"/events/{event.slug}/rounds/1/")
    assert polls and set(polls) <= {200, 304}, polls
    shot("draft")


def test_a_pairing_whose_worker_died_is_shown_stopped_and_paired_again(live_server, page, organiser, settings, worker):
    from datetime import timedelta

    from django.utils import timezone

    from tournament.models import Job

    settings.PAIR_IN_BACKGROUND_FROM = {"dutch": 10, "optimal": 10}
    event = mtg_event(organiser, 24)
    long_ago = timezone.now() - timedelta(minutes=5)
    Job.objects.create(  # left running by a worker that was killed
        event=event, kind="pair", round_number=1, state="running", created_at=long_ago, heartbeat=long_ago
    )
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/events/{event.slug}/")
    box = page.locator("#job-status")
    expect(box).to_contain_text("Pairing round 1 has stopped")
    expect(box).to_contain_text("Nothing was stored.")
    with page.expect_navigation():
        box.get_by_role("button", name="Pair again").click()
    # The page follows the new job to the draft (or, had the worker finished before the page came, offers it).
    expect(page.locator("#job-status")).to_have_count(0, timeout=20_000)
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/1/")
    expect(page.get_by_role("heading", name=re.compile("Round 1"))).to_contain_text("draft")
    assert Job.objects.filter(state="done").count() == 1 and Job.objects.filter(state="failed").count() == 1
