"""FIDE TRF-16 files (swiss/trf.py): the three real files of tests/data/trf import with every player line
and the file's own points, export back with every opponent, colour and result, generated events survive a
round trip, and malformed lines are refused with their line number. No database."""

import random
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from standings import compute, points_by_player
from swiss import trf
from swiss.model import (
    BYE,
    DOUBLE_LOSS,
    FORFEIT,
    HALF_BYE,
    LOSS,
    PLAYED,
    UNPAIRED,
    Event,
    Match,
    Player,
    Round,
    settings_for_preset,
)
from swiss.names import split_typed

DATA = Path(__file__).parents[1] / "data" / "trf"
REAL = sorted(p.name for p in DATA.glob("*.trf") if not p.name.startswith("held"))


def blocks_of(text: str) -> dict[int, tuple]:
    """Per start rank: name (its comma spaced), rating, federation, FIDE id, points, and per round (opponent, colour, result) with
    the equivalent spellings of "no opponent" (blank or 0000, colour blank or -) made one."""
    out = {}
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        rounds = []
        body = line[89:]
        for k in range(0, len(body), 10):
            blk = body[k : k + 10].ljust(10)
            opp, colour, result = blk[2:6].strip(), blk[7], blk[9]
            if opp in ("", "0000"):
                opp, colour = None, "-" if result != " " else " "
            rounds.append((opp and int(opp), colour, result))
        while rounds and rounds[-1] == (None, " ", " "):
            rounds.pop()
        # "Vasquez,Rodrigo" comes back as FIDE's lists write it, "Vasquez, Rodrigo" (swiss/names.py).
        name = re.sub(r"\s*,\s*", ", ", line[14:47].strip())
        fields = (name, line[48:52].strip(), line[53:56].strip(), line[57:68].strip())
        out[int(line[4:8])] = (*fields, F(line[80:84].strip()), tuple(rounds))
    return out


def test_the_real_files_are_the_ones_sources_json_lists():
    import json

    sources = json.loads((DATA / "sources.json").read_text())
    assert sorted(f["file"] for f in sources["files"]) == REAL
    assert "sources.json" in (DATA / "README.md").read_text()


@pytest.mark.parametrize("name", REAL)
def test_a_real_file_imports_every_player_with_the_files_points(name):
    raw = (DATA / name).read_bytes()
    event = trf.loads(raw, points_by_player)
    lines = [line for line in raw.decode("latin-1").splitlines() if line.startswith("001")]
    assert len(event.players) == len(lines)
    table = compute(event).by_player()
    for rank, (*_, points, _) in blocks_of(raw.decode("latin-1")).items():
        assert table[str(rank)].points == points, rank
    assert event.settings.preset == "chess"
    assert event.settings.tiebreakers == ("BH-C1", "BH", "SB", "DE")


def test_swiss_managers_spielfrei_placeholder_is_kept():
    event = trf.loads((DATA / "fide-example1-karl-mala-gedenkturnier-2005.trf").read_bytes(), points_by_player)
    spielfrei = next(p for p in event.players if p.name == "spielfrei")
    assert spielfrei.id == "284"
    (match,) = [m for m in event.rounds[4].matches if m.a == "284"]
    assert match.result == LOSS and match.b is None
    # Forfeits with an opponent, the full-point bye written "0000 - +", and the withdrawn players.
    forfeits = [m for r in event.rounds for m in r.matches if m.result == FORFEIT and m.b is not None]
    assert len(forfeits) == 10
    assert [m.a for r in event.rounds for m in r.matches if m.result == FORFEIT and m.b is None] == ["282"]
    vasquez = event.players[0]
    # "Surname,First name": both parts kept, the name shown given name first.
    assert (vasquez.family_name, vasquez.given_name) == ("Vasquez", "Rodrigo")
    assert (vasquez.name, vasquez.rating, vasquez.federation, vasquez.fide_id, vasquez.title) == (
        "Rodrigo Vasquez",
        2558,
        "CHI",
        "3400042",
        "g",
    )
    assert event.settings.date == "2005-07-28" and event.settings.name == "9. Karl-Mala-Gedenkturnier"


