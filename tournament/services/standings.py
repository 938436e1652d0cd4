"""The standings an event's pages show: the engine's result cached per event version, the settled
marker that keeps the standings after a finished round while a later round's results come in, and the
one rule for which standings a page shows mid-round (`standings_shown`)."""

import hashlib
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max, Q
from django.utils.translation import gettext, pgettext

import standings
from standings.cut import cut_standings
from swiss import model
from swiss.numbers import pairing_numbers
from swiss.tiebreakers import FIDE_CODES
from tournament.models import (
    Event,
    Match,
    Player,
    ResultChange,
    Round,
)
from tournament.services.cut import cut_published
from tournament.services.locks import awaiting_result
from tournament.snapshot import event_to_file, player_to_file, settings_of
from tournament.text import l10n, name_search

CACHE_SECONDS = 6 * 3600


def event_standings(event: Event, after_round: int | None = None):
    """The standings engine's result for the event's stored (published) results.

    `after_round=None`: every result entered so far (the live figures), cached per event version.
    `after_round=k`: the standings after round k, cached on what they are made of (`settled_marker`), so
    they are computed once while round k+1's results come in, not once per result: the pairings' points,
    the public standings mid-round and every player's page read them.
    """
    # The creation time keeps keys apart when a database is restored or recreated (tests) under a shared cache.
    if after_round is None:
        key = f"standings:{event.pk}:{event.created_at.timestamp()}:{event.version}:live"
    else:
        key = f"standings:{event.pk}:{event.created_at.timestamp()}:after{after_round}:{settled_marker(event, after_round)}"
    result = cache.get(key)
    if result is None:
        doc = event_to_file(event)
        result = name_search.ties_by_name(standings.compute(doc, after_round=after_round), doc.players, event.language)
        result = _listed_with_cut(event, doc, result)
        cache.set(key, result, CACHE_SECONDS)
    return result


def _listed_with_cut(event: Event, doc: model.Event, result: standings.Standings) -> standings.Standings:
    """Once a Day-2 cut is made, the standings from the cut round on list the players who made Day 2 first,
    then a line, then the players below it (cut, or dropped by the cut) in their order at the cut
    (standings/cut.py)."""
    if not event.cut_after or result.after_round < event.cut_after:
        return result
    cut = {p.id for p in doc.players if p.cut_after is not None}
    if not cut or not cut_published(event):  # the cut shows from the publication of the round after it
        return result
    gone = {p.id for p in doc.players if p.dropped_after is not None and p.dropped_after <= event.cut_after}
    at_cut = result if result.after_round == event.cut_after else event_standings(event, event.cut_after)
    return cut_standings(result, at_cut, cut | gone, event.cut_after)


def _settled_key(event: Event, after_round: int) -> str:
    """The marker's cache key: the event's version, or while only results of a later round have changed it
    since, the version that run of results started from (`Event.touch`)."""
    version = event.version
    if event.version == event.light_to and after_round < event.light_round:
        version = event.light_from
    return f"settled:{event.pk}:{event.created_at.timestamp()}:{version}:{after_round}"


def settled_marker(event: Event, after_round: int) -> str:
    """A digest of everything the standings after `after_round` are computed from.

    The event's settings, every player's row (names, ratings, drops, late entries, byes), the rounds up
    to `after_round` and their matches, and the last result stored or corrected in them (every result
    writes a `ResultChange`). A result of a later round changes none of these. Read once per event
    version (five small queries), shared by every page and phone of that version, and by the versions a
    later round's results make after it (`_settled_key`).
    """
    key = _settled_key(event, after_round)
    # A player's page asks four times (its standing, earlier rounds, their rendering, its ETag): the cache once.
    known = event.__dict__.setdefault("_settled_markers", {})
    marker = known.get(key) or cache.get(key)
    if marker is None:
        # The event's settings (scoring, tie-breakers, the floor, the bye rating, ...): not what changes move.
        fields = [f.attname for f in Event._meta.concrete_fields if f.attname not in Event.CHANGE_FIELDS]
        players = [f.attname for f in Player._meta.concrete_fields if f.attname not in ("token", "code")]
        parts: tuple = (
            Event.objects.filter(pk=event.pk).values_list(*fields).first(),
            list(event.players.order_by("pk").values_list(*players)),
        )
        if event.cut_after:  # the Day-2 cut's line shows once the round after it is published
            parts += (list(event.rounds.filter(number=event.cut_after + 1).values_list("state")),)
        if after_round > 0:  # before round 1 there is only the roster
            parts += (
                list(
                    event.rounds.filter(number__lte=after_round).order_by("number").values_list("pk", "state", "kind")
                ),
                Match.objects.filter(round__event=event, round__number__lte=after_round).aggregate(
                    n=Count("id"), last=Max("id")
                ),
                ResultChange.objects.filter(match__round__event=event, match__round__number__lte=after_round).aggregate(
                    n=Count("id"), last=Max("id")
                ),
            )
        marker = hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()
        cache.set(key, marker, CACHE_SECONDS)
    known[key] = marker
    return marker


