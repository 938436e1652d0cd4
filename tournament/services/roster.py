"""The roster: registering players (one, pasted or imported, late entries under the event's policy),
deleting, dropping and reinstating them."""

import json
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from swiss.names import stored_reading
from tournament.files.csv_rosters import CsvRow
from tournament.models import (
    Event,
    Match,
    Player,
    Round,
    fresh_keys,
    new_code,
)
from tournament.services import trail
from tournament.services.divisions import plays_in
from tournament.services.fide import bye_warnings
from tournament.services.locks import ServiceError, changed, current_round, lock_event, log
from tournament.services.warnings import NONE, Passed, check
from tournament.snapshot import create_matches
from tournament.text import game_words, l10n


@dataclass(frozen=True)
class NewPlayer:
    """A registration as typed, pasted or read from a file: what `add_players` writes."""

    name: str
    rating: int | None = None
    external_id: str = ""
    byes: int = 0
    reading: str = ""  # furigana / sort name
    chess: dict = field(default_factory=dict)  # a chess event's FIDE details (text.chess_details.CHESS_FIELDS)
    family_name: str = ""  # the name's parts as entered, both or neither (swiss/names.py)
    given_name: str = ""
    k: int | None = None  # a chess player's K-factor from the rating list (docs/ratings.md)


def add_player(event: Event, by, **fields) -> tuple[Player, list[str]]:
    """Register a player; after round 1 is published this is a late entry under the event's policy."""
    added, notes = add_players(event, by, [NewPlayer(**fields)])
    return Player.objects.get(pk=added[0]), notes


def add_players(event: Event, by, entries: list[NewPlayer], progress=None) -> tuple[list[int], list[str]]:
    """Register players (one typed, or a whole pasted or imported list): one lock, one insert, one change.

    Returns the new players' ids, in order, and notes for the organiser. Only this event's row is
    locked, for as long as one bulk insert takes: a 50,000-row roster is seconds, and other events
    never wait. The roster is capped at `settings.MAX_PLAYERS_PER_EVENT`. `progress(text)`, if given, hears
    how far the insert is (a job's heartbeat shows it: tournament/jobs/files.py).
    """
    notes = []
    if not entries:
        return [], notes
    # A section whose division was paired together with another pairs nothing itself: its entries play in the
    # partner, in its division (and a partner's own entries in the partner's), or they would never be paired.
    chosen = event
    event, division = plays_in(event)
    if event.pk != chosen.pk:
        notes.append(
            gettext("“%(section)s” is paired together with “%(partner)s”: entered there, in division “%(section)s”.")
            % {"section": chosen.name, "partner": event.name}
        )
    with transaction.atomic():
        event = lock_event(event)
        # The latest round, and the latest published one (only the latest round can be a draft). A bracket
        # still in draft counts as started: its seeding is fixed.
        recent = list(event.rounds.order_by("-number")[:2])
        latest = recent[0] if recent else None
        last = next((r for r in recent if r.state != Round.State.DRAFT), None)
        if latest and latest.kind == Round.Kind.ELIMINATION:
            raise ServiceError(gettext("The top cut has started: no more entries."))
        with_byes = [e.name for e in entries if e.byes]
        if event.fide and with_byes:  # a full-point bye is a warning the player's page asks (services/fide.py)
            raise ServiceError(fide_byes_refused(with_byes))
        joined = last.number + 1 if last else 1
        before = dict(event.players.values_list("pk", "name"))
        cap = settings.MAX_PLAYERS_PER_EVENT
        if len(before) + len(entries) > cap:
            raise ServiceError(
                gettext("An event holds at most %(cap)s players; it has %(have)s, so %(adding)s more do not fit.")
                % {"cap": cap, "have": len(before), "adding": len(entries)}
            )
        added = _insert_players(event, joined, entries, before.keys(), progress or (lambda text: None), division)
        names = [e.name for e in entries]
        if joined > 1:
            notes.append(_late_note(names, joined))
            if event.late_entry == Event.LateEntry.LOSSES:
                losses = [
                    (
                        rnd,
                        create_matches(
                            rnd, [Match(round=rnd, player_a_id=pk, result=Match.Result.LOSS) for pk in added]
                        ),
                    )
                    for rnd in event.rounds.filter(kind=Round.Kind.SWISS, number__lt=joined)
                ]
                trail.added_by_hand(event, losses, by)
                notes.append(gettext("Unpaired losses recorded for rounds 1–%(last)d.") % {"last": joined - 1})
        draft = latest if latest and latest.state == Round.State.DRAFT else None
        if draft:
            notes.append(
                ngettext(
                    "Round %(round)d is a draft without %(names)s: re-pair it to include them.",
                    "Round %(round)d is a draft without these %(count)d players: re-pair it to include them.",
                    len(names),
                )
                % {"round": draft.number, "names": names[0], "count": len(names)}
            )
        seen = {n.casefold() for n in before.values()}
        twice = []
        for name in names:
            if name.casefold() in seen:
                twice.append(name)
            seen.add(name.casefold())
        if twice:
            shown = l10n.join(dict.fromkeys(twice[:5])) + (" …" if len(twice) > 5 else "")
            notes.append(
                ngettext(
                    "There is already a player called %(names)s: check it is not a double registration.",
                    "Some names are there already (%(names)s): check they are not double registrations.",
                    len(twice),
                )
                % {"names": shown}
            )
    changed(event)
    return added, notes


