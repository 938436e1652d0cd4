"""The FIDE (Dutch) system (Handbook C.04.3) as a pairing system: pair_dutch(DutchInput) -> Pairing.

Here, each module importing only those listed before it: the colour rules (colours.py), the players and the
facts the rules ask of them (players.py), S1's opponents by prices (assign.py), the round's weighted graph and
where its pairing stands (brackets.py: Brackets, the state every stage below receives), the matchings with
stand-ins for the players outside the bracket (tiers.py), the round's first matching (start.py), S1's
opponents with one floater (floater.py), a bracket's remainder (remainder.py), and the brackets paired from
the top (system.py, whose docstring tells how). Modules here may also import pairing.types, pairing.matching,
swiss.messages, the standard library and rustworkx; never the optimal engine, the event adapter
(pairing.event), or Django.
"""

from pairing.dutch.colours import BLACK, WHITE
from pairing.dutch.players import DutchInput, DutchPlayer, Game
from pairing.dutch.system import pair_dutch

__all__ = ["BLACK", "WHITE", "DutchInput", "DutchPlayer", "Game", "pair_dutch"]
