"""Swiss rounds: the recommendation, pairing and re-pairing through the engine, publishing, and the
organiser's swap of two players."""

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from pairing import PairingError, from_event, pair, requested_byes
from pairing.dutch import BLACK, WHITE, DutchInput
from pairing.event import initial_colour
from pairing.rounds import recommended_rounds as recommend_rounds
from swiss.messages import Message, message_of
from swiss.model import DOUBLE_LOSS
from swiss.numbers import FROZEN_FROM_ROUND, pairing_numbers
from tournament.models import (
    Event,
    Job,
    Match,
    Player,
    Report,
    Round,
    RoundChange,
)
from tournament.services import explanations, outlooks, trail
from tournament.services.adjourned import as_draws
from tournament.services.cut import apply_cut
from tournament.services.divisions import join_small_divisions, joined_into, paired_together
from tournament.services.locks import (
    ServiceError,
    awaiting_result,
    changed,
    discard_reports,
    latest_round,
    lock_event,
    locked_round,
    log,
)
from tournament.services.sections import first_table, fixed_tables_within
from tournament.snapshot import create_matches, event_to_file
from tournament.text import engine_text, game_words, l10n
from tournament.text.wording import recommendation_text


def recommended_rounds(event: Event, players=None):
    """The engine's recommendation (Swiss rounds, top cut, and why) for the event's active players, and before
    round 1 those of the sections its players will be paired with (divisions paired together): the players
    who will play together, not the section's own."""
    players = list(players if players is not None else event.players.filter(dropped_after__isnull=True))
    together = paired_together(event)
    for other in together:
        players += list(other.players.filter(dropped_after__isnull=True))
    if len(players) < 2:
        return None
    rec = recommend_rounds(len(players), [p.byes for p in players], preset=event.preset)
    return replace(rec, explanation=recommendation_text(rec, [other.name for other in together]))


def _quiet(text: str) -> None:
    """A pairing in the request says nothing as it goes; a job's (tournament/jobs/workflow.py) shows it on the page."""


Progress = Callable[[str], None]


def _engine_pairing(file_event, number: int, seed: int, progress: Progress = _quiet):
    try:
        inp = from_event(file_event, number, seed=seed)
        if isinstance(inp, DutchInput):
            progress(
                ngettext(
                    "Pairing %(count)s player by the FIDE Dutch system…",
                    "Pairing %(count)s players by the FIDE Dutch system…",
                    len(inp.present),
                )
                % {"count": len(inp.present)}
            )
        else:
            count = len(inp.entrants)
            progress(ngettext("Pairing %(count)s player…", "Pairing %(count)s players…", count) % {"count": count})
        return inp, pair(inp, seed=seed)
    except PairingError as e:
        raise ServiceError(engine_text.sentence(message_of(e))) from None


def check_ready_to_pair(event: Event, number: int, previous: Round | None) -> None:
    if event.sections.exists():
        raise ServiceError(gettext("This event is played in its sections: pair each section on its own page."))
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
        # An adjourned game (FIDE mode, services/adjourned.py) is paired as a draw until its result comes.
        missing = list(previous.matches.filter(awaiting_result(), adjourned=False).values_list("table", flat=True))
        if missing:
            tables = l10n.join(missing[:10]) + (" …" if len(missing) > 10 else "")
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


def _build_round_matches(
    rnd: Round, result, players: list[Player], requested: dict[str, str], first: int = 1
) -> list[Match]:
    """The engine's games by table (numbered from `first`: a section's range, docs/sections.md), then its byes
    (the computed one and the pre-awarded ones) and the requested ones as matches."""
    pk = {p.key: p.pk for p in players}
    games = [pr for pr in result.pairs if pr.b is not None]
    byes = list(dict.fromkeys([*result.byes, *(pr.a for pr in result.pairs if pr.b is None)]))
    return [
        *(Match(round=rnd, table=pr.table + first - 1, player_a_id=pk[pr.a], player_b_id=pk[pr.b]) for pr in games),
        *(Match(round=rnd, player_a_id=pk[key], result=Match.Result.BYE) for key in byes),
        *(Match(round=rnd, player_a_id=pk[key], result=kind) for key, kind in requested.items()),
    ]


def _warnings(result) -> list[dict | str]:
    """The engine's warnings as stored with the round: code, parameters and English text (engine_text)."""
    return [w.as_dict() if isinstance(w, Message) else str(w) for w in getattr(result, "warnings", ())]


