"""The top cut: seeding the bracket from the final Swiss standings, advancing it, undoing it, and the
final placings."""

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils.translation import gettext

from pairing import PairingError
from pairing.rounds import pokemon_structure
from pairing.topcut import division_pairings, next_division_round, top_cut_pairings
from pairing.topcut import final_placings as placings_of
from standings.divisions import Division
from swiss.messages import message_of
from tournament.models import (
    Event,
    Match,
    Player,
    Round,
)
from tournament.services.cut import day_2_rows
from tournament.services.divisions import division_standings
from tournament.services.locks import ServiceError, changed, latest_round, lock_event, log
from tournament.services.rounds import check_ready_to_pair
from tournament.services.sections import first_table
from tournament.services.standings import event_standings
from tournament.snapshot import create_matches
from tournament.text import engine_text


def start_top_cut(event: Event, by) -> Round:
    """Seed the top N of the final Swiss standings into a single-elimination bracket (docs/features.md).

    The bracket is a draft, like a Swiss round: nobody sees it until `publish_round`, and `undo_top_cut`
    takes it back (a published one too, while no result is in).
    """
    n = event.top_cut
    if n < 2 or n & (n - 1):
        raise ServiceError(gettext("Set the top cut to 2, 4, 8, 16… in the event settings first."))
    if not any(size for _, _, size in cut_sizes(event)):
        raise ServiceError(gettext("No division has enough players for a top cut."))
    try:
        with transaction.atomic():
            event = lock_event(event)
            last = latest_round(event)
            if last is None:
                raise ServiceError(gettext("Play the Swiss rounds first."))
            if last.kind == Round.Kind.ELIMINATION:
                raise ServiceError(gettext("The top cut has already started."))
            check_ready_to_pair(event, last.number + 1, last)
            pairs, seeds = _first_stage(event, n)
            rnd = _elimination_round(event, last.number + 1, pairs, state=Round.State.DRAFT)
            log(event, "top_cut", by, size=n, seeds=seeds[:n])
    except IntegrityError:
        raise ServiceError(gettext("The top cut was just started by someone else.")) from None
    return rnd


def division_seeds(event: Event, dropped: bool = False) -> list[tuple[str, list[str]]]:
    """Each division's seeds (player keys, best first; dropped players left out unless `dropped`), in division
    order; one list named "" for an event without divisions."""
    result = event_standings(event)
    day_2 = {r.player_id for r in day_2_rows(result)}  # after a Day-2 cut, only those who made it (services/cut.py)
    divisions = division_standings(event, result) or [Division("", result)]
    return [
        (d.name, [r.player_id for r in d.standings.rows if (dropped or not r.dropped) and r.player_id in day_2])
        for d in divisions
    ]


def division_cut(attendance: int, most: int) -> int:
    """A division's top cut in an age-modified Swiss: sized by the division's own attendance as Pokémon's table
    sizes an event's (`pairing.rounds.pokemon_structure`: 4–8 players no cut, 9–20 a top 4, 21 or more a top
    8), never larger than the event's top cut `most`, the organiser's choice."""
    return min(pokemon_structure(attendance)[1], most)


def cut_sizes(event: Event) -> list[tuple[str, list[str], int]]:
    """Each division's (name, seeds, top-cut size), in division order; one ("", seeds, event.top_cut) for an event
    without divisions. A division's attendance is every player it ranks, those who dropped included."""
    divisions = division_seeds(event)
    if len(divisions) == 1 and not divisions[0][0]:
        return [("", divisions[0][1], event.top_cut)]
    attendance = {name: len(rows) for name, rows in division_seeds(event, dropped=True)}
    return [(name, seeds, division_cut(attendance[name], event.top_cut)) for name, seeds in divisions]


def _first_stage(event: Event, n: int) -> tuple[tuple, list[str]]:
    """The first elimination round: one bracket of `n`, or one per division (Pokémon's age divisions are cut
    and prized apart, each by its own attendance: `cut_sizes`), side by side; and the seeds it takes."""
    divisions = cut_sizes(event)
    for name, seeds, size in divisions:
        if name and len(seeds) < size:
            raise ServiceError(
                gettext("Division “%(division)s” has only %(count)s players left: too few for a top %(size)s.")
                % {"division": name, "count": len(seeds), "size": size}
            )
    try:
        if len(divisions) == 1:
            pairs = top_cut_pairings(divisions[0][1], n)
        else:
            pairs = division_pairings([seeds for _, seeds, _ in divisions], [size for _, _, size in divisions])
    except PairingError as e:
        raise ServiceError(engine_text.sentence(message_of(e))) from None
    return pairs, [key for _, seeds, size in divisions for key in seeds[:size]]


