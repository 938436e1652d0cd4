"""The rating changes a chess event's pages show (standings/rating.py, docs/ratings.md): every rated player's
FIDE rating change after a round, worked out once per what the standings after that round are made of."""

from django.core.cache import cache

from standings.rating import RatingChange, format_change, has_ratings, rating_changes
from tournament.models import Event
from tournament.services.standings import CACHE_SECONDS, settled_marker
from tournament.snapshot import event_to_file


def event_ratings(event: Event, after_round: int, rated: bool | None = None) -> dict[str, RatingChange]:
    """Each rated player's change from the Swiss rounds up to `after_round`, by player key; empty for an event
    that is not chess or has no ratings (`rated`: whether a player has a rating, when the caller knows)."""
    if event.preset != "chess" or after_round < 1:
        return {}
    if rated is None:
        rated = event.players.exclude(rating=None).exclude(rating=0).exists()
    if not rated:
        return {}
    created = event.created_at.timestamp()
    key = f"ratings:{event.pk}:{created}:after{after_round}:{settled_marker(event, after_round)}"
    found = cache.get(key)
    if found is None:
        doc = event_to_file(event)
        found = rating_changes(doc, after_round) if has_ratings(doc) else {}
        cache.set(key, found, CACHE_SECONDS)
    return found


def round_changes(change: RatingChange | None) -> dict[int, str]:
    """A player's change in each round with a rated game, as a page shows it ("+4.6")."""
    if change is None:
        return {}
    return {number: format_change(value) for number, value in change.by_round().items()}
