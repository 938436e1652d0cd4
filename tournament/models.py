"""Events, players, rounds, matches, roles and the result audit log.

The database enforces what it can (unique round per event, unique table per round, a player at most once per
round, non-negative game counts, a bye has no opponent); workflows spanning rows live in `tournament.services`.
"""

import secrets
from datetime import timedelta
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models, transaction
from django.db.models import F, Max, Q
from django.db.models.functions import Cast, Substr
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from swiss.model import BEST_OF, MAX_ID, MAX_NAME, MAX_ROUND_MINUTES, time_zones
from swiss.names import NAME_MAX, stored_name, stored_reading
from swiss.presets import PRESETS, TIEBREAKER_CODES
from tournament.jobs.models import Job  # noqa: F401  (the job row lives beside its workflow)
from tournament.records.prize_lists import PrizeList  # noqa: F401  (an event's prize list and its rules)
from tournament.records.round_changes import RoundChange  # noqa: F401  (the public trail of a published round)
from tournament.records.round_explanations import RoundExplanation  # noqa: F401  (why a round is paired as it is)
from tournament.records.round_outlooks import RoundOutlook  # noqa: F401  (what each player needs, stored with the round)
from tournament.records.validators import check_player_name


def _validate_tiebreakers(value):
    if not isinstance(value, list) or any(code not in TIEBREAKER_CODES for code in value):
        raise ValidationError(_("Tie-breakers must be a list of: %(codes)s") % {"codes": ", ".join(TIEBREAKER_CODES)})
    if len(set(value)) != len(value):
        raise ValidationError(_("A tie-breaker is listed twice."))


def validate_player_name(value: str) -> None:
    name = stored_name(value)
    check_player_name(name)
    if name != value:
        raise ValidationError(_("Names are stored without extra spaces or direction controls."))


def validate_time_zone(value: str) -> None:
    if value and value not in time_zones():
        raise ValidationError(_("“%(zone)s” is not a time zone name such as Asia/Tokyo."), params={"zone": value})


