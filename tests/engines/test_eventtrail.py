"""A round's trail in files: the swiss-event file reads its `changes` strictly (a malformed entry is refused by its
place) and writes them back as read; the TRF export's `### change` lines, one a change, are comments to the TRF
reader, which reads the same event with or without them."""

import json

import pytest

from standings import points_by_player
from swiss import eventfile as ef
from swiss import eventtrail, model, trf
from swiss.strictjson import EventFileError

SWAP = {
    "kind": "swap",
    "at": "2026-12-07T14:32:05+00:00",
    "table": 1,
    "was": [
        {"table": 1, "a": "p1", "a_name": "Ann", "b": "p2", "b_name": "Bob", "result": "played", "games": None},
        {"table": 2, "a": "p3", "a_name": "Cid", "b": "p4", "b_name": "Dan"},
    ],
    "became": [
        {"table": 1, "a": "p1", "a_name": "Ann", "b": "p3", "b_name": "Cid"},
        {"table": 2, "a": "p2", "a_name": "Bob", "b": "p4", "b_name": "Dan"},
    ],
}
CORRECTION = {
    "kind": "result",
    "at": "2026-12-07T15:10:00+09:00",
    "table": 1,
    "was": [{"table": 1, "a": "p1", "a_name": "Ann", "b": "p3", "b_name": "Cid", "games": [1, 0, 0]}],
    "became": [{"table": 1, "a": "p1", "a_name": "Ann", "b": "p3", "b_name": "Cid", "games": [0, 0, 1]}],
}


def chess_doc(changes) -> dict:
    return {
        "format": "swiss-event",
        "version": 1,
        "name": "Club Open",
        "preset": "chess",
        "players": [
            {"id": f"p{i}", "name": n, "rating": 2000 - i} for i, n in enumerate(["Ann", "Bob", "Cid", "Dan"], 1)
        ],
        "rounds": [
            {
                "number": 1,
                "matches": [
                    {"table": 1, "a": "p1", "b": "p3", "games": [0, 0, 1]},
                    {"table": 2, "a": "p2", "b": "p4", "games": [1, 0, 0]},
                ],
                "changes": changes,
            }
        ],
    }


def test_the_trail_round_trips_through_the_file():
    doc = ef.parse(chess_doc([SWAP, CORRECTION]))
    (rnd,) = doc.rounds
    assert [c.kind for c in rnd.changes] == ["swap", "result"]
    swap = rnd.changes[0]
    assert swap.was[0] == model.TrailLine(a="p1", a_name="Ann", b="p2", b_name="Bob", table=1)
    assert rnd.changes[1].became[0].games == (0, 0, 1)
    again = ef.loads(ef.dumps(doc))
    assert again == doc
    assert json.loads(ef.dumps(doc))["rounds"][0]["changes"][1]["at"] == "2026-12-07T15:10:00+09:00"


def test_a_round_without_a_trail_writes_no_key():
    doc = ef.parse(chess_doc([]))
    assert "changes" not in json.loads(ef.dumps(doc))["rounds"][0]


BAD = [
    ({**SWAP, "kind": "edit"}, "rounds[0].changes[0].kind", "one of swap, repair, flip, result, by_hand"),
    ({k: v for k, v in SWAP.items() if k != "at"}, "rounds[0].changes[0].at", "missing"),
    ({**SWAP, "at": "14:32"}, "rounds[0].changes[0].at", "is not a time like"),
    ({**SWAP, "at": "2026-12-07T14:32:05"}, "rounds[0].changes[0].at", "is not a time like"),
    ({**SWAP, "table": 0}, "rounds[0].changes[0].table", "must be at least 1"),
    ({**SWAP, "was": [], "became": []}, "rounds[0].changes[0]", "a change has a line in was or in became"),
    ({**SWAP, "who": "olga"}, "rounds[0].changes[0].who", "unknown key"),
    ({**SWAP, "was": [{"a": "p1", "a_name": "Ann", "b": "p2"}]}, "rounds[0].changes[0].was[0].b_name", "b and b_name"),
    ({**SWAP, "was": [{"a": "p1"}]}, "rounds[0].changes[0].was[0].a_name", "missing"),
    ({**SWAP, "was": [{"a": "", "a_name": "Ann"}]}, "rounds[0].changes[0].was[0].a", "expected a non-empty string"),
    (
        {**SWAP, "became": [{"a": "p1", "a_name": "Ann", "result": "won"}]},
        "rounds[0].changes[0].became[0].result",
        "one of",
    ),
    (
        {**SWAP, "became": [{"a": "p1", "a_name": "Ann", "games": [1, 0]}]},
        "rounds[0].changes[0].became[0].games",
        "expected [games",
    ),
    (
        {**SWAP, "became": [{"a": "p1", "a_name": "A", "games": [1, -1, 0]}]},
        "rounds[0].changes[0].became[0].games[1]",
        "at least 0",
    ),
    (
        {**SWAP, "became": [{"a": "p1", "a_name": "Ann", "white": "p9"}]},
        "rounds[0].changes[0].became[0].white",
        "white is player a or player b",
    ),
    ("swap", "rounds[0].changes[0]", "expected an object"),
]


@pytest.mark.parametrize(("change", "place", "problem"), BAD)
def test_a_malformed_change_is_refused_by_its_place(change, place, problem):
    with pytest.raises(EventFileError) as refused:
        ef.parse(chess_doc([change]))
    assert refused.value.path == place
    assert problem in str(refused.value.message)


def test_changes_that_are_not_a_list_are_refused():
    with pytest.raises(EventFileError) as refused:
        ef.parse(chess_doc({"kind": "swap"}))
    assert refused.value.path == "rounds[0].changes"


def test_the_trf_writes_one_comment_line_a_change_which_its_reader_skips():
    doc = ef.parse(chess_doc([SWAP, CORRECTION]))
    lines = eventtrail.trf_lines(doc)
    assert lines == [
        "### change round 1, table 1, 2026-12-07T14:32:05+00:00, swap: "
        "1: Ann - Cid, was Ann - Bob; 2: Bob - Dan, was Cid - Dan",
        "### change round 1, table 1, 2026-12-07T15:10:00+09:00, result: 1: Ann - Cid 1/2-1/2, was Ann - Cid 1-0",
    ]
    plain = trf.dumps(doc)
    with_trail = plain + "".join(f"{line}\n" for line in lines)
    read, read_plain = trf.loads(with_trail, points_by_player), trf.loads(plain, points_by_player)
    assert read.players == read_plain.players and read.rounds == read_plain.rounds
    assert [len(r.matches) for r in read.rounds] == [2]


def test_a_name_with_a_line_break_stays_on_its_comment_line():
    change = {**SWAP, "became": [{"table": 1, "a": "p1", "a_name": "Ann\nEvil", "b": "p3", "b_name": "Cid"}]}
    (line,) = eventtrail.trf_lines(ef.parse(chess_doc([change])))
    assert "\n" not in line and line.startswith("### change round 1") and "Ann Evil - Cid" in line