def _pair_into(event: Event, number: int, by, seed: int | None = None, progress: Progress = _quiet) -> Round:
    progress(gettext("Reading the event…"))
    # The round after a Day-2 cut makes the cut first (again, when it is paired again): services/cut.py.
    apply_cut(event, number, by)
    players = list(event.players.all())
    seed = seed if seed is not None else secrets.randbelow(2**31)
    first = first_table(event)
    file_event = fixed_tables_within(as_draws(event, event_to_file(event)), first)
    # The byes players asked for in this round (C.07: half-point, or zero-point for a known absence): the
    # engine leaves them out (`pairing.eligible`), and they are recorded as matches without an opponent.
    requested = requested_byes(file_event, number)
    inp, result = _engine_pairing(file_event, number, seed, progress)
    progress(gettext("Storing the pairings…"))
    if result.method == "dutch" and not event.initial_colour:
        # Drawn by lot with round 1 (or read from round 1's games, for an event that pairs by the Dutch system
        # only later; pairing/event.py) and kept: a re-pairing, every later round and the TRF export agree.
        event.initial_colour = {WHITE: "white", BLACK: "black"}[initial_colour(file_event, seed, number)]
        event.save(update_fields=["initial_colour"])
    rnd = Round.objects.create(
        event=event,
        number=number,
        kind=Round.Kind.SWISS,
        state=Round.State.DRAFT,
        seed=seed,
        warnings=_warnings(result),
        clock_minutes=event.round_minutes,
    )
    create_matches(rnd, _build_round_matches(rnd, result, players, requested, first))
    explanations.store(rnd, inp, result, players, requested)  # why each player is paired so: their phone, the pages
    if result.method == "dutch" and number >= FROZEN_FROM_ROUND:
        _freeze_pairing_numbers(players, file_event)
    return rnd


def _freeze_pairing_numbers(players: list, file_event) -> None:
    """From round 4 on, the pairing numbers stay as they were when it was paired: stored once, a later entry
    then gets the next number (swiss/numbers.py)."""
    numbers = pairing_numbers(file_event)
    changed = [p for p in players if p.pairing_number != numbers[p.key]]
    for p in changed:
        p.pairing_number = numbers[p.key]
    Player.objects.bulk_update(changed, ["pairing_number"])


def pair_next_round(event: Event, by, *, number: int | None = None, progress: Progress = _quiet) -> Round:
    """Pair the next Swiss round as a draft (not public until published). Pairs exactly once.

    `number`: the round the organiser asked for (a job started from a page); refused if the next round is
    another one by then. `progress` is told what the pairing is doing, in the active language (a job shows it)."""
    try:
        with transaction.atomic():
            into = joined_into(event)
            if into is not None:
                raise ServiceError(
                    gettext("The players of “%(section)s” play in “%(partner)s”: pair the rounds there.")
                    % {"section": event.name, "partner": into.name}
                )
            if number in (None, 1):
                event = join_small_divisions(event, by)  # the section that pairs: its partner, if it joined it
            event = lock_event(event)
            previous = latest_round(event)
            following = previous.number + 1 if previous else 1
            if number is not None and number != following:
                raise IntegrityError("paired meanwhile")  # told as below, as a second pairing of the round is
            number = following
            check_ready_to_pair(event, number, previous)
            if not event.players.filter(dropped_after__isnull=True, joined_round__lte=number).exists():
                raise ServiceError(gettext("There are no active players to pair."))
            rnd = _pair_into(event, number, by, progress=progress)
            log(event, "pair", by, round=number, seed=rnd.seed)
    except IntegrityError:
        raise ServiceError(gettext("This round was just paired by someone else; the page now shows it.")) from None
    return rnd


@dataclass(frozen=True)
class RepairLoss:
    """What pairing a round again throws away, as the organiser is asked before a published round is re-paired:
    its pairings (players may have seen their tables), the results entered and the reports from players' phones;
    `refusal` says why it cannot be re-paired at all (None when it can)."""

    published: bool
    matches: int
    entered: int
    reports: int
    refusal: str | None


# A result somebody entered (a bye or an unpaired loss is the pairing's own, not entered).
ENTERED = Q(result=Match.Result.PLAYED, games_a__isnull=False) | Q(
    result__in=[Match.Result.DOUBLE_LOSS, Match.Result.FORFEIT]
)


def _repair_refusal(event: Event, rnd: Round) -> str | None:
    if rnd.kind != Round.Kind.SWISS:
        return gettext("Top-cut rounds follow the bracket and cannot be re-paired.")
    if event.rounds.filter(number__gt=rnd.number).exists():
        return gettext("Round %(number)s is not the latest round.") % {"number": rnd.number}
    if rnd.matches.filter(ENTERED).exists():
        return gettext("Round %(number)s already has results; it can no longer be re-paired.") % {"number": rnd.number}
    return None


