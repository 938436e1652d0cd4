"""What the organiser's top-cut page shows: the seeds, the bracket's stages as played (`SeededMatch`), and the first
stage as it would be paired now, to check before starting (views/top_cut.py answers the request)."""

from dataclasses import dataclass

from django.db.models import F

from pairing import topcut
from tournament.models import Event, Match, Round
from tournament.services.top_cut import brackets_of, cut_sizes, division_seeds, stage_name


def seeds_of(event: Event) -> dict[str, int]:
    """Each player's seed, by key: their place in the final Swiss standings without dropped players (as
    `start_top_cut`), in their division when divisions are cut apart."""
    return {key: k for _, seeds in division_seeds(event) for k, key in enumerate(seeds, 1)}


@dataclass(frozen=True)
class SeededMatch:
    """A match of the bracket with its players' seeds (templates/organiser/top_cut.html)."""

    match: Match
    seed_a: int | None
    seed_b: int | None


def stages(event: Event, rounds: list[Round], seed: dict[str, int]) -> list[dict]:
    """The bracket's stages as played so far: each round, its title (Semifinals, Final) and its matches seeded."""
    stages = []
    for rnd in rounds:
        matches = list(rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True)))
        title = stage_name(max((len(b) for b in brackets_of(matches)), default=0))
        seeded = [SeededMatch(m, seed.get(m.player_a.key), seed.get(m.player_b.key)) for m in matches]
        stages.append({"round": rnd, "title": title, "matches": seeded})
    return stages


def preview(event: Event) -> list[tuple[str, list[tuple[dict, dict]], int]]:
    """The first stage as it would be paired now, one bracket per division (or one): (division, [(seed, player)
    pairs], size), for the organiser to check before starting. A division too small for a cut has no bracket."""
    n = event.top_cut
    if n < 2 or n & (n - 1):
        return []
    divisions = cut_sizes(event)
    if any(len(keys) < size for _, keys, size in divisions) or not any(size for _, _, size in divisions):
        return []
    by_key = {p.key: p for p in event.players.filter(dropped_after__isnull=True)}
    preview = []
    for name, keys, size in divisions:
        seeded = [{"seed": k, "player": by_key[key]} for k, key in enumerate(keys[:size], 1) if key in by_key]
        if len(seeded) != size:
            return []
        preview.append((name, topcut.bracket(seeded) if size else [], size))
    return preview
