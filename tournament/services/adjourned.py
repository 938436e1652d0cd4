"""FIDE mode's adjourned games (docs/fide-mode.md). A game is recorded as adjourned (`Match.adjourned`): its
result is still to come, and meanwhile the pairing counts it as a draw (`as_draws`). Pairing the next round
while results are missing records them as adjourned, after a level-2 warning (`adjourn_missing`). While any result
is missing once the last planned round is paired, there are no final standings and no final TRF
(`final_blocked`). The result that ends an adjourned game is a level-3 warning unless it is a draw, recorded as
a `### Adjournment` line (`result_warnings`)."""

from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext, ngettext

from swiss import model
from swiss.trf import start_ranks
from tournament.models import Event, Match, Round
from tournament.services.locks import ServiceError, awaiting_result, changed, latest_round, lock_event, log
from tournament.services.warnings import NONE, Level, Passed, Warning, check
from tournament.snapshot import event_to_file
from tournament.text import l10n

DRAW = (0, 0, 1)


def adjourn(match: Match, by) -> None:
    """Record a game of a published round of a FIDE-mode event as adjourned."""
    with transaction.atomic():
        event = lock_event(match.round.event)
        m = Match.objects.select_for_update(of=("self",)).select_related("round").filter(pk=match.pk).first()
        if m is None or not event.fide:
            raise ServiceError(gettext("Adjourned games are recorded in FIDE mode."))
        if m.player_b_id is None or m.has_result or not m.round.is_published:
            raise ServiceError(gettext("Only a game being played, without its result, can be adjourned."))
        if not m.adjourned:
            m.adjourned = True
            m.save(update_fields=["adjourned"])
            log(event, "adjourn", by, round=m.round.number, table=m.table)
    changed(event)


def adjourn_missing(event: Event, by, passed: Passed = NONE) -> list[int]:
    """Before the next round is paired in FIDE mode: the latest round's missing results, recorded as adjourned
    games after a level-2 warning; the tables (none when nothing is missing)."""
    with transaction.atomic():
        event = lock_event(event)
        previous = latest_round(event)
        if not event.fide or previous is None or previous.state == Round.State.DRAFT:
            return []
        missing = previous.matches.filter(awaiting_result(), adjourned=False, player_b__isnull=False)
        tables = sorted(missing.values_list("table", flat=True))
        if not tables:
            return []
        text = ngettext(
            "Round %(number)s has %(count)s result missing (table %(tables)s): it is recorded as an adjourned "
            "game, counted as a draw for the pairing until its result comes.",
            "Round %(number)s has %(count)s results missing (tables %(tables)s): they are recorded as adjourned "
            "games, counted as draws for the pairing until their results come.",
            len(tables),
        ) % {"number": previous.number, "count": len(tables), "tables": l10n.join(tables)}
        params = {"round": previous.number, "tables": tables}
        check(event, by, [Warning(Level.ACKNOWLEDGE, "adjourned_when_pairing", text, params=params)], passed)
        missing.update(adjourned=True)
        log(event, "adjourn", by, round=previous.number, tables=tables)
    changed(event)
    return tables


def as_draws(event: Event, doc: model.Event) -> model.Event:
    """The event as the pairing reads it: each adjourned game still without its result a draw."""
    adjourned = set(
        Match.objects.filter(round__event=event, adjourned=True)
        .filter(awaiting_result())
        .values_list("round__number", "player_a__key", "player_b__key")
    )
    if not adjourned:
        return doc
    rounds = tuple(
        replace(
            r,
            matches=tuple(
                replace(m, games=DRAW) if (r.number, m.a, m.b) in adjourned and m.games is None else m
                for m in r.matches
            ),
        )
        for r in doc.rounds
    )
    return replace(doc, rounds=rounds)


def final_blocked(event: Event) -> list[int]:
    """In FIDE mode once the last planned round is paired: the rounds with a result still missing (no final
    standings, no final TRF until they come); empty otherwise."""
    if not event.fide or not event.planned_rounds:
        return []
    last = latest_round(event)
    if last is None or last.number < event.planned_rounds or last.state == Round.State.DRAFT:
        return []
    rows = Match.objects.filter(round__event=event, round__kind=Round.Kind.SWISS).exclude(
        round__state=Round.State.DRAFT
    )
    return sorted(set(rows.filter(awaiting_result()).values_list("round__number", flat=True)))


def result_warnings(m: Match, games: tuple[int, int, int] | None, result: str) -> list[Warning]:
    """The result that ends an adjourned game of a FIDE-mode event: a level-3 warning unless it is a draw, with
    its `### Adjournment` line."""
    event = m.round.event
    if not (m.adjourned and event.fide and not m.has_result) or (result == Match.Result.PLAYED and games == DRAW):
        return []
    rank = start_ranks(event_to_file(event))
    white, black = m.colour_order()
    score = {(1, 0, 0): "1-0", (0, 1, 0): "0-1"}.get(games or (), result)
    text = gettext(
        "Table %(table)s of round %(number)s was adjourned: a result other than a draw changes the pairings made "
        "since, which counted it as a draw."
    ) % {"table": m.table, "number": m.round.number}
    line = f"Adjournment @ Round {m.round.number}: {rank.get(white.key)} {score} {rank.get(black.key)}"
    return [Warning(Level.CONFIRM, "adjourned_not_draw", text, trf=line, params={"match": m.pk, "result": score})]
