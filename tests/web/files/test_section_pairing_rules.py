"""One set of rules for two sections paired together, kept in `swiss.sectionfacts.pair_with_problem`: the
section settings form and the swiss-event file reader refuse the same things in the same words (the reader
once took two sections paired with each other, A↔B, which the form refuses). And the reader refuses a key
given twice in one object instead of keeping the last silently."""

import html

import pytest
from django.conf import settings
from django.utils import translation

from swiss import venuefile
from swiss.strictjson import EventFileError
from tests.web.sections.test_divisions import logged_in, pairing, settings_post
from tournament.models import Event
from tournament.text import engine_text

pytestmark = pytest.mark.django_db


def venue_file(a: dict, b: dict, c: dict | None = None) -> str:
    import json

    sections = [{"name": "A", "preset": "pokemon", **a}, {"name": "B", "preset": "pokemon", **b}]
    if c is not None:
        sections.append({"name": "C", "preset": "pokemon", **c})
    return json.dumps({"format": "swiss-event", "version": 2, "name": "Venue", "sections": sections})


def file_refusal(text: str) -> EventFileError:
    with pytest.raises(EventFileError) as refused:
        venuefile.loads(text)
    return refused.value


CASES = {
    # rule: (the file, the path it names, the message code)
    "a circle": (
        venue_file({"pair_with": "B", "pair_with_below": 8}, {"pair_with": "A", "pair_with_below": 8}),
        "sections[0].pair_with",
        "pair_with_chain",
    ),
    "a chain": (
        venue_file({"pair_with": "B", "pair_with_below": 8}, {"pair_with": "C", "pair_with_below": 8}, {}),
        "sections[0].pair_with",
        "pair_with_chain",
    ),
    "another scoring": (
        venue_file({"pair_with": "B", "pair_with_below": 8}, {"scoring": {"win": 2}}),
        "sections[0].pair_with",
        "pair_with_scoring",
    ),
    "no threshold": (venue_file({"pair_with": "B"}, {}), "sections[0].pair_with_below", "pair_with_below_missing"),
    "itself": (
        venue_file({"pair_with": "A", "pair_with_below": 8}, {}),
        "sections[0].pair_with",
        "file_no_such_section",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_the_reader_refuses_what_the_form_refuses(case):
    text, path, code = CASES[case]
    refused = file_refusal(text)
    assert (refused.path, refused.message.code) == (path, code)


def test_a_file_the_form_would_accept_is_read():
    doc = venuefile.loads(venue_file({"pair_with": "B", "pair_with_below": 8}, {}))
    assert doc.sections[0].settings.pair_with == "B"


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_form_and_the_reader_say_it_in_the_same_words(venue, organiser, language):
    a, b = pairing(venue, below=1)
    org = logged_in(organiser)
    org.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    # B pairs with A already: A pairing with B would close a circle.
    Event.objects.filter(pk=a.pk).update(pair_with=None, pair_with_below=None)
    Event.objects.filter(pk=b.pk).update(pair_with=a, pair_with_below=4)
    a.refresh_from_db()
    page = html.unescape(settings_post(org, a, pair_with=b.pk, pair_with_below=8).content.decode())
    circle = CASES["a circle"][0]
    with translation.override(language):
        said = engine_text.sentence(file_refusal(circle).message)
        in_file = engine_text.file_error(file_refusal(circle))
    assert said in page
    assert in_file.endswith(said[:1].lower() + said[1:].rstrip(".。"))
    a.refresh_from_db()
    assert a.pair_with is None


def test_the_reader_refuses_a_key_given_twice_by_its_place():
    text = (
        '{"format": "swiss-event", "version": 1, "name": "A", "players": [{"id": "p1", "name": "Anna", "name": "Bo"}]}'
    )
    refused = file_refusal(text)
    assert refused.path == "players[0].name" and refused.message.code == "file_key_twice"
    top = file_refusal('{"format": "swiss-event", "version": 1, "name": "A", "name": "B"}')
    assert top.path == "name"
    with translation.override("ja"):
        assert "2回" in engine_text.file_error(top)
