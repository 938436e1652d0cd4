"""Explanations of a round's pairing for people (docs/explanations.md): why each player is paired as they are,
explain(inp, result), for either engine; and why two players are not paired together (why_not.py).

Every reason is derived after the fact from the engine's input and the pairing it gave, with the engine's own
primitives (the Dutch system's Round: scores, who may meet whom, colour preferences; the optimal engine's colour
costs), and says only what those facts show: a reason that could be false is left out. Here: the sentences
(texts.py), the groups a pairing shows (groups.py), and each engine's reasons (dutch.py, optimal.py). Pure
Python like the engines: never Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pairing.dutch import DutchInput
from pairing.explain.dutch import explain_dutch
from pairing.explain.groups import Group
from pairing.explain.optimal import explain_optimal
from pairing.explain.texts import asked_bye
from pairing.explain.why_not import why_not
from pairing.types import Pairing, PairingInput
from swiss.messages import Message


@dataclass(frozen=True)
class Explanation:
    """A round's reasons: by player id (every player of the pairing, the byes included, then those who asked for
    a bye in the round), and the organiser's log of the groups from the top."""

    players: dict[str, tuple[Message, ...]]
    groups: tuple[Group, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": {pid: [m.as_dict() for m in messages] for pid, messages in self.players.items()},
            "groups": [g.as_dict() for g in self.groups],
        }


def explain(
    inp: PairingInput | DutchInput,
    result: Pairing,
    *,
    names: Mapping[str, str] | None = None,
    asked: Mapping[str, str] | None = None,
) -> Explanation:
    """Why each player of `result` (the pairing pairing.pair gave for `inp`) is paired as they are. names: the
    players' names by id, for the sentences (the Dutch system's input has none: its sentences name ids without
    them); the facts always give ids. asked: the byes asked for the round by player id (half_bye, full_bye,
    zero_bye: pairing.event.requested_byes), whose players the pairing leaves out; each gets that reason. The
    engine's input does not say who asked (its left_out note names them), so the caller gives them. ValueError
    when the pairing's players are not the input's, a player who asked is paired, or a kind is unknown."""
    if isinstance(inp, DutchInput):
        reasons, groups = explain_dutch(inp, result, names or {})
    else:
        reasons, groups = explain_optimal(inp, result, names or {})
    players = {pid: tuple(m) for pid, m in reasons.items()}
    for pid, kind in (asked or {}).items():
        if pid in players:
            raise ValueError(f"{pid} asked for a bye in round {result.round} but the pairing pairs them")
        players[pid] = (asked_bye(kind),)
    return Explanation(players, tuple(groups))


def reason_json(m: Message) -> dict[str, Any]:
    """A reason as files print it: its code, its facts flat, and the English sentence."""
    facts = {k: v for k, v in m.params.items() if not isinstance(v, Message)}
    return {"code": m.code, **facts, "text": str(m)}


__all__ = ["Explanation", "Group", "explain", "reason_json", "why_not"]
