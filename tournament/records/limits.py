"""How often something may be sent: a form's one-time token (FormSubmission: a form's work is done once however
often it is submitted) and the budgets of player codes tried and heavy actions (CodeBudget). Registered with the
other models by `tournament.models`, which imports it (models.py is kept under its size guard)."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class FormSubmission(models.Model):
    """A form's one-time token, stored in the transaction that does the form's work.

    Two submissions of one form (a double click, a resent request) race for this row: the second
    waits on the unique index until the first commits, then is told it was done already (and where
    its result is); if the first fails and rolls back, the second does the work instead.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=80)
    # Where the first submission sent the person: a repeat goes there too.
    outcome = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "token"], name="form_token_once_per_user")]

    def __str__(self):
        return f"{self.user}: {self.token}"


class CodeBudget(models.Model):
    """How fast player codes may be tried: by one phone's device key, at one address, as a device key's first
    tries, and how fast an address is given device keys (`services.codes.take_turn`); and an account's heavy
    actions (`services.budgets.take_heavy_turn`).

    A budget of wrong codes that refills at a steady pace, kept as the moment it would be full again
    (`full_at`, the "theoretical arrival time" of the generic cell rate algorithm): one row and one locked
    update per code tried, however many were tried before.
    """

    scope = models.CharField(max_length=80, unique=True)  # "device:<key>", "address:<address>", "first:<key>", ...
    full_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["full_at"])]

    def __str__(self):
        return f"{self.scope}: full at {self.full_at}"