def brackets_of(matches: list[Match]) -> list[list[Match]]:
    """A bracket round's matches (in table order) as one list per bracket: divisions have one each, side by
    side (`division_pairings`); an event without divisions has one."""
    brackets: list[list[Match]] = []
    for m in matches:
        if brackets and brackets[-1][0].player_a.division == m.player_a.division:
            brackets[-1].append(m)
        else:
            brackets.append([m])
    return brackets


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
            brackets = brackets_of(list(last.matches.select_related("player_a", "player_b").order_by("table")))
            if all(len(matches) < 2 for matches in brackets):
                return None
            pairs = next_division_round(
                [[(m.player_a.key, m.player_b.key) for m in matches] for matches in brackets],
                {m.winner.key for matches in brackets for m in matches},
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
    """The stage name of each top-cut round, by round number (one query): the largest bracket's, when divisions'
    brackets of different sizes are played side by side."""
    counts = (
        Match.objects.filter(round__event=event, round__kind=Round.Kind.ELIMINATION)
        .values_list("round__number", "player_a__division")
        .annotate(n=Count("pk"))
    )
    largest: dict[int, int] = {}
    for number, _division, n in counts:
        largest[number] = max(largest.get(number, 0), n)
    return {number: stage_name(n) for number, n in largest.items()}


def top_cut_rounds(event: Event) -> list[Round]:
    return list(event.rounds.filter(kind=Round.Kind.ELIMINATION).order_by("number"))


def placings_by_division(event: Event) -> list[tuple[str, list[tuple[int, Player]]]] | None:
    """Each bracket's winner, finalist, then the losers of each earlier stage by Swiss rank, with its division's
    name ("" for an event without divisions); None until every bracket's final is played. Brackets of different
    sizes end in different rounds; a division without a bracket (too few players for a cut) has no placings."""
    rounds = [list(r.matches.select_related("player_a", "player_b").order_by("table")) for r in top_cut_rounds(event)]
    if not rounds or any(m.winner is None for r in rounds for m in r):
        return None
    stages: dict[str, list[list[Match]]] = {}
    for r in rounds:
        for matches in brackets_of(r):
            stages.setdefault(matches[0].player_a.division, []).append(matches)
    if any(len(bracket[-1]) != 1 for bracket in stages.values()):
        return None
    seeds = dict(division_seeds(event, dropped=True))
    by_key = {p.key: p for r in rounds for m in r for p in (m.player_a, m.player_b)}
    placings = []
    for name, bracket in stages.items():
        played = [[(m.player_a.key, m.player_b.key, m.winner.key) for m in stage] for stage in bracket]
        order = placings_of(seeds[name], played)
        placings.append((name, [(place, by_key[key]) for place, key in enumerate(order, 1)]))
    return placings


def final_placings(event: Event) -> list[tuple[int, Player]] | None:
    """Winner, finalist, then the losers of each earlier stage by Swiss rank; None until the final is played.
    With divisions, each division's placings one after another, each from 1 (`placings_by_division`)."""
    divisions = placings_by_division(event)
    if divisions is None:
        return None
    return [placing for _, placings in divisions for placing in placings]


def final_places(event: Event) -> dict[int, int] | None:
    """Every player's final place once the final is played (None before): the top cut's placings, then
    everybody else in the order of the final Swiss standings."""
    placings = final_placings(event)
    if placings is None:
        return None
    places = {p.pk: place for place, p in placings}
    pk_of = {p.key: p.pk for p in event.players.only("id", "event", "key")}
    result = event_standings(event)
    for division in division_standings(event, result) or [Division("", result)]:
        taken = sum(1 for r in division.standings.rows if pk_of.get(r.player_id) in places)
        for row in division.standings.rows:
            pk = pk_of.get(row.player_id)
            if pk is not None and pk not in places:
                taken += 1
                places[pk] = taken
    return places
