"""FIDE mode itself (docs/fide-mode.md): on for every new chess event, turned on by hand before round 1, and
left for good after a level-4 warning, which the TRF export records in a `###` line with the round; and the
tie-break list changed after round 1, a level-4 warning whose `###` line keeps the list it replaces, as is the
FIDE rules the event follows changed after round 1 (the C.07 edition named, or a new date that moves the edition
or B.02's 2650 rule: `rules_changed`); and the
warnings of the byes the desk gives in it (`bye_warnings`), on the player page's bye form and its registration
form (`player_edited`: pre-awarded byes, which are full-point byes)."""

import datetime as dt
from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext

import standings
from swiss.rules import edition_on, moved, uncapped_on
from swiss.tiebreakers import c07_code
from tournament.models import Event, Match, Player
from tournament.services.locks import ServiceError, changed, lock_event, log, swiss_rounds_played
from tournament.services.warnings import NONE, Level, Passed, Warning, check
from tournament.snapshot import event_to_file
from tournament.text import l10n


def leave_fide_mode(event: Event, by, passed: Passed = NONE) -> None:
    """Leave FIDE mode for good: a level-4 warning, its `###` line naming the last round paired."""
    with transaction.atomic():
        event = lock_event(event)
        if not event.fide:
            raise ServiceError(gettext("This event is not in FIDE mode."))
        played = swiss_rounds_played(event)
        check(event, by, [leaving_warning(played)], passed, round=played)
        event.fide_mode, event.fide_left = False, played
        event.save(update_fields=["fide_mode", "fide_left"])
    changed(event)


def leaving_warning(played: int, why: str = "") -> Warning:
    """The level-4 warning of leaving FIDE mode (after `played` rounds), by itself or as the price of an act FIDE
    mode forbids (`why`, said first)."""
    text = gettext("Leave FIDE mode?")
    if why:
        text = gettext("%(why)s This is allowed only outside FIDE mode.") % {"why": why}
    return Warning(
        Level.CONSEQUENCES,
        "leave_fide_mode",
        text,
        consequences=gettext(
            "The event leaves FIDE mode for good: it cannot be turned on again, every organiser page marks the "
            "event as not run in FIDE mode, and the TRF export says so in a ### line. A rating officer may refuse "
            "to rate it."
        ),
        trf=f"FIDE mode left @ Round {played}",
        params={"round": played},
    )


def left(event: Event, played: int) -> None:
    """The event leaves FIDE mode as the price of an act the arbiter passed `leaving_warning` for."""
    event.fide_mode, event.fide_left = False, played
    event.save(update_fields=["fide_mode", "fide_left"])


def enter_fide_mode(event: Event, by) -> None:
    """Turn FIDE mode on: a chess event, before round 1, that never left it."""
    with transaction.atomic():
        event = lock_event(event)
        if not event.chess_results:
            raise ServiceError(gettext("FIDE mode is for chess events: one game a round, with colours."))
        if event.fide_left is not None:
            raise ServiceError(gettext("This event left FIDE mode; it cannot be turned on again."))
        if event.rounds.exists():
            raise ServiceError(gettext("FIDE mode can be turned on only before round 1 is paired."))
        if not event.fide_mode:
            event.fide_mode = True
            event.save(update_fields=["fide_mode"])
            log(event, "fide_mode", by, on=True)
    changed(event)


def tiebreaks_changed(event: Event, by, old: list[str], new: list[str], passed: Passed = NONE) -> None:
    """In FIDE mode, the tie-break list changed once round 1 is paired: a level-4 warning, and the list it
    replaces in a `###` line of the TRF export. Call inside the save's transaction (`check` rolls it back)."""
    if not event.fide or list(old) == list(new) or not event.rounds.exists():
        return
    played = swiss_rounds_played(event)
    check(event, by, [tiebreaks_warning(old, new, played)], passed, round=played)