def repair_loss(rnd: Round) -> RepairLoss:
    """What `repair_round` would throw away now, and whether it may."""
    return RepairLoss(
        published=rnd.is_published,
        matches=rnd.matches.count(),
        entered=rnd.matches.filter(ENTERED).count(),
        reports=Report.objects.filter(match__round=rnd).count(),
        refusal=_repair_refusal(rnd.event, rnd),
    )


def repair_round(rnd: Round, by, *, only_draft: bool = False, progress: Progress = _quiet) -> Round:
    """Throw away a draft, or a published round with no result yet, and pair it again with a new seed.

    `only_draft`: the organiser asked to pair a draft again (a job started from the draft page): a round
    published since is left as it is."""
    try:
        with transaction.atomic():
            event = lock_event(rnd.event)
            rnd = locked_round(rnd.pk)
            if rnd is None:
                raise ServiceError(gettext("That round is gone: someone re-paired it meanwhile."))
            refusal = _repair_refusal(event, rnd)
            if refusal:
                raise ServiceError(refusal)
            if only_draft and rnd.is_published:
                raise ServiceError(
                    gettext(
                        "Round %(number)s was published meanwhile, so it was not paired again. Look at it, "
                        "and re-pair it from its page if you still want to."
                    )
                    % {"number": rnd.number}
                )
            was_published = rnd.is_published
            number = rnd.number
            was = trail.before(rnd, RoundChange.Kind.REPAIR)
            rnd.delete()
            new = _pair_into(event, number, by, progress=progress)
            trail.record(was, by, new)
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


def dropped_in_draft(rnd: Round) -> list[Player]:
    """The players this draft seats who have dropped since it was paired (from their phone or at the desk):
    published, it would give their opponents a game with nobody."""
    return list(Player.objects.filter(seats__round=rnd, dropped_after__lt=rnd.number).order_by("name", "pk"))


def publish_round(rnd: Round, by) -> None:
    """Make a draft public. A Swiss draft that seats a dropped player is refused: pair it again, as the
    organiser's drop says. The event's lock orders it with the drops (`roster.drop_player` takes it too),
    so a drop is either seen here or comes after the round is published (and is then after this round)."""
    with transaction.atomic():
        lock_event(rnd.event)
        repairing = Job.objects.filter(
            event_id=rnd.event_id, kind=Job.Kind.REPAIR, round_number=rnd.number, state__in=Job.ACTIVE
        ).first()
        if repairing is not None and not repairing.is_stale():
            raise ServiceError(
                gettext("Round %(number)s is being paired again: publish the new draft once it is ready.")
                % {"number": rnd.number}
            )
        gone = dropped_in_draft(rnd) if rnd.kind == Round.Kind.SWISS else []
        if gone:
            raise ServiceError(
                gettext("Dropped after round %(number)s was paired: %(names)s. Pair it again before publishing it.")
                % {"names": l10n.join(p.name for p in gone), "number": rnd.number}
            )
        updated = Round.objects.filter(pk=rnd.pk, state=Round.State.DRAFT).update(state=Round.State.PAIRED)
        if updated:
            rnd.state = Round.State.PAIRED
            trail.settle_repair(rnd)
            log(rnd.event, "publish", by, round=rnd.number)
            outlooks.refresh_soon(rnd)  # what each player needs from this round, for their phone
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
                    game_words.gettext("%(player)s holds a pre-awarded bye this round; they cannot be swapped.")
                    % {"player": p}
                )
        if m1.player_b_id is None and m2.player_b_id is None:
            raise ServiceError(
                game_words.gettext("%(first)s and %(second)s both have a bye: swapping them changes nothing.")
                % {"first": first, "second": second}
            )
        was = trail.before(rnd, RoundChange.Kind.SWAP, [m1.pk, m2.pk])
        _exchange(m1, s1, m2, s2)
        moved = {m1.player_a_id, m1.player_b_id, m2.player_a_id, m2.player_b_id} - {None}
        explanations.by_hand(rnd, explanations.SWAP, sorted(moved))
        trail.record(was, by, rnd)
        if rnd.state != Round.State.DRAFT:
            outlooks.refresh_soon(rnd)  # what each player needs: the pairing changed
        discard_reports([m1.pk, m2.pk])
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
        colours = colour_breaks(rnd.event, rnd.number, [m1.pk, m2.pk])
        rnd.warnings = [*rnd.warnings, swapped.as_dict(), *(w.as_dict() for w in [*warnings, *colours])]
        rnd.save(update_fields=["warnings"])
        log(
            rnd.event,
            "swap",
            by,
            round=rnd.number,
            players=[first.key, second.key],
            rematches=[str(w) for w in warnings],
            colour_breaks=[str(w) for w in colours],
        )
    if rnd.is_published:
        changed(rnd.event)
    return [*warnings, *colours]


