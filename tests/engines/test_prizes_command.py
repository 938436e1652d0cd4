"""`manage.py prizes FILE` and `swiss prizes FILE`: the prize list a swiss-event file carries, split over its
final standings; the file's prize keys read strictly and written back unchanged (versions 1 and 2)."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from pairing.tools.main import main
from swiss import eventfile as ef
from swiss import venuefile
from swiss.strictjson import EventFileError

DATA = Path(__file__).resolve().parents[1] / "data"

# seed002-hyogo's final standings: A 9; E, B, G 6; D, F, C 3; H 0.
PRIZES = {
    "prizes": [
        {"name": "1st", "amount": "100"},
        {"name": "2nd", "amount": "60"},
        {"name": "3rd", "amount": "40"},
        {"name": "Best of the list", "amount": "25.50", "category": {"players": ["C", "H"]}},
        {"name": "Best woman", "amount": "20", "category": {"women": True}},
        {"name": "3-0", "items": 3, "unit": "packs", "category": {"record": "3-0"}},
    ],
    "prize_rules": {"ties": "shared", "one_per_player": True, "priority": "value", "currency": "EUR"},
}


def event_file(tmp_path, extra=PRIZES) -> Path:
    doc = json.loads((DATA / "seed002-hyogo.json").read_text(encoding="utf-8"))
    doc.update(extra)
    path = tmp_path / "event.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def run(*args) -> str:
    out = StringIO()
    call_command("prizes", *args, stdout=out)
    return out.getvalue()


EXPECTED = {
    "awards": [
        {"prize": "1st", "players": ["A"], "amount_each": "100.00"},
        # E, B and G level on 6 pool 2nd and 3rd, 100, among three: 33.33 each, a cent left over.
        {
            "prize": "2nd + 3rd",
            "players": ["E", "B", "G"],
            "prizes": ["2nd", "3rd"],
            "places": [2, 4],
            "amount_each": "33.33",
            "remainder": "0.01",
        },
        {"prize": "Best of the list", "players": ["C"], "amount_each": "25.50"},
        {"prize": "3-0", "players": ["A"], "items_each": 3, "unit": "packs"},
    ],
    "unawarded": ["Best woman"],
    "currency": "EUR",
}


def test_json_output(tmp_path):
    assert json.loads(run(str(event_file(tmp_path)), "--format", "json")) == EXPECTED


def test_swiss_prizes_prints_the_same(tmp_path):
    path = str(event_file(tmp_path))
    out, err = StringIO(), StringIO()
    assert main(["prizes", path, "--format", "json"], out, err) == 0
    assert out.getvalue() == run(path, "--format", "json")


def test_text_output(tmp_path):
    text = run(str(event_file(tmp_path)))
    assert "2nd + 3rd  (shared, places 2-4)" in text
    assert "  Player E: EUR 33.33" in text
    assert "remainder not paid: EUR 0.01" in text
    assert "Not awarded: Best woman" in text


def test_a_malformed_prize_is_refused_by_place(tmp_path):
    path = event_file(tmp_path, {"prizes": [{"name": "1st", "amount": 100}]})
    with pytest.raises(CommandError, match=r"prizes\[0\]\.amount"):
        run(str(path), "--format", "json")


@pytest.mark.parametrize(
    ("extra", "place"),
    [
        ({"prizes": [{"name": "1st", "amount": "1.005"}]}, "prizes[0].amount"),
        ({"prizes": [{"name": "1st", "amount": "-1"}]}, "prizes[0].amount"),
        ({"prizes": [{"name": "1st", "amount": "1", "items": 2}]}, "prizes[0]"),
        ({"prizes": [{"amount": "1"}]}, "prizes[0].name"),
        ({"prizes": [{"name": "x", "amount": "1", "category": {}}]}, "prizes[0].category"),
        ({"prizes": [{"name": "x", "amount": "1", "category": {"born_after": "2008-13-01"}}]}, "born_after"),
        ({"prizes": [{"name": "x", "items": 3, "category": {"record": "four-one"}}]}, "record"),
        ({"prize_rules": {"ties": "split"}}, "prize_rules.ties"),
        ({"prize_rules": {"one_per_player": "yes"}}, "prize_rules.one_per_player"),
        ({"prize_rules": {"priority": "age"}}, "prize_rules.priority"),
    ],
)
def test_strict_reading(extra, place):
    doc = {"format": "swiss-event", "version": 1, **extra}
    with pytest.raises(EventFileError) as e:
        ef.parse(doc)
    assert place in str(e.value)


def test_round_trip_version_1(tmp_path):
    event = ef.loads(event_file(tmp_path).read_bytes())
    assert len(event.settings.prizes) == 6 and event.settings.prize_rules.currency == "EUR"
    written = ef.dump(event)
    assert written["prizes"][0] == {"name": "1st", "amount": "100.00"}
    assert written["prizes"][5] == {"name": "3-0", "items": 3, "unit": "packs", "category": {"record": "3-0"}}
    assert ef.parse(json.loads(json.dumps(written))) == event


def test_a_file_without_prizes_writes_no_prize_keys():
    event = ef.loads((DATA / "seed002-hyogo.json").read_bytes())
    assert "prizes" not in ef.dump(event) and "prize_rules" not in ef.dump(event)


def test_round_trip_each_section_of_version_2(tmp_path):
    section = json.loads((DATA / "seed002-hyogo.json").read_text(encoding="utf-8"))
    for key in ("format", "version"):
        del section[key]
    open_section = {**section, "name": "Open", **PRIZES}
    junior = {**section, "name": "Junior", "players": [], "rounds": [], "prizes": [{"name": "1st", "items": 2}]}
    doc = {"format": "swiss-event", "version": 2, "name": "Venue", "sections": [open_section, junior]}
    venue = venuefile.parse(doc)
    assert [len(s.settings.prizes) for s in venue.sections] == [6, 1]
    assert venuefile.parse(json.loads(venuefile.dumps(venue))) == venue
    path = tmp_path / "venue.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert json.loads(run(str(path), "--format", "json", "--section", "Open")) == EXPECTED
    assert "== Junior ==" in run(str(path))
