"""Django's `createsuperuser`, refusing a username that reads like an account's already taken ("ılse" beside
"ilse"): on a staff list or an invitation the two would pass for one person (`refuse_lookalike_username`)."""

from django.contrib.auth.management.commands import createsuperuser
from django.core.exceptions import ValidationError

from tournament.forms.accounts import refuse_lookalike_username


class Command(createsuperuser.Command):
    def _validate_username(self, username, verbose_field_name, database):
        error = super()._validate_username(username, verbose_field_name, database)
        if error or not username:
            return error
        try:
            refuse_lookalike_username(username)
        except ValidationError as e:
            return "; ".join(e.messages)
        return None