PROGRESS_ROWS = 1000  # rows stored between two progress reports


def fide_byes_refused(names: list[str]) -> str:
    """Why a list with pre-awarded byes is not entered in FIDE mode (they are full-point byes)."""
    return gettext(
        "Nothing was added: in FIDE mode a pre-awarded bye is a full-point bye, which needs the arbiter's "
        "confirmation (%(names)s). Enter these players without byes and record the byes on each player's page."
    ) % {"names": l10n.join(names[:5]) + (" …" if len(names) > 5 else "")}


def _stored(progress, done: int, total: int) -> None:
    progress(
        gettext("%(done)s of %(total)s rows stored")
        % {"done": number_format(done, force_grouping=True), "total": number_format(total, force_grouping=True)}
    )


def _insert_players(
    event: Event, joined: int, entries: list[NewPlayer], before, progress, division: str = ""
) -> list[int]:
    """One insert for the lot, returning the new ids in order: COPY on PostgreSQL, else bulk_create.

    COPY takes a 50,000-row roster in well under a second, where building and inserting model
    instances takes many. It returns no ids: the new rows are the event's rows that were not there
    before (nobody else adds to this event meanwhile: the caller holds its lock), in insertion order.
    Columns the entry does not set get the model's defaults.
    """
    given = ("name", "reading", "rating", "external_id", "byes", "family_name", "given_name", "k")
    if connection.vendor != "postgresql":
        made = []
        for start in range(0, len(entries), PROGRESS_ROWS):
            made += Player.objects.bulk_create(
                Player(
                    event=event,
                    joined_round=joined,
                    division=division,
                    **{k: getattr(e, k) for k in given},
                    **e.chess,
                )
                for e in entries[start : start + PROGRESS_ROWS]
            )
            _stored(progress, len(made), len(entries))
        return [p.pk for p in made]
    fields = [f for f in Player._meta.concrete_fields if f is not Player._meta.pk]
    fixed = {"event_id": event.pk, "joined_round": joined, "division": division}
    # Player numbers continue the venue's, across an event and its sections (as `Player.save` with `models.number_players` gives
    # them, under the same lock), and the keys the event's (`models.fresh_keys`).
    root_id = event.parent_id or event.pk
    Event.objects.select_for_update().filter(pk=root_id).values_list("pk").first()
    venue = Q(event_id=root_id) | Q(event__parent_id=root_id)
    last = Player.objects.filter(venue).aggregate(n=Max("number"))["n"] or 0
    keys = fresh_keys(event.pk, len(entries))
    per_row = [f for f in fields if f.has_default() and callable(f.default)]
    defaults = {f.attname: f.get_default() for f in fields if f not in per_row}
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    # Player codes are random: at tens of thousands of rows two would collide, so each is drawn until new.
    codes = set(event.players.values_list("code", flat=True))
    sql = f"COPY {Player._meta.db_table} ({columns}) FROM STDIN"  # noqa: S608
    with connection.cursor() as cursor, cursor.connection.cursor() as raw, raw.copy(sql) as copy:
        for (number, e), key in zip(enumerate(entries, last + 1), keys, strict=True):
            values = {**defaults, **{f.attname: f.get_default() for f in per_row}, **fixed, "number": number}
            values["key"] = key
            while values["code"] in codes:
                values["code"] = new_code()
            codes.add(values["code"])
            # As Player.save and bulk_create would: half-width kana typed at the desk is stored full-width.
            reading = stored_reading(e.reading)
            values.update(name=e.name, reading=reading, rating=e.rating, external_id=e.external_id, byes=e.byes)
            values.update(family_name=e.family_name, given_name=e.given_name, k=e.k)
            values.update(e.chess)
            # A JSON column's value goes in as its text (COPY adapts no dict).
            copy.write_row([json.dumps(v) if isinstance(v := values[f.attname], dict) else v for f in fields])
            if number % PROGRESS_ROWS == 0:
                _stored(progress, number - last, len(entries))
    return sorted(set(event.players.values_list("pk", flat=True)) - set(before))


