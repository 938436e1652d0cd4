"""Why a round is paired as it is: the engine's explanation (pairing.explain), stored when the round is paired
and shown on the player's phone, the public pairings and the organiser's round (docs/explanations.md#in-the-web-app).

A row of its own beside the round, not a column of it: a 2,048-player round's reasons weigh about a megabyte of
JSON, and every page that reads a round would read them. Defined here and registered with the other models by
`tournament.models`, which imports it (models.py is kept under its size guard)."""

from django.db import models


class RoundExplanation(models.Model):
    """The explanation of one round's pairing (`services.explanations` writes and amends it).

    `players`: {player pk (a string): {"reasons": [Message.as_dict()], "group": index in `groups` or null}};
    `groups`: the organiser's log, `Group.as_dict()` from the top with the input's ids made player pks;
    `by_hand`: the changes made by hand since the engine paired it, [{"kind", "players": [pk], "at"}], whose
    players' engine reasons were replaced by a true one; `revision` counts them (the answers to "why not"
    are cached by it)."""

    round = models.OneToOneField("tournament.Round", on_delete=models.CASCADE, related_name="explanation")
    method = models.CharField(max_length=12)  # "dutch" or the optimal engine's method
    players = models.JSONField(default=dict)
    groups = models.JSONField(default=list)
    by_hand = models.JSONField(default=list, blank=True)
    revision = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"explanation of {self.round_id}"
