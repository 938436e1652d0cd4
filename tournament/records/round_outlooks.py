"""What each player needs from their own match, stored with a round when it is published (and again when its
pairing changes): the outlook of standings/outlook.py for the event's line (docs/explanations.md#what-do-i-need-in-the-web-app).

A row of its own beside the round, not a column of it: a large round's outlook weighs as much as its
explanation, and every page that reads a round would read it. The round's `outlook_revision` names the
version the phone's ETag reads. Registered with the other models by `tournament.models`."""

from django.db import models


class RoundOutlook(models.Model):
    """`line`: the line it was worked out for, {"by": "places" or "points", "line": N or "P"}; `players`:
    {player pk (a string): {"win", "draw", "loss" (each "in", "out", "depends" or null), "tables": {outcome:
    [table]}, "sentences": [Message.as_dict()]}}; `exact`: every combination was ranked; `error`: why there is
    no outlook (a Message as a dict), or null."""

    round = models.OneToOneField("tournament.Round", on_delete=models.CASCADE, related_name="outlook")
    line = models.JSONField(default=dict)
    players = models.JSONField(default=dict)
    exact = models.BooleanField(default=True)
    error = models.JSONField(null=True, blank=True)
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"outlook of {self.round_id}"