def tiebreaks_warning(old: list[str], new: list[str], played: int) -> Warning:
    listed = ",".join(c07_code(code) for code in old)
    return Warning(
        Level.CONSEQUENCES,
        "tiebreaks_changed",
        gettext("Change the tie-breaks after round 1 has been paired?"),
        consequences=gettext(
            "The standings are ranked by the new list from now on, the earlier rounds' too. The event's log and "
            "the TRF export (a ### line) keep the list it replaces, so a rating officer sees the change."
        ),
        trf=f"Tie-breaks changed @ Round {played}, were: {listed}",
        params={"round": played, "old": list(old), "new": list(new)},
    )


def rules_moved(event: Event, old_date: dt.date | None, old_named: str) -> tuple[bool, bool]:
    """Whether the C.07 edition, and whether B.02's 2650 rule, a chess event follows changed from what the date
    `old_date` and the named edition `old_named` gave to what its (unsaved) date and `tiebreak_rules` give."""
    if event.preset != "chess":
        return False, False
    return moved(old_date, old_named, event.date, event.tiebreak_rules)


def rules_changed(event: Event, by, old_date: dt.date | None, old_named: str, passed: Passed = NONE) -> None:
    """In FIDE mode, the FIDE rules the event follows changed once round 1 is paired (its C.07 edition named
    anew, or a new date that moves the edition or the 2650 rule): a level-4 warning each, as a new tie-break
    list, with a `###` line naming the old and new. Call inside the save's transaction, `event` carrying the
    new values (`check` rolls it back)."""
    if not event.fide or not event.rounds.exists():
        return
    edition, rating = rules_moved(event, old_date, old_named)
    played = swiss_rounds_played(event)
    found = []
    dated = f" (event date {_iso(old_date)} -> {_iso(event.date)})" if old_date != event.date else ""
    if edition:
        found.append(_edition_warning(event, old_date, old_named, played, dated))
    if rating:
        found.append(_rating_warning(event, old_date, played, dated))
    check(event, by, found, passed, round=played)


def _iso(day: dt.date | None) -> str:
    return day.isoformat() if day else "none"


def _edition_warning(event: Event, old_date: dt.date | None, old_named: str, played: int, dated: str) -> Warning:
    old, new = edition_on(old_date, old_named), edition_on(event.date, event.tiebreak_rules)
    names = {"old": str(l10n.TIEBREAK_RULES[old]), "new": str(l10n.TIEBREAK_RULES[new])}
    if dated:
        text = gettext(
            "The new date changes the edition of the tie-breaks after round 1 has been paired: the standings would "
            "follow the %(new)s instead of the %(old)s. Change it?"
        )
    else:
        text = gettext(
            "Change the edition of the tie-breaks after round 1 has been paired? The standings would follow the "
            "%(new)s instead of the %(old)s."
        )
    return Warning(
        Level.CONSEQUENCES,
        "tiebreak_rules_changed",
        text % names,
        consequences=gettext(
            "The standings' tie-break figures are worked out by the new edition from now on, the earlier rounds' "
            "too: %(ranks)s The event's log and the TRF export (a ### line) keep the edition it replaces, so a "
            "rating officer sees the change."
        )
        % {"ranks": _ranks_moved(event, old_date, old_named)},
        trf=f"Tie-break rules changed @ Round {played}: C.07 edition {old} -> {new}{dated}",
        params={"round": played, "old": old, "new": new, "date": _iso(event.date)},
    )


def _ranks_moved(event: Event, old_date: dt.date | None, old_named: str) -> str:
    """Which players' ranks the new edition changes in the current standings, as a sentence."""
    doc = event_to_file(event)
    before = replace(
        doc, settings=replace(doc.settings, date=old_date and old_date.isoformat(), tiebreak_rules=old_named)
    )
    try:
        old, new = standings.compute(before).by_player(), standings.compute(doc).rows
    except standings.StandingsError:
        return ""
    moved = [
        gettext("%(player)s from %(old)s to %(new)s") % {"player": r.name, "old": old[r.player_id].rank, "new": r.rank}
        for r in new
        if r.player_id in old and old[r.player_id].rank != r.rank
    ]
    if not moved:
        return gettext("no player's rank in the current standings changes.")
    return gettext("in the current standings, ranks change: %(moved)s.") % {"moved": l10n.join(moved)}


