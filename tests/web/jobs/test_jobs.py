"""Heavy pairing off the web request (tournament/jobs/workflow.py): a large round is paired by the worker, through the real
task queue (django-tasks-db keeps it in the test database) and the real worker (its Worker class in a thread, as
`manage.py db_worker --batch` runs it; and the command itself in a process of its own)."""

import os
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection, connections
from django.urls import reverse
from django.utils import timezone, translation
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from pairing import PairingError
from swiss.messages import Message
from tests.conftest import new_chess_event
from tournament.jobs import workflow as jobs
from tournament.models import Event, EventRole, Job, Match, Player, Round
from tournament.services.locks import ServiceError
from tournament.services.rounds import pair_next_round, publish_round, repair_round
from tournament.text import engine_text

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[3]


def work(max_tasks: int | None = None) -> None:
    """The worker, as `manage.py db_worker --batch` runs it, in a thread (a connection of its own): it runs every
    task queued, then stops."""
    failed = []

    def run():
        try:
            Worker(
                queue_names=["default"],
                interval=0,
                batch=True,
                backend_name="default",
                startup_delay=False,
                max_tasks=max_tasks,
                worker_id="test-worker",
                excluded_queue_names=[],
            ).run()
        except BaseException as e:  # noqa: BLE001 (shown by the assertion below)
            failed.append(e)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=300)
    assert not thread.is_alive() and not failed, failed


def mtg_event(organiser, players: int, slug: str = "big") -> Event:
    event = Event.objects.create(slug=slug, name="Big Saturday", tiebreakers=["omw", "gw", "ogw"], planned_rounds=5)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:04d}", rating=2000 - i) for i in range(players))
    return event


@pytest.fixture
def small_limits(settings):
    """Ten players are a large round here: the worker pairs them."""
    settings.PAIR_IN_BACKGROUND_FROM = {"dutch": 10, "optimal": 10}


@pytest.fixture
def big(organiser, small_limits):
    return mtg_event(organiser, 12)


def pair_url(event):
    return reverse("org_round_pair", args=[event.slug])


def status_url(job):
    return reverse("org_job", args=[job.event.slug]) + f"?job={job.pk}"


def test_a_large_dutch_round_is_answered_at_once_and_paired_by_the_worker(client, organiser):
    """At the default limits: 300 chess players are paired by the worker (the FIDE Dutch system), not the request."""
    event = new_chess_event(organiser, {f"Player {i:03d}": 2400 - i for i in range(300)}, slug="open")
    client.force_login(organiser)
    r = client.post(pair_url(event))
    assert r.status_code == 302 and r.url == reverse("org_event", args=["open"])
    assert not event.rounds.exists()  # answered before anything was paired
    job = Job.objects.get(event=event)
    assert (job.kind, job.round_number, job.state, job.created_by) == ("pair", 1, "queued", organiser)
    task = DBTaskResult.objects.get(id=job.task_id)  # the task queue's own row, in the same database
    assert task.status == "READY" and task.task_path == "tournament.jobs.workflow.run_job"

    page = client.get(r.url).content.decode()
    assert "Pairing round 1…" in page and status_url(job).replace("&", "&amp;") in page
    assert 'hx-trigger="every 2s"' in page
    assert "Pair round 1" not in page  # the button is not offered again while it pairs

    work()
    job.refresh_from_db()
    assert job.state == "done" and job.started_at and job.finished_at and not job.error
    rnd = event.rounds.get()
    assert (rnd.number, rnd.state) == (1, Round.State.DRAFT)
    assert rnd.matches.filter(player_b__isnull=False).count() == 150
    task.refresh_from_db()
    assert task.status == "SUCCESSFUL"

    # The page's poll finds the draft stored and goes there.
    r = client.get(status_url(job), headers={"HX-Request": "true"})
    assert r.headers["HX-Redirect"] == reverse("org_round", args=["open", 1])
    draft = client.get(reverse("org_round", args=["open", 1])).content.decode()
    assert "Round 1 is paired as a draft. Check it, then publish it." in draft


