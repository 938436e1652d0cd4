"""The username rule of the account forms (the admin's, `createsuperuser`'s): no name that reads like another."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.text.lookalikes import username_key


def refuse_lookalike_username(value: str, account: int | None = None) -> None:
    """A new username that reads like an account's already taken ("ılse" beside "ilse") is refused: on a staff
    list or an invitation the two would pass for one person. Every account is made through a form or
    `createsuperuser` (tournament/admin.py, management/commands/createsuperuser.py). `account`: the account
    being renamed, which may look like its own old name."""
    key = username_key(value)
    others = get_user_model().objects.exclude(username=value).exclude(pk=account).values_list("username", flat=True)
    if any(username_key(other) == key for other in others.iterator()):
        raise ValidationError(
            _("This username looks like one that is already taken: choose another."), code="lookalike"
        )
