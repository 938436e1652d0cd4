"""Player keys become a column unique per event (they were the file id, or p<pk> when empty, and collided).

Existing rows keep the key they were shown under (the file id, else p<pk>); a web-added player whose p<pk>
equals an imported player's id in the same event gets a fresh p<n> instead, so the imported player keeps
the results the engines credited to that id.

A round lasts at most a day (the limit the swiss-event file and the clock share).
"""

import re

import django.core.validators
from django.db import migrations, models
from django.db.models import Q


def fill_keys(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    taken: dict[int, set[str]] = {}
    for event_id, key in Player.objects.exclude(key="").values_list("event_id", "key"):
        taken.setdefault(event_id, set()).add(key)
    changed, colliding = [], []
    for player in Player.objects.filter(key="").order_by("event_id", "id"):
        keys = taken.setdefault(player.event_id, set())
        if f"p{player.pk}" in keys:
            colliding.append(player)
        else:
            player.key = f"p{player.pk}"
            keys.add(player.key)
            changed.append(player)
    for player in colliding:
        keys = taken[player.event_id]
        highest = max((int(k[1:]) for k in keys if re.fullmatch(r"p[0-9]{1,15}", k)), default=0)
        player.key = f"p{highest + 1}"
        keys.add(player.key)
        changed.append(player)
    Player.objects.bulk_update(changed, ["key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0005_player_reporting")]

    operations = [
        migrations.RenameField(model_name="player", old_name="file_id", new_name="key"),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(model_name="player", name="key", field=models.CharField(max_length=100)),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(fields=["event", "key"], name="player_key_unique_per_event"),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(condition=~Q(key=""), name="player_key_not_empty"),
        ),
        migrations.AlterField(
            model_name="event",
            name="round_minutes",
            field=models.PositiveSmallIntegerField(
                default=50, validators=[django.core.validators.MaxValueValidator(1440)]
            ),
        ),
    ]
