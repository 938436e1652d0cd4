"""The organiser's norms page, on the screen and printed (docs/ratings.md, "Norms"): each player with a norm in
reach, each such norm's state, what they need from their remaining rounds and every condition; then the players
whose norms are out of reach, with the conditions that rule them out."""

from dataclasses import dataclass, field

from standings.norms import NOT_POSSIBLE, NormChance
from tournament.models import Event
from tournament.services.norms import asks_for_norms, event_norms
from tournament.text import l10n, norm_text


@dataclass
class ConditionLine:
    label: str
    figures: str
    state: str  # met, can, not: the CSS class
    state_text: str


@dataclass
class NormLine:
    title: str
    status: str
    status_text: str
    needs: str
    conditions: list[ConditionLine]


@dataclass
class PlayerNormRow:
    number: int
    name: str
    title: str
    federation: str
    rating: int | None
    points: str
    games: int
    norms: list[NormLine] = field(default_factory=list)


def _line(chance: NormChance) -> NormLine:
    return NormLine(
        chance.title,
        chance.status.replace(" ", "-"),
        str(norm_text.STATUS[chance.status]),
        norm_text.needs(chance),
        [
            ConditionLine(
                str(norm_text.CONDITIONS[c.code]),
                norm_text.figures(c),
                norm_text.state_of(c),
                str(norm_text.STATES[norm_text.state_of(c)]),
            )
            for c in chance.conditions
        ],
    )


def norm_context(event: Event) -> dict:
    """`asks`: whether the event asks for norms; `in_reach`: the players with a norm made or possible, each such
    norm in full; `out_of_reach`: the others, each norm with the conditions it cannot meet."""
    if not asks_for_norms(event):
        return {"asks": False, "in_reach": [], "out_of_reach": []}
    found = event_norms(event)
    in_reach: list[PlayerNormRow] = []
    out_of_reach: list[PlayerNormRow] = []
    for p in event.players.order_by("number"):
        chances = found.get(p.key)
        if chances is None or not chances.norms:
            continue
        row = PlayerNormRow(
            p.number, p.name, p.title, p.federation, p.rating, l10n.points(chances.points), chances.games
        )
        open_ = [c for c in chances.norms if c.status != NOT_POSSIBLE]
        if open_:
            row.norms = [_line(c) for c in open_]
            in_reach.append(row)
        else:
            row.norms = [_line(c) for c in chances.norms]
            for line in row.norms:
                line.conditions = [c for c in line.conditions if c.state == "not"]
            out_of_reach.append(row)
    return {"asks": True, "in_reach": in_reach, "out_of_reach": out_of_reach}
