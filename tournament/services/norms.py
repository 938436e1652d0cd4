"""FIDE title norms for a chess event that asks for them (`Event.title_norms`; standings/norms.py, docs/ratings.md):
every player's chances, worked out from the snapshot (a constant number of queries, never one per player) and
cached, for the organiser's norms page and the players' own and public pages."""

from dataclasses import replace

from django.core.cache import cache

from standings.norms import PlayerNorms, norms
from swiss.model import PLAYED
from tournament.models import Event, Round
from tournament.services.standings import CACHE_SECONDS, settled_marker
from tournament.snapshot import event_to_file


def asks_for_norms(event: Event) -> bool:
    return event.preset == "chess" and event.title_norms


def event_norms(event: Event) -> dict[str, PlayerNorms]:
    """Every player's norm chances as the event stands now (results as they come in), by player key; empty for an
    event that does not ask for norms. Worked out once per event version."""
    if not asks_for_norms(event):
        return {}
    key = f"norms:{event.pk}:{event.created_at.timestamp()}:{event.version}"
    found = cache.get(key)
    if found is None:
        found = {p.player_id: p for p in norms(event_to_file(event))}
        cache.set(key, found, CACHE_SECONDS)
    return found


def round_norms(event: Event, rnd: Round | None) -> dict[str, PlayerNorms]:
    """Every player's norm chances as the round `rnd` (the latest published) began: the rounds before it with
    their results, its pairings without theirs. A player's page says what is needed from this round on, and says
    it the same way while the round's results come in; worked out once per round, its pairing, and the rounds
    finished before it (`settled_marker`), not again for every result stored."""
    if not asks_for_norms(event) or rnd is None:
        return {}
    after = rnd.number if rnd.state == Round.State.COMPLETE else rnd.number - 1
    created = event.created_at.timestamp()
    marker = settled_marker(event, after)
    key = f"round-norms:{event.pk}:{created}:{rnd.pk}:{rnd.state}:{rnd.outlook_revision}:{after}:{marker}"
    found = cache.get(key)
    if found is None:
        doc = event_to_file(event)
        # The games of the rounds after `after` count as paired, their results not known yet.
        rounds = tuple(
            r
            if r.number <= after
            else replace(r, matches=tuple(replace(m, result=PLAYED, games=None) if m.b else m for m in r.matches))
            for r in doc.rounds
        )
        found = {p.player_id: p for p in norms(replace(doc, rounds=rounds))}
        cache.set(key, found, CACHE_SECONDS)
    return found
