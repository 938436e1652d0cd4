"""`python -m swiss pair | standings | check` (pairing/tools/): the checker finds each planted error at its round,
reports nothing on tournaments bbpPairings paired, exits 0, 1 or 2 as documented, and the tools run with Django
impossible to import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from pairing.tools.main import main
from standings import compute, points_by_player
from swiss import eventfile, trf
from swiss.trfheader import tiebreak_record

ROOT = Path(__file__).resolve().parents[2]
DUTCH = ROOT / "tests" / "data" / "dutch"
# A 32-player, 10-round tournament bbpPairings paired (its generator, -g), with a pairing-allocated bye, draws,
# forfeits and absences.
SAMPLE = DUTCH / "rtg05-32p-10r.trf"


def run(*args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    status = main(list(args), out, err)
    return status, out.getvalue(), err.getvalue()


def check(path: Path) -> tuple[int, dict]:
    status, out, _ = run("check", str(path), "--format", "json")
    return status, json.loads(out)


def wrong_rounds(doc: dict) -> list[int]:
    return [r["round"] for r in doc["rounds"] if not r["ok"]]


# ---------------------------------------------------------------- a TRF's round blocks, edited as an arbiter might


def _start(r: int) -> int:
    return 91 + 10 * (r - 1)


def block(line: str, r: int) -> tuple[int, str, str]:
    """(opponent's start rank or 0, colour, result) of round r on a player line."""
    s = _start(r)
    return int(line[s : s + 4].strip() or 0), line[s + 5], line[s + 7]


def set_block(line: str, r: int, opponent: int, colour: str, result: str) -> str:
    s = _start(r)
    text = f"{opponent:4d} {colour} {result}" if opponent else f"0000 {colour} {result}"
    return line[:s] + text + line[s + 8 :]


def player_lines(text: str) -> tuple[list[str], dict[int, int]]:
    """The file's lines, and the index of each start rank's player line."""
    lines = text.splitlines()
    return lines, {int(line[4:8]): k for k, line in enumerate(lines) if line.startswith("001")}


def boards(lines: list[str], where: dict[int, int], r: int) -> list[tuple[int, int, str]]:
    """Round r's games: (white, black, white's result)."""
    out = []
    for rank, k in where.items():
        opp, colour, result = block(lines[k], r)
        if opp and colour == "w" and result in "1=0":
            out.append((rank, opp, result))
    return sorted(out)


def write(tmp_path: Path, lines: list[str], name: str = "planted.trf") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="latin-1")
    return path


# ---------------------------------------------------------------- correct files


CLEAN = sorted(p for p in DUTCH.glob("*.trf") if int(p.stem.split("-")[1].rstrip("p")) <= 40)


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_a_tournament_bbppairings_paired_reports_nothing(path):
    status, doc = check(path)
    assert wrong_rounds(doc) == [] and status == 0
    assert len(doc["rounds"]) == int(path.stem.split("-")[2].rstrip("r"))
    # bbpPairings' generator names no tie-break list: the standings are not checked, and the report says so.
    assert doc["standings"]["ok"] and "no tie-break list" in doc["standings"]["note"]


def test_the_text_report_says_each_round_agrees():
    status, out, _ = run("check", str(SAMPLE))
    assert status == 0
    assert out.splitlines()[0] == "Round 1: as the rules pair it" and out.endswith("All agree.\n")


# ---------------------------------------------------------------- planted pairing errors, one at a time


@pytest.mark.parametrize("r", [2, 5, 10])
def test_two_boards_opponents_exchanged_are_reported_at_their_round(tmp_path, r):
    lines, where = player_lines(SAMPLE.read_text(encoding="latin-1"))
    games = boards(lines, where, r)
    # Two boards White won: exchanged, each result still adds up.
    (w1, b1, _), (w2, b2, _) = [g for g in games if g[2] == "1"][:2]
    lines[where[w1]] = set_block(lines[where[w1]], r, b2, "w", "1")
    lines[where[w2]] = set_block(lines[where[w2]], r, b1, "w", "1")
    lines[where[b1]] = set_block(lines[where[b1]], r, w2, "b", "0")
    lines[where[b2]] = set_block(lines[where[b2]], r, w1, "b", "0")
    status, doc = check(write(tmp_path, lines))
    assert status == 1 and wrong_rounds(doc)[0] == r
    found = doc["rounds"][r - 1]["differences"]
    assert {tuple(d["file"]) for d in found if d["file"]} == {(str(w1), str(b2)), (str(w2), str(b1))}
    assert {tuple(d["rules"]) for d in found if d["rules"]} == {(str(w1), str(b1)), (str(w2), str(b2))}