class Event(models.Model):
    class Reporting(models.TextChoices):
        ORGANISERS = "organisers", _("Results by organisers and judges only")
        CONFIRM = "confirm", _("Players report, the opponent confirms")
        ALONE = "alone", _("Players report alone (one report stores the result)")

    class LateEntry(models.TextChoices):
        NONE = "none", _("No record for missed rounds")
        LOSSES = "losses", _("Unpaired losses for missed rounds")

    class RoundOne(models.TextChoices):
        RANDOM = "random", _("Random")
        RATING = "rating", _("By rating (top half against bottom half)")

    class PairingSystem(models.TextChoices):
        PRESET = "", _("The preset’s own (FIDE Dutch for chess, optimal otherwise)")
        OPTIMAL = "optimal", _("Optimal (fewest rematches and point differences)")
        DUTCH = "dutch", _("FIDE Dutch system (C.04.3)")

    class Acceleration(models.TextChoices):
        NONE = "none", _("None")
        BAKU = "baku", _("Baku acceleration (C.04.5.1)")

    class InitialColour(models.TextChoices):
        LOT = "", _("Drawn by lot when round 1 is paired")
        WHITE = "white", _("White")
        BLACK = "black", _("Black")

    slug = models.SlugField(max_length=80, unique=True, allow_unicode=True)  # 京都オープン-2026-12-05-3fa9c1
    name = models.CharField(max_length=MAX_NAME)
    date = models.DateField(default=timezone.localdate)
    preset = models.CharField(
        max_length=20,
        choices=[(p.code, p.label) for p in PRESETS.values()],  # as people read them: text.l10n.preset_label
        default="mtg",
    )
    # Scoring values and the floor are exact fractions kept as text ("3", "1/2", "33/100").
    win_points = models.CharField(max_length=20, default="3")
    draw_points = models.CharField(max_length=20, default="1")
    loss_points = models.CharField(max_length=20, default="0")
    best_of = models.PositiveSmallIntegerField(
        default=3,
        choices=list(zip(BEST_OF, (_("One game"), _("Best of 3"), _("Best of 5"), _("Best of 7")), strict=True)),
    )
    floor = models.CharField(max_length=20, default="33/100")
    tiebreakers = models.JSONField(default=list, validators=[_validate_tiebreakers])
    bye_rating = models.PositiveIntegerField(default=0)
    colours = models.BooleanField(default=False, help_text=_("Chess colours: player A has white."))
    round_one = models.CharField(max_length=10, choices=RoundOne.choices, default=RoundOne.RANDOM)
    planned_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    top_cut = models.PositiveSmallIntegerField(default=0)
    round_minutes = models.PositiveSmallIntegerField(default=50, validators=[MaxValueValidator(MAX_ROUND_MINUTES)])
    public = models.BooleanField(default=True)
    late_entry = models.CharField(max_length=10, choices=LateEntry.choices, default=LateEntry.NONE)
    # What the public pages speak when the visitor chose no language and the browser names none of ours.
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE)
    # The venue's time zone for the times the event's pages show; empty for the server's (settings.TIME_ZONE).
    time_zone = models.CharField(max_length=64, blank=True, validators=[validate_time_zone])
    # Who may enter results: players from their phones, or only the organisers and judges (the default).
    reporting = models.CharField(max_length=12, choices=Reporting.choices, default=Reporting.ORGANISERS)
    # Players may ask for a bye in a round not yet paired from their phone (the desk always may).
    players_request_byes = models.BooleanField(default=False)
    # How many byes a player may ask for from their phone (empty: no limit), and in how many of the last
    # planned rounds none may be asked for. A request past either goes to the desk: the arbiter may enter it.
    bye_requests_max = models.PositiveSmallIntegerField(null=True, blank=True)
    bye_requests_closed_last = models.PositiveSmallIntegerField(default=0, blank=True)
    # The pairing system: empty for the preset's own (the FIDE Dutch system for chess, the optimal engine
    # otherwise), or one chosen for this event; and for the Dutch system its acceleration (FIDE C.04.5.1).
    pairing = models.CharField(max_length=10, blank=True, choices=PairingSystem.choices)
    acceleration = models.CharField(max_length=10, choices=Acceleration.choices, default=Acceleration.NONE)
    # Chess: players still tied after every tie-breaker are ranked by rating, highest first (as Vega does).
    rating_breaks_ties = models.BooleanField(default=False)
    # Chess: the colour of pairing number 1 in round 1 (TRF XXC, 152), which the FIDE Dutch system also
    # gives every later round's players without a preference: chosen in the settings, as a TRF gave it, or
    # empty until round 1 is paired, when it is drawn by lot and kept (services.rounds).
    initial_colour = models.CharField(max_length=5, blank=True, choices=InitialColour.choices)
    # Chess: FIDE mode (docs/fide-mode.md), on for every new chess event; left for good after round `fide_left`
    # (0: before round 1), which the TRF export says in a `###` line and every organiser page marks.
    fide_mode = models.BooleanField(default=False)
    fide_left = models.PositiveSmallIntegerField(null=True, blank=True)
    title_norms = models.BooleanField(default=False)  # chess: the event asks for FIDE title norms (docs/ratings.md)
    forbidden_pairs = models.JSONField(default=list, blank=True)  # [k, k] or [k, k, r1, r2]: not paired (in r1..r2)
    # The header lines of the FIDE TRF file the event was imported from, one per line, written back on export.
    trf_header = models.TextField(blank=True)
    # Chess: what a FIDE rating report's header gives (TRF 022 city, 032 federation, 052 last day, 102 chief
    # arbiter, 112 deputies, 122 time control, 132 round dates; the first day is `date`). Deputies and round
    # dates are one a line (a round's date ISO, an empty line for a round without one).
    city = models.CharField(max_length=MAX_NAME, blank=True)
    federation = models.CharField(max_length=3, blank=True)
    end_date = models.DateField(null=True, blank=True)
    chief_arbiter = models.CharField(max_length=MAX_NAME, blank=True)
    deputy_arbiters = models.TextField(blank=True)
    time_control = models.CharField(max_length=MAX_NAME, blank=True)
    round_dates = models.TextField(blank=True)
    # Sections (docs/sections.md). An event with no `parent` is what the venue knows: its address, its staff,
    # its players' numbers. It either runs one Swiss itself (no sections: every event made before sections
    # existed, and still the usual case) or holds sections, each an Event with this one as its `parent` that
    # runs its own Swiss with everything above (preset, scoring, pairing, rounds, standings, top cut, clock).
    # A parent with sections pairs nothing itself: its own players are those not yet placed in a section.
    parent = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True, related_name="sections")
    position = models.PositiveSmallIntegerField(default=0)  # a section's place in its event's list
    # The section's first table number; empty for automatic (after the previous section's range).
    first_table = models.PositiveIntegerField(null=True, blank=True)
    # Placement rules: a player goes to the section whose rating band or birth years they fit (either end open).
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    birth_year_min = models.PositiveSmallIntegerField(null=True, blank=True)
    birth_year_max = models.PositiveSmallIntegerField(null=True, blank=True)
    # Day-2 cut: after round `cut_after`, only players with at least `cut_points` match points, or the top
    # `cut_top` (ties at the line as `cut_ties` says), or whichever of the two is larger, go on pairing.
    cut_after = models.PositiveSmallIntegerField(null=True, blank=True)
    cut_points = models.CharField(max_length=20, blank=True)
    cut_top = models.PositiveIntegerField(null=True, blank=True)
    cut_ties = models.CharField(max_length=10, blank=True)
    # Age-modified Swiss: this section's players are paired together with `pair_with`'s when either has
    # fewer than `pair_with_below` players, and still ranked, cut and prized apart (Player.division).
    pair_with = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    pair_with_below = models.PositiveIntegerField(null=True, blank=True)
    # The partner this section joined (its players moved there), once it did; it then pairs nothing itself.
    joined_partner = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # Bumped on every change that public pages show; drives ETags and cache keys.
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The run of bumps made by results of one round (`light_round`), from version `light_from` to `light_to`.
    # While the version is still `light_to`, nothing but that round's results changed since `light_from`,
    # so the standings after every earlier round are those of `light_from` (`services.settled_marker`).
    light_from = models.PositiveIntegerField(default=0)
    light_to = models.PositiveIntegerField(default=0)
    light_round = models.PositiveIntegerField(default=0)
    # The fields every change moves, as against the event's settings (which the pages and standings show).
    # Changing these after round 1 changes every standing already published (settings page and admin).
    SCORING_FIELDS = (
        "preset",
        "win_points",
        "draw_points",
        "loss_points",
        "best_of",
        "floor",
        "tiebreakers",
        "rating_breaks_ties",
    )
    CHANGE_FIELDS = frozenset({"version", "updated_at", "light_from", "light_to", "light_round"})

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(best_of__in=BEST_OF), name="event_best_of_1_3_5_7"),
        ]

    def __str__(self):
        return self.name

    @property
    def chess_results(self) -> bool:
        """Results are written the chess way (1-0, ½-½, 0-1): one game a round, with colours."""
        return self.colours and self.best_of == 1

    @property
    def fide(self) -> bool:
        """FIDE mode applies (docs/fide-mode.md): a chess event still in it."""
        return self.fide_mode and self.chess_results

    @property
    def draws(self) -> bool:
        """A game of this event can end in a draw (not in backgammon: its preset says so)."""
        preset = PRESETS.get(self.preset)
        return preset.draws if preset else True

    @property
    def zone(self) -> str:
        """The time zone the event's pages show times in."""
        return self.time_zone or settings.TIME_ZONE

    @property
    def scoring(self) -> tuple[Fraction, Fraction, Fraction]:
        return Fraction(self.win_points), Fraction(self.draw_points), Fraction(self.loss_points)

    @property
    def root(self) -> "Event":
        """The event the venue knows: this one, or the event this section belongs to."""
        return self.parent if self.parent_id else self

    @property
    def is_section(self) -> bool:
        return self.parent_id is not None

    @property
    def section_list(self) -> list["Event"]:
        """This event's sections in their order (empty for an event that runs one Swiss itself)."""
        return list(self.sections.order_by("position", "id"))

    def venue_ids(self) -> list[int]:
        """The ids of the event the venue knows and of all its sections: one numbering, one staff."""
        root = self.root
        return [root.pk, *root.sections.values_list("pk", flat=True)]

    @property
    def fits_trf(self) -> bool:
        """A FIDE TRF file carries chess events only: one game a round, scored 1, 1/2 and 0."""
        return self.scoring == (1, Fraction(1, 2), 0) and self.best_of == 1


