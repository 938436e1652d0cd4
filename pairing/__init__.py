"""The pairing engine (SPEC §4): pure Python, no Django."""

from pairing.engine import Entrant, Pair, Pairing, PairingError, PairingInput, pair
from pairing.event import eligible, from_event, next_round_number

__all__ = [
    "Entrant",
    "Pair",
    "Pairing",
    "PairingError",
    "PairingInput",
    "eligible",
    "from_event",
    "next_round_number",
    "pair",
]