def _rating_warning(event: Event, old_date: dt.date | None, played: int, dated: str) -> Warning:
    uncapped = uncapped_on(event.date)
    if uncapped:
        text = gettext(
            "The new date puts the event on or after 1 October 2025: a player rated 2650 or more counts the whole "
            "rating difference (FIDE rating regulations B.02 8.3.1 as amended). Change it after round 1 has been "
            "paired?"
        )
    else:
        text = gettext(
            "The new date puts the event before 1 October 2025: the 400-point rule holds for every player, those "
            "rated 2650 or more too (FIDE rating regulations B.02 8.3.1 before its amendment). Change it after "
            "round 1 has been paired?"
        )
    rule = "2650 rule of 1 October 2025" if uncapped else "400-point rule for all"
    return Warning(
        Level.CONSEQUENCES,
        "rating_rule_changed",
        text,
        consequences=gettext(
            "The rating changes of games with a player rated 2650 or more are worked out by the other rule, the "
            "earlier rounds' too. The event's log and the TRF export (a ### line) keep the change."
        ),
        trf=f"Rating rule changed @ Round {played}: B.02 8.3.1 {rule}{dated}",
        params={"round": played, "uncapped": uncapped, "date": _iso(event.date)},
    )


def bye_warnings(event: Event, player: Player, number: int, kind: str) -> list[Warning]:
    """A bye the desk gives in FIDE mode: a half-point bye to a player not eligible for one, or their second, is
    a level-3 warning; a full-point bye (which FIDE deprecates) a level-2 warning with a `###` line."""
    facts = {"player": player.key, "round": number, "kind": kind}
    if kind == Match.Result.FULL_BYE:
        text = gettext("A full-point bye is deprecated by FIDE: %(player)s gets a whole point without playing.")
        line = f"Full-point bye @ Round {number}: {player.name}"
        return [Warning(Level.ACKNOWLEDGE, "full_point_bye", text % {"player": player.name}, trf=line, params=facts)]
    if kind != Match.Result.HALF_BYE:
        return []
    found = []
    if not player.half_bye_ok:
        found.append(_not_eligible(player, number))
    taken = Match.objects.filter(player_a=player, result=Match.Result.HALF_BYE).exclude(round__number=number).count()
    asked = [r for r, k in player.requested_byes.items() if k == Match.Result.HALF_BYE and r != str(number)]
    if taken + len(asked):
        text = gettext("%(player)s already has a half-point bye: this is another.") % {"player": player.name}
        found.append(Warning(Level.CONFIRM, "second_half_bye", text, params=facts))
    return found


def _not_eligible(player: Player, number: int) -> Warning:
    facts = {"player": player.key, "round": number, "kind": Match.Result.HALF_BYE}
    text = gettext("%(player)s is not eligible for half-point byes.") % {"player": player.name}
    return Warning(Level.CONFIRM, "half_bye_not_eligible", text, params=facts)


def player_edited(event: Event, by, before: Player, after: Player, passed: Passed = NONE) -> None:
    """The player page's registration form saved in FIDE mode: pre-awarded byes added for rounds not yet paired
    are full-point byes (`bye_warnings`, one a round), and "May take half-point byes" turned off while the
    player holds a requested half-point bye is a half-point bye to a player not eligible for it. Call inside
    the save's transaction, the event locked (`check` rolls it back)."""
    if not event.fide:
        return
    paired = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    found = [
        w
        for number in range(max(before.byes, paired) + 1, after.byes + 1)
        for w in bye_warnings(event, after, number, Match.Result.FULL_BYE)
    ]
    if before.half_bye_ok and not after.half_bye_ok:
        held = sorted(int(r) for r, kind in after.requested_byes.items() if kind == Match.Result.HALF_BYE)
        found += [_not_eligible(after, number) for number in held]
    check(event, by, found, passed, round=paired or None)
