"""The pairing engine (SPEC §4): pure Python, no Django."""

from pairing.optimal import Entrant, Pair, Pairing, PairingError, PairingInput, pair, swap, validate_swap
from pairing.event import (
    eligible,
    elimination_from_event,
    from_event,
    next_round_number,
    requested_byes,
    top_cut_from_event,
)
from pairing.rounds import Recommendation, recommended_rounds
from pairing.topcut import bracket, bracket_order, final_placings, next_bracket_round, top_cut_pairings

__all__ = [
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
    "final_placings",
    "from_event",
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