# A player's code is typed from a card: no characters that read alike (no 0 O D Q, 1 I L, 2 Z, 5 S, 8 B, G).
# It is checked with the player's number, printed before it (`Player.card_code`): 22**8 codes per player
# (docs/features.md: "Guessing a code" has the arithmetic against guessing).
CODE_ALPHABET = "ACEFHJKMNPRTUVWXY34679"
CODE_LENGTH = 8


def new_token() -> str:
    """The secret of a player's personal link: 160 random bits."""
    return secrets.token_urlsafe(20)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def unique_codes(players) -> None:
    """Give every player about to be created a code no other player of their event has."""
    taken: dict[int, set[str]] = {}
    for p in players:
        if p.event_id not in taken:
            taken[p.event_id] = set(Player.objects.filter(event_id=p.event_id).values_list("code", flat=True))
        while p.code in taken[p.event_id]:
            p.code = new_code()
        taken[p.event_id].add(p.code)


def number_players(players) -> None:
    """Give each unnumbered player the next player number of their event.

    Numbers are the venue's: one run across an event and all its sections (a player moved from one section
    to another keeps theirs). The row of the event the venue knows is locked while the highest number is read,
    so two registrations at once never take the same number; the caller inserts the players in the same
    transaction (the unique constraint per section is the backstop).
    """
    event_ids = {p.event_id for p in players}
    parents = dict(Event.objects.filter(pk__in=event_ids).values_list("pk", "parent_id"))
    todo: dict[int, list] = {}
    for p in players:
        if p.number is None:
            todo.setdefault(parents.get(p.event_id) or p.event_id, []).append(p)
    for root_id, group in todo.items():
        Event.objects.select_for_update().filter(pk=root_id).values_list("pk").first()
        venue = Q(event_id=root_id) | Q(event__parent_id=root_id)
        last = Player.objects.filter(venue).aggregate(n=Max("number"))["n"] or 0
        taken = {
            p.number for p in players if (parents.get(p.event_id) or p.event_id) == root_id and p.number is not None
        }
        for p in group:
            last += 1
            while last in taken:
                last += 1
            p.number = last