def test_a_small_round_is_still_paired_in_the_request(client, organiser, event):
    client.force_login(organiser)
    r = client.post(pair_url(event))
    assert r.url == reverse("org_round", args=[event.slug, 1])
    assert event.rounds.get().state == Round.State.DRAFT
    assert not Job.objects.exists()


def test_the_quick_refusals_come_at_once_with_no_job(client, organiser, big):
    """What needs no engine (a draft still unpublished, results outstanding) is refused in the request."""
    client.force_login(organiser)
    client.post(pair_url(big))
    work()
    r = client.post(pair_url(big), follow=True)
    assert "Round 1 is still a draft: publish it or re-pair it first." in r.content.decode()
    assert Job.objects.count() == 1


def test_a_second_click_starts_no_second_job(client, organiser, big, django_user_model):
    client.force_login(organiser)
    client.post(pair_url(big))
    r = client.post(pair_url(big), follow=True)
    assert "Round 1 is being paired already (started 0 seconds ago); this page follows it." in r.content.decode()
    # A second organiser, likewise.
    other = django_user_model.objects.create_user("oscar", password="organiser-pass-2")
    EventRole.objects.create(event=big, user=other, role=EventRole.Role.ORGANISER)
    client.force_login(other)
    client.post(pair_url(big))
    assert Job.objects.count() == 1 and DBTaskResult.objects.count() == 1
    work()
    assert big.rounds.count() == 1


def test_the_database_allows_one_active_job_per_event(organiser, big):
    job = jobs.start(big, Job.Kind.PAIR, 1, organiser)
    with pytest.raises(jobs.AlreadyRunning) as second:
        jobs.start(big, Job.Kind.PAIR, 1, organiser)
    assert second.value.job == job
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():  # even past the workflow's own check
        Job.objects.create(event=big, kind=Job.Kind.PAIR, round_number=1, state=Job.State.RUNNING)
    Job.objects.filter(pk=job.pk).update(state=Job.State.DONE)
    assert jobs.start(big, Job.Kind.PAIR, 2, organiser).state == "queued"


@pytest.mark.needs_postgresql(reason="SQLite has one writer: a running pairing holds it, so a second click waits")
def test_a_click_while_the_worker_pairs_starts_no_second_job(client, organiser, big, monkeypatch):
    from tournament.services import rounds

    inside, release = threading.Event(), threading.Event()
    engine = rounds.pair

    def slow(inp, seed):
        inside.set()
        assert release.wait(60)
        return engine(inp, seed=seed)

    monkeypatch.setattr(rounds, "pair", slow)
    client.force_login(organiser)
    client.post(pair_url(big))
    worker = threading.Thread(target=work)
    worker.start()
    try:
        assert inside.wait(60)
        job = Job.objects.get()
        assert job.state == "running"
        r = client.post(pair_url(big), follow=True)
        assert "Round 1 is being paired already" in r.content.decode()
        # The heartbeat thread tells the page what the engine is doing.
        for _ in range(50):
            job.refresh_from_db()
            if job.progress == "Pairing 12 players…":
                break
            threading.Event().wait(0.1)
        assert job.progress == "Pairing 12 players…"
        assert "Pairing 12 players…" in client.get(status_url(job)).content.decode()
    finally:
        release.set()
        worker.join(timeout=120)
    assert Job.objects.count() == 1 and big.rounds.count() == 1


def two_players_who_met(organiser) -> Event:
    """Two chess players who have played each other: no Dutch round 2 meets the absolute criteria."""
    event = new_chess_event(organiser, {"Aiko": 2000, "Bjørn": 1900}, slug="duo")
    pair_next_round(event, organiser)
    rnd = event.rounds.get()
    publish_round(rnd, organiser)
    Match.objects.filter(round=rnd).update(games_a=1, games_b=0, games_drawn=0)
    return event


