"""Heavy work off the web request: pairing a large round, a large import, a whole-event export or a large print,
as a job the worker runs (`manage.py db_worker`). The pairing is told here; the imports, exports and prints
(`Job.Kind.PLAYERS` ... `CROSSTABLE`) are in tournament/jobs/files.py, and run the same way.

A round with at least PAIR_IN_BACKGROUND_FROM players to pair (per pairing system: bench/jobs.py measured them)
is not paired in the request that asks for it. `start` stores a `Job` row and enqueues `run_job` on the task queue
(Django's task framework, the django-tasks backport; by default django-tasks-db, which keeps the queue in the same
database, so the job row and its task are stored in one transaction and outlive a restart of the web server). The
POST is answered at once; the page shows the job (templates/organiser/_job.html) and polls its state every 2 s
(`views.jobs.job_status`) until the draft is there.

The worker runs the same services as the request did (`pair_next_round`, `repair_round`: the event locked, the
draft stored atomically) in the organiser's language, and marks the job done in the same transaction: a job that
fails or dies stores nothing, and a job that is no longer the event's (stopped and started again meanwhile) throws
its work away. While it runs, a thread writes the job's heartbeat and progress every BEAT_SECONDS through its own
connection; a job silent for JOB_STALE_SECONDS is shown as stopped, and pairing again closes it and starts anew.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connections, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext
from django_tasks import task, task_backends

from swiss.model import default_pairing
from tournament.models import Event, Job, Round
from tournament.services.locks import ServiceError
from tournament.services.rounds import pair_next_round, repair_round

logger = logging.getLogger(__name__)

BEAT_SECONDS = 2  # how often a running job says it is alive (and what it is doing)
# The queue's order: a worker takes the waiting pairing jobs before the imports, exports and prints, so one
# account's files (as many as its budget of heavy actions lets it start) never hold another organiser's round
# for longer than the file job under way (bench: tests/web/jobs/test_job_priority.py).
PAIR_PRIORITY, FILE_PRIORITY = 10, -10
FAILED_SHOWN = timedelta(minutes=30)  # how long the event's pages show a job's failure (while nothing was paired)


class AlreadyRunning(Exception):
    """The event has a job under way: the second click, or the second organiser, is told about it."""

    def __init__(self, job: Job | None):
        super().__init__("already running")
        self.job = job


class Superseded(Exception):
    """The job was stopped (and perhaps started again) while it ran: its work is thrown away."""


def pairing_system(event: Event) -> str:
    return event.pairing or default_pairing(event.preset)


def players_to_pair(event: Event, number: int) -> int:
    return event.players.filter(dropped_after__isnull=True, joined_round__lte=number).count()


def in_background(event: Event, number: int) -> bool:
    """Whether round `number` of the event is paired by the worker rather than in the request."""
    limit = settings.PAIR_IN_BACKGROUND_FROM.get(pairing_system(event))
    return limit is not None and players_to_pair(event, number) >= limit


def active(event: Event) -> Job | None:
    return Job.objects.filter(event=event, state__in=Job.ACTIVE).first()


def importing(by) -> Job | None:
    """The account's import making a new event (a TRF or an event file) that is under way (queued or running)."""
    if by is None:
        return None
    return Job.objects.filter(event=None, created_by=by, state__in=Job.ACTIVE).first()


def running(event: Event) -> Job | None:
    """The event's active job, unless it is stale: a stale one is closed (a request that pairs in the request,
    or starts a job, takes over from it)."""
    job = active(event)
    if job is not None and job.is_stale():
        stop(job)
        return None
    return job


def shown(event: Event, number: int | None = None, kind: str | None = None) -> Job | None:
    """The job the event's pages show (of round `number` and that kind, if given): an active one (stopped or
    not); or the latest one if it failed in the last FAILED_SHOWN and no round was paired since."""
    jobs = Job.objects.filter(event=event)
    if number is not None:
        jobs = jobs.filter(round_number=number)
    if kind is not None:
        jobs = jobs.filter(kind=kind)
    job = jobs.order_by("-created_at", "-id").first()
    if job is None or job.state == Job.State.DONE:
        return None
    if job.is_active:
        return job
    if job.finished_at is None or job.finished_at < timezone.now() - FAILED_SHOWN:
        return None
    if event.rounds.filter(created_at__gt=job.created_at).exists():
        return None
    return job


def _database_queue() -> bool:
    """The queue is kept in our database: the job's task is stored in the job's own transaction."""
    from django_tasks_db import DatabaseBackend

    return isinstance(task_backends["default"], DatabaseBackend)


def _enqueue(job_id: int, priority: int) -> None:
    result = run_job.using(priority=priority).enqueue(job_id)
    Job.objects.filter(pk=job_id).update(task_id=str(result.id)[:64])


