"""A job survives what a server's day does to it (tournament/jobs/workflow.py): a real `manage.py db_worker` process killed
(SIGKILL) in the middle of a job leaves the event as it was and the job can be run again; a worker started again
runs no job twice and loses none still queued; Redis stopped and started while a job runs loses nothing."""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from tests.web.deploy.test_cache_outage import RedisServer
from tests.web.jobs.test_jobs import ROOT, database_url, mtg_event
from tournament.jobs import workflow as jobs
from tournament.jobs.files import players_payload
from tournament.models import Job

pytestmark = pytest.mark.django_db(transaction=True)

ROWS = 10_000  # a roster the worker takes a while to read and store (the kill comes once it has begun)


def roster(n: int, prefix: str = "Entrant") -> str:
    return "name,rating\n" + "".join(f"{prefix} {i:05d},{1000 + i % 1500}\n" for i in range(n))


def worker(*extra: str, env: dict | None = None) -> subprocess.Popen:
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environment.update(DATABASE_URL=database_url(), **(env or {}))
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.1"]
    return subprocess.Popen(
        [*command, *extra], cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def wait(job: Job, states: tuple[str, ...], timeout: float = 120) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.state in states:
            return job
        time.sleep(0.01)
    raise AssertionError(f"job {job.pk} still {job.state} after {timeout} s")


def run_batch(env: dict | None = None) -> None:
    """A worker that runs every task ready, then stops (`db_worker --batch`)."""
    process = worker("--batch", env=env)
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err.decode()


def test_a_worker_killed_mid_job_leaves_the_event_as_it_was_and_the_job_runs_again(client, organiser, settings):
    event = mtg_event(organiser, 3)
    job = jobs.start(event, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", roster(ROWS)))
    process = worker()
    try:
        wait(job, ("running", "done", "failed"))
        process.send_signal(signal.SIGKILL)  # kill -9: no cleanup of any kind
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    job.refresh_from_db()
    assert job.state == "running"  # killed in the middle of it
    assert event.players.count() == 3  # the import's transaction died with the worker
    assert DBTaskResult.objects.get(id=job.task_id).status == "RUNNING"

    # The job falls silent: after JOB_STALE_SECONDS the roster page shows it stopped, with "Run again".
    settings.JOB_STALE_SECONDS = 0
    client.force_login(organiser)
    page = client.get(reverse("org_players", args=[event.slug])).content.decode()
    assert "Import players: stopped" in page and "The worker doing it stopped answering." in page
    assert "Run again</button>" in page
    r = client.post(reverse("org_job_retry", args=[event.slug, job.pk]))
    assert r.url == reverse("org_players", args=[event.slug])
    job.refresh_from_db()
    assert job.state == "failed" and job.error == "The worker stopped while doing this job. Nothing was stored."
    again = Job.objects.get(state="queued")
    assert again.payload == job.payload

    # A worker started again runs the new job once, and not the task of the one that died.
    settings.JOB_STALE_SECONDS = 30
    run_batch()
    again.refresh_from_db()
    assert again.state == "done" and event.players.count() == 3 + ROWS
    assert Job.objects.filter(state="done").count() == 1
    # Never taken again: closed in the queue when its job was found stopped (it stayed "running" for ever before).
    assert DBTaskResult.objects.get(id=job.task_id).status == "FAILED"


def test_a_worker_started_again_runs_each_queued_job_once(organiser):
    """Jobs queued while the worker was down, or behind the one it died in, are run by the next worker, once."""
    first, second = mtg_event(organiser, 0, slug="first"), mtg_event(organiser, 0, slug="second")
    slow = jobs.start(first, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", roster(ROWS)))
    queued = jobs.start(second, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", roster(50, "Late")))
    process = worker()
    try:
        wait(slow, ("running", "done", "failed"))
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    queued.refresh_from_db()
    assert queued.state == "queued"
    run_batch()
    run_batch()  # a second restart finds nothing left to do
    queued.refresh_from_db()
    slow.refresh_from_db()
    assert queued.state == "done" and second.players.count() == 50
    assert slow.state == "running" and first.players.count() == 0  # stopped, to run again; nothing half-stored
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 1


@pytest.mark.skipif(not shutil.which("redis-server"), reason="no redis-server (apt-get install redis-server)")
def test_redis_stopped_and_started_mid_job_loses_nothing(organiser, settings, tmp_path):
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    location = f"redis://127.0.0.1:{redis_server.port}/0"
    settings.CACHES = {"default": {"BACKEND": "tournament.infra.cache.FailSafeRedisCache", "LOCATION": location}}
    try:
        event = mtg_event(organiser, 2)
        phone = Client()
        before = phone.get(reverse("public:home", args=[event.slug]))
        assert before.status_code == 200
        job = jobs.start(event, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", roster(ROWS)))
        process = worker(env={"REDIS_URL": location})
        try:
            wait(job, ("running", "done", "failed"))
            redis_server.stop()  # the shared cache goes away while the job stores the roster
            wait(job, ("done", "failed"))
            redis_server.start()
        finally:
            process.terminate()
            process.wait(30)
        job.refresh_from_db()
        assert job.state == "done", job.error
        assert event.players.count() == 2 + ROWS
        assert Job.objects.filter(event=event).count() == 1
        # Redis back: the pages show the imported roster, not a copy cached before the job.
        page = Client().get(reverse("public:pairings", args=[event.slug]) + "?q=Entrant 00042")
        assert page.status_code == 200 and "Entrant 00042" in page.content.decode()
    finally:
        if redis_server.process.poll() is None:
            redis_server.stop()
