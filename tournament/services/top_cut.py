"""The top cut: seeding the bracket from the final Swiss standings, advancing it, undoing it, and the
final placings."""

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils.translation import gettext

from pairing import PairingError
from pairing.topcut import final_placings as placings_of
from pairing.topcut import next_bracket_round, top_cut_pairings
from swiss.messages import message_of
from tournament.files.eventio import create_matches
from tournament.models import (
    Event,
    Match,
    Player,
    Round,
)
from tournament.services.locks import ServiceError, changed, latest_round, lock_event, log
from tournament.services.rounds import check_ready_to_pair
from tournament.services.sections import first_table
from tournament.services.standings import event_standings
from tournament.text import engine_text


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
            check_ready_to_pair(event, last.number + 1, last)
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
    first = first_table(event)  # a section's tables are in its range (docs/sections.md)
    create_matches(
        rnd, [Match(round=rnd, table=pr.table + first - 1, player_a_id=pk[pr.a], player_b_id=pk[pr.b]) for pr in pairs]
    )
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
