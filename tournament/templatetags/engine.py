"""`{{ message|engine_text }}`: an engine's message (a warning, a refusal, the recommendation's reason) in
the page's language (tournament/text/engine_text.py)."""

from django import template

from tournament.text import engine_text as text

register = template.Library()


@register.filter
def engine_text(message) -> str:
    return text.translate(message) if message else ""
