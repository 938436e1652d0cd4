"""`swiss pair FILE --why-not A,B` and `manage.py pair FILE --why-not A,B` (docs/explanations.md#why-not): the
answer as a sentence with the round that pairs them, or as JSON with the facts beside the code; TRF and
swiss-event files; ids the file lacks refused."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from pairing.tools.main import main

DATA = Path(__file__).parents[1] / "data"
TRF = DATA / "dutch" / "rtg29-14p-6r.trf"
HYOGO = DATA / "seed002-hyogo.json"


def swiss(*args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    status = main(["pair", *args], out, err)
    return status, out.getvalue(), err.getvalue()


def test_a_trf_as_json_and_as_text():
    status, out, _ = swiss(str(TRF), "--seed", "7", "--why-not", "6,10", "--format", "json")
    doc = json.loads(out)
    assert status == 0 and doc["code"] == "worse"
    assert (doc["a"], doc["b"], doc["rule"], doc["bracket"]) == ("6", "10", "C.7", "3")
    assert (doc["this_round"], doc["with_pair"]) == ("3.5, 3", "5.5, 3.5")
    assert {"table": 5, "a": "6", "b": "10"} in doc["pairings"] and len(doc["pairings"]) == 7
    assert doc["text"].startswith("pairing 6 with 10 makes the round worse by C.7")
    status, text, _ = swiss(str(TRF), "--seed", "7", "--why-not", "6,10")
    assert status == 0
    lines = text.splitlines()
    assert lines[0] == (
        "Pairing 6 with 10 makes the round worse by C.7, the scores of the downfloaters in the bracket of score 3 "
        "(3.5, 3 in this round, 5.5, 3.5 with the pair)."
    )
    assert lines[2] == "The round with the pair:" and "Test0006 Player0006 (6)  vs  Test0010 Player0010 (10)" in text
    status, text, _ = swiss(str(TRF), "--why-not", "3,5")
    assert text == "3 and 5 played each other in round 4.\n"


def test_a_swiss_event_file_through_manage_py():
    out = StringIO()
    call_command("pair", str(HYOGO), "--seed", "4", "--why-not", "A,B", "--format", "json", stdout=out)
    doc = json.loads(out.getvalue())
    assert (doc["code"], doc["round"], doc["this_round"], doc["with_pair"]) == ("met_before", None, 0, 1)
    assert doc["pairings"][0] == {"table": 1, "a": "A", "b": "B"}
    out = StringIO()
    call_command("pair", str(HYOGO), "--seed", "4", "--why-not", "B,H", stdout=out)
    assert out.getvalue() == "B (6) and H (0) are in different score groups, and no float was needed between them.\n"
    # The same answer as `swiss pair`.
    assert swiss(str(HYOGO), "--seed", "4", "--why-not", "B,H")[1] == out.getvalue()


def test_ids_the_file_lacks_are_refused():
    status, out, err = swiss(str(HYOGO), "--why-not", "A,Z")
    assert (status, out) == (2, "") and "no player Z" in err
    status, _, err = swiss(str(HYOGO), "--why-not", "A")
    assert status == 2 and "two different player ids" in err
    with pytest.raises(CommandError, match="two different player ids"):
        call_command("pair", str(HYOGO), "--why-not", "A,A", stdout=StringIO())


def test_a_file_with_sections_needs_the_section_named(tmp_path):
    doc = json.loads(HYOGO.read_text(encoding="utf-8"))
    del doc["format"], doc["version"]
    doc["name"] = "Magic"
    other = dict(doc, name="Side event")
    venue = tmp_path / "venue.json"
    venue.write_text(json.dumps({"format": "swiss-event", "version": 2, "name": "Regionals", "sections": [doc, other]}))
    status, _, err = swiss(str(venue), "--why-not", "B,H")
    assert status == 2 and "name one with --section" in err
    status, out, _ = swiss(str(venue), "--seed", "4", "--why-not", "B,H", "--section", "Magic")
    assert (
        status == 0 and out == "B (6) and H (0) are in different score groups, and no float was needed between them.\n"
    )
