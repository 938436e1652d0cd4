"""The FIDE (Dutch) system (Handbook C.04.3) as a pairing system: pair_dutch(DutchInput) -> Pairing.

Here: the players and the facts the rules ask of them (players.py), the colour rules (colours.py), the
bracket-by-bracket series of matchings (brackets.py) with the round's first matching (start.py), the
stand-ins for the players outside the bracket (tiers.py), and S1's opponents by prices (assign.py; with one
floater, floater.py). Modules here may import each other, pairing.types, pairing.matching, standings.messages,
the standard library and rustworkx; never the optimal engine, the event adapter (pairing.event), or Django.
"""

from pairing.dutch.brackets import pair_dutch
from pairing.dutch.colours import BLACK, WHITE
from pairing.dutch.players import DutchInput, DutchPlayer, Game

__all__ = ["BLACK", "WHITE", "DutchInput", "DutchPlayer", "Game", "pair_dutch"]