@pytest.mark.parametrize("r", [2, 6, 9])
def test_one_pairs_colours_flipped_are_reported_at_their_round(tmp_path, r):
    lines, where = player_lines(SAMPLE.read_text(encoding="latin-1"))
    white, black, result = boards(lines, where, r)[-1]
    lines[where[white]] = set_block(lines[where[white]], r, black, "b", result)
    other = {"1": "0", "0": "1", "=": "="}[result]
    lines[where[black]] = set_block(lines[where[black]], r, white, "w", other)
    status, doc = check(write(tmp_path, lines))
    assert status == 1 and wrong_rounds(doc)[0] == r
    assert doc["rounds"][r - 1]["differences"] == [
        {"what": "colours", "file": [str(black), str(white)], "rules": [str(white), str(black)]}
    ]


def test_the_bye_given_to_another_player_is_reported_at_its_round(tmp_path):
    lines, where = player_lines(SAMPLE.read_text(encoding="latin-1"))
    r, had = next((r, rank) for r in range(1, 11) for rank, k in where.items() if block(lines[k], r)[2] == "U")
    assert r > 1
    # Another player who won that round takes the bye; the bye's player takes the game (a win: no points move).
    winner, loser, colour = next(
        (rank, opp, c) for rank, k in where.items() for opp, c, res in [block(lines[k], r)] if opp and res == "1"
    )
    lines[where[had]] = set_block(lines[where[had]], r, loser, colour, "1")
    lines[where[loser]] = set_block(lines[where[loser]], r, had, "b" if colour == "w" else "w", "0")
    lines[where[winner]] = set_block(lines[where[winner]], r, 0, "-", "U")
    status, doc = check(write(tmp_path, lines))
    assert status == 1 and wrong_rounds(doc)[0] == r
    found = doc["rounds"][r - 1]["differences"]
    assert {"what": "bye", "file": [str(winner)], "rules": [str(had)]} in found
    assert any(d["what"] == "pair" and d["file"] and set(d["file"]) == {str(had), str(loser)} for d in found)


# ---------------------------------------------------------------- the standings against the tie-break list

LIST = ("BH-C1", "BH", "SB", "DE")


def ranked(text: str, tiebreakers: tuple[str, ...], written: str | None = None) -> list[str]:
    """The file with a 202 record (`written`, by default the list) and its rank column by `tiebreakers`."""
    event = trf.loads(text, points_by_player)
    settings = event.settings.__class__(**{**event.settings.__dict__, "tiebreakers": tiebreakers})
    rows = compute(event.__class__(settings, event.players, event.rounds)).rows
    place = {row.player_id: k for k, row in enumerate(rows, start=1)}
    lines, where = player_lines(text)
    for rank, k in where.items():
        lines[k] = lines[k][:85] + f"{place[str(rank)]:4d}" + lines[k][89:]
    return [lines[0], f"202 {written or ','.join(tiebreakers)}", *lines[1:]]


def test_standings_ranked_by_the_files_tie_break_list_agree(tmp_path):
    status, doc = check(write(tmp_path, ranked(SAMPLE.read_text(encoding="latin-1"), LIST, "BH/C1, BH, SB, DE")))
    assert status == 0 and doc["standings"]["ok"] and doc["standings"]["note"] is None
    assert doc["standings"]["tiebreakers"] == list(LIST)


def test_two_players_standings_exchanged_are_each_reported(tmp_path):
    lines = ranked(SAMPLE.read_text(encoding="latin-1"), LIST)
    where = {int(line[86:89]): k for k, line in enumerate(lines) if line.startswith("001")}
    a, b = where[3], where[9]
    lines[a], lines[b] = lines[a][:85] + "   9" + lines[a][89:], lines[b][:85] + "   3" + lines[b][89:]
    status, doc = check(write(tmp_path, lines))
    assert status == 1 and wrong_rounds(doc) == []
    misplaced = {(d["player"], d["file"]) for d in doc["standings"]["differences"]}
    assert misplaced == {(str(int(lines[a][4:8])), 9), (str(int(lines[b][4:8])), 3)}
    _, out, _ = run("check", str(tmp_path / "planted.trf"))
    assert "file rank 9, rules rank 3" in out and "0 rounds and 2 players in the standings differ." in out


