"""Forbidden pairs (team-mates, family; FIDE C.04.1): both engines keep the two players apart as if they had
played each other already, and the swiss-event file and the TRF-2026 260 record carry them. No database."""

import pytest

from pairing import from_event, pair
from pairing.types import PairingError
from standings import points_by_player
from swiss import eventfile as ef
from swiss import trf
from swiss.model import Event, Match, Player, Round, settings_for_preset
from swiss.strictjson import EventFileError

RATINGS = {"1": 2400, "2": 2300, "3": 2200, "4": 2100}


def chess(forbidden=(), rounds=(), preset="chess"):
    return Event(
        settings=settings_for_preset(preset, planned_rounds=5, initial_colour="white", forbidden_pairs=forbidden),
        players=tuple(Player(id=k, name=f"P{k}", rating=r) for k, r in RATINGS.items()),
        rounds=rounds,
    )


def pairs(event) -> set[frozenset[str]]:
    return {frozenset((p.a, p.b)) for p in pair(from_event(event)).pairs}


def test_the_dutch_system_keeps_a_forbidden_pair_apart_as_a_game_played():
    # Round 1 pairs the top half against the bottom half: 1-3, 2-4.
    assert pairs(chess()) == {frozenset("13"), frozenset("24")}
    # 1 and 3 may not meet: the next transposition, 1-4 and 2-3.
    assert pairs(chess(forbidden=(("1", "3"),))) == {frozenset("14"), frozenset("23")}
    # The same as 1 and 3 having met in a round before: the engine reads both alike.
    played = Round(1, (Match("1", "3", (0, 0, 1)), Match("2", "4", (0, 0, 1))))
    forbid = chess(forbidden=(("1", "2"),), rounds=(played,))
    assert all(frozenset("12") != p for p in pairs(forbid))
    assert pairs(forbid) == {frozenset("14"), frozenset("23")}


def test_the_optimal_engine_keeps_a_forbidden_pair_apart_too():
    event = chess(forbidden=(("1", "3"), ("2", "4")), preset="mtg")
    for seed in range(20):
        got = {frozenset((p.a, p.b)) for p in pair(from_event(event, seed=seed)).pairs}
        assert frozenset("13") not in got and frozenset("24") not in got


def test_a_round_only_a_forbidden_pair_could_play_is_refused_by_the_dutch_system():
    two = Event(
        settings=settings_for_preset("chess", forbidden_pairs=(("1", "2"),)),
        players=(Player(id="1", name="A", rating=2000), Player(id="2", name="B", rating=1900)),
    )
    with pytest.raises(PairingError):
        pair(from_event(two))


def test_the_swiss_event_file_carries_them_and_refuses_a_wrong_one():
    event = chess(forbidden=(("1", "3"), ("4", "2")))
    doc = ef.dump(event)
    assert doc["forbidden_pairs"] == [["1", "3"], ["4", "2"]]
    assert ef.parse(doc) == event
    assert "forbidden_pairs" not in ef.dump(chess())
    for wrong, code in (
        ([["1"]], "file_forbidden_pair"),
        ([["1", "9"]], "file_unknown_player"),
        ([["1", "1"]], "file_forbidden_pair_twice"),
        ([["1", "2"], ["2", "1"]], "file_forbidden_pair_twice"),
    ):
        with pytest.raises(EventFileError) as e:
            ef.parse({**doc, "forbidden_pairs": wrong})
        assert e.value.message.code == code


def test_a_260_record_forbids_every_two_of_its_players_and_comes_back_as_it_was():
    from tests.engines.test_trf import player

    lines = ["012 Open", "XXR 5", "### RR1 RRL PPP1 PPP2 PPP3", "260 001 005    1    2    4"]
    text = "".join(line + "\n" for line in lines)
    text += "".join(player("", rank=str(k), name=f"P{k}", points="0.0") + "\n" for k in range(1, 5))
    event = trf.loads(text, points_by_player)
    assert set(map(frozenset, event.settings.forbidden_pairs)) == {frozenset("12"), frozenset("14"), frozenset("24")}
    out = trf.dumps(event).splitlines()
    assert "260 001 005    1    2    4" in out and "### RR1 RRL PPP1 PPP2 PPP3" in out
    # 1, 2 and 4 all apart: 3 is the only opponent any of them can have, and two would be left over.
    with pytest.raises(PairingError):
        pair(from_event(event))


def test_changed_pairs_are_written_again_and_an_event_made_here_writes_them():
    from dataclasses import replace

    event = trf.loads(trf.dumps(chess(forbidden=(("1", "3"),))), points_by_player)
    assert event.settings.forbidden_pairs == (("1", "3"),)
    assert "260 001 005    1    3" in trf.dumps(event).splitlines()
    changed = replace(event, settings=replace(event.settings, forbidden_pairs=(("2", "4"),)))
    assert [line for line in trf.dumps(changed).splitlines() if line[:3] == "260"] == ["260 001 005    2    4"]


