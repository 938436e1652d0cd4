from django.db import migrations, models
from django.db.models import Q


def keep_the_colour_already_used(apps, schema_editor):
    """A FIDE Dutch event paired before the initial colour was kept had it drawn from seed 0 in every round,
    which gave Black: kept, so that its next rounds agree with those already paired."""
    Event = apps.get_model("tournament", "Event")
    dutch = Q(pairing="dutch") | Q(pairing="", preset="chess")
    paired = Event.objects.filter(dutch, initial_colour="", rounds__isnull=False).values("pk")
    Event.objects.filter(pk__in=paired).update(initial_colour="black")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0017_event_pairing_system"),
    ]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="initial_colour",
            field=models.CharField(
                blank=True,
                choices=[("", "Drawn by lot when round 1 is paired"), ("white", "White"), ("black", "Black")],
                max_length=5,
            ),
        ),
        migrations.RunPython(keep_the_colour_already_used, migrations.RunPython.noop),
    ]