def test_a_tie_break_list_reordered_is_reported(tmp_path):
    text = SAMPLE.read_text(encoding="latin-1")
    reordered = ("SB", "BH", "BH-C1", "DE")
    lines = ranked(text, LIST)
    lines[1] = f"202 {','.join(reordered)}"
    # The two orders rank this tournament differently (else the planted error would change nothing).
    assert ranked(text, reordered)[2:] != ranked(text, LIST)[2:]
    status, doc = check(write(tmp_path, lines))
    assert status == 1 and wrong_rounds(doc) == [] and doc["standings"]["differences"]
    assert doc["standings"]["tiebreakers"] == list(reordered)


def test_the_tie_break_record_reads_every_way_of_writing_a_modifier():
    assert tiebreak_record(["012 X", "202 BH/C1, bh:c2,SB DE"]) == ("BH-C1", "BH-C2", "SB", "DE")
    assert tiebreak_record(["212 PTS,BH-C1,BH"]) == ("BH-C1", "BH")
    assert tiebreak_record(["012 X"]) is None


# ---------------------------------------------------------------- exit statuses


def test_a_file_that_cannot_be_read_exits_2(tmp_path):
    status, out, err = run("check", str(tmp_path / "missing.trf"))
    assert (status, out) == (2, "") and "missing.trf: cannot read file" in err
    bad = tmp_path / "bad.trf"
    bad.write_text(
        "012 Bad\n001    1      A                                 1500                             0.0    1    7 w 1\n"
    )
    status, out, err = run("check", str(bad))
    assert status == 2 and "bad.trf: line 2:" in err


def test_a_tie_break_the_program_does_not_know_exits_2(tmp_path):
    lines = SAMPLE.read_text(encoding="latin-1").splitlines()
    status, _, err = run("check", str(write(tmp_path, [lines[0], "202 BH,XYZ", *lines[1:]])))
    assert status == 2 and "XYZ" in err


# ---------------------------------------------------------------- without Django

