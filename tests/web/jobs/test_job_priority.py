"""One account's file jobs never hold another organiser's pairing for longer than the file job under way: a worker
takes the waiting pairing jobs first (`workflow.PAIR_PRIORITY`); a job found stopped closes the queue's row of its
task too; an import making a new event (a TRF, an event file) is one at a time per account. Measured with a real `manage.py db_worker`
process: eight roster imports of one account queued, then another organiser's round."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tests.web.jobs.test_job_recovery import roster, wait, worker
from tests.web.jobs.test_jobs import mtg_event
from tournament.jobs import workflow as jobs
from tournament.jobs.files import players_payload
from tournament.models import Job

pytestmark = pytest.mark.django_db(transaction=True)

ROWS = 2_000  # a roster import of about a second or two here


def queue_and_pair(organiser, other, tag: str) -> tuple[float, list[Job], Job]:
    """Eight roster imports of `organiser`'s queued, a worker started; once the first is running, `other`'s
    pairing. The seconds the pairing waited for a worker, the imports, the pairing."""
    imports = []
    for i in range(8):
        event = mtg_event(organiser, 0, slug=f"{tag}-file-{i}")
        imports.append(jobs.start(event, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", roster(ROWS))))
    big = mtg_event(other, 40, slug=f"{tag}-round")
    process = worker()
    try:
        wait(imports[0], ("running", "done"))
        pairing = jobs.start(big, Job.Kind.PAIR, 1, other)
        wait(pairing, ("done",), timeout=600)
        for job in imports:
            wait(job, ("done",), timeout=600)
    finally:
        process.terminate()
        process.wait(timeout=60)
    pairing.refresh_from_db()
    for job in imports:
        job.refresh_from_db()
    return (pairing.started_at - pairing.created_at).total_seconds(), imports, pairing


def test_a_pairing_waits_for_the_file_job_under_way_and_no_more(organiser, judge, monkeypatch):
    # As the queue was: every job in the order it came (the pairing behind all eight imports).
    monkeypatch.setattr(jobs, "FILE_PRIORITY", jobs.PAIR_PRIORITY)
    fifo_wait, fifo_imports, _ = queue_and_pair(organiser, judge, "fifo")
    monkeypatch.undo()
    waited, imports, pairing = queue_and_pair(organiser, judge, "prio")
    starts = sorted(job.started_at for job in imports)
    # The pairing went next: after the import under way, before any import still waiting.
    assert starts[0] < pairing.started_at < starts[1]
    longest = max((job.finished_at - job.started_at).total_seconds() for job in imports)
    assert waited <= longest + 2
    print(
        f"\npairing waited {fifo_wait:.1f} s behind 8 imports in arrival order, {waited:.1f} s with pairing first"
        f" (longest import {longest:.1f} s)"
    )
    assert fifo_wait > waited


def test_a_job_found_stopped_closes_its_task_in_the_queue(organiser):
    """A worker killed mid-job leaves the queue's row "running" for ever: closing the job closes it too (and a
    task never taken is closed, so that a worker started later does not run it)."""
    event = mtg_event(organiser, 0, slug="stopped")
    job = jobs.start(event, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", roster(10)))
    task = DBTaskResult.objects.get(pk=job.task_id)
    assert task.status == TaskResultStatus.READY and task.priority == jobs.FILE_PRIORITY
    long_ago = timezone.now() - timedelta(minutes=10)
    DBTaskResult.objects.filter(pk=task.pk).update(status=TaskResultStatus.RUNNING, started_at=long_ago)
    Job.objects.filter(pk=job.pk).update(state=Job.State.RUNNING, started_at=long_ago, heartbeat=long_ago)
    assert jobs.running(event) is None  # found stopped: closed
    job.refresh_from_db()
    task.refresh_from_db()
    assert job.state == "failed" and task.status == TaskResultStatus.FAILED and task.finished_at is not None
    assert "stopped" in task.traceback
    # Queued and never taken (no worker): closed in the queue too.
    again = jobs.start(event, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", roster(10)))
    Job.objects.filter(pk=again.pk).update(created_at=long_ago)
    Job.objects.filter(pk=job.pk).update(finished_at=long_ago)  # no worker has shown any life since
    assert jobs.running(event) is None
    assert DBTaskResult.objects.get(pk=again.task_id).status == TaskResultStatus.FAILED
    pair = jobs.start(mtg_event(organiser, 12, slug="pairs"), Job.Kind.PAIR, 1, organiser)
    assert DBTaskResult.objects.get(pk=pair.task_id).priority == jobs.PAIR_PRIORITY


def test_a_new_events_import_is_one_at_a_time_per_account(organiser, judge):
    first = jobs.start(None, Job.Kind.TRF, 0, organiser, payload="x")
    with pytest.raises(jobs.AlreadyRunning) as refused:
        jobs.start(None, Job.Kind.TRF, 0, organiser, payload="y")
    assert refused.value.job == first and "importing a file as a new event" in jobs.busy_text(refused.value.job)
    with pytest.raises(jobs.AlreadyRunning):  # an event file's import is one too
        jobs.start(None, Job.Kind.EVENT_FILE, 0, organiser, payload="{}")
    assert jobs.start(None, Job.Kind.TRF, 0, judge, payload="z").state == "queued"  # another account's: its own
    # Found stopped, it no longer holds the account's turn.
    Job.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=10))
    Job.objects.exclude(pk=first.pk).update(started_at=None, heartbeat=None, finished_at=None)
    Job.objects.filter(created_by=judge).update(created_at=timezone.now() - timedelta(minutes=10))
    assert jobs.start(None, Job.Kind.TRF, 0, organiser, payload="w").state == "queued"
    first.refresh_from_db()
    assert first.state == "failed"
