"""The pairing engines (docs/engines.md): pure Python, no Django.

Here: the shared types (types.py), the optimal min-cost engine (optimal.py), the FIDE Dutch system (dutch/),
the adapter from a swiss-event to their inputs (event.py), wide-weight matching (matching.py), the recommended
number of rounds (rounds.py) and the top cut (topcut.py); and pair(), which pairs a round by the engine its
input is for. Modules here may import each other, the standard library, rustworkx, networkx and the
pure event model and standings (swiss.*, standings.*); never Django, and nothing of the web app (tournament).
"""

from dataclasses import replace

from pairing import optimal
from pairing.dutch import DutchInput, pair_dutch
from pairing.event import (
    eligible,
    elimination_from_event,
    engine_input,
    entrants_from_event,
    from_event,
    left_out,
    next_round_number,
    requested_byes,
    top_cut_from_event,
)
from pairing.optimal import swap, validate_swap
from pairing.rounds import Recommendation, recommended_rounds
from pairing.topcut import bracket, bracket_order, final_placings, next_bracket_round, top_cut_pairings
from pairing.types import Entrant, Pair, Pairing, PairingError, PairingInput
from swiss.messages import Message, message_of


def pair(inp: PairingInput | DutchInput, *, seed: int | None = None) -> Pairing:
    """The round's pairing: by the FIDE Dutch system for a DutchInput, by the optimal engine for a PairingInput
    (pairing.from_event gives the one the event pairs by); seed, when given, replaces inp.seed. The input's
    notes (who is left out, and why) come first among the pairing's warnings, and with a refusal for too few
    players."""
    try:
        if isinstance(inp, DutchInput):
            result = pair_dutch(inp if seed is None else replace(inp, seed=seed))
        else:
            result = optimal.pair(inp, seed=seed)
    except PairingError as e:
        message = message_of(e)
        note = inp.notes[0] if inp.notes else None
        if note is not None and getattr(message, "code", "") == "too_few_players":
            raise PairingError(
                Message(
                    "too_few_players_left_out",
                    "at least two players are needed to pair round {round}; left out: {names}{more}",
                    **note.params,
                )
            ) from None
        raise
    return replace(result, warnings=(*inp.notes, *result.warnings)) if inp.notes else result


__all__ = [
    "DutchInput",
    "Entrant",
    "Pair",
    "Pairing",
    "PairingError",
    "PairingInput",
    "Recommendation",
    "bracket",
    "bracket_order",
    "eligible",
    "elimination_from_event",
    "engine_input",
    "entrants_from_event",
    "final_placings",
    "from_event",
    "left_out",
    "next_bracket_round",
    "next_round_number",
    "pair",
    "recommended_rounds",
    "requested_byes",
    "swap",
    "top_cut_from_event",
    "top_cut_pairings",
    "validate_swap",
]