def test_lichess_byes_absences_and_late_entries():
    event = trf.loads((DATA / "lichess-swiss-FaLp5fSD-2020-05-29.trf").read_bytes(), points_by_player)
    kinds = [m.result for r in event.rounds for m in r.matches if m.b is None]
    assert (kinds.count(HALF_BYE), kinds.count(BYE), kinds.count(LOSS)) == (2, 4, 12)
    assert event.settings.planned_rounds == 10


@pytest.mark.parametrize("name", REAL)
def test_a_real_file_exports_back_with_every_opponent_colour_and_result(name):
    raw = (DATA / name).read_bytes().decode("latin-1")
    event = trf.loads(raw, points_by_player)
    table = compute(event)
    out = trf.dumps(event, {r.player_id: r.rank for r in table.rows}, {r.player_id: r.points for r in table.rows})
    assert blocks_of(out) == blocks_of(raw)
    # The header lines come back verbatim, and the export imports back to the same event.
    assert [x for x in out.splitlines() if not x.startswith("001")] == [
        x for x in raw.splitlines() if x.strip() and not x.startswith("001")
    ]
    again = trf.loads(out, points_by_player)
    assert (again.players, again.rounds, again.settings) == (event.players, event.rounds, event.settings)


def test_the_fide_example_exports_byte_for_byte_but_the_rank_columns():
    raw = (DATA / "fide-example1-karl-mala-gedenkturnier-2005.trf").read_bytes().decode("latin-1")
    event = trf.loads(raw, points_by_player)
    out = trf.dumps(event, points={r.player_id: r.points for r in compute(event).rows})
    strip_rank = lambda line: line[:85] + line[89:] if line.startswith("001") else line  # noqa: E731
    # A name in two parts is written as FIDE's rating lists write it: "Vasquez,Rodrigo" as "Vasquez, Rodrigo".
    spaced = [_spaced(x) for x in raw.splitlines()]
    assert [strip_rank(x) for x in out.splitlines()] == [strip_rank(x) for x in spaced]
    assert "001    1    g Vasquez, Rodrigo                  2558 CHI" in out
    assert "001   27      Kiese,Matthias,Dr.                2245" in out  # not a name in two parts


def _spaced(line: str) -> str:
    """A player line's "Surname,First" as "Surname, First", the name column kept 33 wide."""
    parts = split_typed(line[14:47]) if line.startswith("001") else None
    return line[:14] + f"{parts[0]}, {parts[1]}".ljust(33) + line[47:] if parts else line


def random_chess_event(seed: int) -> Event:
    rng = random.Random(seed)
    n = rng.randint(2, 14)
    players = tuple(
        Player(
            id=str(k),
            name=f"Player {k}",
            rating=rng.choice([None, 1500, 2100]),
            federation=rng.choice(["", "GER", "DEN"]),
            fide_id=rng.choice(["", str(1000 + k)]),
        )
        for k in range(1, n + 1)
    )
    rounds = []
    for number in range(1, rng.randint(1, 6) + 1):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        ids = ids[: rng.randint(2, n)]
        # Every round has a game: a last round of byes alone is the requested byes of the round to be paired.
        matches = [Match(a=ids.pop(), b=ids.pop(), games=(1, 0, 0))]
        while ids:
            a = ids.pop()
            kind = rng.choice(["game", "game", "game", "forfeit", "double", "pending", *UNPAIRED, FORFEIT])
            if kind in UNPAIRED or kind == FORFEIT or not ids:
                matches.append(Match(a=a, result=kind if kind in (*UNPAIRED, FORFEIT) else BYE))
                continue
            b = ids.pop()
            if kind == "forfeit":
                matches.append(Match(a=a, b=b, result=FORFEIT))
            elif kind == "double":
                matches.append(Match(a=a, b=b, result=DOUBLE_LOSS))
            elif kind == "pending":
                matches.append(Match(a=a, b=b))
            else:
                matches.append(Match(a=a, b=b, games=rng.choice([(1, 0, 0), (0, 1, 0), (0, 0, 1)])))
        rounds.append(Round(number=number, matches=tuple(matches)))
    return Event(settings=settings_for_preset("chess", name=f"Generated {seed}"), players=players, rounds=tuple(rounds))