@dataclass(frozen=True)
class ShownStandings:
    """Which standings a page shows, and what to say about them (`standings_shown` decides)."""

    standings: standings.Standings
    live: bool  # counts the results of a round still being played
    playing: int | None  # that round's number, while some of its results are still missing
    entered: int = 0  # results in for that round
    total: int = 0  # results it needs

    @property
    def label(self) -> str:
        after = self.standings.after_round
        if self.live and self.playing:
            return gettext("live: round %(round)s, %(entered)s of %(total)s results") % {
                "round": self.playing,
                "entered": self.entered,
                "total": self.total,
            }
        if not after:
            return ""
        text = gettext("Standings after round %(round)s") % {"round": after}
        if self.playing:
            text += pgettext("phrase separator", " · ") + gettext("round %(round)s is being played") % {
                "round": self.playing
            }
        return text


def standings_shown(event: Event, live: bool = False) -> ShownStandings:
    """The one rule for every page that shows standings (docs/features.md).

    While results of the current Swiss round are still coming in, a bye or the first results would move
    points and OMW% for everybody mid-round: public pages and the venue screen show the standings after
    the last round whose every result is in, labelled so. The organiser's own page may ask for the live
    figures (`live=True`), labelled with how many of the round's results are in.
    """
    rnd = (
        event.rounds.filter(kind=Round.Kind.SWISS)
        .exclude(state=Round.State.DRAFT)
        .annotate(
            total=Count("matches", filter=Q(matches__player_b__isnull=False)),
            missing=Count("matches", filter=awaiting_result("matches__")),
        )
        .order_by("-number")
        .first()
    )
    if rnd is None or not rnd.missing:
        return ShownStandings(event_standings(event), live=False, playing=None)
    progress = {"playing": rnd.number, "entered": rnd.total - rnd.missing, "total": rnd.total}
    if live:
        return ShownStandings(event_standings(event), live=True, **progress)
    return ShownStandings(event_standings(event, after_round=rnd.number - 1), live=False, **progress)


def tiebreak_rules(event: Event) -> str | None:
    """The edition of FIDE's tie-break regulations the event's standings follow, as the pages footnote it
    ("FIDE tie-break regulations of March 2026"), when it ranks by a FIDE C.07 tie-break; else None."""
    if not set(event.tiebreakers) & set(FIDE_CODES):
        return None
    return l10n.tiebreak_rules(settings_of(event))


def start_numbers(event: Event, players) -> dict[int, int]:
    """Each player's start number, by primary key: unique in the event, so a crosstable names an opponent
    by it (two players tied on a rank would be two "1"s). A chess event's is the pairing number, as arbiters
    and the TRF number players (swiss/numbers.py: rating, title, name); another event's the player number."""
    players = list(players)
    if not event.colours:
        return {p.pk: p.number for p in players}
    roster = model.Event(settings=settings_of(event), players=tuple(player_to_file(p) for p in players))
    numbers = pairing_numbers(roster)
    return {p.pk: numbers[p.key] for p in players}


def chess_idents(event: Event, players=None) -> dict[int, tuple]:
    """What a chess event's pairing lists show beside each name, by primary key: (start number, FIDE title,
    rating), as arbiters and players read a pairing list ("12 FM Kåre Ødegaard 2150"). Empty for an event
    without colours. One query unless `players` are given."""
    if not event.colours:
        return {}
    players = list(event.players.all()) if players is None else list(players)
    numbers = start_numbers(event, players)
    return {p.pk: (numbers[p.pk], p.title, p.rating) for p in players}


