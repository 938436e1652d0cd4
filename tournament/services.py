"""Workflows that span rows: pairing, publishing, results, drops, late entries, the clock, the top cut.

Every write that public pages can see calls `changed(event)`, which bumps `Event.version`; caches and
ETags are keyed on it, so a page view never recomputes standings for an unchanged event.

Each workflow raises `ServiceError` with a sentence an organiser can act on; views turn it into a
message. Pairing locks the event row (`select_for_update`) so two clicks never pair a round twice; the
unique constraints on rounds and seats are the backstop.
"""

import hashlib
import math
import re
import secrets
from dataclasses import dataclass, replace
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, Max, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

import standings
from pairing import PairingError, from_event, pair
from pairing.rounds import recommended_rounds as recommend_rounds
from pairing.topcut import final_placings as placings_of
from pairing.topcut import next_bracket_round, top_cut_pairings
from standings.eventfile import DOUBLE_LOSS, MAX_ROUND_MINUTES, PLAYED, games_problem
from standings.messages import Message, message_of
from tournament import engine_text
from tournament.eventio import create_matches, event_to_file
from tournament.models import (
    Event,
    EventLog,
    EventRole,
    Match,
    Player,
    ResultChange,
    Round,
    StaffInvite,
    fresh_keys,
    new_code,
)
from tournament.wording import recommendation_text

CACHE_SECONDS = 6 * 3600


class ServiceError(Exception):
    """A refusal with a message for the person who asked."""


def changed(event: Event, results_of_round: int | None = None) -> None:
    """Bump the event's version: every cached page and ETag of the old one is out of date.

    `results_of_round=n`: the change was a result of round n, which leaves the standings after every
    earlier round as they were: their `settled_marker` holds over the new version instead of being read
    again (a busy round stores results ten a second; each would read the whole roster again), in every
    process that reads the event's row, whatever cache it has (`Event.touch`, `_settled_key`).
    """
    event.touch(results_of_round)


def log(event: Event, action: str, by, **detail) -> None:
    EventLog.objects.create(event=event, action=action, by=by, detail=detail)


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
        result = standings.compute(event_to_file(event), after_round=after_round)
        cache.set(key, result, CACHE_SECONDS)
    return result


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
    marker = cache.get(key)
    if marker is None:
        # The event's settings (scoring, tie-breakers, the floor, the bye rating, ...): not what changes move.
        fields = [f.attname for f in Event._meta.concrete_fields if f.attname not in Event.CHANGE_FIELDS]
        players = [f.attname for f in Player._meta.concrete_fields if f.attname not in ("token", "code")]
        parts: tuple = (
            Event.objects.filter(pk=event.pk).values_list(*fields).first(),
            list(event.players.order_by("pk").values_list(*players)),
        )
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
            text += " · " + gettext("round %(round)s is being played") % {"round": self.playing}
        return text


