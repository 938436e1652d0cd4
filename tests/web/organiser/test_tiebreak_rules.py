"""A chess event's standings follow the FIDE tie-break regulations (C.07) in force on its date, or the edition
its organiser names in the settings; the settings page and the standings page say which, in the reader's
language. Held's crosstable, uploaded as a TRF, is dated 22 March 2024: the figures its paper published."""

from fractions import Fraction as F

import pytest
from django.urls import reverse

from swiss import eventfile
from tests.web.files.test_trf_web import HELD, upload
from tests.web.organiser.test_organiser import settings_data
from tournament.models import Event
from tournament.services.standings import event_standings
from tournament.snapshot import event_to_file

pytestmark = pytest.mark.django_db

AUGUST_2024 = "FIDE tie-break regulations of August 2024"
MARCH_2026 = "FIDE tie-break regulations of March 2026"


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def held(org) -> Event:
    assert upload(org, HELD).status_code == 302
    return Event.objects.get()


def bh_of_david(event: Event) -> F:
    event.refresh_from_db()
    row = next(r for r in event_standings(event).rows if r.name == "David")
    return row.tiebreakers["BH"]


def save(org, event: Event, language: str = "en", **over):
    data = settings_data(event, win_points="1", draw_points="1/2", best_of=1, colours="on", planned_rounds=5)
    data.update({"top_cut": 0, "confirm_locked": "on", **over})
    return org.post(reverse("org_settings", args=[event.slug]), data, HTTP_ACCEPT_LANGUAGE=language)


def page(org, name: str, event: Event, language: str = "en") -> str:
    response = org.get(reverse(name, args=[event.slug]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_an_event_dated_before_march_2026_is_ranked_by_the_2024_edition_and_says_so(org, held):
    assert held.date.isoformat() == "2024-03-22" and held.tiebreak_rules == ""
    # David (#4), a half-point bye in round 2: the paper's BH 15 (his own 3.5 for the bye), not 2026's 14.
    assert bh_of_david(held) == 15
    assert AUGUST_2024 in page(org, "org_standings", held)
    assert AUGUST_2024 in page(org, "org_settings", held)


def test_the_events_date_moved_into_2026_ranks_it_by_the_2026_edition(org, held):
    response = save(org, held, date="2026-03-01")
    assert response.status_code == 302, response.content.decode()[:2000]
    assert bh_of_david(held) == 14
    assert MARCH_2026 in page(org, "org_standings", held)
    settings = page(org, "org_settings", held)
    assert MARCH_2026 in settings and AUGUST_2024 in settings  # the line, and the setting's choices


def test_the_organiser_names_the_edition_whatever_the_date(org, held):
    assert save(org, held, date="2026-03-01", tiebreak_rules="2024").status_code == 302
    held.refresh_from_db()
    assert held.tiebreak_rules == "2024" and bh_of_david(held) == 15
    assert f"{AUGUST_2024} (the event’s choice)" in page(org, "org_standings", held)
    # A file keeps the choice: exported and read again.
    doc = eventfile.loads(eventfile.dumps(event_to_file(held)))
    assert (doc.settings.date, doc.settings.tiebreak_rules) == ("2026-03-01", "2024")
    # Named back to "by the date": 2026's again.
    assert save(org, held, date="2026-03-01", tiebreak_rules="").status_code == 302
    assert bh_of_david(held) == 14


def test_an_edition_the_app_does_not_know_is_refused_with_a_message(org, held):
    response = save(org, held, tiebreak_rules="2023")
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    held.refresh_from_db()
    assert held.tiebreak_rules == ""


def test_the_line_in_japanese_and_danish(org, held):
    for language, words in (
        ("ja", "FIDEタイブレーカー規程（2024年8月版）"),
        ("da", "FIDE-korrektionsregler fra august 2024"),
    ):
        assert words in page(org, "org_standings", held, language)
        assert words in page(org, "org_settings", held, language)
    assert save(org, held, date="2026-05-01", tiebreak_rules="2026").status_code == 302
    assert "FIDEタイブレーカー規程（2026年3月版）（大会の指定）" in page(org, "org_standings", held, "ja")
    assert "FIDE-korrektionsregler fra marts 2026 (turneringens valg)" in page(org, "org_standings", held, "da")


def test_the_public_and_printed_standings_say_it_too(org, client, held):
    for name in ("public:standings", "org_print_standings"):
        assert AUGUST_2024 in page(org, name, held)
    assert save(org, held, date="2026-03-01").status_code == 302
    assert MARCH_2026 in page(org, "public:standings", held, "en")
    assert "FIDEタイブレーカー規程（2026年3月版）" in page(org, "public:standings", held, "ja")
    assert MARCH_2026 in page(org, "org_print_standings", held)


def test_an_event_without_fide_tie_breaks_names_no_edition(org, event):
    # A Magic event (the `event` fixture): no C.07 tie-break, no setting, no line.
    settings = page(org, "org_settings", event)
    assert 'name="tiebreak_rules"' not in settings and "FIDE tie-break regulations" not in settings
    for name in ("org_standings", "public:standings", "org_print_standings"):
        assert "FIDE tie-break regulations" not in page(org, name, event)
