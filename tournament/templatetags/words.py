"""Filters that write figures and lists the way the page's language does (tournament/l10n.py)."""

from django import template
from django.utils.html import format_html

from tournament.text import l10n, results

register = template.Library()


@register.filter
def clock(seconds) -> str:
    """Seconds left on a round clock, as the clock shows them (49:05): the page before its script runs."""
    return l10n.clock(int(seconds))


@register.filter
def result_label(match) -> str:
    """A match's result as pages show it (`text.results.result_label`)."""
    return results.result_label(match)


@register.filter
def result_word(code: str) -> str:
    """A kind of result as the page's game says it: a Danish chess page's oversidder (`text.results.result_word`)."""
    return results.result_word(code)


@register.filter
def preset_label(code: str) -> str:
    """A preset's name as people read it (`l10n.preset_label`)."""
    return l10n.preset_label(code)


@register.simple_tag
def gap() -> str:
    """The space between two sentences, or after a label's colon (none in Japanese): `l10n.gap`."""
    return l10n.gap()


@register.simple_tag
def record_heading() -> str:
    """The record's heading with what it stands for: W-L-D, or in a chess event W-D-L (`l10n.record`)."""
    short, long = l10n.record_heading()
    return format_html('<abbr title="{}">{}</abbr>', long, short)


@register.filter
def points(value) -> str:
    """A player's points as the event writes them: 1.5 (Danish 1,5), a chess event's 1½ (`l10n.points`)."""
    return l10n.points(value)


@register.simple_tag
def chess_name(ident, name) -> str:
    """A name on a chess event's pairing list with what arbiters read beside it: the start number, the FIDE
    title and the rating ("12 FM Kåre Ødegaard 2150", `services.chess_idents`); the name alone without `ident`."""
    if not ident:
        return name
    number, title, rating = ident
    return format_html(
        '<span class="start-no">{}</span> {}{}{}',
        number,
        format_html('<abbr class="fide-title">{}</abbr> ', title) if title else "",
        name,
        format_html(' <span class="rating">{}</span>', rating) if rating else "",
    )