def key_players(players) -> None:
    """Give each player without a key a fresh one of their event (see `fresh_keys`)."""
    keyless: dict[int, list] = {}
    for p in players:
        if not p.key:
            keyless.setdefault(p.event_id, []).append(p)
    for event_id, group in keyless.items():
        for p, key in zip(group, fresh_keys(event_id, len(group)), strict=True):
            p.key = key


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """Insert players, numbering and keying those without a number or a key."""
        objs = list(objs)
        with transaction.atomic(using=self.db):
            for p in objs:
                p.reading = stored_reading(p.reading)
            number_players(objs)  # locks the event rows: keys are drawn under the same lock
            key_players(objs)
            unique_codes(objs)
            return super().bulk_create(objs, *args, **kwargs)


def fresh_keys(event_id: int, count: int) -> list[str]:
    """`count` player keys no player of the event has: p<n> numbered after the highest such key in use.

    Imported players keep their file's ids (often p1, p2, …), so a key is never derived from a row's
    primary key; the unique constraint on (event, key) is the backstop for two writers at once (the
    workflows that add players lock the event row first).
    """
    highest = (
        Player.objects.filter(event_id=event_id, key__regex=r"^p[0-9]{1,15}$")
        .annotate(n=Cast(Substr("key", 2), models.BigIntegerField()))
        .aggregate(m=Max("n"))["m"]
        or 0
    )
    return [f"p{highest + i}" for i in range(1, count + 1)]


