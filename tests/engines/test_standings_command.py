"""`manage.py standings FILE`: the examples' exact JSON, a readable table, clear refusals (no database)."""

import gc
import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.engines.test_standings import EXAMPLES, by_rank, expected_cases

ROOT = Path(__file__).resolve().parents[2]


def run(*args) -> str:
    out = StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(("name", "code"), expected_cases())
def test_json_output_equals_expected(name, code, tmp_path):
    path = EXAMPLES / f"{name}.json"
    if code:
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["tiebreakers"] = [code]
        path = tmp_path / f"{name}.{code}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
    expected = json.loads((EXAMPLES / f"{name}{'.' + code if code else ''}.expected.json").read_text())
    assert by_rank(json.loads(run(str(path), "--format", "json"))) == by_rank(expected)


def test_text_output_is_a_table():
    lines = run(str(EXAMPLES / "seed002-hyogo.json")).splitlines()
    assert lines[0] == "Standings after round 3"
    assert lines[1].split() == ["#", "Player", "Pts", "W-L-D", "OMW%", "GW%", "OGW%"]
    assert lines[2].split() == ["1", "Player", "A", "9", "3-0-0", "55.5556%", "75.0000%", "56.5476%"]
    assert [line.split()[2] for line in lines[2:]] == list("AEBGDFCH")
    assert len({len(line) for line in lines[1:]}) == 1  # aligned columns


def test_vectors_in_text(tmp_path):
    doc = json.loads((EXAMPLES / "seed004-drawboss.json").read_text(encoding="utf-8"))
    doc["tiebreakers"] = ["buchholz_cuts"]
    path = tmp_path / "cuts.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert " 8/7/5/3" in run(str(path), "--format", "text").splitlines()[2]


def test_after_round(tmp_path):
    out = json.loads(run(str(EXAMPLES / "seed002-hyogo.json"), "--format", "json", "--after-round", "1"))
    assert out["after_round"] == 1
    assert {r["id"]: r["points"] for r in out["standings"]}["A"] == "3"


def test_malformed_file_names_the_json_path(tmp_path):
    doc = json.loads((EXAMPLES / "seed002-hyogo.json").read_text(encoding="utf-8"))
    doc["rounds"][1]["matches"][2]["games"] = [3, 0, 0]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError) as e:
        run(str(path))
    assert e.value.returncode == 2
    assert str(e.value).startswith(f"{path}: rounds[1].matches[2].games: ")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{", "not valid JSON (line 1"),
        ('{"format": "swiss-event", "version": 1, "players": [{"id": "a"}]}', "players[0].name: missing"),
        ('{"format": "swiss-event", "version": 3}', "version: expected one of 1, 2"),
    ],
)
def test_refusals(tmp_path, content, expected):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError, match=re.escape(expected)) as e:
        run(str(path))
    assert e.value.returncode == 2


def test_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot read file") as e:
        run(str(tmp_path / "nope.json"))
    assert e.value.returncode == 2


def test_exit_code_and_one_line_message_without_traceback(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "swiss-event", "version": 1, "players": [{"id": 1, "name": ""}]}', encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "manage.py", "standings", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [f"CommandError: {path}: players[0].name: expected a non-empty string"]


def test_help():
    proc = subprocess.run(
        [sys.executable, "manage.py", "standings", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    assert "--format {json,text}" in proc.stdout


def test_garbage_collection_is_left_as_it_was():
    assert gc.isenabled()
    run(str(EXAMPLES / "seed002-hyogo.json"))
    assert gc.isenabled()
