"""`{{ message|engine_text }}`: an engine's message (a warning, a refusal, the recommendation's reason) in
the page's language (tournament/text/engine_text.py)."""

from django import template

from tournament.text import engine_text as text

register = template.Library()


@register.filter
def engine_text(message) -> str:
    return text.translate(message) if message else ""


@register.filter
def round_warnings(rnd) -> list[str]:
    """A round's pairing warnings in the page's language (`engine_text.round_warnings`)."""
    return text.round_warnings(rnd.warnings)


@register.filter
def round_notes(rnd) -> list[str]:
    """A round's pairing notes (who was left out) in the page's language (`engine_text.round_notes`)."""
    return text.round_notes(rnd.warnings)
