"""A TRF's header lines in the pure core (swiss/trfheader.py): the FIDE rating report's facts (022 city, 032
federation, 042 and 052 the first and last day, 102 chief arbiter, 112 deputies, 122 time control, 132 the
rounds' dates) read into the settings and written back, a file's own lines kept while they hold, and the
swiss-event keys that carry the same facts and the players' accelerations. No database."""

import pytest

from standings import points_by_player
from swiss import eventfile as ef
from swiss import trf
from swiss.model import Event, Player, settings_for_preset
from swiss.strictjson import EventFileError
from tests.engines.test_trf import player

REPORT = (
    "012 Aarhus Open\n"
    "022 Aarhus\n"
    "032 DEN\n"
    "042 2026/11/21\n"
    "052 2026/11/23\n"
    "092 Individual: Swiss-System\n"
    "102 Nielsen, Niels\n"
    "112 Olsen, Ole\n"
    "112 Poulsen, Pia\n"
    "122 90 min + 30 s\n"
    + "132".ljust(91)
    + "26/11/21            26/11/22\n"
    + "XXR 3\n"
    + player("", rank="1", name="Anna", points="0.0")
    + "\n"
    + player("", rank="2", name="Bert", points="0.0")
    + "\n"
)


def test_the_rating_report_is_read_into_the_settings():
    s = trf.loads(REPORT, points_by_player).settings
    assert (s.city, s.federation, s.date, s.end_date) == ("Aarhus", "DEN", "2026-11-21", "2026-11-23")
    assert (s.chief_arbiter, s.deputy_arbiters, s.time_control) == (
        "Nielsen, Niels",
        ("Olsen, Ole", "Poulsen, Pia"),
        "90 min + 30 s",
    )
    assert s.round_dates == ("2026-11-21", None, "2026-11-22")


def test_a_files_lines_come_back_as_they_were_and_a_changed_fact_in_its_place():
    event = trf.loads(REPORT, points_by_player)
    assert trf.dumps(event).splitlines()[:12] == REPORT.splitlines()[:12]
    s = event.settings
    changed = Event(
        settings=type(s)(**{**s.__dict__, "chief_arbiter": "Holm, Hans", "deputy_arbiters": (), "city": ""}),
        players=event.players,
    )
    header = trf.dumps(changed).splitlines()[:10]
    assert header[:6] == [
        "012 Aarhus Open",
        "032 DEN",
        "042 2026/11/21",
        "052 2026/11/23",
        "092 Individual: Swiss-System",
        "102 Holm, Hans",
    ]
    assert header[6] == "122 90 min + 30 s" and not any(line.startswith(("022", "112")) for line in header)


def test_lines_the_settings_cannot_hold_are_kept_as_they_are():
    odd = REPORT.replace("032 DEN", "032 Lichess").replace("042 2026/11/21", "042 soon")
    event = trf.loads(odd, points_by_player)
    assert (event.settings.federation, event.settings.date) == ("", None)
    lines = trf.dumps(event).splitlines()
    assert "032 Lichess" in lines and "042 soon" in lines


def test_a_fact_a_file_lacked_goes_among_the_tournament_lines():
    plain = "012 Plain\n062 2\n092 Individual: Swiss-System\nXXR 3\n" + "\n".join(REPORT.splitlines()[-2:]) + "\n"
    event = trf.loads(plain, points_by_player)
    s = event.settings
    assert s.date is None  # no date invented: the export writes none either
    added = Event(
        settings=type(s)(**{**s.__dict__, "time_control": "60 min", "federation": "GER"}), players=event.players
    )
    assert trf.dumps(added).splitlines()[:6] == [
        "012 Plain",
        "032 GER",
        "062 2",
        "092 Individual: Swiss-System",
        "122 60 min",
        "XXR 3",
    ]


def test_an_event_made_here_writes_its_report_in_the_order_of_the_codes():
    settings = settings_for_preset(
        "chess",
        name="Club",
        date="2026-11-21",
        planned_rounds=5,
        city="Kyoto",
        federation="JPN",
        chief_arbiter="Sato, Ken",
        round_dates=("2026-11-21",),
    )
    text = trf.dumps(Event(settings, (Player(id="a", name="A", rating=1500), Player(id="b", name="B"))))
    assert text.splitlines()[:10] == [
        "012 Club",
        "022 Kyoto",
        "032 JPN",
        "042 2026/11/21",
        "062 2",
        "072 1",
        "092 Individual: Swiss-System",
        "102 Sato, Ken",
        "132".ljust(91) + "26/11/21",
        "142 5",
    ]
    assert trf.loads(text, points_by_player).settings.round_dates == ("2026-11-21",)


def test_the_swiss_event_file_carries_the_report_and_the_accelerations():
    doc = {
        "format": "swiss-event",
        "version": 1,
        "preset": "chess",
        "city": "Aarhus",
        "federation": "DEN",
        "end_date": "2026-11-23",
        "chief_arbiter": "Nielsen, Niels",
        "deputy_arbiters": ["Olsen, Ole"],
        "time_control": "90 min + 30 s",
        "round_dates": ["2026-11-21", None],
        "players": [{"id": "1", "name": "Anna", "accelerations": [1, "1/2"]}, {"id": "2", "name": "Bert"}],
    }
    event = ef.parse(doc)
    assert event.settings.round_dates == ("2026-11-21", None) and event.players[0].accelerations == (1, 0.5)
    assert ef.loads(ef.dumps(event)) == event
    assert "accelerations" not in ef.dump(event)["players"][1] and "city" not in ef.dump(
        Event(settings_for_preset("chess"))
    )


@pytest.mark.parametrize(
    ("change", "path", "code"),
    [
        ({"federation": "Denmark"}, "federation", "file_string_too_long"),
        ({"federation": "D1K"}, "federation", "file_federation"),
        ({"end_date": "23.11.2026"}, "end_date", "file_bad_date"),
        ({"round_dates": ["2026-11-21", "soon"]}, "round_dates[1]", "file_bad_date"),
        ({"deputy_arbiters": ["ok"] * 21}, "deputy_arbiters", "file_too_large"),
        (
            {"players": [{"id": "1", "name": "A", "accelerations": [-1]}]},
            "players[0].accelerations[0]",
            "file_too_small",
        ),
    ],
)
def test_wrong_report_keys_are_refused_by_path(change, path, code):
    with pytest.raises(EventFileError) as e:
        ef.parse({"format": "swiss-event", "version": 1, "preset": "chess", **change})
    assert (e.value.path, e.value.message.code) == (path, code)


def test_a_250_line_past_its_columns_is_refused():
    text = "012 x\nXXR 3\n250       1.0 001 002 0001\n" + player("", rank="1", name="A", points="0.0") + "\n"
    with pytest.raises(trf.TRFError) as e:
        trf.loads(text, points_by_player)
    assert (e.value.code, e.value.line) == ("trf_250", 3)