def canonical(event: Event) -> dict:
    """Every player's round-by-round facts: opponent, colour (a is White), result kind and how it ended."""
    out = {}
    for r in event.rounds:
        for m in r.matches:
            if not m.has_result:
                continue  # a pairing without a result is not written: other chess programs would refuse it
            oa, ob = m.outcome()
            # Only a game has colours; a double forfeit names its two players in either order.
            played = m.result == PLAYED
            out[(r.number, m.a)] = (m.b, "w" if played else "-", m.result, oa)
            if m.b:
                out[(r.number, m.b)] = (m.a, "b" if played else "-", m.result, ob)
    return out


@pytest.mark.parametrize("seed", range(60))
def test_generated_events_survive_a_round_trip(seed):
    event = random_chess_event(seed)
    table = compute(event, after_round=max((r.number for r in event.rounds), default=0))
    points = {r.player_id: r.points for r in table.rows}
    again = trf.loads(trf.dumps(event, points=points), points_by_player)
    # The file numbers the players by their pairing numbers (rating, title, name): the same games, renamed.
    rank = {pid: str(k) for pid, k in trf.start_ranks(event).items()}
    renamed = {
        (r, rank[a]): (rank.get(b), colour, result, outcome)
        for (r, a), (b, colour, result, outcome) in canonical(event).items()
    }
    assert canonical(again) == renamed
    # Players keep their names, ratings, federations and FIDE ids.
    keep = lambda p: (p.name, p.rating, p.federation, p.fide_id)  # noqa: E731
    assert {p.id: keep(p) for p in again.players} == {rank[p.id]: keep(p) for p in event.players}


def test_an_event_with_other_ids_gets_start_ranks_by_pairing_number():
    event = Event(
        settings=settings_for_preset("chess", name="Club night", date="2026-11-21", planned_rounds=5),
        players=(Player(id="p7", name="Zoe"), Player(id="p3", name="Adam")),
        rounds=(Round(number=1, matches=(Match(a="p7", b="p3", games=(0, 0, 1)),)),),
    )
    text = trf.dumps(event)
    assert text.splitlines()[:9] == [
        "012 Club night",
        "042 2026/11/21",
        "062 2",
        "072 0",
        "092 Individual: Swiss-System",
        "142 5",
        "192 FIDE_DUTCH_2025",
        "202 BH/C1,BH,SB,DE",
        "XXR 5",
    ]
    again = trf.loads(text, points_by_player)
    # Both unrated and untitled: numbered by name (C.04.2), whoever registered first.
    assert [(p.id, p.name) for p in again.players] == [("1", "Adam"), ("2", "Zoe")]
    assert again.rounds[0].matches == (Match(a="2", b="1", games=(0, 0, 1)),)


# ---------------------------------------------------------------- refusals

GOOD = (
    "012 Test\n"
    "001    1      Anna                              2000                             1.0          2 w 1\n"
    "001    2      Bert                              1900                             0.0          1 b 0\n"
)


def broken(line: int, new: str) -> str:
    lines = GOOD.splitlines()
    lines[line - 1] = new
    return "\n".join(lines) + "\n"


def player(rest: str, rank="1", name="Anna", points="1.0") -> str:
    return f"001 {rank:>4}      {name:<33} 2000 {'':<3} {'':>11} {'':<10} {points:>4} {'':>4}{rest}"