BLOCK_DJANGO = """
import runpy, sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ImportError("django is blocked in this test")
        return None
sys.meta_path.insert(0, Refuse())
sys.argv = ["swiss", *sys.argv[1:]]
runpy.run_module("swiss", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize(
    ("args", "status", "expected"),
    [
        (["pair", str(SAMPLE.with_name("baku01-13p-6r.trf")), "--seed", "1"], 0, "Round 7 of"),
        (["standings", str(SAMPLE)], 0, "Standings after round 10"),
        (["check", str(SAMPLE)], 0, "All agree."),
        (["check", "no-such-file.trf"], 2, ""),
        (["generate", "--players", "9", "--rounds", "4", "--seed", "2"], 0, "202 BH/C1,BH,SB,DE"),
    ],
)
def test_the_tools_run_with_django_impossible_to_import(args, status, expected):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_DJANGO, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert done.returncode == status, done.stderr
    assert expected in done.stdout
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- the random tournament generator

GENERATED = [
    ["--players", "30", "--rounds", "9", "--seed", "4"],
    ["--players", "41", "--rounds", "7", "--seed", "5", "--baku", "--half-byes", "4", "--zero-byes", "2"],
    ["--players", "25", "--rounds", "8", "--seed", "6", "--full-byes", "2", "--forfeits", "5", "--unusual", "2"],
    ["--players", "19", "--rounds", "6", "--seed", "7", "--absences", "3", "--tiebreaks", "SB,BH,WIN"],
    ["--players", "60", "--rounds", "5", "--seed", "8", "--rating-range", "1000-1200"],
]


@pytest.mark.parametrize("options", GENERATED, ids=lambda o: "-".join(o[1:6:2]))
def test_a_generated_tournament_checks_clean_and_the_same_seed_gives_the_same_file(tmp_path, options):
    status, text, err = run("generate", *options)
    assert status == 0, err
    assert run("generate", *options)[1] == text
    path = tmp_path / "generated.trf"
    assert run("generate", *options, "-o", str(path)) == (0, "", "")
    assert path.read_text(encoding="utf-8") == text
    status, doc = check(path)
    assert status == 0 and wrong_rounds(doc) == [] and doc["standings"]["ok"] and doc["standings"]["note"] is None
    event = trf.loads(text, points_by_player)
    assert len(event.players) == int(options[1]) and len(event.rounds) == int(options[3])


def test_the_generators_options_show_in_the_file():
    def cells(*options: str) -> str:
        text = run("generate", "--players", "40", "--rounds", "7", "--seed", "2", *options)[1]
        return "".join(line[91:] for line in text.splitlines() if line.startswith("001"))

    plain = cells()
    assert " H" not in plain and " +" not in plain and " F" not in plain
    assert " H" in cells("--half-byes", "10") and " F" in cells("--full-byes", "10")
    assert " Z" in cells("--zero-byes", "10") and " +" in cells("--forfeits", "10")
    assert "0000 - -" in cells("--absences", "5")
    # A double forfeit: both players of a pairing lost it ("-" against "-").
    lines, where = player_lines(run("generate", "--players", "40", "--rounds", "7", "--unusual", "20")[1])
    assert any(
        opp and result == "-" and block(lines[where[opp]], r)[2] == "-"
        for k in where.values()
        for r in range(1, 8)
        for opp, _, result in [block(lines[k], r)]
    )
    text = run("generate", "--players", "40", "--rounds", "7", "--baku", "--tiebreaks", "SB, BH")[1]
    assert "192 FIDE_DUTCH_2025_BAKU" in text and "202 SB,BH" in text
    ratings = [int(line[48:52]) for line in text.splitlines() if line.startswith("001")]
    assert min(ratings) >= 1400 and max(ratings) <= 2700 and ratings == sorted(ratings, reverse=True)
    assert (
        run("generate", "--players", "40", "--rounds", "7", "--seed", "3")[1]
        != run("generate", "--players", "40", "--rounds", "7", "--seed", "2")[1]
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--players", "1", "--rounds", "3"], "--players"),
        (["--players", "10", "--rounds", "0"], "--rounds"),
        (["--players", "10", "--rounds", "3", "--forfeits", "120"], "--forfeits"),
        (["--players", "10", "--rounds", "3", "--rating-range", "2000"], "--rating-range"),
        (["--players", "10", "--rounds", "3", "--tiebreaks", "BH,XYZ"], "XYZ"),
        (["--players", "4", "--rounds", "8"], "round"),
    ],
)
def test_the_generator_refuses_what_it_cannot_make_with_status_2(options, message):
    status, out, err = run("generate", *options)
    assert (status, out) == (2, "") and message in err


# ---------------------------------------------------------------- a swiss-event file


def test_a_swiss_event_file_has_its_rounds_checked_and_says_it_has_no_ranks(tmp_path):
    event = trf.loads(SAMPLE.read_text(encoding="latin-1"), points_by_player)
    path = tmp_path / "event.json"
    path.write_text(eventfile.dumps(event), encoding="utf-8")
    status, doc = check(path)
    assert status == 0 and len(doc["rounds"]) == 10 and wrong_rounds(doc) == []
    assert (
        doc["standings"]["tiebreakers"] == list(event.settings.tiebreakers) and "no ranks" in doc["standings"]["note"]
    )


def test_an_event_not_paired_by_the_dutch_system_is_refused_with_status_2():
    status, out, err = run("check", str(ROOT / "tests" / "data" / "seed002-hyogo.json"))
    assert (status, out) == (2, "") and "the checker knows the FIDE Dutch system" in err


def test_standings_of_a_trf_follow_its_202_record(tmp_path):
    lines = SAMPLE.read_text(encoding="latin-1").splitlines()
    path = write(tmp_path, [lines[0], "202 SB/C1, WIN", *lines[1:]])
    status, out, _ = run("standings", str(path), "--format", "json")
    assert status == 0 and list(json.loads(out)["standings"][0]["tiebreakers"]) == ["SB-C1", "WIN"]
    status, out, err = run("standings", str(write(tmp_path, [lines[0], "202 SB,XYZ", *lines[1:]], "bad.trf")))
    assert (status, out) == (2, "") and "XYZ" in err


@pytest.mark.parametrize("command", ["pair", "standings", "prizes", "check"])
@pytest.mark.parametrize("kind", ["missing", "directory", "binary", "empty", "blank lines", "not UTF-8"])
def test_a_file_that_is_not_an_event_exits_2_with_one_line(tmp_path, command, kind):
    path = tmp_path / "event.json"
    if kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(bytes(range(256)) * 20)
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "blank lines":
        path.write_bytes(b"\n\n  \n")
    elif kind == "not UTF-8":
        path.write_bytes(b'{"format": "swiss-event", "name": "\xff\xfe"}')
    status, out, err = run(command, str(path))
    assert (status, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith(f"swiss {command}: {path}: "), err
