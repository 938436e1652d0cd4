"""Filters that write figures and lists the way the page's language does (tournament/l10n.py)."""

from django import template

from tournament.text import l10n

register = template.Library()


@register.filter
def clock(seconds) -> str:
    """Seconds left on a round clock, as the clock shows them (49:05): the page before its script runs."""
    return l10n.clock(int(seconds))


@register.filter
def join_list(items) -> str:
    """Items joined with the language's separator: "a, b" in English and Danish, 「a、b」 in Japanese."""
    return l10n.join(items)


@register.simple_tag
def gap() -> str:
    """The space between two sentences, or after a label's colon (none in Japanese): `l10n.gap`."""
    return l10n.gap()
