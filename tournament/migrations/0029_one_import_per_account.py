"""An import making a new event (a TRF or an event file): one at a time per account (as one job at a time per event
for the others)."""

from django.conf import settings
from django.db import migrations, models


def close_all_but_the_latest(apps, schema_editor):
    """Imports under way before the rule: each account's latest stays; the others are closed as stopped."""
    Job = apps.get_model("tournament", "Job")
    active = Job.objects.filter(event__isnull=True, state__in=["queued", "running"])
    latest = {}
    for job in active.order_by("created_at", "id"):
        previous = latest.get(job.created_by_id)
        if previous is not None:
            Job.objects.filter(pk=previous).update(
                state="failed", error="Stopped: one import of a new event at a time per account.", payload=""
            )
        latest[job.created_by_id] = job.pk


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0028_job_event_file"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(close_all_but_the_latest, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="job",
            constraint=models.UniqueConstraint(
                condition=models.Q(("event__isnull", True), ("state__in", ["queued", "running"])),
                fields=("created_by",),
                name="one_active_new_event_import_per_account",
            ),
        ),
    ]
