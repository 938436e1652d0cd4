"""The version-2 swiss-event file (an event with sections): strict parsing that names the place, the venue's
facts inherited by its sections, lossless round trips, and version 1 read and written exactly as before."""

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from swiss import eventfile as ef
from swiss import model, venuefile
from tests.conftest import example_files
from tests.engines.test_eventfile import generated_event


def body(path) -> dict:
    """A version-1 example file as a section's body: everything but `format` and `version`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["format"], data["version"]
    return data


def two_sections(**top) -> dict:
    hyogo, drawboss = (body(p) for p in example_files())
    hyogo["name"], drawboss["name"] = "Magic", "Backgammon"
    return {"format": "swiss-event", "version": 2, "name": "Regionals", "date": "2026-11-28", **top,
            "sections": [hyogo, drawboss]}  # fmt: skip


def test_a_version_2_file_is_a_venue_whose_sections_are_the_version_1_files():
    venue = venuefile.parse(two_sections())
    assert isinstance(venue, model.Venue)
    assert (venue.name, venue.date, venue.language, venue.public) == ("Regionals", "2026-11-28", "en", True)
    for section, path in zip(venue.sections, example_files(), strict=True):
        alone = ef.loads(path.read_bytes())
        # The section is the file alone, but for its name and the day it takes from the venue.
        assert section == replace(
            alone, settings=replace(alone.settings, name=section.settings.name, date="2026-11-28")
        )


def test_a_section_takes_the_venues_facts_it_leaves_out_and_keeps_its_own():
    doc = two_sections(language="ja", time_zone="Asia/Tokyo", public=False)
    doc["sections"][1].update(language="da", date="2026-11-29", public=True)
    venue = venuefile.parse(doc)
    first, second = (s.settings for s in venue.sections)
    assert (first.language, first.time_zone, first.public, first.date) == ("ja", "Asia/Tokyo", False, "2026-11-28")
    assert (second.language, second.time_zone, second.public, second.date) == ("da", "Asia/Tokyo", True, "2026-11-29")


def test_a_section_that_differs_from_the_venue_writes_even_the_default():
    venue = venuefile.parse(two_sections(language="ja"))
    english = replace(venue.sections[0], settings=replace(venue.sections[0].settings, language="en", date=None))
    venue = replace(venue, sections=(english, venue.sections[1]))
    doc = venuefile.dump(venue)
    assert doc["sections"][0]["language"] == "en" and doc["sections"][0]["date"] is None
    assert "language" not in doc["sections"][1] and "date" not in doc["sections"][1]
    assert venuefile.parse(json.loads(venuefile.dumps(venue))) == venue


@pytest.mark.parametrize("seed", range(4))
def test_venues_round_trip_through_the_file(seed):
    sections = []
    for k in range(3):
        e = generated_event(seed * 3 + k, players=7 + k, rounds=3)
        sections.append(replace(e, settings=replace(e.settings, name=f"Section {k}", slug=f"open-s{k}")))
    # Player numbers are the venue's: one run across sections.
    sections = [
        replace(e, players=tuple(replace(p, number=100 * k + i + 1) for i, p in enumerate(e.players)))
        for k, e in enumerate(sections)
    ]
    venue = model.Venue(
        name="Open", slug="open", date="2026-11-21", language="da", time_zone="Europe/Copenhagen",
        players=(model.Player(id="w1", name="Waiting", number=999),), sections=tuple(sections),
    )  # fmt: skip
    text = venuefile.dumps(venue)
    assert venuefile.loads(text) == venue
    assert venuefile.dumps(venuefile.loads(text)) == text


def test_section_settings_round_trip_and_are_written_only_when_set():
    venue = venuefile.parse(two_sections())
    a, b = venue.sections
    a = replace(
        a,
        settings=replace(
            a.settings, first_table=101, rating_min=1600, rating_max=1999, birth_year_min=2010, birth_year_max=2014,
            cut_after=5, cut_points=Fraction(19, 2), cut_top=32, cut_ties="points", pair_with="Backgammon",
            pair_with_below=8,
        ),
        players=(replace(a.players[0], division="Juniors", cut_after=5), *a.players[1:]),
    )  # fmt: skip
    # Sections paired together score alike (the settings form's rule, and the reader's).
    b = replace(b, settings=replace(b.settings, preset=a.settings.preset, scoring=a.settings.scoring))
    venue = replace(venue, sections=(a, b))
    doc = venuefile.dump(venue)
    assert doc["sections"][0]["cut_points"] == "19/2" and doc["sections"][0]["pair_with"] == "Backgammon"
    assert doc["sections"][0]["players"][0]["division"] == "Juniors"
    assert not {"first_table", "cut_after", "pair_with"} & set(doc["sections"][1])
    assert "division" not in doc["sections"][0]["players"][1]
    assert venuefile.parse(json.loads(json.dumps(doc))) == venue


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_a_version_1_file_reads_and_writes_exactly_as_before(path):
    event = venuefile.loads(path.read_bytes())
    assert event == ef.loads(path.read_bytes())
    assert venuefile.dumps(event) == ef.dumps(event)
    assert "version" in ef.dump(event) and ef.dump(event)["version"] == 1


def test_every_version_1_event_of_every_preset_writes_no_section_key():
    for seed in range(6):
        doc = ef.dump(generated_event(seed))
        assert not set(doc) & {"first_table", "rating_min", "cut_after", "cut_points", "pair_with", "sections"}
        assert all(not {"division", "cut_after"} & set(p) for p in doc["players"])


def _with(change) -> dict:
    doc = two_sections()
    change(doc)
    return doc


BAD_VENUES = [
    (_with(lambda d: d.update(version=3)), "version", "expected one of 1, 2"),
    (_with(lambda d: d.update(sections=[])), "sections", "at least one section"),
    (_with(lambda d: d.pop("sections")), "sections", "expected a list"),
    (_with(lambda d: d.update(rounds=[])), "rounds", "unknown key"),
    (_with(lambda d: d.update(format="other")), "format", "swiss-event"),
    (_with(lambda d: d.update(language="fr")), "language", "one of"),
    (_with(lambda d: d["sections"][1].pop("name")), "sections[1].name", "missing"),
    (_with(lambda d: d["sections"][1].update(name="Magic")), "sections[1].name", "given twice"),
    (_with(lambda d: d["sections"][1].update(format="swiss-event")), "sections[1].format", "unknown key"),
    (_with(lambda d: d["sections"][0].update(pair_with="Chess")), "sections[0].pair_with", "no other section"),
    (_with(lambda d: d["sections"][0].update(pair_with="Magic")), "sections[0].pair_with", "no other section"),
    (_with(lambda d: d["sections"][1]["players"][2].update(rating=-1)), "sections[1].players[2].rating", "at least 0"),
    (
        _with(lambda d: d["sections"][0]["rounds"][0]["matches"][0].update(a="nobody")),
        "sections[0].rounds[0].matches[0].a",
        "unknown player",
    ),
    (_with(lambda d: d["sections"][0].update(rating_min=2000, rating_max=1800)), "sections[0].rating_max", "below"),
    (_with(lambda d: d["sections"][0].update(cut_points="-1")), "sections[0].cut_points", "at least 0"),
    (_with(lambda d: d["sections"][0].update(cut_after=0)), "sections[0].cut_after", "at least 1"),
    (_with(lambda d: d["sections"][0]["players"][0].update(cut_after="5")), "sections[0].players[0].cut_after", ""),
    (
        _with(lambda d: [d["sections"][k]["players"][0].update(number=7) for k in (0, 1)]),
        "sections[1].players[0].number",
        "player number 7 is given twice",
    ),
    (
        _with(
            lambda d: (
                d.update(players=[{"id": "x", "name": "X", "number": 7}])
                or d["sections"][0]["players"][3].update(number=7)
            )
        ),
        "sections[0].players[3].number",
        "given twice",
    ),  # fmt: skip
    (_with(lambda d: d.update(players=[{"id": "x"}])), "players[0].name", "missing"),
]


@pytest.mark.parametrize(("doc", "path", "words"), BAD_VENUES)
def test_malformed_version_2_files_name_the_place(doc, path, words):
    with pytest.raises(ef.EventFileError) as info:
        venuefile.parse(doc)
    assert info.value.path == path
    assert words in str(info.value)


def test_a_version_1_file_cannot_pair_with_another_section():
    doc = json.loads(example_files()[0].read_text(encoding="utf-8"))
    with pytest.raises(ef.EventFileError) as info:
        venuefile.parse({**doc, "pair_with": "B"})
    assert info.value.path == "pair_with"
    assert "version 2" in str(info.value)
