"""The players of an event: the Player row and how a new one gets its number, key and code (one run of numbers across
an event and its sections, a key no other player of the event has, a code typed from a card). Registered with the
other models by `tournament.models`, which imports it (models.py is kept under its size guard)."""

import secrets

from django.apps import apps
from django.db import models, transaction
from django.db.models import Max, Q
from django.db.models.functions import Cast, Substr
from django.utils.translation import gettext_lazy as _

from swiss.model import MAX_ID, MAX_NAME
from swiss.names import NAME_MAX, stored_reading
from tournament.records.validators import validate_player_name

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
    Event = apps.get_model("tournament", "Event")  # defined in tournament/models.py, which imports this module
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
    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="players")
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
