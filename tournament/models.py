"""The event row, and the registry of every model of the app: the others live in rooms of their own (players,
rounds and matches, results, staff, limits and the rest in tournament/records/; the job row in tournament/jobs/),
are registered by being imported here, and stay importable from here.

The database enforces what it can (unique round per event, unique table per round, a player at most once per
round, non-negative game counts, a bye has no opponent); workflows spanning rows live in `tournament.services`.
"""

from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from swiss.model import BEST_OF, MAX_NAME, MAX_ROUND_MINUTES, time_zones
from swiss.presets import PRESETS, TIEBREAKER_CODES
from swiss.rules import C07_EDITIONS

# The rows kept beside the event, each in its room (tournament/records/, tournament/jobs/models.py), registered here
# by being imported: every name below stays importable from tournament.models, as code and migrations import it.
from tournament.jobs.models import Job  # noqa: F401  (the job row lives beside its workflow)
from tournament.records.limits import CodeBudget, FormSubmission  # noqa: F401  (one-time forms, code budgets)
from tournament.records.players import (  # noqa: F401  (players, and their numbers, keys and codes)
    CODE_ALPHABET,
    CODE_LENGTH,
    Player,
    PlayerQuerySet,
    fresh_keys,
    key_players,
    new_code,
    new_token,
    number_players,
    unique_codes,
)
from tournament.records.prize_lists import PrizeList  # noqa: F401  (an event's prize list and its rules)
from tournament.records.results import Report, ResultChange  # noqa: F401  (players' reports, the result audit log)
from tournament.records.round_changes import RoundChange  # noqa: F401  (the public trail of a published round)
from tournament.records.round_explanations import RoundExplanation  # noqa: F401  (why a round is paired as it is)
from tournament.records.round_outlooks import RoundOutlook  # noqa: F401  (what each player needs, stored with the round)
from tournament.records.rounds import Match, Round, Seat  # noqa: F401  (rounds, their matches and seats)
from tournament.records.staff import EventLog, EventRole, LanguagePreference, StaffInvite  # noqa: F401  (staff, audit)
from tournament.records.validators import validate_player_name  # noqa: F401  (named by the migrations)


def _validate_tiebreakers(value):
    if not isinstance(value, list) or any(code not in TIEBREAKER_CODES for code in value):
        raise ValidationError(_("Tie-breakers must be a list of: %(codes)s") % {"codes": ", ".join(TIEBREAKER_CODES)})
    if len(set(value)) != len(value):
        raise ValidationError(_("A tie-breaker is listed twice."))


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
    # Chess: the edition of FIDE's tie-break regulations (C.07) the standings follow; empty: the one in force on
    # the event's date (swiss.rules, docs/tiebreakers.md).
    tiebreak_rules = models.CharField(max_length=4, blank=True, choices=[(e, e) for e, _ in C07_EDITIONS])
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
        "tiebreak_rules",
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
