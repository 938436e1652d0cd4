"""FIDE mode's manual pairing phase (docs/fide-mode.md): a draft edited by hand (a swap, a board's colours flipped)
is an explicit phase, opened by the first edit or the draft page's button and ended by "Validate"; a FIDE-mode
draft is published only once validated.

Every edit inside it is checked on the boards it changed: a rematch, a forbidden pair, a bye to a player not
eligible for it, a third colour in a row or a colour difference past 2 before the last round are level-3
warnings; both players of a board given the colour opposite to the one due to them is a level-2 warning
(services/warnings.py). Validate compares the round with the engine's pairing, kept when the phase opened:
when they differ, a level-4 warning lists the differences and shows the engine's pairing, and the TRF export
writes `### MPA @ Round n` with them.

Outside FIDE mode (a card game, a chess event that left it) swaps and flips are as they always were.
"""

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from swiss.trf import start_ranks
from tournament.models import Event, Match, Player, Round
from tournament.services import forbidden
from tournament.services.locks import ServiceError, lock_event, locked_round, log
from tournament.services.rounds import (
    colour_breaks,
    colour_histories,
    flip_colours,
    met_before,
    publish_round,
    swap_players,
)
from tournament.services.warnings import NONE, Level, Passed, Warning, check
from tournament.snapshot import event_to_file
from tournament.text import engine_text

UNPAIRED = (Match.Result.BYE, Match.Result.FULL_BYE)


def swap(rnd: Round, first: Player, second: Player, by, passed: Passed = NONE):
    """`rounds.swap_players`, in FIDE mode inside the manual phase and with its warnings to pass."""
    with transaction.atomic():
        ids = list(
            rnd.matches.filter(Q(player_a__in=[first, second]) | Q(player_b__in=[first, second])).values_list(
                "pk", flat=True
            )
        )
        fide = _open(rnd, by)
        found = swap_players(rnd, first, second, by)
        if fide:
            check(rnd.event, by, edit_warnings(rnd, ids), passed, round=rnd.number)
    return found


def flip(rnd: Round, match_id: int, by, passed: Passed = NONE):
    """`rounds.flip_colours`, in FIDE mode inside the manual phase and with its warnings to pass."""
    with transaction.atomic():
        fide = _open(rnd, by)
        found = flip_colours(rnd, match_id, by)
        if fide:
            check(rnd.event, by, edit_warnings(rnd, [match_id]), passed, round=rnd.number)
    return found


def _open(rnd: Round, by) -> bool:
    """Whether FIDE mode checks this edit; a FIDE-mode draft's first edit opens the manual phase."""
    event = lock_event(rnd.event)
    if not event.fide:
        return False
    rnd = locked_round(rnd.pk)
    if rnd is not None and rnd.state == Round.State.DRAFT and not rnd.manual:
        start(rnd, by)
    return True


def start(rnd: Round, by) -> None:
    """Open the manual phase of a FIDE-mode draft, keeping the engine's pairing (the draft as it is) to compare."""
    with transaction.atomic():
        lock_event(rnd.event)
        rnd = locked_round(rnd.pk)
        if rnd is None or rnd.state != Round.State.DRAFT:
            raise ServiceError(gettext("Only a draft is edited by hand before it is published."))
        if rnd.manual:
            return
        rnd.manual, rnd.engine_pairs = True, _pairs(rnd)
        rnd.save(update_fields=["manual", "engine_pairs"])
        log(rnd.event, "manual_start", by, round=rnd.number)


def validate(rnd: Round, by, passed: Passed = NONE) -> list[str]:
    """End the manual phase: the round against the engine's pairing; the differences (empty when none)."""
    with transaction.atomic():
        event = lock_event(rnd.event)
        rnd = locked_round(rnd.pk)
        if rnd is None or not rnd.manual:
            raise ServiceError(gettext("These pairings are not being edited by hand."))
        now = _pairs(rnd)
        engine = [tuple(p) for p in rnd.engine_pairs]
        by_hand = [p for p in now if p not in engine]
        engines = [p for p in engine if p not in now]
        names = dict(Player.objects.filter(event=event).values_list("key", "name"))
        if by_hand or engines:
            rank = start_ranks(event_to_file(event))  # the TRF's numbers, by key (the engines' ids)
            check(
                event, by, [_mpa_warning(rnd.number, by_hand, engines, engine, names, rank)], passed, round=rnd.number
            )
        rnd.manual = False
        rnd.save(update_fields=["manual"])
        log(event, "manual_validate", by, round=rnd.number, differences=len(by_hand))
    return [_board(p, names) for p in by_hand]


def publishable(rnd: Round) -> None:
    """A FIDE-mode draft being edited by hand is published only once validated."""
    if rnd.manual and rnd.event.fide:
        raise ServiceError(
            gettext("Round %(number)s is being edited by hand: validate the pairings before publishing them.")
            % {"number": rnd.number}
        )


def _pairs(rnd: Round) -> list[tuple[str, str | None]]:
    """The round's boards as (White's key, Black's key), a bye's as (key, None), by table."""
    rows = rnd.matches.filter(Q(player_b__isnull=False) | Q(result__in=UNPAIRED)).select_related("player_a", "player_b")
    return [(m.player_a.key, m.player_b.key if m.player_b_id else None) for m in rows.order_by("table", "id")]


