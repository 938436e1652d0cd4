"""Files and the command line as Japanese and Danish organisers use them: the column headings they
write, a heading row we cannot read said so, and text tables aligned by display width."""

import unicodedata
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import translation

from standings.format import display_width, pad
from swiss import eventfile as ef
from swiss.model import Event, Match, Player, Round, settings_for_preset
from tournament.files.csv_rosters import parse_pasted, parse_players


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("名前,ふりがな,レーティング\n山田 太郎,やまだ たろう,1500\n", [("山田 太郎", "やまだ たろう", 1500)]),
        ("名前,フリガナ,レート\n鈴木 陽菜,スズキ ヒナ,1400\n", [("鈴木 陽菜", "スズキ ヒナ", 1400)]),
        ("姓,名,レーティング\n山田,太郎,1500\n", [("山田 太郎", "", 1500)]),
        ("Fornavn;Efternavn;Klub;Rating\nSøren;Kirk;Skakklubben Nord;1800\n", [("Søren Kirk", "", 1800)]),
        ("Navn;Elo\nIda Lund;1700\n", [("Ida Lund", "", 1700)]),
        ("Spillernavn\tRating\tMedlemsnummer\nMads Krogh\t1650\t12345\n", [("Mads Krogh", "", 1650)]),
    ],
)
def test_the_headings_japanese_and_danish_lists_use_are_read(text, expected):
    rows = parse_players(text)
    assert [(r.name, r.reading, r.rating) for r in rows] == expected
    assert all(r.ok for r in rows)


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("Navn;Klubb;Rating\nSøren Kirk;SK;1800\n", "“Klubb”"),
        ("Spieler,Wertung\nAnn,1500\nBo,1400\n", "“Spieler”, “Wertung”"),
    ],
)
def test_a_heading_row_we_cannot_read_is_said_so_and_never_read_as_a_player(text, unknown):
    rows = parse_players(text)
    first = rows[0]
    assert first.line == 1 and not first.name and not first.ok
    assert unknown in first.errors[0] and "column" in first.errors[0]
    assert all(r.name not in ("Navn", "Spieler", "Klubb, Navn") for r in rows)
    with translation.override("da"):
        assert "»Klubb«" in parse_players("Navn;Klubb;Rating\nSøren Kirk;SK;1800\n")[0].errors[0]


def test_a_list_without_headings_is_still_read_as_players():
    assert [r.name for r in parse_players("Ann,1500\nBo,1400\n")] == ["Ann", "Bo"]
    assert [r.name for r in parse_pasted("Kim Lee\nBo Ravn")] == ["Kim Lee", "Bo Ravn"]
    assert [r.name for r in parse_pasted("Lee, Kim\nRavn, Bo")] == ["Kim Lee", "Bo Ravn"]


def test_display_width_counts_wide_characters_twice():
    assert display_width("山田 太郎") == 9 and display_width("Søren") == 5 and display_width("ＡＢ") == 4
    assert display_width(unicodedata.normalize("NFD", "é")) == 1
    assert pad("山田", 6) == "山田  " and pad("3", 3, right=True) == "  3"


def event_file(tmp_path) -> str:
    names = ["山田 太郎", "Søren Kirk", "高橋 湊", "Ann", "渡辺 健一郎", "Bo"]
    players = [Player(f"p{k}", name) for k, name in enumerate(names)]
    matches = tuple(Match(f"p{k}", f"p{k + 1}", games=(2, 0, 0), table=k // 2 + 1) for k in range(0, 6, 2))
    doc = Event(settings=settings_for_preset("mtg"), players=tuple(players), rounds=(Round(1, matches),))
    path = tmp_path / "event.json"
    path.write_text(ef.dumps(doc), encoding="utf-8")
    return str(path)


def columns_line_up(lines: list[str], after: str) -> None:
    """Every line's text after the name column starts at the same terminal column."""
    starts = {display_width(line[: line.index(after)]) for line in lines if after in line}
    assert len(starts) == 1, lines


def test_standings_text_aligns_japanese_names(tmp_path):
    out = StringIO()
    call_command("standings", event_file(tmp_path), "--format", "text", stdout=out)
    lines = out.getvalue().splitlines()[1:]
    assert len({display_width(line) for line in lines}) == 1, lines  # every row as wide as the heading


def test_pairings_text_aligns_japanese_names(tmp_path):
    out = StringIO()
    call_command("pair", event_file(tmp_path), "--format", "text", "--seed", "7", stdout=out)
    lines = [line for line in out.getvalue().splitlines() if " vs " in line]
    assert len(lines) == 3
    columns_line_up(lines, " vs ")