class Player(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    # The short number a venue calls a player by: given at registration, unique within the event, and shown
    # beside the name wherever two players share a name (see `tournament.text.names`).
    number = models.PositiveIntegerField()
    # The player's id in swiss-event files and the engines, unique in the event: an imported player keeps
    # the file's id, so exports keep it; a player added on the web gets a fresh one (`fresh_keys`).
    key = models.CharField(max_length=MAX_ID)
    name = models.CharField(max_length=NAME_MAX, validators=[validate_player_name])
    # How the name is read (furigana, or a sort name): orders alphabetical lists and is searched too.
    reading = models.CharField(max_length=200, blank=True)
    # The name's two parts as entered ("Hellström, Viktor", 木村, 拓也), both or neither (swiss/names.py): the
    # TRF writes "Family, Given" from them, and lists sort by the family name. `name` is the display name.
    family_name = models.CharField(max_length=NAME_MAX, blank=True, validators=[validate_player_name])
    given_name = models.CharField(max_length=NAME_MAX, blank=True, validators=[validate_player_name])
    rating = models.PositiveIntegerField(null=True, blank=True)
    external_id = models.CharField(max_length=MAX_ID, blank=True)
    byes = models.PositiveSmallIntegerField(default=0, help_text=_("Pre-awarded byes: byes in rounds 1..k."))
    joined_round = models.PositiveSmallIntegerField(default=1)
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)
    fixed_table = models.PositiveIntegerField(null=True, blank=True)
    # The personal link's secret and the short code typed on a phone: reissued together when revoked.
    token = models.CharField(max_length=43, default=new_token, editable=False)
    code = models.CharField(max_length=CODE_LENGTH, default=new_code, editable=False)
    # Chess registration details a FIDE TRF file carries, kept as written there.
    federation = models.CharField(max_length=3, blank=True)
    title = models.CharField(max_length=3, blank=True)
    sex = models.CharField(max_length=1, blank=True)
    birth_date = models.CharField(max_length=10, blank=True)
    fide_id = models.CharField(max_length=11, blank=True)
    # Byes the player asked for in rounds not yet paired, {"5": "half_bye"} (FIDE C.07 requested byes: a
    # half-point or zero-point bye); the pairing of that round leaves the player out and records the bye.
    requested_byes = models.JSONField(default=dict, blank=True)
    # Chess: manual acceleration from a TRF (XXA), the points the FIDE Dutch system adds when pairing round 1,
    # 2, 3…, as exact fractions in text (["1", "1", "1/2"]); empty for none.
    accelerations = models.JSONField(default=list, blank=True)
    # Chess: the pairing number frozen when round 4 was paired (swiss/numbers.py); null until then.
    pairing_number = models.PositiveIntegerField(null=True, blank=True)
    # Age-modified Swiss: the division a player is ranked in when two sections' players are paired together
    # (the section they were placed in); empty when the section ranks everyone together.
    division = models.CharField(max_length=MAX_NAME, blank=True)
    # A Day-2 cut left the player out after this round: they keep their place, but are paired no more.
    cut_after = models.PositiveSmallIntegerField(null=True, blank=True)
    k = models.PositiveSmallIntegerField(null=True, blank=True)  # chess: FIDE K from the rating list (docs/ratings.md)
    half_bye_ok = models.BooleanField(default=True)  # FIDE mode: the arbiter may say a player takes no half-point bye

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="player_code_unique_per_event"),
            models.CheckConstraint(condition=Q(byes__lte=3), name="player_byes_at_most_3"),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="player_joined_round_positive"),
            models.CheckConstraint(condition=Q(number__gte=1), name="player_number_positive"),
            models.UniqueConstraint(fields=["event", "number"], name="player_number_unique_per_event"),
            models.UniqueConstraint(fields=["event", "key"], name="player_key_unique_per_event"),
            models.CheckConstraint(condition=~Q(key=""), name="player_key_not_empty"),
        ]
        indexes = [models.Index(fields=["event", "name"])]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.reading = stored_reading(self.reading)
        if self._state.adding:
            unique_codes([self])
        if self.number is None or not self.key:
            with transaction.atomic():
                number_players([self])
                key_players([self])
                return super().save(*args, **kwargs)
        return super().save(*args, **kwargs)

    @property
    def card_code(self) -> str:
        """The code as the player's card prints it and they type it: their number, then the secret part."""
        return f"{self.number}-{self.code[:4]}-{self.code[4:]}"

    @property
    def is_active(self) -> bool:
        return self.dropped_after is None

    def requested_bye(self, round_number: int) -> str | None:
        """The bye the player asked for in the round (half_bye or zero_bye), or None."""
        return self.requested_byes.get(str(round_number))


