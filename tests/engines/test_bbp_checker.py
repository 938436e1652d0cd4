"""bbpPairings' own checker (`bbpPairings --dutch FILE -c`, a FIDE-endorsed Dutch engine) accepts the tournaments
`swiss generate` writes: every round as its rules pair it, with byes, withdrawals, forfeits, double forfeits and
the Baku acceleration. Skipped only where the binary is absent (BBPPAIRINGS=PATH, or bbpPairings.exe /
bbpPairings on PATH; docs/tools.md says how to build it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

import pairing
from pairing.tools.generate import Options, generate
from standings import points_by_player
from swiss import trf
from swiss.model import Event, Player, settings_for_preset
from tests.engines.test_trf_complete import export

BBP = os.environ.get("BBPPAIRINGS") or shutil.which("bbpPairings.exe") or shutil.which("bbpPairings")
pytestmark = pytest.mark.skipif(BBP is None, reason="no bbpPairings binary (BBPPAIRINGS=PATH or on PATH)")

GENERATED = [
    Options(players=12, rounds=5, seed=3, half_byes=5, forfeits=5, unusual=3, absences=3),
    Options(players=31, rounds=9, seed=7, zero_byes=2, full_byes=1, forfeits=3, absences=2),
    Options(players=40, rounds=7, seed=11, baku=True, half_byes=3, unusual=1, tiebreaks=("SB", "BH", "WIN")),
    Options(players=90, rounds=11, seed=2, half_byes=1, forfeits=2, rating_low=1000, rating_high=2000),
]


def bbp_check(path: Path) -> str:
    done = subprocess.run([BBP, "--dutch", str(path), "-c"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize("options", GENERATED, ids=lambda o: f"{o.players}p-{o.rounds}r-seed{o.seed}")
def test_bbppairings_checker_accepts_our_generated_tournament(tmp_path, options):
    path = tmp_path / "generated.trf"
    path.write_text(generate(options), encoding="utf-8")
    report = bbp_check(path)
    # One "Round #N" line a round, and no "Checker pairings" table (its list of what it would pair otherwise).
    assert report.count("Round #") == options.rounds
    assert "Checker pairings" not in report


def test_bbppairings_checker_reports_the_same_file_with_one_game_turned_round(tmp_path):
    """The check above can fail: one game's colours exchanged on both players' lines, and bbpPairings lists it."""
    lines = generate(GENERATED[0]).split("\n")
    first = next(k for k, line in enumerate(lines) if line.startswith("001    1 "))
    opponent, colour = int(lines[first][91:95]), lines[first][96]
    other = next(k for k, line in enumerate(lines) if line.startswith(f"001 {opponent:>4} "))
    flip = {"w": "b", "b": "w"}
    for k in (first, other):
        lines[k] = lines[k][:96] + flip[lines[k][96]] + lines[k][97:]
    assert colour in flip
    path = tmp_path / "turned.trf"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert "Checker pairings" in bbp_check(path)


def test_bbppairings_reads_the_trf_2026_records_an_event_made_here_writes(tmp_path):
    """250 accelerations (a range of start ranks a line), 152 beside XXC and 192 FIDE_DUTCH_2025: bbpPairings'
    pairing mode reads them all and pairs round 1 as this app does."""
    given = {"1": (1, 1, Fraction(1, 2)), "2": (1, 1, Fraction(1, 2)), "3": (1, 1, Fraction(1, 2)), "5": (0, 1)}
    players = tuple(
        Player(id=str(k), name=f"P{k}", rating=2000 - k, accelerations=given.get(str(k), ())) for k in range(1, 9)
    )
    event = Event(settings_for_preset("chess", name="Made here", planned_rounds=5, initial_colour="black"), players)
    text = export(event)
    assert {line[:3] for line in text.splitlines()} >= {"250", "152", "192"}
    path = tmp_path / "made.trf"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([BBP, "--dutch", str(path), "-p"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    theirs = {tuple(line.split()) for line in done.stdout.splitlines()[1:]}
    ours = pairing.pair(pairing.from_event(trf.loads(text, points_by_player)))
    assert theirs == {(p.a, p.b) for p in ours.pairs} and len(theirs) == 4
