"""How many Swiss rounds to play, and the top cut: enough rounds for one unbeaten player, the Magic Tournament
Rules' Appendix E, and the Play! Pokémon Tournament Rules Handbook's table by attendance (docs/engines.md)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

# Magic Tournament Rules (effective 10 November 2025), Appendix E "Recommended Number of Rounds in Swiss
# Tournaments": (most players, Swiss rounds, top cut) for 9 players or more; 5-8 players play 3 single-elimination
# rounds and no Swiss, 410 or more 10 rounds and a top 8. A player with a k-round bye counts as 2^k players on
# every row of the chart, the single-elimination row included.
_MTR = ((16, 5, 4), (32, 5, 8), (64, 6, 8), (128, 7, 8), (226, 8, 8), (409, 9, 8))
# Play! Pokémon's Swiss rounds and top cut by attendance (best-of-three matches) as this project has given the Play!
# Pokémon Tournament Rules Handbook's table: (most players, Swiss rounds, top cut); 410 or more play 10 rounds and
# a top 8. Not yet checked against the Handbook's current text: docs/engines.md says which rows were checked.
_POKEMON = ((8, 3, 0), (12, 4, 4), (20, 5, 4), (32, 5, 8), (64, 6, 8), (128, 7, 8), (226, 8, 8), (409, 9, 8))


def pokemon_structure(attendance: int) -> tuple[int, int]:
    """(Swiss rounds, top cut) for `attendance` players by Pokémon's table; a division of an age-modified Swiss
    is cut by its own attendance. Fewer than 4 players: enough rounds for one unbeaten player, no top cut."""
    if attendance < 4:
        return max(1, math.ceil(math.log2(max(attendance, 2)))), 0
    return next(((r, c) for most, r, c in _POKEMON if attendance <= most), (10, 8))


@dataclass(frozen=True)
class Recommendation:
    """The recommendation, the rule it follows (`rule`) and the figures a sentence about it needs.

    `rule`: "mtr" (Magic Tournament Rules Appendix E), "mtr_single_elimination" (8 players or fewer), "pokemon"
    (the Play! Pokémon Tournament Rules Handbook's table),
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
    counts as 2^k players (50 players with four 3-round byes count as 78 → 7 rounds), for Magic on every row
    of Appendix E, the single-elimination row of 8 players or fewer included."""
    byes = [b for b in byes_per_player if b]
    weighted = n_players + sum(2**b - 1 for b in byes)
    facts = {"players": n_players, "counted": weighted, "with_byes": len(byes)}
    counted = f"{n_players} players" + (
        f" ({len(byes)} with byes, which already count as wins: sized as {weighted} players)" if byes else ""
    )
    if n_players < 2:
        return Recommendation(0, 0, f"{counted}: nothing to pair yet.", rule="too_few", **facts)
    if preset == "mtg":
        if weighted <= 8:
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
    if preset == "pokemon" and n_players >= 4:
        rounds, cut = pokemon_structure(weighted)
        return Recommendation(
            rounds,
            cut,
            f"{counted}: the Play! Pokémon Tournament Rules Handbook recommends {rounds} Swiss rounds"
            + (f" and a top {cut}." if cut else " and no top cut."),
            rule="pokemon",
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
