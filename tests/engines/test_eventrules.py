"""The event's rules in a swiss-event file (swiss/eventrules.py), a player's half-point-bye eligibility, an adjourned
game, a section that joined its partner and the venue's rating-report facts: read strictly (a wrong value is one
line naming its JSON path), written back only when they differ from their defaults, and read from a file without
them as they always were."""

import json

import pytest

from swiss import eventfile as ef
from swiss import venuefile

BASE = {"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}]}
CHESS = {**BASE, "preset": "chess"}


def refusal(doc: dict) -> str:
    with pytest.raises(ef.EventFileError) as info:
        venuefile.parse(json.loads(json.dumps(doc)))
    text = str(info.value)
    assert "\n" not in text
    return text


def venue(*sections: dict, **keys) -> dict:
    return {"format": "swiss-event", "version": 2, "name": "Open", **keys, "sections": list(sections)}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"fide_mode": "yes"}, "fide_mode: expected true or false"),
        ({"fide_left": -1}, "fide_left: must be at least 0"),
        ({"fide_left": "3"}, "fide_left: expected a whole number"),
        ({"fide_mode": True, "fide_left": 2}, "fide_mode: FIDE mode, once left (fide_left), is left for good"),
        ({"title_norms": 1}, "title_norms: expected true or false"),
        ({"reporting": "players"}, "reporting: one of organisers, confirm, alone"),
        ({"players_request_byes": "true"}, "players_request_byes: expected true or false"),
        ({"bye_requests_max": 1.5}, "bye_requests_max: expected a whole number"),
        ({"bye_requests_closed_last": None}, "bye_requests_closed_last: expected a whole number"),
        ({"joined": "yes"}, "joined: expected true or false"),
        ({"joined": True}, "joined: only a section that pairs with another (pair_with) joins it"),
    ],
)
def test_a_wrong_rule_is_refused_by_its_path(change, expected):
    assert refusal({**CHESS, **change}).startswith(expected)


def test_a_player_and_a_match_are_refused_by_their_paths():
    players = [{"id": "a", "name": "Ann", "half_bye_ok": "no"}, {"id": "b", "name": "Bob"}]
    assert refusal({**CHESS, "players": players}).startswith("players[0].half_bye_ok: expected true or false")
    game = {"number": 1, "matches": [{"a": "a", "b": "b", "adjourned": 1}]}
    assert refusal({**CHESS, "rounds": [game]}).startswith("rounds[0].matches[0].adjourned: expected true or false")
    bye = {"number": 1, "matches": [{"a": "a", "adjourned": True}, {"a": "b", "result": "loss"}]}
    assert refusal({**CHESS, "rounds": [bye]}) == (
        "rounds[0].matches[0].adjourned: only a game between two players is adjourned"
    )


def test_a_version_2_file_refuses_by_the_sections_path():
    one = {"name": "A", "preset": "chess", "players": []}
    two = {"name": "B", "preset": "chess", "players": [], "reporting": "phones"}
    assert refusal(venue(one, two)).startswith("sections[1].reporting: one of")
    three = {**two, "reporting": "alone", "joined": True}
    assert refusal(venue(one, three)).startswith("sections[1].joined: only a section that pairs with another")
    assert refusal(venue(one, city=5)).startswith("city: expected")
    assert refusal(venue(one, federation="Japan")).startswith("federation: ")
    assert refusal(venue(one, end_date="15.3.2026")).startswith("end_date: ")


def test_the_rules_round_trip_and_are_written_only_when_set():
    doc = {
        **CHESS,
        "fide_mode": False,
        "fide_left": 0,
        "title_norms": True,
        "reporting": "alone",
        "players_request_byes": True,
        "bye_requests_max": 0,
        "bye_requests_closed_last": 2,
        "players": [{"id": "a", "name": "Ann", "half_bye_ok": False}, {"id": "b", "name": "Bob"}],
        "rounds": [{"number": 1, "matches": [{"a": "a", "b": "b", "adjourned": True}]}],
    }
    event = ef.parse(doc)
    s = event.settings
    assert (s.fide_mode, s.fide_left, s.title_norms, s.reporting) == (False, 0, True, "alone")
    assert (s.players_request_byes, s.bye_requests_max, s.bye_requests_closed_last) == (True, 0, 2)
    assert not event.players[0].half_bye_ok and event.rounds[0].matches[0].adjourned
    written = ef.dump(event)
    assert ef.parse(written) == event
    for key in ("fide_mode", "fide_left", "title_norms", "reporting", "bye_requests_max", "bye_requests_closed_last"):
        assert written[key] == doc[key]
    assert written["players"][0]["half_bye_ok"] is False and "half_bye_ok" not in written["players"][1]
    assert written["rounds"][0]["matches"][0]["adjourned"] is True
    plain = ef.dump(ef.parse(BASE))
    assert not {"fide_mode", "fide_left", "title_norms", "reporting", "players_request_byes"} & set(plain)


def test_a_file_without_the_keys_reads_with_todays_defaults():
    chess, mtg = ef.parse(CHESS).settings, ef.parse(BASE).settings
    assert (chess.fide_mode, chess.in_fide_mode, mtg.in_fide_mode) == (None, True, False)
    assert ef.parse({**CHESS, "fide_left": 4}).settings.in_fide_mode is False  # left: never back on by default
    assert ef.parse({**CHESS, "fide_mode": False}).settings.in_fide_mode is False
    assert (chess.title_norms, chess.reporting, chess.players_request_byes) == (False, "organisers", False)
    assert (chess.bye_requests_max, chess.bye_requests_closed_last, chess.fide_left) == (None, 0, None)


def test_a_section_that_joined_its_partner_and_the_venues_report_facts_round_trip():
    one = {"name": "A", "preset": "chess", "players": []}
    two = {"name": "B", "preset": "chess", "players": [], "pair_with": "A", "pair_with_below": 6, "joined": True}
    doc = venue(one, two, city="Kyoto", federation="JPN", end_date="2026-03-15")
    read = venuefile.parse(doc)
    assert read.sections[1].settings.joined and not read.sections[0].settings.joined
    assert (read.city, read.federation, read.end_date) == ("Kyoto", "JPN", "2026-03-15")
    written = venuefile.dump(read)
    assert venuefile.parse(written) == read
    assert written["sections"][1]["joined"] is True and "joined" not in written["sections"][0]