def _board(pair, names: dict) -> str:
    white, black = pair
    if black is None:
        return gettext("%(player)s: bye") % {"player": names.get(white, white)}
    return f"{names.get(white, white)} – {names.get(black, black)}"


def _trf_board(pair, rank: dict) -> str:
    white, black = pair
    return f"{rank.get(white)}-bye" if black is None else f"{rank.get(white)}-{rank.get(black)}"


def _mpa_warning(number: int, by_hand, engines, engine, names: dict, rank: dict) -> Warning:
    sep = gettext(", ")
    return Warning(
        Level.CONSEQUENCES,
        "manual_pairing",
        gettext(
            "Round %(number)s differs from the engine's pairing. Paired by hand: %(by_hand)s. The engine paired "
            "instead: %(engine)s. The engine's whole pairing: %(whole)s."
        )
        % {
            "number": number,
            "by_hand": sep.join(_board(p, names) for p in by_hand),
            "engine": sep.join(_board(p, names) for p in engines),
            "whole": sep.join(_board(p, names) for p in engine),
        },
        consequences=gettext(
            "The round is published as paired by hand, not as the engine paired it. The TRF export records it as a "
            "manual pairing (MPA) with every difference, which a rating officer will read."
        ),
        trf=f"MPA @ Round {number}\n"
        f"by hand {' '.join(_trf_board(p, rank) for p in by_hand)}; engine {' '.join(_trf_board(p, rank) for p in engines)}",
        params={"round": number, "by_hand": by_hand, "engine": engines},
    )


def due_colour(colours: list[str]) -> str | None:
    """The colour due to a player with these colours so far (FIDE C.04.1, C.04.3 A6): the one they had less,
    after two alike the other, else the other of the last; none before their first game."""
    if not colours:
        return None
    other = {"w": "b", "b": "w"}
    difference = colours.count("w") - colours.count("b")
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return other[colours[-1]]
    if difference:
        return "b" if difference > 0 else "w"
    return other[colours[-1]]


def edit_warnings(rnd: Round, match_ids: list[int]) -> list[Warning]:
    """What FIDE mode warns of in these boards of the round, as they are now paired."""
    event, number = rnd.event, rnd.number
    met = met_before(event, number)
    banned = forbidden.pairs(event, number)
    history = colour_histories(event, number)
    found: list[Warning] = []
    boards = Match.objects.filter(pk__in=match_ids).select_related("player_a", "player_b").order_by("table", "id")
    for m in boards:
        a, b = m.player_a, m.player_b
        if b is None:
            if m.result == Match.Result.BYE and not bye_eligible(event, number, a):
                text = gettext(
                    "%(player)s is not eligible for the bye: they had a bye or a win without playing before."
                )
                found.append(
                    Warning(
                        Level.CONFIRM,
                        "bye_not_eligible",
                        text % {"player": a.name},
                        params={"player": a.key, "round": number},
                    )
                )
            continue
        facts = {"a": a.key, "b": b.key, "round": number}
        if frozenset((a.pk, b.pk)) in met:
            text = gettext("Rematch: %(a)s and %(b)s have played each other before.") % {"a": a.name, "b": b.name}
            found.append(Warning(Level.CONFIRM, "rematch", text, params=facts))
        if frozenset((a.key, b.key)) in banned:
            text = gettext("%(a)s and %(b)s are a forbidden pair: they must not be paired.") % {
                "a": a.name,
                "b": b.name,
            }
            found.append(Warning(Level.CONFIRM, "forbidden_pair", text, params=facts))
        white, black = m.colour_order()
        due = {white.pk: due_colour(history.get(white.pk, [])), black.pk: due_colour(history.get(black.pk, []))}
        if due[white.pk] == "b" and due[black.pk] == "w":
            text = gettext(
                "%(white)s and %(black)s both get the colour opposite to the one due to them (table %(table)s)."
            )
            found.append(
                Warning(
                    Level.ACKNOWLEDGE,
                    "both_against_due",
                    text % {"white": white.name, "black": black.name, "table": m.table},
                    params=facts,
                )
            )
    last = event.planned_rounds is not None and number >= event.planned_rounds
    if not last:  # in the last round the topscorers may be paired so (C.04.3 A7)
        for message in colour_breaks(event, number, match_ids):
            found.append(
                Warning(Level.CONFIRM, message.code, engine_text.translate(message), params=dict(message.params))
            )
    return found


def bye_eligible(event: Event, number: int, player: Player) -> bool:
    """May the player get the pairing-allocated bye (C.04.1 d): no bye, full-point bye or win without playing
    before this round."""
    before = Match.objects.filter(round__event=event, round__number__lt=number, player_a=player)
    return not before.filter(Q(result__in=UNPAIRED) | Q(result=Match.Result.FORFEIT)).exists()


def publish(rnd: Round, by) -> None:
    """`rounds.publish_round`, refused for a FIDE-mode draft still being edited by hand."""
    with transaction.atomic():
        lock_event(rnd.event)
        now = Round.objects.select_related("event").filter(pk=rnd.pk).first()
        if now is not None:
            publishable(now)
        publish_round(rnd, by)
