"""A round's trail leaves the app in its files: the swiss-event export keeps it and an import restores it (names as
they were then, times, kinds), and the TRF export writes one `###` line a change, which the TRF reader skips."""

import pytest

from standings import points_by_player
from swiss import eventfile as ef
from swiss import trf
from tests.conftest import new_chess_event
from tests.web.public.test_public import pair
from tournament.models import Player, Round, RoundChange
from tournament.services.results import Outcome, correct_result, record_result
from tournament.services.rounds import flip_colours, swap_players
from tournament.snapshot import event_to_trf, export_file, import_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def changed_event(organiser):
    """A chess event whose round 1 was changed three times after it was published: a swap, a flip, a correction."""
    e = new_chess_event(organiser, {"Ann": 2000, "Bob": 1900, "Cid": 1800, "Dan": 1700})
    rnd = pair(e, 1, [("Ann", "Bob"), ("Cid", "Dan")], state=Round.State.PAIRED)
    p = {x.name: x for x in e.players.all()}
    swap_players(rnd, p["Bob"], p["Cid"], organiser)  # Ann - Cid, Bob - Dan
    flip_colours(rnd, rnd.matches.get(table=2).pk, organiser)  # Dan - Bob
    m = rnd.matches.get(table=1)
    record_result(m, Outcome("played", (1, 0, 0)), organiser)
    m.refresh_from_db()
    correct_result(m, Outcome("played", (0, 0, 1)), organiser, expected_version=m.version)
    for b in (rnd.matches.get(table=2),):
        record_result(b, Outcome("played", (1, 0, 0)), organiser)
    Player.objects.filter(pk=p["Bob"].pk).update(name="Robert")  # renamed since: the trail keeps "Bob"
    return e


def rows(event) -> list[tuple]:
    return [
        (c.round_number, c.kind, c.table, c.was, c.became, c.at)
        for c in RoundChange.objects.filter(event=event).order_by("at", "id")
    ]


def test_the_event_file_round_trips_the_trail(changed_event):
    doc = export_file(changed_event)
    assert [c.kind for c in doc.rounds[0].changes] == ["swap", "flip", "result"]
    text = ef.dumps(doc)
    assert '"a_name": "Bob"' in text and "olga" not in text  # names as they were; no account
    again = import_event(ef.loads(text), slug="copy")
    assert rows(again) == rows(changed_event)
    assert all(c.by is None for c in RoundChange.objects.filter(event=again))
    assert export_file(again).rounds[0].changes == doc.rounds[0].changes


def test_the_trf_export_writes_one_comment_line_a_change_that_its_reader_skips(changed_event):
    text = event_to_trf(changed_event)
    lines = [line for line in text.splitlines() if line.startswith("### change")]
    assert len(lines) == 3
    swap, flip, result = lines
    assert swap.startswith("### change round 1, table 1, ")
    assert swap.endswith(", swap: 1: Ann - Cid, was Ann - Bob; 2: Bob - Dan, was Cid - Dan")
    assert flip.endswith(", flip: 2: Dan - Bob, was Bob - Dan")
    assert result.endswith(", result: 1: Ann - Cid 1/2-1/2, was Ann - Cid 1-0")
    plain = "\n".join(line for line in text.splitlines() if not line.startswith("### change")) + "\n"
    read, read_plain = trf.loads(text, points_by_player), trf.loads(plain, points_by_player)
    assert read.players == read_plain.players and read.rounds == read_plain.rounds
