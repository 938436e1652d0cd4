"""The job row: heavy work the worker does instead of a web request, as the organiser's page shows it
(the workflow that runs it is `tournament.jobs.workflow`). Defined here, beside its workflow, and registered
with the other models by `tournament.models`, which imports it."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Job(models.Model):
    """Heavy work the worker does instead of a web request (`manage.py db_worker`, tournament/jobs/workflow.py): pairing a
    round or pairing it again; a large import (a roster, a TRF file making a new event); a whole-event export or a
    large print, kept for download (`result`). The task queue (django-tasks-db) runs it; this row is what the
    organiser's page shows of it, in the organiser's language (`language`, active while it runs).

    One active (queued or running) job per event, by the database: a double click, or two organisers at once,
    start one job, and the second is told it is already pairing. A running job writes `heartbeat` every few
    seconds; one silent for JOB_STALE_SECONDS lost its worker and is shown as stopped (`jobs.is_stale`)."""

    class Kind(models.TextChoices):
        PAIR = "pair", _("Pair a round")
        REPAIR = "repair", _("Pair a round again")
        PLAYERS = "players", _("Import players")
        TRF = "trf", _("Import a TRF file")
        EVENT_FILE = "event_file", _("Import an event file")
        EXPORT = "export", _("Export the event file")
        CARDS = "cards", _("Print player cards")
        CROSSTABLE = "crosstable", _("Print the crosstable")

    # The imports that make a new event (or a section of one): a job without an event until it made one, followed
    # on its own page by the account that started it (views.jobs.trf_job).
    FILE_IMPORTS = ("trf", "event_file")

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    ACTIVE = (State.QUEUED, State.RUNNING)

    # None only for a TRF import until it made its event (the event is set in the transaction that stores it).
    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="jobs", null=True, blank=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(default=0)  # 0: a job of the whole event
    # A re-pairing: the round was published when it was asked for (the organiser confirmed what that throws
    # away). A re-pairing of a draft refuses a round published meanwhile.
    published = models.BooleanField(default=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    progress = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    # The task queue's id of the task that runs it (django_tasks_db's DBTaskResult).
    task_id = models.CharField(max_length=64, blank=True)
    # What an import reads (the file's text, within the upload limits), emptied when the job ends.
    payload = models.TextField(blank=True)
    # What an export or a print made, gzipped, for download: at most JOB_RESULT_MAX_BYTES, and emptied
    # JOB_RESULT_HOURS after the job ended (`jobs.sweep`).
    result = models.BinaryField(null=True, blank=True, editable=False)
    result_name = models.CharField(max_length=120, blank=True)
    result_type = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event"], condition=Q(state__in=["queued", "running"]), name="one_active_job_per_event"
            ),
            # An import making a new event (a TRF or an event file) has no event yet: one at a time per account.
            models.UniqueConstraint(
                fields=["created_by"],
                condition=Q(state__in=["queued", "running"], event__isnull=True),
                name="one_active_new_event_import_per_account",
            ),
        ]
        indexes = [models.Index(fields=["state", "created_at"])]

    def __str__(self):
        return f"{self.event}: {self.kind} round {self.round_number} ({self.state})"

    @property
    def is_file_import(self) -> bool:
        """A TRF or event file imported as a new event or section: its page is `org_trf_job`, its starter's."""
        return self.kind in self.FILE_IMPORTS

    @property
    def is_round(self) -> bool:
        return self.kind in (self.Kind.PAIR, self.Kind.REPAIR)

    @property
    def is_active(self) -> bool:
        return self.state in self.ACTIVE

    def is_stale(self, now=None) -> bool:
        """Active, but nobody is doing it: running with no heartbeat for JOB_STALE_SECONDS (its worker died or
        was stopped), or queued that long while no worker showed any life (none is running). A queue behind a
        busy worker is not stale: the worker's job writes its heartbeat."""
        if self.state not in self.ACTIVE:
            return False
        now = now or timezone.now()
        cutoff = now - timedelta(seconds=settings.JOB_STALE_SECONDS)
        if self.state == self.State.RUNNING:
            return (self.heartbeat or self.started_at or self.created_at) < cutoff
        if self.created_at >= cutoff:
            return False
        alive = Q(heartbeat__gte=cutoff) | Q(started_at__gte=cutoff) | Q(finished_at__gte=cutoff)
        return not Job.objects.filter(alive).exists()