def flip_colours(rnd: Round, match_id: int, by) -> list[Message]:
    """Give a board's White Black and its Black White, by hand, in a chess round without results; returns the
    FIDE colour rules the flip breaks (`colour_breaks`), as a swap does."""
    with transaction.atomic():
        lock_event(rnd.event)
        rnd = locked_round(rnd.pk)
        if rnd is None:
            raise ServiceError(_("That round was paired again meanwhile: swap on the new pairings."))
        if not rnd.event.colours:
            raise ServiceError(gettext("This event has no colours to flip."))
        if rnd.matches.filter(Q(games_a__isnull=False) | Q(result=DOUBLE_LOSS)).exists():
            raise ServiceError(gettext("This round has results; its pairings can no longer be changed."))
        m = rnd.matches.filter(pk=match_id, player_b__isnull=False).select_related("player_a", "player_b").first()
        if m is None:
            raise ServiceError(gettext("That board has no two players to flip."))
        white, black = m.player_a_id, m.player_b_id
        was = trail.before(rnd, RoundChange.Kind.FLIP, [m.pk])
        rows = Match.objects.filter(pk=m.pk)
        # A player is in one slot of a round at a time: Black leaves its slot before White takes it.
        rows.update(player_b_id=None)
        rows.update(player_a_id=black)
        rows.update(player_b_id=white, white=None, version=F("version") + 1)
        explanations.by_hand(rnd, explanations.FLIP, [white, black])
        trail.record(was, by, rnd)
        discard_reports([m.pk])
        colours = colour_breaks(rnd.event, rnd.number, [m.pk])
        flipped = Message(
            "flipped_by_hand",
            "Flipped the colours of table {table} by hand: {white} has White.",
            table=m.table,
            white=m.player_b.name,
        )
        rnd.warnings = [*rnd.warnings, flipped.as_dict(), *(w.as_dict() for w in colours)]
        rnd.save(update_fields=["warnings"])
        if rnd.is_published:
            outlooks.refresh_played(rnd)  # colour tie-breaks (BPG, BWG) read who has Black
        log(rnd.event, "flip_colours", by, round=rnd.number, table=m.table, colour_breaks=[str(w) for w in colours])
    if rnd.is_published:
        changed(rnd.event)
    return colours


def colour_histories(event: Event, before_number: int) -> dict[int, list[str]]:
    """Each player's colours ("w", "b") in the games they played before round `before_number`, in round order.
    A bye or a forfeit is no game played and has no colour (FIDE C.04.1)."""
    rows = (
        Match.objects.filter(
            round__event=event, round__number__lt=before_number, player_b__isnull=False, result=Match.Result.PLAYED
        )
        .order_by("round__number")
        .values_list("player_a_id", "player_b_id", "white_id")
    )
    history: dict[int, list[str]] = {}
    for a, b, white in rows:
        white = white or a
        history.setdefault(a, []).append("w" if a == white else "b")
        history.setdefault(b, []).append("w" if b == white else "b")
    return history


def colour_breaks(event: Event, number: int, match_ids: list[int]) -> list[Message]:
    """The FIDE absolute colour criteria (C.04.1 f, C.04.3 C3) the games of these matches break, as the
    round now pairs them: a player with the same colour a third time in a row, or a colour difference past 2
    (more Whites than Blacks, or the reverse, by 3 or more). Nothing for an event without colours; warnings,
    not refusals: the arbiter decides (the final round's topscorers may be paired so)."""
    if not event.colours:
        return []
    history = colour_histories(event, number)
    found = []
    games = Match.objects.filter(pk__in=match_ids, player_b__isnull=False).select_related("player_a", "player_b")
    for m in sorted(games, key=lambda m: m.table or 0):
        white, black = m.colour_order()
        for player, colour in ((white, "w"), (black, "b")):
            colours = [*history.get(player.pk, []), colour]
            if len(colours) >= 3 and len(set(colours[-3:])) == 1:
                code = "colour_third_white" if colour == "w" else "colour_third_black"
                text = "{player} has {colour} a third time in a row (table {table})."
                found.append(
                    Message(
                        code,
                        text.replace("{colour}", "White" if colour == "w" else "Black"),
                        player=player.name,
                        table=m.table,
                    )
                )
            difference = colours.count("w") - colours.count("b")
            if abs(difference) > 2:
                found.append(
                    Message(
                        "colour_difference",
                        "{player}'s colour difference would be {difference}, past 2 (table {table}).",
                        player=player.name,
                        difference=f"{difference:+d}",
                        table=m.table,
                    )
                )
    return found


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
