"""The divisions' join as a column: the partner a section joined (docs/sections.md), which was read from the audit
log's `divisions_joined` line. Sections already joined get it from their latest such line."""

import django.db.models.deletion
from django.db import migrations, models


def from_the_log(apps, schema_editor):
    Event = apps.get_model("tournament", "Event")
    EventLog = apps.get_model("tournament", "EventLog")
    existing = set(Event.objects.values_list("pk", flat=True))
    latest: dict[int, int] = {}
    for event_id, detail in EventLog.objects.filter(action="divisions_joined").order_by("at", "id").values_list(
        "event_id", "detail"
    ):
        into = (detail or {}).get("into")
        if into in existing:
            latest[event_id] = into
    for event_id, into in latest.items():
        Event.objects.filter(pk=event_id).update(joined_partner_id=into)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0026_scale_jobs"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="joined_partner",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="tournament.event",
            ),
        ),
        migrations.RunPython(from_the_log, migrations.RunPython.noop),
    ]
