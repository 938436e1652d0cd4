"""CSV in and out: formula cells neutralised, bad rows marked, headers optional."""

import csv
import io

import pytest

from tournament.files import csv_exports, csv_rosters


@pytest.mark.parametrize("cell", ["=1+1", "+SUM(A1)", "-2", "@cmd", "\tx", '=HYPERLINK("http://x")'])
def test_formula_cells_are_neutralised(cell):
    out = csv_exports.write_rows(["name"], [[cell]])
    assert list(csv.reader(io.StringIO(out)))[1] == ["'" + cell]


def test_plain_cells_are_unchanged():
    out = csv_exports.write_rows(["name", "rating"], [["Ann", 1500], ["Bo-Ra", None]])
    assert list(csv.reader(io.StringIO(out))) == [["name", "rating"], ["Ann", "1500"], ["Bo-Ra", ""]]


def test_parse_with_header_in_any_order():
    rows = csv_rosters.parse_players("rating;name;byes\n1600;Ann;2\n")
    assert [(r.name, r.rating, r.byes, r.ok) for r in rows] == [("Ann", 1600, 2, True)]


def test_parse_without_header_uses_name_rating_id_byes():
    rows = csv_rosters.parse_players("Ann,1600,X1,1\nBen\n")
    assert [(r.name, r.rating, r.external_id, r.byes) for r in rows] == [("Ann", 1600, "X1", 1), ("Ben", None, "", 0)]


def test_bad_rows_are_marked_with_their_line():
    rows = csv_rosters.parse_players("name,rating,id,byes\nAnn,abc,,\n,1500,,\nCat,1,,4\nDan,1,,0,extra\n\nEve\n")
    assert [(r.line, r.ok) for r in rows] == [(2, False), (3, False), (4, False), (5, False), (7, True)]
    assert rows[0].errors == ["rating “abc” is not a number"]
    assert rows[1].errors == ["no name"]
    assert "0 to 3" in rows[2].errors[0]


def test_duplicates_against_existing_and_within_file():
    rows = csv_rosters.parse_players("Ann\nann\nBen\n", existing_names={"Ben"})
    assert [r.duplicate for r in rows] == [False, True, True]
