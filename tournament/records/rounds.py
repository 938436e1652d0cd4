"""The rounds of an event and their matches: the Round row (its state and clock), the Match row (its result, who
won, the colours) and the Seat row that keeps a player to one match a round. Registered with the other models by
`tournament.models`, which imports it (models.py is kept under its size guard)."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament.records.players import Player


class Round(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ELIMINATION = "elimination", _("Elimination")

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PAIRED = "paired", _("Paired")
        IN_PROGRESS = "in_progress", _("In progress")
        COMPLETE = "complete", _("Complete")

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.SWISS)
    state = models.CharField(max_length=12, choices=State.choices, default=State.DRAFT)
    seed = models.BigIntegerField(null=True, blank=True, help_text=_("The random seed the pairing used."))
    # The pairing's warnings: {"code", "params", "text"} each (older rounds: plain English strings).
    warnings = models.JSONField(default=list, blank=True)
    # Round clock: running since clock_started; paused_at set while paused; the length grows with extensions.
    clock_started = models.DateTimeField(null=True, blank=True)
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(default=0)
    clock_minutes = models.PositiveSmallIntegerField(default=50)
    # The organiser stopped players reporting this round (results then come from the desk only).
    reporting_closed = models.BooleanField(default=False)
    # FIDE mode: the draft is being edited by hand (ended by Validate), and the engine's own pairing of it,
    # [[White's key, Black's key or null], ...], which Validate compares the edited draft with.
    manual = models.BooleanField(default=False)
    engine_pairs = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    outlook_revision = models.PositiveIntegerField(default=0)  # bumped when its RoundOutlook is stored

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return f"{self.event} round {self.number}"

    @property
    def is_published(self) -> bool:
        return self.state != self.State.DRAFT

    def seconds_left(self, now=None) -> int | None:
        """Seconds left on the round clock (negative once over time), or None before it starts."""
        if self.clock_started is None:
            return None
        now = now or timezone.now()
        end = self.clock_paused_at or now
        elapsed = (end - self.clock_started).total_seconds() - self.clock_paused_seconds
        return int(self.clock_minutes * 60 - elapsed)

    @property
    def clock_deadline(self):
        """When the clock reaches zero, if running; None before start or while paused."""
        if self.clock_started is None or self.clock_paused_at is not None:
            return None
        return self.clock_started + timedelta(minutes=self.clock_minutes, seconds=self.clock_paused_seconds)


class Match(models.Model):
    class Result(models.TextChoices):
        PLAYED = "played", gettext_lazy("Played")
        BYE = "bye", gettext_lazy("Bye")
        LOSS = "loss", gettext_lazy("Unpaired loss")
        DOUBLE_LOSS = "double_loss", gettext_lazy("Double loss")
        # The unplayed results FIDE C.07 tells apart (chess).
        HALF_BYE = "half_bye", gettext_lazy("Half-point bye")
        ZERO_BYE = "zero_bye", gettext_lazy("Zero-point bye")
        FULL_BYE = "full_bye", gettext_lazy("Full-point bye")
        FORFEIT = "forfeit", gettext_lazy("Forfeit")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField(null=True, blank=True)
    player_a = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="matches_as_a")
    player_b = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="matches_as_b", null=True, blank=True)
    # Null game counts on a played match: the result is still outstanding.
    games_a = models.PositiveSmallIntegerField(null=True, blank=True)
    games_b = models.PositiveSmallIntegerField(null=True, blank=True)
    games_drawn = models.PositiveSmallIntegerField(null=True, blank=True)
    result = models.CharField(max_length=12, choices=Result.choices, default=Result.PLAYED)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(null=True, blank=True)
    # Set when the result was stored from players' phones (their reports agreed, or one report sufficed).
    entered_by_player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # Who was paired with White when a forfeit moved the winner to player A (FIDE: a forfeit keeps its
    # colours); None while player A is White, as in every game played.
    white = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # Counts the players' reports on this match, so a phone's page changes when the opponent reports.
    report_stamp = models.PositiveIntegerField(default=0)
    # Optimistic concurrency: a result form carries the version it was shown, a stale one conflicts.
    version = models.PositiveIntegerField(default=0)
    adjourned = models.BooleanField(default=False)  # FIDE mode: no result yet, a draw for pairing meanwhile

    class Meta:
        ordering = ["round", "table", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="match_table_unique_per_round"),
            models.UniqueConstraint(fields=["round", "player_a"], name="match_player_a_once_per_round"),
            models.UniqueConstraint(fields=["round", "player_b"], name="match_player_b_once_per_round"),
            models.CheckConstraint(
                condition=Q(games_a__gte=0) & Q(games_b__gte=0) & Q(games_drawn__gte=0)
                | Q(games_a__isnull=True, games_b__isnull=True, games_drawn__isnull=True),
                name="match_games_non_negative_or_empty",
            ),
            models.CheckConstraint(
                condition=~Q(result__in=["bye", "loss", "half_bye", "zero_bye", "full_bye"]) | Q(player_b__isnull=True),
                name="match_bye_has_no_player_b",
            ),
            models.CheckConstraint(
                condition=~Q(player_a=F("player_b")),
                name="match_player_not_against_self",
            ),
        ]

    def __str__(self):
        return f"{self.round} table {self.table}: {self.player_a} v {self.player_b or 'bye'}"

    @property
    def games(self) -> tuple[int, int, int] | None:
        if self.games_a is None:
            return None
        return self.games_a, self.games_b, self.games_drawn

    @property
    def has_result(self) -> bool:
        return self.result != self.Result.PLAYED or self.games_a is not None

    @property
    def winner(self):
        """The winning player, None for a draw, a double loss or an outstanding result."""
        if self.result in (self.Result.BYE, self.Result.FULL_BYE, self.Result.FORFEIT):
            return self.player_a
        if self.result != self.Result.PLAYED or self.games_a is None or self.games_a == self.games_b:
            return None
        return self.player_a if self.games_a > self.games_b else self.player_b

    @property
    def black_won_by_forfeit(self) -> bool:
        return self.white_id is not None and self.white_id != self.player_a_id

    def colour_order(self) -> tuple["Player", "Player | None"]:
        """(White, Black), or player A and B in an event without colours: player A is White except after
        a forfeit Black won (the winner is player A)."""
        if self.black_won_by_forfeit:
            return self.player_b, self.player_a
        return self.player_a, self.player_b

    def snapshot(self) -> dict:
        return {"result": self.result, "games": list(self.games) if self.games else None}


class Seat(models.Model):
    """One row per player per round: the database's guarantee that nobody is paired twice in a round.

    Written with the round's matches (`services.create_matches`); swaps move players between matches of
    the same round, so they never change a round's seats.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="player_once_per_round")]

    def __str__(self):
        return f"{self.player} in {self.round}"