def start(
    event: Event | None, kind: str, number: int, by, *, published: bool = False, payload: str = "", then=None
) -> Job:
    """Queue a job pairing round `number` (kind PAIR) or pairing it again (REPAIR), or another kind of the event's
    (number 0) reading `payload`; AlreadyRunning if the event has one under way. A stopped one (`Job.is_stale`) is
    closed first. The job speaks the active language. `then(job)` runs in the job's own transaction (a one-time
    form key marked done with the job's page). An import making a new event (a TRF or an event file) has no event
    yet (None): one at a time per account, as one at a time per event for the others."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    sweep()
    with transaction.atomic():
        current = active(event) if event is not None else importing(by)
        if current is not None:
            if not current.is_stale():
                raise AlreadyRunning(current)
            stop(current)
        try:
            with transaction.atomic():
                job = Job.objects.create(
                    event=event,
                    kind=kind,
                    round_number=number,
                    published=published,
                    language=language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE,
                    created_by=by,
                    payload=payload,
                )
        except IntegrityError:
            # Another request started one a moment ago (the database allows one active job per event, and one
            # active new-event import per account).
            raise AlreadyRunning(active(event) if event is not None else importing(by)) from None
        if then is not None:
            then(job)
        priority = PAIR_PRIORITY if job.is_round else FILE_PRIORITY
        if _database_queue():
            _enqueue(job.pk, priority)  # the task row commits with the job row, or neither does
        else:
            transaction.on_commit(lambda: _enqueue(job.pk, priority))
    job.refresh_from_db()
    return job


def stop(job: Job) -> bool:
    """Close a stale job as failed, saying why in its language; False if it moved on meanwhile."""
    with translation.override(job.language):
        if not job.is_round:
            error = (
                gettext("The worker stopped while doing this job. Nothing was stored.")
                if job.state == Job.State.RUNNING
                else gettext("No worker took this job: the server’s worker is not running.")
            )
        elif job.state == Job.State.RUNNING:
            error = _died(job)
        else:
            error = gettext("No worker took the pairing of round %(number)s: the server’s worker is not running.") % {
                "number": job.round_number
            }
    closed = bool(
        Job.objects.filter(pk=job.pk, state=job.state).update(
            state=Job.State.FAILED, error=error, finished_at=timezone.now()
        )
    )
    if closed:
        close_task(job, error)
    return closed


def close_task(job: Job, error: str) -> None:
    """The queue's row of a job found stopped, closed with it: a task left running by a killed worker stays
    "running" in the queue's table for ever otherwise, and one never taken would still be run later (to find its
    job closed)."""
    if not job.task_id or not _database_queue():
        return
    from django_tasks_db.compat import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.filter(pk=job.task_id, status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]).update(
        status=TaskResultStatus.FAILED,
        finished_at=timezone.now(),
        exception_class_path="tournament.jobs.workflow.Stopped",
        traceback=error,
    )


def _died(job: Job) -> str:
    if not job.is_round:
        return gettext("The worker stopped while doing this job. Nothing was stored.")
    return gettext("The worker stopped while pairing round %(number)s. Nothing was stored.") % {
        "number": job.round_number
    }


def sweep() -> int:
    """Empty the downloads of jobs that ended more than JOB_RESULT_HOURS ago, and the files kept for running a failed
    import again (the rows stay, small): called as each job starts, so the jobs table stays bounded without a
    scheduler."""
    cutoff = timezone.now() - timedelta(hours=settings.JOB_RESULT_HOURS)
    old = Job.objects.filter(finished_at__lt=cutoff)
    return old.filter(Q(result__isnull=False) | ~Q(payload="")).update(result=None, payload="")


class Heartbeat:
    """A thread that writes the job's heartbeat and its latest progress every BEAT_SECONDS (and at once when the
    progress changes), through a connection of its own: the pairing's transaction is not committed until the end.

    On SQLite the pairing holds the database's one write lock: the beats wait for it (a beat that gives up is
    retried), so there the page shows the progress only around the pairing itself."""

    def __init__(self, job_id: int):
        self.job_id = job_id
        self.text = ""
        self._wake = threading.Event()
        self._done = False
        self._thread = threading.Thread(target=self._run, name=f"job-{job_id}-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done = True
        self._wake.set()
        self._thread.join(timeout=60)

    def say(self, text: str) -> None:
        self.text = str(text)
        self._wake.set()

    def _run(self) -> None:
        try:
            while True:
                self._wake.wait(BEAT_SECONDS)
                self._wake.clear()
                if self._done:
                    return
                try:
                    Job.objects.filter(pk=self.job_id, state=Job.State.RUNNING).update(
                        heartbeat=timezone.now(), progress=self.text[:200]
                    )
                except DatabaseError:
                    logger.info("job %s: heartbeat not written (database busy); next beat tries again", self.job_id)
        finally:
            connections.close_all()  # this thread's own


def _work(job: Job, say) -> tuple[Round | None, dict]:
    """Do the job inside the transaction that marks it done: the round paired, or the job's fields to store with its
    end (what an export or a print made; the event a TRF import made)."""
    event = job.event
    if not job.is_round:
        from tournament.jobs import files as job_files  # the imports, exports and prints

        return None, job_files.run(job, say)
    if job.kind == Job.Kind.PAIR:
        return pair_next_round(event, job.created_by, number=job.round_number, progress=say), {}
    rnd = Round.objects.filter(event=event, number=job.round_number).first()
    if rnd is None:
        raise ServiceError(gettext("That round is gone: someone re-paired it meanwhile."))
    return repair_round(rnd, job.created_by, only_draft=not job.published, progress=say), {}


def _fail(job_id: int, error: str) -> None:
    Job.objects.filter(pk=job_id, state=Job.State.RUNNING).update(
        state=Job.State.FAILED, error=error, finished_at=timezone.now(), progress=""
    )


@task()
def run_job(job_id: int) -> str:
    """The worker's side: claim the queued job, do it in its organiser's language, and store the draft and the
    job's end together. What it returns is the task queue's record of it."""
    job = Job.objects.select_related("event", "created_by").filter(pk=job_id).first()
    if job is None:
        return "gone"
    with translation.override(job.language):
        now = timezone.now()
        claimed = Job.objects.filter(pk=job_id, state=Job.State.QUEUED).update(
            state=Job.State.RUNNING, started_at=now, heartbeat=now, progress=gettext("Starting…")
        )
        if not claimed:
            return f"not run: {Job.objects.get(pk=job_id).state}"  # stopped meanwhile, and perhaps started anew
        with Heartbeat(job_id) as beat:
            try:
                with transaction.atomic():
                    rnd, outcome = _work(job, beat.say)
                    ended = {"finished_at": timezone.now(), "heartbeat": timezone.now(), "progress": "", "payload": ""}
                    done = Job.objects.filter(pk=job_id, state=Job.State.RUNNING).update(
                        state=Job.State.DONE, **{**ended, **outcome}
                    )
                    if not done:
                        raise Superseded
            except Superseded:
                return "superseded: nothing stored"
            except ServiceError as e:
                _fail(job_id, str(e))
                return f"refused: {e}"
            except Exception:
                _fail(
                    job_id,
                    gettext(
                        "The pairing stopped on an unexpected error, and nothing was stored. Try again; if it "
                        "happens again, tell the server’s administrator."
                    )
                    if job.is_round
                    else gettext(
                        "The job stopped on an unexpected error, and nothing was stored. Try again; if it happens "
                        "again, tell the server’s administrator."
                    ),
                )
                raise
            except BaseException:  # the worker told to stop at once (a second Ctrl+C, SystemExit)
                _fail(job_id, _died(job))
                raise
    return f"round {rnd.number} paired" if rnd is not None else f"{job.kind} done"


def busy_text(job: Job | None) -> str:
    """What the second click (or the second organiser) is told."""
    if job is None:
        return gettext("This event is being paired already; this page follows it.")
    seconds = max(0, int((timezone.now() - job.created_at).total_seconds()))
    if job.event_id is None:  # a new event's import: one at a time per account
        return ngettext(
            "Your account is importing a file as a new event already (%(job)s, started %(seconds)s second ago); try "
            "again when it is done.",
            "Your account is importing a file as a new event already (%(job)s, started %(seconds)s seconds ago); "
            "try again when it is done.",
            seconds,
        ) % {"job": job.get_kind_display(), "seconds": seconds}
    if not job.is_round:
        return ngettext(
            "The worker is busy with this event already (%(job)s, started %(seconds)s second ago); try again when "
            "it is done.",
            "The worker is busy with this event already (%(job)s, started %(seconds)s seconds ago); try again when "
            "it is done.",
            seconds,
        ) % {"job": job.get_kind_display(), "seconds": seconds}
    return ngettext(
        "Round %(number)s is being paired already (started %(seconds)s second ago); this page follows it.",
        "Round %(number)s is being paired already (started %(seconds)s seconds ago); this page follows it.",
        seconds,
    ) % {"number": job.round_number, "seconds": seconds}


def done_text(job: Job) -> str:
    if not job.is_round:
        from tournament.jobs import files as job_files

        return job_files.done_text(job)
    if job.kind == Job.Kind.REPAIR:
        return gettext("Round %(number)s is paired again as a draft. Check it, then publish it.") % {
            "number": job.round_number
        }
    return gettext("Round %(number)s is paired as a draft. Check it, then publish it.") % {"number": job.round_number}


def queued_ahead(job: Job) -> int:
    """The jobs a worker does before this queued one: those running, and those queued before it."""
    if job.state != Job.State.QUEUED:
        return 0
    earlier = Q(created_at__lt=job.created_at) | Q(created_at=job.created_at, pk__lt=job.pk)
    return Job.objects.filter(Q(state=Job.State.RUNNING) | (Q(state=Job.State.QUEUED) & earlier)).count()
