"""One table of tie-breakers (swiss/tiebreakers.py): every code in it has its method in the standings engine,
both the presets' own (standings/figures.py, standings/tied.py) and FIDE C.07's (standings/fide.py); every
preset names only codes in it; each value reads as its kind says."""

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from standings import compute, fide, figures, points_by_player, tied
from standings.format import format_value, to_text
from swiss import trf
from swiss.eventfile import loads
from swiss.presets import PRESETS
from swiss.tiebreakers import AMONG_TIED, CODES, FIDE_CODES, NUMBER, PERCENT, TIEBREAKERS, VECTOR

DATA = Path(__file__).parents[1] / "data"


def events():
    """A Magic event with game counts and byes (a Japanese organiser's worked example), and a rated chess event with colours, forfeits and
    requested byes (the FIDE paper's crosstable), each ranked by every tie-breaker there is."""
    mtg = loads((DATA / "seed002-hyogo.json").read_bytes())
    chess = trf.loads((DATA / "trf" / "held-exercises-2024.trf").read_bytes(), points_by_player)
    return [replace(e, settings=replace(e.settings, tiebreakers=CODES)) for e in (mtg, chess)]


def test_every_code_of_the_presets_own_has_one_method_in_the_engine():
    own = {c for c, t in TIEBREAKERS.items() if not t.fide and not t.among_tied}
    assert set(figures.METHODS) - {"points"} == own
    assert set(tied.METHODS) == set(AMONG_TIED)
    assert not set(figures.METHODS) & set(tied.METHODS)


def test_every_fide_code_is_computed_by_the_fide_engine():
    assert set(FIDE_CODES) == {c for c, t in TIEBREAKERS.items() if t.fide}
    chess = events()[1]
    tiebreaks = fide.Tiebreaks(chess, 5, [Fraction(0)] * len(chess.players))
    for code in FIDE_CODES:
        if code in AMONG_TIED:
            assert code in tied.METHODS
        else:
            assert len(tiebreaks.values(code)) == len(chess.players), code


def test_the_engine_does_not_know_a_code_the_table_lacks():
    with pytest.raises(KeyError):
        fide.Tiebreaks(events()[1], 5, [Fraction(0)] * 16).values("XX")
    assert set(figures.METHODS) | set(tied.METHODS) <= {*CODES, "points"}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_presets_codes_are_in_the_table(preset):
    codes = PRESETS[preset].tiebreakers
    assert codes and set(codes) <= set(TIEBREAKERS)


def test_each_entry_has_a_heading_a_name_and_a_kind():
    assert len({t.heading for t in TIEBREAKERS.values()}) == len(TIEBREAKERS)
    for code, t in TIEBREAKERS.items():
        assert t.code == code and t.heading and t.name and t.kind in (PERCENT, NUMBER, VECTOR)
        # FIDE's are headed by their codes, which chess organisers know in every language.
        assert (t.heading == code) is t.fide


@pytest.mark.parametrize("event", events(), ids=["mtg", "chess"])
def test_every_code_ranks_and_reads_as_its_kind(event):
    standings = compute(event)
    assert standings.tiebreakers == CODES
    for row in standings.rows:
        assert tuple(row.tiebreakers) == CODES
        for code, value in row.tiebreakers.items():
            kind = TIEBREAKERS[code].kind
            if kind == VECTOR:
                assert isinstance(value, tuple) and all(isinstance(v, Fraction) for v in value), code
            else:
                assert isinstance(value, Fraction), code
                assert (kind == PERCENT) == format_value(code, value).endswith("%")
            if kind == PERCENT:
                assert 0 <= value <= 1, code
    header = to_text(standings).splitlines()[1]
    assert all(t.heading in header for t in TIEBREAKERS.values())