def _late_note(names: list[str], joined: int) -> str:
    return ngettext(
        "%(name)s joins late, from round %(round)d.",
        "%(count)d players join late, from round %(round)d.",
        len(names),
    ) % {"name": names[0], "count": len(names), "round": joined}


def paired_players(event: Event) -> set[int]:
    """Players who have been paired against someone (a draft included) or had a bye: they cannot be deleted."""
    rows = Match.objects.filter(round__event=event).exclude(result=Match.Result.LOSS)
    return {pk for pair in rows.values_list("player_a_id", "player_b_id") for pk in pair if pk}


def delete_player(player: Player, by) -> None:
    """Remove a mistaken registration: only a player who was never paired (unpaired losses for the rounds a
    late entrant missed go with them). Anyone who played is dropped instead, so their opponents keep them."""
    with transaction.atomic():
        event = lock_event(player.event)
        played = (
            Match.objects.filter(Q(player_a=player) | Q(player_b=player))
            .exclude(result=Match.Result.LOSS)
            .select_related("round")
            .order_by("round__number")
            .first()
        )
        if played and played.round.state == Round.State.DRAFT:
            raise ServiceError(
                gettext(
                    "%(player)s is in the draft of round %(round)s: drop them and pair the round again, then delete."
                )
                % {"player": player, "round": played.round.number}
            )
        if played:
            raise ServiceError(
                gettext(
                    "%(player)s has played in round %(round)s and cannot be deleted: drop them instead "
                    "(their matches stay in their opponents' records)."
                )
                % {"player": player, "round": played.round.number}
            )
        Match.objects.filter(player_a=player, result=Match.Result.LOSS).delete()
        log(event, "delete_player", by, name=player.name, number=player.number)
        player.delete()
    changed(event)


def drop_player(player: Player, by, **detail) -> None:
    """Drop after the current round; `detail` says more for the log (a drop the player asked for).

    Under the event's lock, as pairing and publishing: a drop lands either before a round is published
    (a draft that seats the player then refuses to be published) or after it (they play it)."""
    with transaction.atomic():
        event = lock_event(player.event)
        last = current_round(event)
        player.dropped_after = last.number if last else 0
        player.save(update_fields=["dropped_after"])
        log(event, "drop", by, player=player.key, name=player.name, after_round=player.dropped_after, **detail)
    changed(event)


def undrop_player(player: Player, by) -> None:
    player.dropped_after = None
    player.save(update_fields=["dropped_after"])
    log(player.event, "undrop", by, player=player.key, name=player.name)
    changed(player.event)


def new_players(rows: list[CsvRow], chess: bool = True) -> list[NewPlayer]:
    """The registrations of a pasted or uploaded roster's readable rows. An event without colours keeps no
    FIDE details (its pages show none): a FIDE ID is then the player's ID, where the row gives no other."""
    return [
        NewPlayer(
            name=r.name,
            reading=r.reading,
            rating=r.rating,
            external_id=r.external_id or ("" if chess else r.chess.get("fide_id", "")),
            byes=r.byes,
            chess=r.chess if chess else {},
            family_name=r.family_name,
            given_name=r.given_name,
            k=r.k if chess else None,
        )
        for r in rows
        if r.ok
    ]