@dataclass(frozen=True)
class CrossCell:
    """One round of a crosstable row: the opponent's start number (None without an opponent), the player's colour
    ("w", "b" or "" without colours), and the result: "1", "½", "0" for a game, "+" / "-" for a forfeit won
    or lost (a double forfeit is "-" for both), and for a round without an opponent the points of the bye
    ("1", "½", "0"). None: not in that round."""

    opponent: int | None
    colour: str
    result: str


@dataclass(frozen=True)
class CrossRow:
    rank: int
    number: int  # the start number (`start_numbers`), by which other rows name this player
    player: Player
    points: object
    tiebreakers: tuple
    cells: tuple[CrossCell | None, ...]


@dataclass(frozen=True)
class Crosstable:
    shown: ShownStandings
    rounds: tuple[int, ...]
    rows: tuple[CrossRow, ...]


# Points of a round without an opponent, by the result kind the standings understand.
_UNPAIRED_POINTS = {"bye": "1", "full_bye": "1", "half_bye": "½", "zero_bye": "0", "loss": "0"}


def _cells(m: Match, numbers: dict[int, int], colours: bool) -> dict[int, CrossCell]:
    """The crosstable cells a match makes, by player id."""
    a, b = m.player_a_id, m.player_b_id
    if b is None:
        return {a: CrossCell(None, "", _UNPAIRED_POINTS.get(m.result, "0"))}
    white = m.white_id or a
    colour = {white: "w", (b if white == a else a): "b"} if colours else {a: "", b: ""}
    if m.result == Match.Result.FORFEIT:
        results = {a: "+", b: "-"}
    elif m.result == Match.Result.DOUBLE_LOSS:
        results = {a: "-", b: "-"}
    elif m.games_a is None:
        results = {a: "", b: ""}  # still being played
    elif m.games_a == m.games_b:
        results = {a: "½", b: "½"}
    else:
        results = {a: "1", b: "0"} if m.games_a > m.games_b else {a: "0", b: "1"}
    return {
        a: CrossCell(numbers.get(b), colour[a], results[a]),
        b: CrossCell(numbers.get(a), colour[b], results[b]),
    }


def crosstable(event: Event, live: bool = False) -> Crosstable:
    """The chess way to read an event: one row per player by rank, one cell per Swiss round (`12w1`: against
    start number 12, with White, won), then points and tie-breakers: the standings `standings_shown` picks,
    and the rounds they count. Opponents are named by start number (`start_numbers`), which is unique, not by
    rank, which two tied players share. Three queries besides the standings (players, rounds, matches)."""
    shown = standings_shown(event, live=live)
    result = shown.standings
    players = {p.key: p for p in event.players.all()}
    starts = start_numbers(event, players.values())
    rounds = event.rounds.filter(kind=Round.Kind.SWISS).exclude(state=Round.State.DRAFT).order_by("number")
    if result.after_round is not None:
        rounds = rounds.filter(number__lte=result.after_round)
    numbers = tuple(rounds.values_list("number", flat=True))
    by_player: dict[int, dict[int, CrossCell]] = {}
    columns = ("round__number", "player_a_id", "player_b_id", "white_id", "result", "games_a", "games_b")
    for number, *rest in Match.objects.filter(round__in=rounds).values_list(*columns):
        m = Match(player_a_id=rest[0], player_b_id=rest[1], white_id=rest[2], result=rest[3])
        m.games_a, m.games_b = rest[4], rest[5]
        for pk, cell in _cells(m, starts, event.colours).items():
            by_player.setdefault(pk, {})[number] = cell
    rows = []
    for r in result.rows:
        p = players[r.player_id]
        cells = by_player.get(p.pk, {})
        rows.append(
            CrossRow(
                r.rank,
                starts[p.pk],
                p,
                r.points,
                tuple(r.tiebreakers[c] for c in result.tiebreakers),
                tuple(cells.get(n) for n in numbers),
            )
        )
    return Crosstable(shown, numbers, tuple(rows))
