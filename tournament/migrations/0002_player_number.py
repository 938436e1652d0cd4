"""Player numbers: existing players are numbered in registration order within their event."""

from django.db import migrations, models


def number_existing(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    players = list(Player.objects.order_by("event_id", "id").only("id", "event_id"))
    counters: dict[int, int] = {}
    for p in players:
        counters[p.event_id] = counters.get(p.event_id, 0) + 1
        p.number = counters[p.event_id]
    Player.objects.bulk_update(players, ["number"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="number",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunPython(number_existing, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="number",
            field=models.PositiveIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(condition=models.Q(("number__gte", 1)), name="player_number_positive"),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(fields=("event", "number"), name="player_number_unique_per_event"),
        ),
    ]
