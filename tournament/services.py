"""Workflows that span rows: standings of an event (cached per event version) and the change marker.

Every write that public pages can see calls `changed(event)`, which bumps `Event.version`; caches and
ETags are keyed on it, so a page view never recomputes standings for an unchanged event.
"""

from django.core.cache import cache

import standings
from tournament.eventio import event_to_file
from tournament.models import Event

CACHE_SECONDS = 6 * 3600


def changed(event: Event) -> None:
    event.touch()


def event_standings(event: Event):
    """The standings engine's result for the event's stored (published) results, cached per version."""
    key = f"standings:{event.pk}:{event.version}"
    result = cache.get(key)
    if result is None:
        result = standings.compute(event_to_file(event))
        cache.set(key, result, CACHE_SECONDS)
    return result