class Round(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ELIMINATION = "elimination", _("Elimination")

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PAIRED = "paired", _("Paired")
        IN_PROGRESS = "in_progress", _("In progress")
        COMPLETE = "complete", _("Complete")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
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


class EventRole(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        JUDGE = "judge", _("Judge")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles")
    role = models.CharField(max_length=10, choices=Role.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="one_role_per_user_per_event")]

    def __str__(self):
        return f"{self.user} — {self.get_role_display()} of {self.event}"


class LanguagePreference(models.Model):
    """The language a signed-in person chose with the switcher, kept with their account: their organiser
    pages speak it on every device they sign in on (tournament/text/i18n.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="language_preference"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.user}: {self.language}"


class StaffInvite(models.Model):
    """A role offered to whoever signs in with `username`: the staff form never says whether that account
    exists (it would tell anyone who can create an event which usernames this site has). The role is
    taken when that user next opens their events list or this event (`services.claim_invites`), within
    STAFF_INVITE_DAYS of `at`: an offer nobody took should not wait for whoever registers that name
    months later. Inviting the same username again renews it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="invites")
    username = models.CharField(max_length=150)
    # `text.lookalikes.username_key(username)`, set by `services.staff.invite_staff`: an invitation is found by
    # it, so a name that only looks like another's (a dotless ı, a Cyrillic letter) is not another invitation.
    key = models.CharField(max_length=600, default="")
    role = models.CharField(max_length=10, choices=EventRole.Role.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["username"]
        constraints = [
            models.UniqueConstraint(fields=["key", "event"], name="one_invite_per_username_key_per_event"),
        ]

    def __str__(self):
        return f"{self.username} invited as {self.get_role_display()} of {self.event}"

    @staticmethod
    def sent_since():
        """Invitations sent before this moment have expired."""
        return timezone.now() - timedelta(days=settings.STAFF_INVITE_DAYS)

    @property
    def expires(self):
        return self.at + timedelta(days=settings.STAFF_INVITE_DAYS)

    @property
    def expired(self) -> bool:
        return self.expires <= timezone.now()


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


class EventLog(models.Model):
    """Organiser actions worth auditing beyond results: settings changed after pairing, re-pairs, swaps."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")
    action = models.CharField(max_length=60)
    detail = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self):
        return f"{self.event}: {self.action}"


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