@pytest.mark.parametrize(
    ("text", "line", "code", "words"),
    [
        (broken(2, "001"), 2, "trf_short_line", "columns up to the points"),
        (broken(2, player("     2 w 1", rank="x")), 2, "trf_start_rank", "is not a start rank"),
        (broken(2, player("     2 w 1", name="")), 2, "trf_name", "name is empty"),
        (broken(2, player("     2 w 1", points="1.x")), 2, "trf_points", "not a number of points"),
        (broken(2, player("     2 x 1")), 2, "trf_colour", "unknown colour"),
        (broken(2, player("     2 w 7")), 2, "trf_result", "unknown result code '7'"),
        (broken(2, player("     9 w 1")), 2, "trf_unknown_opponent", "no player has start rank 9"),
        (broken(2, player("     1 w 1")), 2, "trf_self", "cannot play themselves"),
        (broken(2, player("  0000 - 1")), 2, "trf_no_opponent", "needs an opponent"),
        (broken(2, player("     2 - H")), 2, "trf_bye_opponent", "cannot have an opponent"),
        (broken(2, player("     2 w =")), 2, "trf_result_disagrees", "'=' against '0'"),
        (broken(2, player("     2 b 1")), 2, "trf_colour_disagrees", "colour 'b' against 'b'"),
        (broken(2, player("     2 w 1", points="0.5")), 2, "trf_points_disagree", "say 0.5 points but"),
        (broken(3, player("     2 b 0", rank="1", name="Bert", points="0.0")), 3, "trf_duplicate_rank", "line 2"),
        (broken(1, "12 Test"), 1, "trf_line_code", "three-character code"),
        ("012 Only a header\n", 1, "trf_no_players", "no player lines"),
        (broken(2, player("    2 w 1")), 2, "trf_round_columns", "round columns"),
        (GOOD + "XXR many\n", 4, "trf_rounds", "XXR needs a number"),
    ],
)
def test_a_malformed_line_is_refused_with_its_number(text, line, code, words):
    with pytest.raises(trf.TRFError) as e:
        trf.loads(text, points_by_player)
    assert (e.value.line, e.value.code, e.value.params["line"]) == (line, code, line)
    assert str(e.value).startswith(f"line {line}: ") and words in str(e.value), str(e.value)


def test_the_opponent_must_list_the_player_too():
    text = broken(3, player("  0000 - U", rank="2", name="Bert", points="1.0"))
    with pytest.raises(trf.TRFError) as e:
        trf.loads(text, points_by_player)
    assert e.value.line == 2 and "does not list 1" in str(e.value)


def test_sniffing_tells_trf_from_swiss_event_json():
    assert trf.looks_like_trf(GOOD.encode()) and trf.looks_like_trf("XXR 5\n")
    assert not trf.looks_like_trf(b'{"format": "swiss-event"}') and not trf.looks_like_trf(b"")


def test_pairing_a_trf_event_a_forfeit_is_no_meeting_and_counts_as_a_bye_had():
    import pairing

    # Anna won round 1 against Bert by forfeit; Cleo and Dora played. Round 2 may pair Anna with Bert again,
    # and with five players the bye goes to someone who has not scored a point without playing.
    text = (
        "012 Forfeit\n"
        + "\n".join(
            [
                player("     2 - +", rank="1", name="Anna", points="1.0"),
                player("     1 - -", rank="2", name="Bert", points="0.0"),
                player("     4 w 1", rank="3", name="Cleo", points="1.0"),
                player("     3 b 0", rank="4", name="Dora", points="0.0"),
            ]
        )
        + "\n"
    )
    event = trf.loads(text, points_by_player)
    entrants = {e.id: e for e in pairing.entrants_from_event(event, 2).entrants}
    assert entrants["1"].opponents == frozenset() and entrants["2"].opponents == frozenset()
    assert entrants["1"].byes == 1 and entrants["3"].opponents == frozenset({"4"})
