"""`{% player_name p %}`: a player's name, with their number when another player of the event has the same name.

It takes a Player, a standings row, a player's pk or key; the event comes from the player or from `event` in
the context. The event's names are read once per page render (one query).
"""

from django import template
from django.utils.html import format_html

from swiss.placement import birth_year as year_of
from tournament.models import Player
from tournament.text.names import Names, numbered
from tournament.text.results import UNPLAYED_LABELS

register = template.Library()


@register.simple_tag
def division(name: str) -> str:
    """A player's division beside their name, where divisions are paired together ("" for none)."""
    return format_html(' <span class="division-tag">{}</span>', name) if name else ""


@register.filter
def birth_year(birth_date: str) -> int | str:
    """The year a player was born, as the sections' birth-year rules read it ("" when unknown)."""
    return year_of(birth_date) or ""


def names_for(context, who) -> Names | None:
    event_id = who.event_id if isinstance(who, Player) else getattr(context.get("event"), "pk", None)
    if event_id is None:
        return None
    cache = _page_cache(context)
    if event_id not in cache:
        cache[event_id] = Names.of(event_id)
    return cache[event_id]


def _page_cache(context) -> dict:
    # The Context object lives for the whole page, includes and partials included; render_context does not.
    cache = getattr(context, "_player_names", None)
    if cache is None:
        cache = context._player_names = {}
    return cache


@register.simple_tag(takes_context=True)
def player_name(context, who, name=None) -> str:
    """The name to show for `who`; `name` overrides the name looked up (e.g. a row's own)."""
    if who is None or who == "":
        return ""
    names = names_for(context, who)
    if names is None:
        return name if name is not None else getattr(who, "name", str(who))
    return names.label(who, name)


@register.filter
def numbered_name(player) -> str:
    """The name with the player number, which tells two players of the same name apart (`names.numbered`)."""
    return numbered(player.name, player.number)


@register.filter
def requested_bye_list(player) -> list[tuple[int, str]]:
    """The byes a player asked for, as (round, what the bye is called: "½-point bye", "0-point bye"), by round."""
    byes = getattr(player, "requested_byes", None) or {}  # a page's frame is rendered with a stand-in player
    return [(int(r), UNPLAYED_LABELS[kind]) for r, kind in sorted(byes.items(), key=lambda i: int(i[0]))]