def standings_shown(event: Event, live: bool = False) -> ShownStandings:
    """The one rule for every page that shows standings (SPEC §3; issue 12 item 10).

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
            missing=Count("matches", filter=Q(matches__result=Match.Result.PLAYED, matches__games_a__isnull=True)),
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


def lock_event(event: Event) -> Event:
    """The event row locked against the other workflows that lock it, and against version bumps.

    FOR NO KEY UPDATE, not FOR UPDATE: a row that refers to the event (a log line, a round) may still be
    written meanwhile. Its foreign-key check takes a KEY SHARE lock on the event row at commit, which FOR
    UPDATE would make wait: a result holding its round row would then wait for a re-pair holding the event
    and waiting for that round.
    """
    return Event.objects.select_for_update(no_key=True).get(pk=event.pk)


def shared_round(pk: int) -> Round | None:
    """The round row held FOR SHARE: the round's results are stored side by side, while a re-pair, a swap, an
    undo or the clock (which take the row FOR UPDATE, `locked_round`) wait for them, and they for it.

    SQLite has no row locks (a writer holds the whole database), so there it is a plain read.
    """
    if connection.vendor != "postgresql":
        return Round.objects.filter(pk=pk).order_by("pk").first()
    table = connection.ops.quote_name(Round._meta.db_table)
    return next(iter(Round.objects.raw(f"SELECT * FROM {table} WHERE id = %s FOR SHARE", [pk])), None)  # noqa: S611


def locked_round(pk: int) -> Round | None:
    """The round row locked (only it: Round's default ordering would join and lock the event row too)."""
    return Round.objects.select_for_update(of=("self",)).filter(pk=pk).order_by("pk").first()


def latest_round(event: Event) -> Round | None:
    return event.rounds.order_by("-number").first()


def current_round(event: Event) -> Round | None:
    """The round the venue is playing: the latest published one."""
    return event.rounds.exclude(state=Round.State.DRAFT).order_by("-number").first()


def outstanding(rnd: Round) -> int:
    return rnd.matches.filter(result=Match.Result.PLAYED, games_a__isnull=True).count()


def swiss_rounds_played(event: Event) -> int:
    return event.rounds.filter(kind=Round.Kind.SWISS).count()


# ---------------------------------------------------------------- events


def create_event(event: Event, by) -> Event:
    """Save a new event with `by` as its organiser, under a slug that says nothing about other events
    (`Event.insert_with_new_slug`)."""
    try:
        with transaction.atomic():
            event.insert_with_new_slug()
            EventRole.objects.create(event=event, user=by, role=EventRole.Role.ORGANISER)
    except IntegrityError:
        raise ServiceError(_("The event could not be created just now; try again.")) from None
    return event


# ---------------------------------------------------------------- staff


ORGANISER = EventRole.Role.ORGANISER


def _keeps_an_organiser(event: Event, role: EventRole, new_role: str | None) -> None:
    """Refuse a change that would leave the event without an organiser (the caller holds the event lock)."""
    if role.role != ORGANISER or new_role == ORGANISER:
        return
    if not event.roles.filter(role=ORGANISER).exclude(pk=role.pk).exists():
        raise ServiceError(
            _("%(user)s is this event's only organiser: make someone else organiser first.") % {"user": role.user}
        )


def invite_staff(event: Event, username: str, role: str, by) -> str:
    """Give a role: at once to someone already on the staff, else as an invitation to `username`.

    What the organiser is told does not depend on whether an account of that name exists.
    """
    with transaction.atomic():
        event = lock_event(event)
        current = event.roles.select_related("user").filter(user__username__iexact=username).first()
        if current is not None:
            _keeps_an_organiser(event, current, role)
            if current.role != role:
                current.role = role
                current.save(update_fields=["role"])
            log(event, "staff_add", by, user=current.user.username, role=role)
            return _("%(user)s is now %(role)s of this event.") % {
                "user": current.user.username,
                "role": current.get_role_display().lower(),
            }
        invite = StaffInvite.objects.filter(event=event, username__iexact=username).first()
        if invite is None:
            invite = StaffInvite(event=event, username=username)
        invite.role, invite.by, invite.at = role, by, timezone.now()
        invite.save()
        log(event, "staff_invite", by, user=username, role=role)
    return _(
        "%(user)s is invited as %(role)s: the role becomes theirs when they next sign in with that username "
        "and open their events."
    ) % {"user": username, "role": invite.get_role_display().lower()}


def remove_staff(event: Event, role: EventRole, by) -> None:
    with transaction.atomic():
        event = lock_event(event)
        role = event.roles.select_related("user").filter(pk=role.pk).first()
        if role is None:
            return
        if role.user_id == by.pk:
            raise ServiceError(_("You cannot remove yourself; ask another organiser."))
        _keeps_an_organiser(event, role, None)
        role.delete()
        log(event, "staff_remove", by, user=role.user.username)


def claim_invites(user, event: Event | None = None) -> int:
    """Turn the invitations addressed to this user's username into roles; how many were taken. An expired
    invitation is left for its organisers to see and renew."""
    if not user.is_authenticated:
        return 0
    invites = StaffInvite.objects.filter(username__iexact=user.username, at__gt=StaffInvite.sent_since())
    if event is not None:
        invites = invites.filter(event=event)
    taken = 0
    for pk in invites.values_list("pk", flat=True):
        with transaction.atomic():
            # Read again, locked: since the list was read it may have been taken, withdrawn, renewed or expired.
            invite = (
                StaffInvite.objects.select_for_update(of=("self",))
                .select_related("event")
                .filter(pk=pk, at__gt=StaffInvite.sent_since())
                .first()
            )
            if invite is None:
                continue
            invite.delete()
            _role, created = EventRole.objects.get_or_create(
                event=invite.event, user=user, defaults={"role": invite.role}
            )
            log(invite.event, "staff_join", user, user=user.username, role=invite.role)
            taken += created
    return taken


# ---------------------------------------------------------------- pairing


def recommended_rounds(event: Event, players=None):
    """The engine's recommendation (Swiss rounds, top cut, and why) for the event's active players."""
    players = list(players if players is not None else event.players.filter(dropped_after__isnull=True))
    if len(players) < 2:
        return None
    rec = recommend_rounds(len(players), [p.byes for p in players], preset=event.preset)
    return replace(rec, explanation=recommendation_text(rec))


def _engine_pairing(file_event, number: int, seed: int):
    try:
        return pair(from_event(file_event, number), seed=seed)
    except PairingError as e:
        raise ServiceError(engine_text.sentence(message_of(e))) from None


def _check_ready_to_pair(event: Event, number: int, previous: Round | None) -> None:
    if previous is not None:
        if previous.state == Round.State.DRAFT and previous.kind == Round.Kind.ELIMINATION:
            raise ServiceError(gettext("The top-cut bracket is a draft: publish it or undo it first."))
        if previous.state == Round.State.DRAFT:
            raise ServiceError(
                gettext("Round %(number)s is still a draft: publish it or re-pair it first.")
                % {"number": previous.number}
            )
        if previous.kind == Round.Kind.ELIMINATION:
            raise ServiceError(gettext("The top cut has started: no more Swiss rounds."))
        missing = list(
            previous.matches.filter(result=Match.Result.PLAYED, games_a__isnull=True).values_list("table", flat=True)
        )
        if missing:
            tables = ", ".join(str(t) for t in missing[:10]) + (" …" if len(missing) > 10 else "")
            raise ServiceError(
                ngettext(
                    "Round %(number)s still has %(count)s result missing (table %(tables)s). "
                    "Enter it before pairing round %(next)s.",
                    "Round %(number)s still has %(count)s results missing (table %(tables)s). "
                    "Enter them before pairing round %(next)s.",
                    len(missing),
                )
                % {"number": previous.number, "count": len(missing), "tables": tables, "next": number}
            )


def _build_round_matches(rnd: Round, result, players: list[Player]) -> list[Match]:
    """The engine's games by table, then its byes (the computed one and the pre-awarded ones) as matches."""
    pk = {p.key: p.pk for p in players}
    games = [pr for pr in result.pairs if pr.b is not None]
    byes = list(dict.fromkeys([*result.byes, *(pr.a for pr in result.pairs if pr.b is None)]))
    return [
        *(Match(round=rnd, table=pr.table, player_a_id=pk[pr.a], player_b_id=pk[pr.b]) for pr in games),
        *(Match(round=rnd, player_a_id=pk[key], result=Match.Result.BYE) for key in byes),
    ]


def _warnings(result) -> list[dict | str]:
    """The engine's warnings as stored with the round: code, parameters and English text (engine_text)."""
    return [w.as_dict() if isinstance(w, Message) else str(w) for w in getattr(result, "warnings", ())]


def _pair_into(event: Event, number: int, by, seed: int | None = None) -> Round:
    players = list(event.players.all())
    seed = seed if seed is not None else secrets.randbelow(2**31)
    result = _engine_pairing(event_to_file(event), number, seed)
    rnd = Round.objects.create(
        event=event,
        number=number,
        kind=Round.Kind.SWISS,
        state=Round.State.DRAFT,
        seed=seed,
        warnings=_warnings(result),
        clock_minutes=event.round_minutes,
    )
    create_matches(rnd, _build_round_matches(rnd, result, players))
    return rnd


def pair_next_round(event: Event, by) -> Round:
    """Pair the next Swiss round as a draft (not public until published). Pairs exactly once."""
    try:
        with transaction.atomic():
            event = lock_event(event)
            previous = latest_round(event)
            number = previous.number + 1 if previous else 1
            _check_ready_to_pair(event, number, previous)
            if not event.players.filter(dropped_after__isnull=True, joined_round__lte=number).exists():
                raise ServiceError(gettext("There are no active players to pair."))
            rnd = _pair_into(event, number, by)
            log(event, "pair", by, round=number, seed=rnd.seed)
    except IntegrityError:
        raise ServiceError(gettext("This round was just paired by someone else; the page now shows it.")) from None
    return rnd


def repair_round(rnd: Round, by) -> Round:
    """Throw away a draft, or a published round with no result yet, and pair it again with a new seed."""
    try:
        with transaction.atomic():
            event = lock_event(rnd.event)
            rnd = locked_round(rnd.pk)
            if rnd is None:
                raise ServiceError(gettext("That round is gone: someone re-paired it meanwhile."))
            if rnd.kind != Round.Kind.SWISS:
                raise ServiceError(gettext("Top-cut rounds follow the bracket and cannot be re-paired."))
            if event.rounds.filter(number__gt=rnd.number).exists():
                raise ServiceError(gettext("Round %(number)s is not the latest round.") % {"number": rnd.number})
            if rnd.matches.filter(result=Match.Result.PLAYED, games_a__isnull=False).exists() or rnd.matches.filter(
                result=Match.Result.DOUBLE_LOSS
            ):
                raise ServiceError(
                    gettext("Round %(number)s already has results; it can no longer be re-paired.")
                    % {"number": rnd.number}
                )
            was_published = rnd.is_published
            number = rnd.number
            rnd.delete()
            new = _pair_into(event, number, by)
            log(event, "repair", by, round=number, seed=new.seed, was_published=was_published)
    except IntegrityError:
        raise ServiceError(
            _(
                "Round %(number)s changed while it was being paired again; nothing was changed. Look at it and try again."
            )
            % {"number": rnd.number}
        ) from None
    if was_published:
        changed(event)
    return new


def publish_round(rnd: Round, by) -> None:
    with transaction.atomic():
        updated = Round.objects.filter(pk=rnd.pk, state=Round.State.DRAFT).update(state=Round.State.PAIRED)
        if updated:
            rnd.state = Round.State.PAIRED
            log(rnd.event, "publish", by, round=rnd.number)
    if updated:
        changed(rnd.event)


def met_before(event: Event, before_number: int) -> set[frozenset]:
    """Pairs of player ids who met in a round before `before_number` (Swiss or top cut)."""
    rows = Match.objects.filter(
        round__event=event, round__number__lt=before_number, player_b__isnull=False
    ).values_list("player_a_id", "player_b_id")
    return {frozenset(r) for r in rows}


def swap_players(rnd: Round, first: Player, second: Player, by) -> list[Message]:
    """Exchange two players' seats in a round without results; returns warnings about rematches it causes.

    The warnings are engine-style Messages (stored with the round as dicts, shown through engine_text).
    """
    if first.pk == second.pk:
        raise ServiceError(gettext("Pick two different players to swap."))
    with transaction.atomic():
        lock_event(rnd.event)
        rnd = locked_round(rnd.pk)
        if rnd is None:
            raise ServiceError(_("That round was paired again meanwhile: swap on the new pairings."))
        if rnd.matches.filter(Q(games_a__isnull=False) | Q(result=DOUBLE_LOSS)).exists():
            raise ServiceError(gettext("This round has results; its pairings can no longer be changed."))
        matches = list(rnd.matches.filter(Q(player_a__in=[first, second]) | Q(player_b__in=[first, second])))
        where = {}
        for m in matches:
            for slot in ("player_a_id", "player_b_id"):
                if getattr(m, slot) in (first.pk, second.pk):
                    where[getattr(m, slot)] = (m, slot)
        if first.pk not in where or second.pk not in where:
            raise ServiceError(gettext("Both players must be in this round to swap them."))
        (m1, s1), (m2, s2) = where[first.pk], where[second.pk]
        if m1.pk == m2.pk:
            raise ServiceError(
                gettext("%(first)s and %(second)s already play each other.") % {"first": first, "second": second}
            )
        for p in (first, second):
            if p.byes >= rnd.number:
                raise ServiceError(
                    gettext("%(player)s holds a pre-awarded bye this round; they cannot be swapped.") % {"player": p}
                )
        if m1.player_b_id is None and m2.player_b_id is None:
            raise ServiceError(
                _("%(first)s and %(second)s both have a bye: swapping them changes nothing.")
                % {"first": first, "second": second}
            )
        _exchange(m1, s1, m2, s2)
        met = met_before(rnd.event, rnd.number)
        warnings = [
            Message(
                "swap_rematch_before",
                "Rematch: {a} and {b} have played each other before.",
                a=m.player_a.name,
                b=m.player_b.name,
            )
            for m in Match.objects.filter(pk__in=[m1.pk, m2.pk], player_b__isnull=False).select_related(
                "player_a", "player_b"
            )
            if frozenset((m.player_a_id, m.player_b_id)) in met
        ]
        for m in (m1, m2):
            if (
                m.result == Match.Result.BYE
                and Match.objects.filter(
                    round__event=rnd.event,
                    round__number__lt=rnd.number,
                    result=Match.Result.BYE,
                    player_a_id=m.player_a_id,
                ).exists()
            ):
                player = first if m.player_a_id == first.pk else second
                warnings.append(
                    Message("swap_second_bye_before", "Second bye: {player} has had a bye before.", player=player.name)
                )
        swapped = Message(
            "swapped_by_hand", "Swapped {first} and {second} by hand.", first=first.name, second=second.name
        )
        rnd.warnings = [*rnd.warnings, swapped.as_dict(), *(w.as_dict() for w in warnings)]
        rnd.save(update_fields=["warnings"])
        log(
            rnd.event,
            "swap",
            by,
            round=rnd.number,
            players=[first.key, second.key],
            rematches=[str(w) for w in warnings],
        )
    if rnd.is_published:
        changed(rnd.event)
    return warnings


def _exchange(m1: Match, s1: str, m2: Match, s2: str) -> None:
    """Put m2's player in m1's slot s1 and m1's player in m2's slot s2, keeping both matches' ids.

    Judges hold pages and forms naming a match by id: a swap changes who plays, never which match it
    is (its version goes up, so a result form shown before the swap conflicts instead of landing on the
    new pairing). A player is in one slot of a round at a time (unique constraints checked row by row),
    so a same-slot exchange parks one match's player in its empty b slot for a moment.
    """
    p1, p2 = getattr(m1, s1), getattr(m2, s2)
    for m, slot, player in ((m1, s1, p2), (m2, s2, p1)):
        setattr(m, slot, player)
        m.version += 1
    if s1 == s2 == "player_a_id" and m1.player_b_id is None:
        m1, s1, p1, m2, s2, p2 = m2, s2, p2, m1, s1, p1  # park the match that has a player b
    rows = Match.objects.filter(pk__in=[m1.pk, m2.pk])
    if s1 == s2 == "player_a_id":
        opponent = m1.player_b_id
        rows.filter(pk=m1.pk).update(player_a_id=opponent, player_b_id=None)
        rows.filter(pk=m2.pk).update(player_a_id=p1)
        rows.filter(pk=m1.pk).update(player_a_id=p2, player_b_id=opponent)
    elif s1 == s2 == "player_b_id":
        rows.filter(pk=m1.pk).update(player_b_id=None)
        rows.filter(pk=m2.pk).update(player_b_id=p1)
        rows.filter(pk=m1.pk).update(player_b_id=p2)
    else:
        rows.filter(pk=m1.pk).update(**{s1: p2})
        rows.filter(pk=m2.pk).update(**{s2: p1})
    rows.update(version=F("version") + 1)


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Outcome:
    result: str
    games: tuple[int, int, int] | None

    @property
    def text(self) -> str:
        """The result as the desk types it: what `parse_outcome` reads back."""
        if self.result == DOUBLE_LOSS:
            return "dl"
        a, b, d = self.games
        return f"{a}-{b}-{d}" if d else f"{a}-{b}"

    def label(self) -> str:
        return gettext("double loss") if self.result == DOUBLE_LOSS else self.text


# Words typed at the desk for results that are not game counts ("double loss" may be typed with a space).
DOUBLE_LOSS_WORDS = ("dl", "double", "double loss")
DRAW_WORDS = ("d", "draw")
INTENTIONAL_DRAW_WORDS = ("id", "intentional")
# Japanese keyboards type full-width digits and dashes; superscripts and other digits are not results.
_FULL_WIDTH = str.maketrans("０１２３４５６７８９－ー−", "0123456789---")
_GAMES = re.compile(r"([0-9]{1,6})-([0-9]{1,6})(?:-([0-9]{1,6}))?|([0-9])([0-9])([0-9])?")


def _draw_games(best_of: int, intentional: bool) -> tuple[int, int, int]:
    if best_of == 1:
        return (0, 0, 1)
    return (0, 0, best_of) if intentional else (1, 1, 0)


def parse_outcome(text: str, best_of: int) -> Outcome:
    """A result as typed at the desk: "2-0", "21", "1-1", "0-0-3", "d" (draw), "id", "dl" (double loss)."""
    t = "-".join(text.translate(_FULL_WIDTH).lower().replace("–", "-").split())
    if t in {w.replace(" ", "-") for w in DOUBLE_LOSS_WORDS} | {"double_loss"}:
        return Outcome(DOUBLE_LOSS, None)
    if t in DRAW_WORDS or t in INTENTIONAL_DRAW_WORDS:
        return Outcome(PLAYED, _draw_games(best_of, t in INTENTIONAL_DRAW_WORDS))
    m = _GAMES.fullmatch(t)
    if m is None:
        raise ServiceError(
            gettext("“%(text)s” is not a result: type it like 2-0, 2-1, 1-1 or 0-0-3.") % {"text": text[:40]}
        )
    a, b, d = (m[1], m[2], m[3]) if m[1] is not None else (m[4], m[5], m[6])
    return Outcome(PLAYED, (int(a), int(b), int(d or 0)))


def outcome_from_games(games_a: int | None, games_b: int | None, games_drawn: int | None, double_loss: bool) -> Outcome:
    """The “other…” form's fields as a result; a double loss with game counts is contradictory, not a guess."""
    games = (games_a or 0, games_b or 0, games_drawn or 0)
    if double_loss:
        if any(games):
            raise ServiceError(
                gettext(
                    "“Double loss” is ticked and games are filled in (%(games)s): a double loss has no game "
                    "counts. Clear the games or untick “Double loss”."
                )
                % {"games": "-".join(map(str, games))}
            )
        return Outcome(DOUBLE_LOSS, None)
    return Outcome(PLAYED, games)


def shorthands(best_of: int, elimination: bool) -> list[tuple[str, list[str]]]:
    """What the desk may type, result by result, for the keyboard entry's hint (every form `parse_outcome` takes)."""
    need = math.ceil(best_of / 2)
    wins = [(need, j) for j in range(need)] + [(j, need) for j in reversed(range(need))]
    rows = [(f"{a}-{b}", [f"{a}{b}"]) for a, b in wins]
    if not elimination:
        if best_of == 1:
            rows.append((gettext("draw 0-0-1"), ["001", *DRAW_WORDS, *INTENTIONAL_DRAW_WORDS]))
        else:
            rows.append((gettext("draw 1-1"), ["11", *DRAW_WORDS]))
            rows.append(
                (gettext("intentional draw 0-0-%(n)d") % {"n": best_of}, [f"00{best_of}", *INTENTIONAL_DRAW_WORDS])
            )
        rows.append((gettext("double loss"), list(DOUBLE_LOSS_WORDS)))
    return rows


def _games_message(code: str, params: dict) -> str:
    messages = {
        "negative": gettext("Game counts cannot be negative."),
        "empty": gettext("A result needs at least one game."),
        "too_many_wins": gettext("In best of %(best_of)d nobody wins more than %(need)d games."),
        "both_win": gettext("In best of %(best_of)d only one side can win %(need)d games."),
        "too_many_draws": gettext("In best of %(best_of)d a match has at most %(best_of)d drawn games."),
        "elimination_draw": gettext("An elimination match cannot end in a draw."),
    }
    return messages[code] % params


def _winner_key(match: Match, outcome: Outcome):
    if outcome.result != PLAYED or outcome.games[0] == outcome.games[1]:
        return None
    return match.player_a_id if outcome.games[0] > outcome.games[1] else match.player_b_id


def validate_result(match: Match, outcome: Outcome) -> None:
    """Whether this result may be stored for this match: the one check every result path makes.

    Raises `ServiceError` saying why not: a draft round, a bye, a double loss in the top cut, game counts
    the match format cannot produce, or a bracket winner changed after the next stage was paired.
    """
    rnd = match.round
    where = gettext("Table %(table)s: ") % {"table": match.table}
    if rnd.state == Round.State.DRAFT:
        raise ServiceError(
            gettext("Round %(number)d is a draft: publish it before entering results.") % {"number": rnd.number}
        )
    if match.player_b_id is None:
        raise ServiceError(gettext("A bye or unpaired loss has no result to enter."))
    elimination = rnd.kind == Round.Kind.ELIMINATION
    if outcome.result == DOUBLE_LOSS:
        if elimination:
            raise ServiceError(where + gettext("A top-cut match needs a winner; a double loss is not possible."))
    elif outcome.result != PLAYED or outcome.games is None:
        raise ServiceError(where + gettext("A result needs game counts."))
    else:
        problem = games_problem(outcome.games, rnd.event.best_of, elimination)
        if problem:
            raise ServiceError(where + _games_message(*problem))
    if (
        elimination
        and match.has_result
        and match.winner is not None
        and match.winner.pk != _winner_key(match, outcome)
        and Round.objects.filter(event_id=rnd.event_id, number__gt=rnd.number).exists()
    ):
        raise ServiceError(
            where + gettext("The next stage of the bracket is already paired from this result: its winner stays.")
        )


class ConfirmReplace(ServiceError):
    """The match already has a different result: the person must see it and confirm replacing it.

    `stale` when it changed after the form was shown (someone, or another tab, entered it meanwhile).
    """

    def __init__(self, match: Match, outcome: Outcome, by, stale: bool):
        self.match, self.outcome, self.stale = match, outcome, stale
        self.keep = Outcome(match.result, match.games).text  # what a “keep” answer sends back: no change
        who = gettext("you") if by is not None and match.entered_by_id == by.pk else str(match.entered_by or "")
        params = {"table": match.table, "stored": match.result_label(), "who": who, "new": outcome.label()}
        if stale:
            text = gettext(
                "Table %(table)s was changed to %(stored)s by %(who)s since this page was shown. "
                "Replace %(stored)s with %(new)s?"
            )
            if not who:
                text = gettext(
                    "Table %(table)s was changed to %(stored)s since this page was shown. Replace %(stored)s with %(new)s?"
                )
        elif who:
            text = gettext("Table %(table)s already has %(stored)s, entered by %(who)s. Replace it with %(new)s?")
        else:
            text = gettext("Table %(table)s already has %(stored)s. Replace it with %(new)s?")
        super().__init__(text % params)


class ConfirmAdvance:
    """A top-cut result about to be entered: it sends its winner on (and may pair the next stage), so the
    organiser confirms each one (“Alice beats Bob 2-1?”) before it is stored, on every path.

    Built only for a result `validate_result` accepts, so it always has a winner.
    """

    def __init__(self, match: Match, outcome: Outcome):
        a, b, _ = outcome.games
        self.match, self.outcome, self.result = match, outcome, outcome.text
        self.winner, self.loser = (match.player_a, match.player_b) if a > b else (match.player_b, match.player_a)
        self.score = f"{max(a, b)}-{min(a, b)}"


def advance_question(match: Match, outcome: Outcome) -> ConfirmAdvance | None:
    """The question to ask before storing `outcome`, if it is a top-cut match's first result; None otherwise.

    Raises `ServiceError` for a result the match may not have, so a refusal comes before any question.
    A stored result is not asked about here: replacing it asks its own question (`ConfirmReplace`).
    """
    if match.round.kind != Round.Kind.ELIMINATION or match.has_result:
        return None
    validate_result(match, outcome)
    return ConfirmAdvance(match, outcome)


# Kept for callers that catch the older name: a stale form is one kind of replacement to confirm.
ResultConflict = ConfirmReplace


def record_result(
    match: Match,
    outcome: Outcome,
    by,
    expected_version: int | None = None,
    replace: bool = False,
    reporter: Player | None = None,
    address: str | None = None,
) -> Match:
    """Store a match result; the one workflow behind every result path (buttons, keyboard, forms, top cut).

    `expected_version` is the match version the person's page showed. A result is filled in without asking;
    replacing a different stored result raises `ConfirmReplace` unless `replace` is given together with the
    version the person confirmed (a replacement without a version would overwrite blind, so it is refused).
    The same result twice changes nothing. Every change is audited (`ResultChange`); a replacement is also
    logged as a correction.
    `reporter` is the player whose report from their phone (at `address`) stores it; `by` is then None.
    """
    m, stored = store_result(match, outcome, by, expected_version, replace, reporter, address)
    return after_result(m, stored, by)


def store_result(
    match: Match,
    outcome: Outcome,
    by,
    expected_version: int | None = None,
    replace: bool = False,
    reporter: Player | None = None,
    address: str | None = None,
    held: bool = False,
) -> tuple[Match, bool]:
    """`record_result`'s part inside the caller's transaction: the match stored (True) or already so (False).

    The caller calls `after_result` once that transaction has committed: it decides the round's state,
    bumps the event's version and advances a bracket, which take the round's row for update and the event's
    row, and no workflow may wait for those while it holds a round or a match (the order is event, round,
    match: a re-pair holds the event and waits for the round).
    `held`: the caller's transaction already holds the round (FOR SHARE) and `match` (FOR UPDATE), read after
    taking them, with its round and event (a player's confirmation, `reports.submit`).
    """
    event = match.round.event
    with transaction.atomic():
        if held:
            rnd, m = match.round, match
        else:
            # The round row first (the order every workflow locks in: event, round, match), held FOR SHARE:
            # a re-pair or swap waits for the result or wins, while the round's other results go on side by
            # side (a 2048-player round stores ten a second). Whether the round is complete is decided after
            # the commit, one result at a time (`after_result`).
            rnd = shared_round(match.round_id)
            m = (
                # Not `entered_by`: after waiting for the lock, PostgreSQL re-reads the match row but keeps the
                # joined rows of its first look, so a user entered meanwhile would read as nobody.
                Match.objects.select_for_update(of=("self",))
                .select_related("round__event", "player_a", "player_b")
                .filter(pk=match.pk)
                .first()
            )
        if rnd is None or m is None:
            raise ServiceError(
                _(
                    "These pairings were changed meanwhile (the round was paired again): enter the result on the new ones."
                )
            )
        validate_result(m, outcome)
        same = m.result == outcome.result and m.games == outcome.games
        if not same:
            stale = expected_version is not None and m.version != expected_version
            if m.has_result and (stale or not replace or expected_version is None):
                raise ConfirmReplace(m, outcome, by, stale)
            if stale:
                # No result, yet the match changed since the page was shown: its players were swapped.
                raise ServiceError(
                    gettext(
                        "Table %(table)s changed since this page was shown: check its players and enter the result again."
                    )
                    % {"table": m.table}
                )
            before = m.snapshot() if m.has_result else None
            before_label = m.result_label()
            m.result = outcome.result
            m.games_a, m.games_b, m.games_drawn = outcome.games or (None, None, None)
            m.entered_by = by
            m.entered_by_player = reporter
            m.entered_at = timezone.now()
            m.version += 1
            m.save(
                update_fields=[
                    "result",
                    "games_a",
                    "games_b",
                    "games_drawn",
                    "entered_by",
                    "entered_by_player",
                    "entered_at",
                    "version",
                ]
            )
            ResultChange.objects.create(
                match=m, before=before, after=m.snapshot(), by=by, player=reporter, address=address
            )
            if before is not None:
                log(
                    event,
                    "correct_result",
                    by,
                    round=m.round.number,
                    table=m.table,
                    before=before_label,
                    after=m.result_label(),
                )
        rnd.event = m.round.event
        m.round = rnd
    return m, not same


def after_result(m: Match, stored: bool, by) -> Match:
    """What follows a result's commit: the round's state, the version bump (phones refresh), the bracket's
    next stage.

    The round's state is decided here, in a transaction of its own holding the round's row: each result's
    check runs after its own commit, so the last of two results arriving together reads both and completes
    the round. Also for the same result again: entering it a second time repairs a round whose completion
    was missed (a server stopped between a result's commit and this check).
    """
    rnd, event = m.round, m.round.event
    _update_round_state(rnd)
    if stored:
        changed(event, results_of_round=rnd.number)
    if rnd.kind == Round.Kind.ELIMINATION and rnd.state == Round.State.COMPLETE:
        advance_bracket(event, by)
    return m


def correct_result(match: Match, outcome: Outcome, by, expected_version: int) -> Match:
    """Replace a result already entered (an earlier round's too), as confirmed on the page showing
    `expected_version`; audited and logged; pairings already made stay."""
    if not Match.objects.filter(pk=match.pk).exclude(result=PLAYED, games_a__isnull=True).exists():
        raise ServiceError(gettext("That match has no result to correct yet."))
    return record_result(match, outcome, by, expected_version=expected_version, replace=True)


def _update_round_state(rnd: Round) -> None:
    """The round's state after a result's commit: in progress from its first result, complete with its last.

    While results are missing (read after this result's commit) the round cannot be complete, and the
    result that completes it, committed last, reads every other: only then is the round's row locked and
    read again (two last results arriving together each run this after their own commit; the later one
    reads both). A round with a thousand tables does not queue its results behind that lock.
    """
    missing = Match.objects.filter(round_id=rnd.pk, result=Match.Result.PLAYED, games_a__isnull=True).exists()
    if missing and rnd.state != Round.State.COMPLETE:
        if Round.objects.filter(pk=rnd.pk, state=Round.State.PAIRED).update(state=Round.State.IN_PROGRESS):
            rnd.state = Round.State.IN_PROGRESS
        return
    with transaction.atomic():
        rnd.state = Round.objects.select_for_update().values_list("state", flat=True).get(pk=rnd.pk)
        missing = rnd.matches.filter(result=Match.Result.PLAYED, games_a__isnull=True).exists()
        state = rnd.state
        if not missing:
            state = Round.State.COMPLETE
        elif rnd.state in (Round.State.PAIRED, Round.State.COMPLETE):
            state = Round.State.IN_PROGRESS
        if state != rnd.state:
            rnd.state = state
            rnd.save(update_fields=["state"])


# ---------------------------------------------------------------- players


@dataclass(frozen=True)
class NewPlayer:
    """A registration as typed, pasted or read from a file: what `add_players` writes."""

    name: str
    rating: int | None = None
    external_id: str = ""
    byes: int = 0
    reading: str = ""  # furigana / sort name


def add_player(event: Event, by, **fields) -> tuple[Player, list[str]]:
    """Register a player; after round 1 is published this is a late entry under the event's policy."""
    added, notes = add_players(event, by, [NewPlayer(**fields)])
    return Player.objects.get(pk=added[0]), notes


def add_players(event: Event, by, entries: list[NewPlayer]) -> tuple[list[int], list[str]]:
    """Register players (one typed, or a whole pasted or imported list): one lock, one insert, one change.

    Returns the new players' ids, in order, and notes for the organiser. Only this event's row is
    locked, for as long as one bulk insert takes: a 50,000-row roster is seconds, and other events
    never wait. The roster is capped at `settings.MAX_PLAYERS_PER_EVENT`.
    """
    notes = []
    if not entries:
        return [], notes
    with transaction.atomic():
        event = lock_event(event)
        # The latest round, and the latest published one (only the latest round can be a draft). A bracket
        # still in draft counts as started: its seeding is fixed.
        recent = list(event.rounds.order_by("-number")[:2])
        latest = recent[0] if recent else None
        last = next((r for r in recent if r.state != Round.State.DRAFT), None)
        if latest and latest.kind == Round.Kind.ELIMINATION:
            raise ServiceError(gettext("The top cut has started: no more entries."))
        joined = last.number + 1 if last else 1
        before = dict(event.players.values_list("pk", "name"))
        cap = settings.MAX_PLAYERS_PER_EVENT
        if len(before) + len(entries) > cap:
            raise ServiceError(
                gettext("An event holds at most %(cap)s players; it has %(have)s, so %(adding)s more do not fit.")
                % {"cap": cap, "have": len(before), "adding": len(entries)}
            )
        added = _insert_players(event, joined, entries, before.keys())
        names = [e.name for e in entries]
        if joined > 1:
            notes.append(_late_note(names, joined))
            if event.late_entry == Event.LateEntry.LOSSES:
                for rnd in event.rounds.filter(kind=Round.Kind.SWISS, number__lt=joined):
                    create_matches(rnd, [Match(round=rnd, player_a_id=pk, result=Match.Result.LOSS) for pk in added])
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
            shown = ", ".join(dict.fromkeys(twice[:5])) + (" …" if len(twice) > 5 else "")
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


def _insert_players(event: Event, joined: int, entries: list[NewPlayer], before) -> list[int]:
    """One insert for the lot, returning the new ids in order: COPY on PostgreSQL, else bulk_create.

    COPY takes a 50,000-row roster in well under a second, where building and inserting model
    instances takes many. It returns no ids: the new rows are the event's rows that were not there
    before (nobody else adds to this event meanwhile: the caller holds its lock), in insertion order.
    Columns the entry does not set get the model's defaults.
    """
    given = ("name", "reading", "rating", "external_id", "byes")
    if connection.vendor != "postgresql":
        made = Player.objects.bulk_create(
            Player(event=event, joined_round=joined, **{k: getattr(e, k) for k in given}) for e in entries
        )
        return [p.pk for p in made]
    fields = [f for f in Player._meta.concrete_fields if f is not Player._meta.pk]
    fixed = {"event_id": event.pk, "joined_round": joined}
    # Player numbers continue the event's (as `models.number_players` gives them; the event is locked), and
    # so do the keys (`models.fresh_keys`).
    last = event.players.aggregate(n=Max("number"))["n"] or 0
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
            values.update(name=e.name, reading=e.reading, rating=e.rating, external_id=e.external_id, byes=e.byes)
            copy.write_row([values[f.attname] for f in fields])
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
    """Drop after the current round; `detail` says more for the log (a drop the player asked for)."""
    event = player.event
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


# ---------------------------------------------------------------- clock


def clock(rnd: Round, action: str, by, minutes: int = 0) -> None:
    """Start, pause, resume or lengthen a round's clock.

    Each change reads the clock and writes it back ("+5 min" is the length read plus five), so it holds the
    round row meanwhile: two clicks at once on two organisers' pages add ten minutes, not five.
    """
    with transaction.atomic():
        # The event first, as every workflow that changes a round and bumps the version (event, round,
        # match): the view runs this inside its own transaction, so the bump below holds its lock till then.
        event = lock_event(rnd.event)
        locked = locked_round(rnd.pk)
        if locked is None:
            raise ServiceError(gettext("That round is gone: someone re-paired it meanwhile."))
        locked.event = event
        if _change_clock(locked, action, minutes):
            changed(event)
    for field in ("clock_started", "clock_paused_at", "clock_paused_seconds", "clock_minutes", "state"):
        setattr(rnd, field, getattr(locked, field))


def _change_clock(rnd: Round, action: str, minutes: int) -> bool:
    now = timezone.now()
    if not rnd.is_published:
        raise ServiceError(gettext("Publish the round before starting its clock."))
    fields = []
    if action == "start" and rnd.clock_started is not None:
        return False  # already running: a second click on Start must not reset it
    if action in ("start", "restart"):
        rnd.clock_started, rnd.clock_paused_at, rnd.clock_paused_seconds = now, None, 0
        rnd.clock_minutes = rnd.event.round_minutes
        fields = ["clock_started", "clock_paused_at", "clock_paused_seconds", "clock_minutes"]
        if rnd.state == Round.State.PAIRED:
            rnd.state = Round.State.IN_PROGRESS
            fields.append("state")
    elif rnd.clock_started is None:
        raise ServiceError(gettext("The clock has not started yet."))
    elif action == "pause":
        if rnd.clock_paused_at is None:
            rnd.clock_paused_at = now
            fields = ["clock_paused_at"]
    elif action == "resume":
        if rnd.clock_paused_at is not None:
            rnd.clock_paused_seconds += int((now - rnd.clock_paused_at).total_seconds())
            rnd.clock_paused_at = None
            fields = ["clock_paused_seconds", "clock_paused_at"]
    elif action == "add":
        if not -60 <= minutes <= 120 or minutes == 0:
            raise ServiceError(gettext("Add between 1 and 120 minutes (or take off up to 60)."))
        if rnd.clock_minutes + minutes > MAX_ROUND_MINUTES:
            raise ServiceError(
                _("A round lasts at most %(hours)s hours: the clock already runs %(minutes)s minutes.")
                % {"hours": MAX_ROUND_MINUTES // 60, "minutes": rnd.clock_minutes}
            )
        rnd.clock_minutes = max(1, rnd.clock_minutes + minutes)
        fields = ["clock_minutes"]
    else:
        raise ServiceError(gettext("Unknown clock action."))
    if fields:
        rnd.save(update_fields=fields)
    return bool(fields)


def clock_end(rnd: Round):
    left = rnd.seconds_left()
    return None if left is None else timezone.now() + timedelta(seconds=left)


# ---------------------------------------------------------------- top cut


def start_top_cut(event: Event, by) -> Round:
    """Seed the top N of the final Swiss standings into a single-elimination bracket (SPEC §4).

    The bracket is a draft, like a Swiss round: nobody sees it until `publish_round`, and `undo_top_cut`
    takes it back (a published one too, while no result is in).
    """
    n = event.top_cut
    if n < 2 or n & (n - 1):
        raise ServiceError(gettext("Set the top cut to 2, 4, 8, 16… in the event settings first."))
    try:
        with transaction.atomic():
            event = lock_event(event)
            last = latest_round(event)
            if last is None:
                raise ServiceError(gettext("Play the Swiss rounds first."))
            if last.kind == Round.Kind.ELIMINATION:
                raise ServiceError(gettext("The top cut has already started."))
            _check_ready_to_pair(event, last.number + 1, last)
            seeds = [r.player_id for r in event_standings(event).rows if not r.dropped]
            try:
                pairs = top_cut_pairings(seeds, n)
            except PairingError as e:
                raise ServiceError(engine_text.sentence(message_of(e))) from None
            rnd = _elimination_round(event, last.number + 1, pairs, state=Round.State.DRAFT)
            log(event, "top_cut", by, size=n, seeds=seeds[:n])
    except IntegrityError:
        raise ServiceError(gettext("The top cut was just started by someone else.")) from None
    return rnd


def undo_top_cut(event: Event, by) -> int:
    """Take the top cut back to the end of the Swiss rounds while no top-cut result is in.

    Returns the number of bracket rounds removed. A mistaken start (too early, wrong size) costs nothing
    but the players' walk back to their seats; once a match has a result, its players have played.
    """
    with transaction.atomic():
        event = lock_event(event)
        # Locks in the order every workflow takes (event, round, match): a result being stored holds its
        # round, then its match; taking the matches before the rounds would deadlock against it.
        rounds = list(
            Round.objects.select_for_update(of=("self",))
            .filter(event=event, kind=Round.Kind.ELIMINATION)
            .order_by("pk")
        )
        if not rounds:
            raise ServiceError(gettext("There is no top cut to undo."))
        # Lock the bracket's matches: a result being stored meanwhile either lands first (and is seen here)
        # or waits and then finds its match gone.
        matches = list(Match.objects.select_for_update().filter(round__in=rounds))
        if any(m.has_result for m in matches):
            raise ServiceError(
                gettext("A top-cut result is in: the top cut can no longer be undone. Correct the result instead.")
            )
        was_published = any(r.is_published for r in rounds)
        Round.objects.filter(pk__in=[r.pk for r in rounds]).delete()
        log(event, "undo_top_cut", by, size=event.top_cut, was_published=was_published)
    if was_published:
        changed(event)
    return len(rounds)


def _elimination_round(event: Event, number: int, pairs, state: str = Round.State.PAIRED) -> Round:
    """A bracket round from the engine's pairs. The first is a draft to publish; the later ones follow from
    results and are published at once."""
    pk = {p.key: p.pk for p in event.players.all()}
    rnd = Round.objects.create(
        event=event,
        number=number,
        kind=Round.Kind.ELIMINATION,
        state=state,
        clock_minutes=event.round_minutes,
    )
    create_matches(rnd, [Match(round=rnd, table=pr.table, player_a_id=pk[pr.a], player_b_id=pk[pr.b]) for pr in pairs])
    return rnd


def advance_bracket(event: Event, by) -> Round | None:
    """Once every match of the latest bracket round has a winner, pair the winners in bracket order."""
    try:
        with transaction.atomic():
            event = lock_event(event)
            last = latest_round(event)
            if last is None or last.kind != Round.Kind.ELIMINATION or last.state != Round.State.COMPLETE:
                return None
            matches = list(last.matches.select_related("player_a", "player_b").order_by("table"))
            if len(matches) < 2:
                return None
            pairs = next_bracket_round(
                [(m.player_a.key, m.player_b.key) for m in matches], {m.winner.key for m in matches}
            )
            rnd = _elimination_round(event, last.number + 1, pairs)
            log(event, "bracket", by, round=rnd.number)
    except IntegrityError:
        return None
    changed(event)
    return rnd


def stage_name(matches: int) -> str:
    """A bracket round by what it is called at a venue: Final, Semifinals, Quarterfinals, Round of 16…"""
    if matches == 1:
        return gettext("Final")
    if matches == 2:
        return gettext("Semifinals")
    if matches == 4:
        return gettext("Quarterfinals")
    return gettext("Round of %(players)s") % {"players": matches * 2}


def stage_names(event: Event) -> dict[int, str]:
    """The stage name of each top-cut round, by round number (one query)."""
    counts = (
        Match.objects.filter(round__event=event, round__kind=Round.Kind.ELIMINATION)
        .values_list("round__number")
        .annotate(n=Count("pk"))
    )
    return {number: stage_name(n) for number, n in counts}


def top_cut_rounds(event: Event) -> list[Round]:
    return list(event.rounds.filter(kind=Round.Kind.ELIMINATION).order_by("number"))


def final_placings(event: Event) -> list[tuple[int, Player]] | None:
    """Winner, finalist, then the losers of each earlier stage by Swiss rank; None until the final is played."""
    rounds = [list(r.matches.select_related("player_a", "player_b")) for r in top_cut_rounds(event)]
    if not rounds or len(rounds[-1]) != 1 or any(m.winner is None for r in rounds for m in r):
        return None
    seeds = [r.player_id for r in event_standings(event).rows]
    order = placings_of(seeds, [[(m.player_a.key, m.player_b.key, m.winner.key) for m in r] for r in rounds])
    by_key = {p.key: p for r in rounds for m in r for p in (m.player_a, m.player_b)}
    return [(place, by_key[key]) for place, key in enumerate(order, 1)]


def final_places(event: Event) -> dict[int, int] | None:
    """Every player's final place once the final is played (None before): the top cut's placings, then
    everybody else in the order of the final Swiss standings."""
    placings = final_placings(event)
    if placings is None:
        return None
    places = {p.pk: place for place, p in placings}
    pk_of = {p.key: p.pk for p in event.players.only("id", "event", "key")}
    for row in event_standings(event).rows:
        pk = pk_of.get(row.player_id)
        if pk is not None and pk not in places:
            places[pk] = len(places) + 1
    return places
