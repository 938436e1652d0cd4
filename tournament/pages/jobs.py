"""The job box (templates/organiser/_job.html): what a page shows of a pairing, import, export or print the worker
runs (tournament/jobs/), and the ETag its poll is answered with (views/jobs.py)."""

import hashlib

from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import get_language

from tournament.jobs import workflow as jobs
from tournament.models import Job
from tournament.pages.memo import BUILD

# How often a page showing a job asks for its state (an unchanged job answers 304).
JOB_POLL_SECONDS = 2


def job_context(job: Job | None) -> dict:
    """What templates/organiser/_job.html shows of a job: its state, whether it stopped, how long ago it was
    started (counted on by the page's script), the jobs ahead of it in the queue."""
    if job is None:
        return {"job": None}
    seconds = max(0, int((timezone.now() - job.created_at).total_seconds()))
    stale = job.is_stale()
    ahead = jobs.queued_ahead(job) if job.state == Job.State.QUEUED and not stale else 0
    parts = [BUILD, get_language(), str(job.pk), job.state, str(int(stale)), str(ahead), job.progress, job.error]
    ident = hashlib.blake2b("\0".join(parts).encode(), digest_size=8).hexdigest()
    return {
        "job": job,
        "job_stale": stale,
        "job_ahead": ahead,
        "job_since": format_html('<span data-seconds-since="{}">{}</span>', seconds, seconds),
        "job_etag": f'W/"job{job.pk}.{ident}"',
        "job_poll": JOB_POLL_SECONDS,
    }
