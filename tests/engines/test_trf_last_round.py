"""A zero-point bye an arbiter enters before pairing the last round ("0000 - Z" in its column) is a bye the
player asked for, not a withdrawal; a withdrawal the export writes (two rounds or more of zero-point byes up to
the last one planned) still reads back as one. No database."""

from __future__ import annotations

import pairing
from standings import compute, points_by_player
from swiss import trf
from swiss.model import ZERO_BYE, Event, Match, Player, Round, settings_for_preset
from tests.engines.test_trf import player

LAST_ROUND = (
    "012 Last round\nXXR 2\nXXC white1\n"
    + "\n".join(
        [
            player("     2 w 1", rank="1", name="Anna", points="1.0"),
            player("     1 b 0  0000 - Z", rank="2", name="Bert", points="0.0"),
            player("     4 w 1", rank="3", name="Cleo", points="1.0"),
            player("     3 b 0", rank="4", name="Dora", points="0.0"),
            player("  0000 - U", rank="5", name="Emil", points="1.0"),
        ]
    )
    + "\n"
)


def test_a_zero_point_bye_entered_for_the_last_round_is_a_bye_asked_for():
    event = trf.loads(LAST_ROUND, points_by_player)
    bert = event.players[1]
    assert (bert.dropped_after, bert.requested_byes) == (None, ((2, ZERO_BYE),))
    result = pairing.pair(pairing.from_event(event))
    note = result.warnings[0]
    # Said as the bye he asked for, not "withdrew after round 1".
    assert note.params["players"][0][1] == "zero_bye", note.params
    assert "withdrew" not in str(note)
    assert all("2" not in (p.a, p.b) for p in result.pairs)


def test_the_bye_is_written_back_as_it_was_read():
    event = trf.loads(LAST_ROUND, points_by_player)
    points = {r.player_id: r.points for r in compute(event).rows}
    again = trf.dumps(event, points=points)
    bert = next(line for line in again.splitlines() if line.startswith("001") and line[4:8].strip() == "2")
    assert bert.rstrip().endswith("0000 - Z")
    assert trf.loads(again, points_by_player).players[1].requested_byes == ((2, ZERO_BYE),)


def test_a_withdrawal_with_two_rounds_left_is_still_one():
    players = (
        Player(id="a", name="Anna", rating=2100),
        Player(id="b", name="Bert", rating=2000, dropped_after=1),
        Player(id="c", name="Cleo", rating=1900),
        Player(id="d", name="Dora", rating=1800),
    )
    event = Event(
        settings=settings_for_preset("chess", name="Gone", planned_rounds=3, initial_colour="white"),
        players=players,
        rounds=(Round(1, (Match("a", "b", (1, 0, 0)), Match("c", "d", (1, 0, 0)))),),
    )
    text = trf.dumps(event, points={r.player_id: r.points for r in compute(event).rows})
    again = trf.loads(text, points_by_player)
    assert (again.players[1].dropped_after, again.players[1].requested_byes) == (1, ())
