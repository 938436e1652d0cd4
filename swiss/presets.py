"""Scoring, match format and tie-breaker defaults of each preset (docs/engines.md)."""

from dataclasses import dataclass
from fractions import Fraction

from swiss.tiebreakers import CODES

# The codes a preset or an event may name: every tie-breaker of the registry (swiss/tiebreakers.py).
TIEBREAKER_CODES = CODES


@dataclass(frozen=True)
class Preset:
    code: str
    label: str
    win: Fraction
    draw: Fraction
    loss: Fraction
    best_of: int
    floor: Fraction
    tiebreakers: tuple[str, ...]
    colours: bool = False
    # Whether a game can end in a draw: backgammon's cannot (someone bears off first).
    draws: bool = True


PRESETS = {
    p.code: p
    for p in (
        Preset("mtg", "Magic (MTR)", Fraction(3), Fraction(1), Fraction(0), 3, Fraction(33, 100), ("omw", "gw", "ogw")),
        Preset(
            "pokemon",
            "Pokémon (TPCi)",
            Fraction(3),
            Fraction(1),
            Fraction(0),
            3,
            Fraction(1, 4),
            ("omw", "oomw", "head_to_head"),
        ),
        Preset(
            "chess",
            "Chess (Swiss)",
            Fraction(1),
            Fraction(1, 2),
            Fraction(0),
            1,
            Fraction(0),
            # FIDE C.07 by default; buchholz_cut1, buchholz, sonneborn_berger and direct_encounter keep the
            # zero-term rule for events not run under FIDE rules.
            ("BH-C1", "BH", "SB", "DE"),
            colours=True,
        ),
        Preset(
            "backgammon",
            "Backgammon",
            Fraction(1),
            Fraction(0),
            Fraction(0),
            1,
            Fraction(0),
            ("buchholz_cuts",),
            draws=False,
        ),
        Preset("custom", "Custom", Fraction(3), Fraction(1), Fraction(0), 3, Fraction(33, 100), ("omw", "gw", "ogw")),
    )
}


def preset_fields(code: str) -> dict:
    """An event's fields as a preset gives them (a new event's, a new section's, a preset chosen again): its
    scoring and floor as exact text, games per match, tie-breakers and chess colours."""
    p = PRESETS[code]
    return {
        "preset": p.code,
        "win_points": str(p.win),
        "draw_points": str(p.draw),
        "loss_points": str(p.loss),
        "best_of": p.best_of,
        "floor": str(p.floor),
        "tiebreakers": list(p.tiebreakers),
        "colours": p.colours,
    }