# The byes a player may ask for before a round is paired (FIDE C.07 16: requested byes); a zero-point bye is
# a known absence. The pairing of that round leaves the player out and records the bye.
REQUESTED_BYES = (Match.Result.HALF_BYE, Match.Result.ZERO_BYE)


def request_bye(
    player: Player, number: int, kind: str, by=None, asked_by_player: bool = False, passed: Passed = NONE
) -> None:
    """Record (or, with `kind` empty, withdraw) the player's requested bye for round `number`, which must
    not be paired yet; `asked_by_player`: from their phone, where the event allows it. In FIDE mode the desk
    may also give a full-point bye, and passes the warnings of `fide.bye_warnings`; a phone is refused them."""
    with transaction.atomic():
        event = lock_event(player.event)
        player = Player.objects.select_for_update().get(pk=player.pk)
        full = kind == Match.Result.FULL_BYE and event.fide and not asked_by_player
        if kind and kind not in REQUESTED_BYES and not full:
            raise ServiceError(game_words.gettext("Choose a ½-point bye or a 0-point bye."))
        if asked_by_player and not event.players_request_byes:
            raise ServiceError(game_words.gettext("Byes are requested at the desk in this event."))
        if not player.is_active:
            raise ServiceError(gettext("%(name)s has dropped.") % {"name": player.name})
        latest = event.rounds.order_by("-number").first()
        if latest and latest.kind == Round.Kind.ELIMINATION:
            raise ServiceError(gettext("The top cut has started: no more Swiss rounds."))
        if number < 1 or (latest and number <= latest.number):
            raise ServiceError(
                game_words.gettext("Round %(number)s is already paired: a bye is asked for a round not yet paired.")
                % {"number": number}
            )
        if number < player.joined_round or (event.planned_rounds and number > event.planned_rounds):
            raise ServiceError(gettext("%(name)s plays no round %(number)s.") % {"name": player.name, "number": number})
        byes = dict(player.requested_byes)
        if kind and asked_by_player:
            _within_the_events_limits(event, byes, number)
        if kind and event.fide:
            warnings = bye_warnings(event, player, number, kind)
            if warnings and asked_by_player:
                raise ServiceError(gettext("%(why)s Ask the arbiter at the desk.") % {"why": warnings[0].text})
            check(event, by, warnings, passed, round=number)
        if kind:
            byes[str(number)] = kind
        elif byes.pop(str(number), None) is None:
            return
        player.requested_byes = byes
        player.save(update_fields=["requested_byes"])
        log(
            event,
            "request_bye" if kind else "withdraw_bye",
            by,
            player=player.key,
            name=player.name,
            round=number,
            kind=kind,
            asked_by_player=asked_by_player,
        )
        changed(event)


def _within_the_events_limits(event: Event, byes: dict[str, str], number: int) -> None:
    """A bye asked for from a phone is refused past the event's limits (the arbiter may still enter it at the
    desk): more than `bye_requests_max` byes, or a round among the last `bye_requests_closed_last` planned."""
    closed = event.bye_requests_closed_last
    if closed and event.planned_rounds and number > event.planned_rounds - closed:
        raise ServiceError(
            ngettext(
                "No bye may be asked for in the last round from the phone: ask the arbiter at the desk.",
                "No bye may be asked for in the last %(count)s rounds from the phone: ask the arbiter at the desk.",
                closed,
            )
            % {"count": closed}
        )
    most = event.bye_requests_max
    if most is not None and len([r for r in byes if r != str(number)]) >= most:
        raise ServiceError(
            ngettext(
                "A player may ask for %(count)s bye from the phone in this event: ask the arbiter at the desk.",
                "A player may ask for %(count)s byes from the phone in this event: ask the arbiter at the desk.",
                most,
            )
            % {"count": most}
        )


def next_requestable_round(event: Event) -> int:
    """The first round a bye may still be asked for: the one after the latest round paired."""
    latest = event.rounds.order_by("-number").values_list("number", flat=True).first()
    return (latest or 0) + 1
