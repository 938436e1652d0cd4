"""A round's groups as the pairing shows them, from the top (docs/explanations.md): the group of score s holds its
residents (the players on s) and every higher player still unpaired when s is reached (those whose opponent has
a score of s or less, and the bye); its pairs are those whose lower player is on s, and whoever it leaves
unpaired goes on down. Both engines' explanations build on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from swiss.messages import Message


@dataclass(frozen=True)
class Group:
    """One group of the organiser's log: ids as the input gives them, pairs as (higher, lower) in the group's
    order, the notes naming the rule(s) that decided."""

    score: str
    residents: tuple[str, ...]
    moved_down: tuple[str, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()
    floated: tuple[str, ...] = ()  # left unpaired here: they go on down
    bye: str | None = None
    notes: tuple[Message, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "residents": list(self.residents),
            "moved_down": list(self.moved_down),
            "pairs": [list(p) for p in self.pairs],
            "floated": list(self.floated),
            "bye": self.bye,
            "notes": [n.as_dict() for n in self.notes],
        }


@dataclass
class Bracket:
    """A group while the explanation is worked out: its score (as the engine compares it), its members in order
    (moved-down players first), the pairs made in it and who it leaves unpaired."""

    score: Any
    moved_down: list[str]
    residents: list[str]
    pairs: list[tuple[str, str]] = field(default_factory=list)
    floated: list[str] = field(default_factory=list)
    bye: str | None = None

    @property
    def members(self) -> list[str]:
        return self.moved_down + self.residents

    def shown(self, score: str, notes: Sequence[Message]) -> Group:
        """The group as the log shows it: its score as text, and the notes naming the rule(s) that decided."""
        return Group(
            score=score,
            residents=tuple(self.residents),
            moved_down=tuple(self.moved_down),
            pairs=tuple(self.pairs),
            floated=tuple(self.floated),
            bye=self.bye,
            notes=tuple(notes),
        )


def brackets(
    order: Sequence[str], score: Mapping[str, Any], mate: Mapping[str, str | None]
) -> tuple[list[Bracket], dict[str, int]]:
    """The groups from the top, and the index of each player's own group (the one of their score).

    order: the players paired this round (the bye included), by score, highest first; score: comparable scores;
    mate: each player's opponent (None for the bye)."""
    out: list[Bracket] = []
    own: dict[str, int] = {}
    carry: list[str] = []
    k = 0
    n = len(order)
    pos = {pid: i for i, pid in enumerate(order)}
    while k < n:
        s = score[order[k]]
        residents = []
        while k < n and score[order[k]] == s:
            residents.append(order[k])
            k += 1
        b = Bracket(s, carry, residents)
        carry = []
        for pid in residents:
            own[pid] = len(out)
        for pid in b.members:
            m = mate[pid]
            if m is None:
                if k == n:
                    b.bye = pid
                else:
                    b.floated.append(pid)
                    carry.append(pid)
                continue
            ms = score[m]
            if ms < s:
                b.floated.append(pid)
                carry.append(pid)
            elif ms == s and (score[pid] != s or pos[pid] < pos[m]):
                b.pairs.append((pid, m))
        out.append(b)
    return out, own
