"""Day-2 cuts (docs/sections.md): after round `Event.cut_after` only the players the rule keeps go on pairing.

The cut is made when the round after it is paired (`rounds._pair_into`, which pairing, re-pairing and the
background job all go through), under the event lock and in the pairing's transaction: the players below the
line get `Player.cut_after` (cut, not dropped) and the engines pair them no more (`pairing.event.eligible`).
Pairing that round again makes the cut again from scratch, so the marks always follow the results at the cut.
"""

from fractions import Fraction

from django.utils.translation import gettext, ngettext

import standings
from standings.cut import CutRule, Standing, made_day_2
from swiss.model import parse_fraction
from tournament.models import Event, Player
from tournament.services.locks import changed, log
from tournament.snapshot import event_to_file
from tournament.text import l10n, name_search


def rule_of(event: Event) -> CutRule | None:
    """The event's cut rule, or None when it cuts nobody."""
    if not event.cut_after or (not event.cut_points and not event.cut_top):
        return None
    points = parse_fraction(event.cut_points) if event.cut_points else None
    return CutRule(points=points, top=event.cut_top or None, ties=event.cut_ties or "points")


def apply_cut(event: Event, number: int, by) -> None:
    """Make the event's cut if round `number` is the first after it; the caller holds the event lock.

    Only players who take part at the cut are ranked for it: those who dropped take no place in it, and a
    player entering after it was not there to be cut."""
    rule = rule_of(event)
    if rule is None or number != event.cut_after + 1:
        return
    cleared = Player.objects.filter(event=event, cut_after__isnull=False).update(cut_after=None)
    doc = event_to_file(event)
    table = name_search.ties_by_name(standings.compute(doc, after_round=event.cut_after), doc.players, event.language)
    division = dict(event.players.values_list("key", "division"))
    joined = {p.id: p.joined_round for p in doc.players}
    order = [
        Standing(r.player_id, r.points, division.get(r.player_id, ""))
        for r in table.rows
        if not r.dropped and joined[r.player_id] <= event.cut_after
    ]
    made = made_day_2(order, rule)
    cut = [s.player_id for s in order if s.player_id not in made]
    Player.objects.filter(event=event, key__in=cut).update(cut_after=event.cut_after)
    log(event, "day2_cut", by, round=event.cut_after, made=len(made), cut=len(cut))
    if cleared or cut:
        changed(event)


def fewest_wins(event: Event, points: Fraction) -> tuple[int, int] | None:
    """The record (wins, losses) with the fewest wins that reaches `points` in the rounds up to the cut with
    no draws, by the event's scoring; None when no record does."""
    win, _draw, loss = event.scoring
    rounds = event.cut_after
    for wins in range(rounds + 1):
        if wins * win + (rounds - wins) * loss >= points:
            return wins, rounds - wins
    return None


def requirement_text(event: Event) -> str:
    """What makes Day 2, as players read it before the cut: "Day 2: at least 21 match points (a 7–2 record)",
    "Day 2: the top 64", or both with "or" when the larger of the two groups goes on; "" without a cut."""
    rule = rule_of(event)
    if rule is None:
        return ""
    parts = []
    if rule.points is not None:
        shown = l10n.points(rule.points)
        record = fewest_wins(event, rule.points)
        if record:
            parts.append(
                gettext("at least %(points)s match points (a %(wins)s–%(losses)s record)")
                % {"points": shown, "wins": record[0], "losses": record[1]}
            )
        else:
            parts.append(gettext("at least %(points)s match points") % {"points": shown})
    if rule.top is not None:
        parts.append(ngettext("the top %(count)s", "the top %(count)s", rule.top) % {"count": rule.top})
    if len(parts) == 2:
        return gettext("Day 2: %(points)s, or %(top)s, whichever is more players") % {
            "points": parts[0],
            "top": parts[1],
        }
    return gettext("Day 2: %(rule)s") % {"rule": parts[0]}


def cut_applied(event: Event) -> bool:
    """Whether the round after the cut is paired (the cut is made)."""
    return bool(event.cut_after) and event.rounds.filter(number=event.cut_after + 1).exists()


def line_of(result) -> tuple[int | None, str]:
    """Where standings listed with a cut (`services.standings`) draw its line, as the index of the first row
    below it, and the line's words; (None, "") for standings without one."""
    cut_after = getattr(result, "cut_after", 0)
    if not cut_after or result.day_2 >= len(result.rows):
        return None, ""
    return result.day_2, gettext("Cut after round %(round)s") % {"round": cut_after}


def line_in(result, rows) -> tuple[int | None, str]:
    """`line_of` for some of the standings' rows in their order (one division's, when divisions are ranked
    apart): the index of the first of `rows` below the cut's line, and the line's words."""
    line, text = line_of(result)
    if line is None:
        return None, ""
    made = {r.player_id for r in result.rows[:line]}
    below = next((k for k, r in enumerate(rows) if r.player_id not in made), None)
    return (below, text) if below is not None else (None, "")


def day_2_rows(result) -> tuple:
    """The rows above a Day-2 cut's line (every row without one): who a top cut after the Swiss seeds from."""
    return result.rows[: result.day_2] if getattr(result, "cut_after", 0) else result.rows


def cut_published(event: Event) -> bool:
    """Whether the round after the cut is published: the cut is made when that round is paired, as a draft the
    organiser may still re-pair, and is shown (standings, screens, phones) only from its publication, to
    everybody at once."""
    return bool(event.cut_after) and event.rounds.filter(number=event.cut_after + 1).exclude(state="draft").exists()


def cut_made(event: Event) -> bool:
    """Whether the event's cut is made and shown (the round after it is published): some player is below its
    line."""
    return (
        rule_of(event) is not None and cut_published(event) and event.players.filter(cut_after__isnull=False).exists()
    )


def player_text(event: Event, player: Player, made: bool, place: int | None, own: bool) -> str:
    """What a player's page says of the cut: before it (`made` False), what makes Day 2; after it, that the
    player made Day 2, or was cut after round N and their place (`place`, None when unknown). `own`: the player's
    own page ("You…"), else the public page about them. "" without a cut, and for a player who dropped."""
    if rule_of(event) is None:
        return ""
    if not made:  # a cut in a draft round is not shown yet: every phone still shows the rule until it is published
        return "" if player.dropped_after is not None else requirement_text(event)
    if player.cut_after is not None:
        values = {"round": player.cut_after, "place": place}
        if place is None:
            text = gettext("You were cut after round %(round)s.") if own else gettext("Cut after round %(round)s.")
        elif own:
            text = gettext("You were cut after round %(round)s, in place %(place)s.")
        else:
            text = gettext("Cut after round %(round)s, in place %(place)s.")
        return text % values
    if player.dropped_after is not None:
        return ""
    return gettext("You made Day 2.") if own else gettext("Made Day 2.")
