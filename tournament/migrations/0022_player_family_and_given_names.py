"""A player's family and given names as entered (swiss/names.py). Existing players keep their names as they
are: their parts are blank, as for a name typed as one string (a name stored "Viktor Hellström" is not
guessed apart)."""

import tournament.models
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0021_bye_request_limits"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="family_name",
            field=models.CharField(blank=True, max_length=200, validators=[tournament.models.validate_player_name]),
        ),
        migrations.AddField(
            model_name="player",
            name="given_name",
            field=models.CharField(blank=True, max_length=200, validators=[tournament.models.validate_player_name]),
        ),
    ]
