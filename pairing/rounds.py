"""How many Swiss rounds to play (SPEC §4, seed 003, MTR Appendix E)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

# MTR Appendix E: (most players, Swiss rounds, top cut).
_MTR = ((16, 5, 4), (32, 5, 8), (64, 6, 8), (128, 7, 8), (226, 8, 8), (409, 9, 8))


@dataclass(frozen=True)
class Recommendation:
    rounds: int  # Swiss rounds; 0 for single elimination
    top_cut: int
    explanation: str
    single_elimination: bool = False

    @property
    def reason(self) -> str:
        return self.explanation


def recommended_rounds(n_players: int, byes_per_player: Iterable[int] = (), preset: str = "mtg") -> Recommendation:
    """The recommended Swiss rounds and top cut for n players; a player with k pre-awarded byes
    counts as 2^k players (seed 003: 50 players with four 3-round byes count as 78 → 7 rounds)."""
    byes = [b for b in byes_per_player if b]
    weighted = n_players + sum(2**b - 1 for b in byes)
    counted = f"{n_players} players" + (
        f", counted as {weighted} because a player with a k-round bye counts as 2^k players" if byes else ""
    )
    if n_players < 2:
        return Recommendation(0, 0, f"{counted}: nothing to pair yet.")
    if preset == "mtg":
        if n_players <= 8:
            size = 2 ** math.ceil(math.log2(n_players))
            return Recommendation(
                0,
                size,
                f"{counted}: Magic Tournament Rules Appendix E recommends single elimination for 8 players "
                f"or fewer ({math.ceil(math.log2(n_players))} rounds).",
                single_elimination=True,
            )
        rounds, cut = next(((r, c) for most, r, c in _MTR if weighted <= most), (10, 8))
        draft = " (4 rounds and top 8 for a booster-draft playoff)" if weighted <= 16 else ""
        return Recommendation(
            rounds,
            cut,
            f"{counted}: Magic Tournament Rules Appendix E recommends {rounds} Swiss rounds and a top {cut}{draft}.",
        )
    rounds = max(1, math.ceil(math.log2(weighted)))
    return Recommendation(
        rounds,
        0,
        f"{counted}: {rounds} rounds leave at most one undefeated player (2^{rounds} = {2**rounds} ≥ {weighted}).",
    )