def test_a_failing_job_says_why_in_the_organisers_language_and_stores_nothing(client, organiser, settings):
    settings.PAIR_IN_BACKGROUND_FROM = {"dutch": 2, "optimal": 2}
    event = two_players_who_met(organiser)
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    client.post(pair_url(event))
    job = Job.objects.get()
    assert job.language == "ja"
    work()
    job.refresh_from_db()
    with translation.override("ja"):
        expected = engine_text.sentence(
            Message("dutch_no_pairing", "no pairing of round {round} meets the absolute criteria", round=2)
        )
    assert job.state == "failed" and job.error == expected and job.finished_at
    assert "ラウンド" in job.error
    assert list(event.rounds.values_list("number", flat=True)) == [1]  # nothing stored
    page = client.get(reverse("org_event", args=[event.slug])).content.decode()
    assert expected in page and "hx-trigger" not in page  # shown, and no longer polled
    assert "ラウンド 2" in page or "ラウンド2" in page
    # In English for an organiser reading in English? No: the error is in the language of whoever started it.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert expected in client.get(reverse("org_event", args=[event.slug])).content.decode()


def test_a_job_that_breaks_while_storing_leaves_nothing_half_done(client, organiser, big, monkeypatch):
    """The draft and the job's end are stored in one transaction: an error after the round row was written takes
    it back, and the job says so."""
    from tournament.services import rounds

    def broken(rnd, matches):
        assert Round.objects.filter(pk=rnd.pk).exists()
        raise RuntimeError("disk full")

    monkeypatch.setattr(rounds, "create_matches", broken)
    client.force_login(organiser)
    client.post(pair_url(big))
    work()
    job = Job.objects.get()
    assert job.state == "failed" and "unexpected error" in job.error
    assert not Round.objects.exists() and not Match.objects.exists()
    task = DBTaskResult.objects.get(id=job.task_id)
    assert task.status == "FAILED" and "disk full" in task.traceback


def test_a_job_left_running_by_a_dead_worker_is_shown_stopped_and_can_be_run_again(client, organiser, big):
    long_ago = timezone.now() - timedelta(seconds=django_settings.JOB_STALE_SECONDS + 5)
    dead = Job.objects.create(
        event=big,
        kind=Job.Kind.PAIR,
        round_number=1,
        state=Job.State.RUNNING,
        created_by=organiser,
        created_at=long_ago,
        started_at=long_ago,
        heartbeat=long_ago,
    )
    client.force_login(organiser)
    page = client.get(reverse("org_event", args=[big.slug])).content.decode()
    assert "Pairing round 1 has stopped" in page and "The worker pairing it stopped answering" in page
    assert ">Pair again</button>" in page
    r = client.post(pair_url(big))  # the page's "Pair again"
    assert r.url == reverse("org_event", args=[big.slug])
    dead.refresh_from_db()
    assert dead.state == "failed" and dead.error == "The worker stopped while pairing round 1. Nothing was stored."
    again = Job.objects.get(state="queued")
    work()
    again.refresh_from_db()
    assert again.state == "done" and big.rounds.get().number == 1


def test_a_job_no_worker_takes_is_shown_stopped(client, organiser, big):
    client.force_login(organiser)
    client.post(pair_url(big))
    job = Job.objects.get()
    page = client.get(reverse("org_event", args=[big.slug])).content.decode()
    assert "Waiting for the worker…" in page
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    page = client.get(reverse("org_event", args=[big.slug])).content.decode()
    assert "No worker has taken it: the server’s worker is not running." in page
    # A worker that comes up later takes the old task and finds it stopped; pairing again runs once.
    client.post(pair_url(big))
    work()
    job.refresh_from_db()
    assert job.state == "failed" and "No worker took the pairing of round 1" in job.error
    assert Job.objects.filter(state="done").count() == 1 and big.rounds.count() == 1


