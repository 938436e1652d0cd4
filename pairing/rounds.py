"""How many Swiss rounds to play (MTR Appendix E; docs/engines.md)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

# MTR Appendix E: (most players, Swiss rounds, top cut).
_MTR = ((16, 5, 4), (32, 5, 8), (64, 6, 8), (128, 7, 8), (226, 8, 8), (409, 9, 8))


@dataclass(frozen=True)
class Recommendation:
    """The recommendation, the rule it follows (`rule`) and the figures a sentence about it needs.

    `rule`: "mtr" (Magic Tournament Rules Appendix E), "mtr_single_elimination" (8 players or fewer),
    "unbeaten" (enough rounds for one undefeated player), "too_few". `explanation` is the English sentence
    the command line prints; the web app words the same facts in the reader's language.
    """

    rounds: int  # Swiss rounds; 0 for single elimination
    top_cut: int
    explanation: str
    single_elimination: bool = False
    rule: str = ""
    players: int = 0
    counted: int = 0  # players, each pre-awarded bye of k rounds weighing 2^k
    with_byes: int = 0  # players holding pre-awarded byes

    @property
    def reason(self) -> str:
        return self.explanation


def recommended_rounds(n_players: int, byes_per_player: Iterable[int] = (), preset: str = "mtg") -> Recommendation:
    """The recommended Swiss rounds and top cut for n players; a player with k pre-awarded byes
    counts as 2^k players (seed 003: 50 players with four 3-round byes count as 78 → 7 rounds)."""
    byes = [b for b in byes_per_player if b]
    weighted = n_players + sum(2**b - 1 for b in byes)
    facts = {"players": n_players, "counted": weighted, "with_byes": len(byes)}
    counted = f"{n_players} players" + (
        f" ({len(byes)} with byes, which already count as wins: sized as {weighted} players)" if byes else ""
    )
    if n_players < 2:
        return Recommendation(0, 0, f"{counted}: nothing to pair yet.", rule="too_few", **facts)
    if preset == "mtg":
        if n_players <= 8:
            size = 2 ** math.ceil(math.log2(n_players))
            return Recommendation(
                0,
                size,
                f"{counted}: the Magic Tournament Rules recommend single elimination for 8 players "
                f"or fewer ({math.ceil(math.log2(n_players))} rounds).",
                single_elimination=True,
                rule="mtr_single_elimination",
                **facts,
            )
        rounds, cut = next(((r, c) for most, r, c in _MTR if weighted <= most), (10, 8))
        draft = " (4 rounds and top 8 for a booster-draft playoff)" if weighted <= 16 else ""
        return Recommendation(
            rounds,
            cut,
            f"{counted}: the Magic Tournament Rules recommend {rounds} Swiss rounds and a top {cut}{draft}.",
            rule="mtr",
            **facts,
        )
    rounds = max(1, math.ceil(math.log2(weighted)))
    return Recommendation(
        rounds,
        0,
        f"{counted}: after {rounds} rounds at most one player has won every match.",
        rule="unbeaten",
        **facts,
    )
