"""`manage.py standings FILE --outlook N` and `swiss standings`: the outlook as JSON and text, and clear
refusals when the last round is not paired or is finished."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from pairing.tools.main import main
from standings.outlook import outlook
from swiss.eventfile import dumps
from tests.engines.outlook_events import random_event


def run(*args) -> str:
    out = StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def event_file(tmp_path):
    event = random_event(8, 3, "chess", seed=2)
    path = tmp_path / "event.json"
    path.write_text(dumps(event), encoding="utf-8")
    return event, path


def test_json_has_the_claims_of_every_player(event_file):
    event, path = event_file
    doc = json.loads(run(str(path), "--outlook", "4", "--format", "json"))
    assert doc["line"] == 4 and doc["by"] == "places" and doc["exact"] is True
    assert doc == outlook(event, places=4).as_dict()
    for p in doc["players"]:
        assert {"id", "win", "draw", "loss"} <= set(p)
        assert {p["win"], p["draw"], p["loss"]} <= {"in", "out", "depends"}
        for o, tables in p["tables"].items():
            assert p[o] == "depends" and tables


def test_points_line_and_no_draw(tmp_path):
    event = random_event(8, 3, "backgammon", seed=1)
    path = tmp_path / "bg.json"
    path.write_text(dumps(event), encoding="utf-8")
    doc = json.loads(run(str(path), "--outlook-points", "2", "--format", "json"))
    assert doc["line"] == 2 and doc["by"] == "points"
    assert all(p["draw"] is None for p in doc["players"])


def test_text_and_the_swiss_command_agree(event_file, capsys):
    _, path = event_file
    text = run(str(path), "--outlook", "4")
    out = StringIO()
    assert main(["standings", str(path), "--outlook", "4"], out=out) == 0
    assert out.getvalue() == text
    assert "top 4" in text and "Player 000 (p0): " in text


def test_refusals(tmp_path):
    event = random_event(4, 2, "chess", seed=1, settled=1.0)
    path = tmp_path / "done.json"
    path.write_text(dumps(event), encoding="utf-8")
    with pytest.raises(CommandError, match="round 2 is finished"):
        run(str(path), "--outlook", "2")
    err = StringIO()
    assert main(["standings", str(path), "--outlook", "2"], out=StringIO(), err=err) == 2
    assert "round 2 is finished" in err.getvalue()
    with pytest.raises(CommandError, match="--outlook must be 1 or more"):
        run(str(path), "--outlook", "0")
    with pytest.raises(CommandError, match="is not a number"):
        run(str(path), "--outlook-points", "lots")