@pytest.mark.parametrize("line", ["260 001", "260 001 005    1", "260 003 001    1    2", "260 001 005    1    9"])
def test_a_wrong_260_record_is_refused_with_its_line(line):
    from tests.engines.test_trf import player

    text = f"012 Open\n{line}\n" + "".join(player("", rank=str(k), name=f"P{k}") + "\n" for k in (1, 2))
    with pytest.raises(trf.TRFError) as e:
        trf.loads(text, points_by_player)
    assert e.value.line == 2 and e.value.code in ("trf_260", "trf_240_rank")


def _trf_event(*header):
    from tests.engines.test_trf import player

    text = "".join(line + "\n" for line in ("012 Open", "XXR 5", *header))
    text += "".join(player("", rank=str(k), name=f"P{k}", points="0.0") + "\n" for k in range(1, 5))
    return trf.loads(text, points_by_player)


def test_a_260_round_range_keeps_the_pair_apart_in_those_rounds_only_and_comes_back_exactly():
    later = _trf_event("260 002 003    1    3")
    assert later.settings.forbidden_pairs == ()
    assert later.settings.forbidden_rounds == (("1", "3", 2, 3),)
    # Round 1 is outside the range: the natural 1-3, 2-4.
    assert pairs(later) == {frozenset("13"), frozenset("24")}
    first = _trf_event("260 001 001    1    3")
    assert first.settings.forbidden_rounds == (("1", "3", 1, 1),)
    assert pairs(first) == {frozenset("14"), frozenset("23")}
    # Written back exactly, and read again the same.
    out = trf.dumps(later)
    assert [line for line in out.splitlines() if line[:3] == "260"] == ["260 002 003    1    3"]
    assert trf.loads(out, points_by_player).settings.forbidden_rounds == later.settings.forbidden_rounds


def test_a_round_range_applies_to_the_round_being_paired_in_both_engines():
    from dataclasses import replace

    # Round 1: 1 beat 2, 3 beat 4; in round 2 the two winners, 1 and 3, meet unless the range forbids it.
    played = Round(1, (Match("1", "2", (1, 0, 0)), Match("3", "4", (1, 0, 0))))
    base = chess(rounds=(played,))

    def ranged(first, last, event=base):
        return replace(event, settings=replace(event.settings, forbidden_rounds=(("1", "3", first, last),)))

    assert frozenset("13") in pairs(ranged(3, 5))
    assert frozenset("13") not in pairs(ranged(2, 2))
    optimal = chess(preset="mtg")
    for seed in range(20):
        inside = {frozenset((p.a, p.b)) for p in pair(from_event(ranged(1, 2, optimal), seed=seed)).pairs}
        assert frozenset("13") not in inside
    outside = [
        frozenset("13") in {frozenset((p.a, p.b)) for p in pair(from_event(ranged(2, 3, optimal), seed=s)).pairs}
        for s in range(20)
    ]
    assert any(outside)  # outside its range the pair is paired like any other


def test_the_swiss_event_file_carries_round_ranges_and_refuses_a_wrong_one():
    from dataclasses import replace

    event = chess()
    event = replace(event, settings=replace(event.settings, forbidden_rounds=(("1", "3", 2, 4),)))
    doc = ef.dump(event)
    assert doc["forbidden_rounds"] == [["1", "3", 2, 4]]
    assert ef.parse(doc) == event
    for wrong, code in (
        ([["1", "3"]], "file_forbidden_rounds"),
        ([["1", "3", 4, 2]], "file_forbidden_rounds"),
        ([["1", "3", "2", 4]], "file_forbidden_rounds"),
        ([["1", "9", 1, 2]], "file_unknown_player"),
    ):
        with pytest.raises(EventFileError) as e:
            ef.parse({**doc, "forbidden_rounds": wrong})
        assert e.value.message.code == code


def test_javafo_xxp_lines_are_forbidden_pairs_in_every_round_and_kept_as_written():
    event = _trf_event("XXP 1 2 4")
    assert set(map(frozenset, event.settings.forbidden_pairs)) == {frozenset("12"), frozenset("14"), frozenset("24")}
    assert event.settings.forbidden_rounds == ()
    out = trf.dumps(event).splitlines()
    assert "XXP 1 2 4" in out and not any(line[:3] == "260" for line in out)
    with pytest.raises(PairingError):
        pair(from_event(event))


@pytest.mark.parametrize("line", ["XXP 1", "XXP 1 x", "XXP 1 1", "XXP 1 9"])
def test_a_wrong_xxp_line_is_refused_with_its_line(line):
    with pytest.raises(trf.TRFError) as e:
        _trf_event(line)
    assert e.value.line == 3 and e.value.code in ("trf_xxp", "trf_240_rank")
