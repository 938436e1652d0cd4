"""What is kept about a match's result: each player's own report from their phone (Report) and every change of the
stored result, by whom and from what (ResultChange, the result audit log). Registered with the other models by
`tournament.models`, which imports it (models.py is kept under its size guard)."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournament.records.players import Player
from tournament.records.rounds import Match


class ResultChange(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    before = models.JSONField(null=True)
    after = models.JSONField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    # A result stored from players' phones: the player whose report stored it, and from which address.
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    address = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)
    # What the players had reported from their phones when this result was stored (`Report.snapshot`, in the order
    # they were sent): a judge settling a dispute keeps both versions in the match's history.
    reports = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self):
        return f"{self.match}: {self.before} → {self.after}"


class Report(models.Model):
    """A player's own account of their match, sent from their phone.

    One per player per match, changed until the result is stored. Both players' reports agreeing store
    the result (`tournament.services.reports`); a report that `disputes` the opponent's carries no games.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="reports")
    result = models.CharField(max_length=12, choices=Match.Result.choices, default=Match.Result.PLAYED)
    # Games from the match's side A and B, as on the match itself.
    games_a = models.PositiveSmallIntegerField(null=True, blank=True)
    games_b = models.PositiveSmallIntegerField(null=True, blank=True)
    games_drawn = models.PositiveSmallIntegerField(null=True, blank=True)
    disputes = models.BooleanField(default=False)
    address = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="report_once_per_player_per_match")]

    def __str__(self):
        return f"{self.player} on {self.match}"

    @property
    def games(self) -> tuple[int, int, int] | None:
        if self.games_a is None:
            return None
        return self.games_a, self.games_b, self.games_drawn

    def snapshot(self) -> dict:
        """What this report said, for the history of the result it led to (`ResultChange.reports`)."""
        return {
            "player": self.player_id,
            "result": self.result,
            "games": list(self.games) if self.games else None,
            "disputes": self.disputes,
            "at": self.at.isoformat(),
        }

    def agrees_with(self, other: "Report") -> bool:
        return not (self.disputes or other.disputes) and (self.result, self.games) == (other.result, other.games)