def test_a_queue_behind_a_busy_worker_is_not_stopped(organiser, big, small_limits):
    other = mtg_event(organiser, 12, slug="other")
    now = timezone.now()
    Job.objects.create(
        event=other, kind="pair", round_number=1, state="running", started_at=now, heartbeat=now, created_at=now
    )
    waiting = Job.objects.create(event=big, kind="pair", round_number=1, created_at=now - timedelta(minutes=5))
    assert not waiting.is_stale()
    assert jobs.queued_ahead(waiting) == 1


def test_the_status_fragment(client, organiser, judge, outsider, big):
    EventRole.objects.create(event=big, user=judge, role=EventRole.Role.JUDGE)
    client.force_login(organiser)
    client.post(pair_url(big))
    job = Job.objects.get()
    r = client.get(status_url(job), headers={"HX-Request": "true"})
    body = r.content.decode()
    assert r.status_code == 200 and body.lstrip().startswith('<section id="job-status"')
    assert "Pairing round 1…" in body and 'data-seconds-since="' in body and "Waiting for the worker…" in body
    etag = r.headers["ETag"]
    assert "no-cache" in r.headers["Cache-Control"] and "private" in r.headers["Cache-Control"]
    # Unchanged: 304, a few queries and no body, however long ago it started.
    again = client.get(status_url(job), headers={"HX-Request": "true", "If-None-Match": etag})
    assert again.status_code == 304
    Job.objects.filter(pk=job.pk).update(state="running", started_at=timezone.now(), heartbeat=timezone.now())
    Job.objects.filter(pk=job.pk).update(progress="Pairing 12 players…")
    changed = client.get(status_url(job), headers={"HX-Request": "true", "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "Pairing 12 players…" in changed.content.decode()
    # A judge follows it too, without the organiser's buttons; nobody else sees it, nor another event's job.
    client.force_login(judge)
    assert client.get(status_url(job)).status_code == 200
    client.force_login(outsider)
    assert client.get(status_url(job)).status_code in (403, 404)
    client.force_login(organiser)
    other = mtg_event(organiser, 2, slug="other")
    assert client.get(reverse("org_job", args=[other.slug]) + f"?job={job.pk}").status_code == 404
    assert client.get(reverse("org_job", args=[big.slug]) + "?job=x").status_code == 404
    # Done: the poll goes to the draft (a redirect without the page's script).
    Job.objects.filter(pk=job.pk).update(state="queued")  # as it was, for the worker to claim
    work()
    r = client.get(status_url(job))
    assert r.status_code == 302 and r.url == reverse("org_round", args=[big.slug, 1])


def test_pairing_a_draft_again_runs_as_a_job_and_publishing_waits_for_it(client, organiser, big):
    client.force_login(organiser)
    client.post(pair_url(big))
    work()
    old = big.rounds.get()
    r = client.post(reverse("org_round_repair", args=[big.slug, 1]))
    assert r.url == reverse("org_round", args=[big.slug, 1])
    job = Job.objects.get(kind="repair")
    assert (job.round_number, job.published) == (1, False)
    page = client.get(r.url).content.decode()
    assert "Pairing round 1 again…" in page and "Publish round 1" not in page
    r = client.post(reverse("org_round_publish", args=[big.slug, 1]), follow=True)
    assert "Round 1 is being paired again: publish the new draft once it is ready." in r.content.decode()
    work()
    new = big.rounds.get()
    assert new.pk != old.pk and new.state == Round.State.DRAFT
    r = client.get(status_url(job), headers={"HX-Request": "true"})
    assert r.headers["HX-Redirect"] == reverse("org_round", args=[big.slug, 1])
    assert (
        "Round 1 is paired again as a draft." in client.get(reverse("org_round", args=[big.slug, 1])).content.decode()
    )


def test_a_draft_published_before_its_re_pairing_ran_is_left_as_it_is(organiser, big):
    pair_next_round(big, organiser)
    rnd = big.rounds.get()
    job = jobs.start(big, Job.Kind.REPAIR, 1, organiser, published=False)
    Round.objects.filter(pk=rnd.pk).update(state=Round.State.PAIRED)  # published by a path that did not wait
    work()
    job.refresh_from_db()
    assert job.state == "failed" and "was published meanwhile" in job.error
    assert big.rounds.get().pk == rnd.pk
    with pytest.raises(ServiceError):
        repair_round(big.rounds.get(), organiser, only_draft=True)


def test_re_pairing_a_published_round_as_a_job_keeps_the_confirmation(client, organiser, big):
    pair_next_round(big, organiser)
    publish_round(big.rounds.get(), organiser)
    client.force_login(organiser)
    r = client.post(reverse("org_round_repair", args=[big.slug, 1]))  # no confirm: the question, no job
    assert r.status_code == 200 and not Job.objects.exists()
    client.post(reverse("org_round_repair", args=[big.slug, 1]), {"confirm": "1"})
    job = Job.objects.get()
    assert job.published
    work()
    job.refresh_from_db()
    assert job.state == "done" and big.rounds.get().state == Round.State.DRAFT


@pytest.mark.needs_postgresql(reason="on SQLite nobody else writes while a job pairs: the stop waits for its end")
def test_a_job_stopped_while_it_ran_throws_its_work_away(organiser, big, monkeypatch):
    """A job closed as stopped while it still ran (its heartbeat was late) stores nothing: the job started again
    in its place is the one that counts."""
    from tournament.services import rounds

    engine = rounds.pair

    def taken_over(inp, seed):
        job = Job.objects.get(state="running")
        closer = threading.Thread(target=lambda: (jobs.stop(job), connections.close_all()))  # another process
        closer.start()
        closer.join()
        return engine(inp, seed=seed)

    monkeypatch.setattr(rounds, "pair", taken_over)
    job = jobs.start(big, Job.Kind.PAIR, 1, organiser)
    work()
    job.refresh_from_db()
    assert not big.rounds.exists()
    assert job.state == "failed" and job.error == "The worker stopped while pairing round 1. Nothing was stored."
    assert DBTaskResult.objects.get(id=job.task_id).return_value == "superseded: nothing stored"


def test_the_immediate_backend_pairs_in_the_request(client, organiser, big, settings):
    """TASKS_BACKEND's immediate backend (no worker) runs the job at once: the POST answers with the draft."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    client.force_login(organiser)
    r = client.post(pair_url(big))
    assert r.url == reverse("org_round", args=[big.slug, 1])
    assert Job.objects.get().state == "done" and big.rounds.count() == 1


def database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def test_the_worker_command_pairs_the_queued_round(client, organiser, big):
    """`manage.py db_worker`, as `make run` and docker-compose start it, in a process of its own."""
    client.force_login(organiser)
    client.post(pair_url(big))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env["DATABASE_URL"] = database_url()
    done = subprocess.run(
        [sys.executable, "manage.py", "db_worker", "--batch", "--no-reload", "--no-startup-delay", "--interval", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert Job.objects.get().state == "done" and big.rounds.get().number == 1


def test_a_pairing_error_in_the_engine_is_told_by_the_job_in_its_language(organiser, big, monkeypatch):
    from tournament.services import rounds

    def impossible(inp, seed):
        raise PairingError(Message("too_few_players", "at least two players are needed to pair a round"))

    monkeypatch.setattr(rounds, "pair", impossible)
    with translation.override("da"):
        job = jobs.start(big, Job.Kind.PAIR, 1, organiser)
    work()
    job.refresh_from_db()
    with translation.override("da"):
        expected = engine_text.sentence(Message("too_few_players", "at least two players are needed to pair a round"))
    assert job.state == "failed" and job.error == expected and expected != "At least two players are needed."
