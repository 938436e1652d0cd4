"""The public trail of a published round: one row per change made after the round was published (a swap, a
re-pairing, a board's colours flipped, a result corrected, a pairing added by hand), with what the round's
lines were and what they became, names as they were then. Written by `tournament.services.trail` in the
transaction of the change itself; shown on the public pairings and the player's phone (`tournament.pages.trail`),
and carried by the swiss-event file and the TRF export. Defined here and registered with the other models by
`tournament.models`, which imports it (models.py is kept under its size guard)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RoundChange(models.Model):
    """A change to round `round_number` after it was published. Keyed by the round's number, not its row: a
    re-pairing replaces the round's row, and the trail of the round is the event's record, kept across it.

    `was` and `became` are lists of lines (`services.trail.line`): a match as the round held it, its players
    by key and by name as they were then, its table, result, game counts and, for a forfeit, who had White.
    `by` is the organiser or judge who made it, for the organiser's eyes only: public pages say "changed by the
    organiser" and never a name."""

    class Kind(models.TextChoices):
        SWAP = "swap", _("Players swapped")
        REPAIR = "repair", _("Round paired again")
        FLIP = "flip", _("Colours flipped")
        RESULT = "result", _("Result corrected")
        BY_HAND = "by_hand", _("Paired by hand")

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="round_changes")
    round_number = models.PositiveSmallIntegerField()
    # The first table the change touched (None: only byes and unpaired lines, or a whole re-pairing).
    table = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    was = models.JSONField(default=list, blank=True)
    became = models.JSONField(default=list, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round_number", "at", "id"]
        indexes = [models.Index(fields=["event", "round_number"], name="round_change_event_round")]
        constraints = [models.CheckConstraint(condition=Q(round_number__gte=1), name="round_change_round_positive")]

    def __str__(self):
        return f"{self.event} round {self.round_number}: {self.kind} at {self.at:%H:%M}"
