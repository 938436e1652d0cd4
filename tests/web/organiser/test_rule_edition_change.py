"""The FIDE rules an event follows changed after round 1: its C.07 edition named anew, or a new date that moves the
edition or B.02's 2650 rule (swiss/rules.py). In FIDE mode each is a level-4 warning, as a new tie-break list is,
and the TRF export keeps a `###` line naming the old and the new; outside FIDE mode the settings page's ordinary
confirmation asks it; both log it. A new date that moves neither asks nothing new."""

import datetime as dt

import pytest
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.files.test_trf_web import HELD, upload
from tests.web.organiser.test_organiser import settings_data
from tests.web.organiser.test_tiebreak_change import hidden
from tournament.models import Event, EventLog
from tournament.services.rounds import pair_next_round
from tournament.snapshot import event_to_trf

pytestmark = pytest.mark.django_db


@pytest.fixture
def held(org) -> Event:
    """Held's crosstable of 22 March 2024 (5 rounds), uploaded: in FIDE mode, ranked by the 2024 edition."""
    assert upload(org, HELD).status_code == 302
    event = Event.objects.get()
    assert event.fide and event.date == dt.date(2024, 3, 22) and event.rounds.count() == 5
    return event


def post(org, event, language="en", confirm=True, **over):
    data = settings_data(event, win_points="1", draw_points="1/2", best_of=1, colours="on", planned_rounds=5)
    data.update({"top_cut": 0, **({"confirm_locked": "on"} if confirm else {}), **over})
    return org.post(reverse("org_settings", args=[event.slug]), data, HTTP_ACCEPT_LANGUAGE=language)


def passing(org, event, language="en", **over) -> list[str]:
    """Post the settings, then pass every warning asked, twice each; the pages asked, as text."""
    pages = []
    response = post(org, event, language, **over)
    while response.status_code == 200 and 'name="passed"' in (html := response.content.decode()):
        pages.append(html)
        response = post(org, event, language, passed=hidden(html, "passed"), **over)
    assert response.status_code == 302, response.content.decode()[:2000]
    return pages


def codes(event) -> list[str]:
    return [
        d["code"]
        for d in EventLog.objects.filter(event=event, action="warning").order_by("id").values_list("detail", flat=True)
    ]


def test_naming_another_edition_after_round_one_asks_twice_and_writes_both_in_the_trf(org, held):
    first = post(org, held, tiebreak_rules="2026")
    html = first.content.decode()
    assert first.status_code == 200 and "Change the edition of the tie-breaks after round 1 has been paired?" in html
    assert "FIDE tie-break regulations of March 2026 instead of the FIDE tie-break regulations of August" in html
    held.refresh_from_db()
    assert held.tiebreak_rules == ""  # nothing changed yet
    second = post(org, held, tiebreak_rules="2026", passed=hidden(html, "passed"))
    consequences = second.content.decode()
    # The consequence: the tie-break figures change (the 2026 dummy opponent of 16.4), and whose rank.
    assert second.status_code == 200 and "tie-break figures are worked out by the new edition" in consequences
    assert "in the current standings, ranks change: Irina from 8 to 7, Maria from 7 to 8." in consequences
    assert post(org, held, tiebreak_rules="2026", passed=hidden(consequences, "passed")).status_code == 302
    held.refresh_from_db()
    assert held.tiebreak_rules == "2026" and codes(held) == ["tiebreak_rules_changed"]
    assert "### Tie-break rules changed @ Round 5: C.07 edition 2024 -> 2026" in event_to_trf(held).splitlines()
    logged = EventLog.objects.get(event=held, action="settings_after_pairing").detail
    assert "tiebreak_rules" in logged["fields"] and "date" not in logged["fields"] and logged["c07"] == ["2024", "2026"]


def test_a_date_that_moves_the_edition_and_the_2650_rule_asks_both(org, held):
    pages = passing(org, held, date="2026-03-01")
    assert len(pages) == 2  # both warnings on one page, then both consequences on the next
    assert "The new date changes the edition of the tie-breaks" in pages[0]
    assert "on or after 1 October 2025" in pages[0]
    held.refresh_from_db()
    assert held.date == dt.date(2026, 3, 1) and codes(held) == ["tiebreak_rules_changed", "rating_rule_changed"]
    lines = event_to_trf(held).splitlines()
    dated = "(event date 2024-03-22 -> 2026-03-01)"
    assert f"### Tie-break rules changed @ Round 5: C.07 edition 2024 -> 2026 {dated}" in lines
    assert f"### Rating rule changed @ Round 5: B.02 8.3.1 2650 rule of 1 October 2025 {dated}" in lines
    logged = EventLog.objects.get(event=held, action="settings_after_pairing").detail
    assert "date" in logged["fields"] and logged["c07"] == ["2024", "2026"]
    assert logged["uncapped_2650"] == [False, True]


def test_a_date_that_moves_neither_asks_nothing_new(org, held):
    response = post(org, held, date="2024-04-02")  # (the form's floor differs from Held's: it is confirmed)
    assert response.status_code == 302, response.content.decode()[:2000]
    held.refresh_from_db()
    assert held.date == dt.date(2024, 4, 2) and codes(held) == []
    logged = EventLog.objects.get(event=held, action="settings_after_pairing").detail
    assert "date" not in logged["fields"] and "c07" not in logged


def test_a_date_that_moves_the_edition_alone_asks_the_edition_only(org, organiser):
    event = new_chess_event(organiser, {f"P{i}": 2000 - 10 * i for i in range(6)}, date=dt.date(2026, 2, 20))
    Event.objects.filter(pk=event.pk).update(fide_mode=True)
    event.refresh_from_db()
    pair_next_round(event, organiser)
    pages = passing(org, event, date="2026-03-05")
    assert len(pages) == 2 and "on or after 1 October 2025" not in pages[0]
    assert codes(event) == ["tiebreak_rules_changed"]
    line = "### Tie-break rules changed @ Round 1: C.07 edition 2024 -> 2026 (event date 2026-02-20 -> 2026-03-05)"
    assert line in event_to_trf(event).splitlines()


def test_outside_fide_mode_the_ordinary_confirmation_asks_and_the_log_keeps_it(org, held):
    Event.objects.filter(pk=held.pk).update(fide_mode=False)
    held.refresh_from_db()
    refused = post(org, held, confirm=False, date="2026-03-01")
    assert refused.status_code == 200 and "the new date changes the FIDE rules the event follows" in (
        refused.content.decode()
    )
    held.refresh_from_db()
    assert held.date == dt.date(2024, 3, 22)
    assert post(org, held, confirm=False, tiebreak_rules="2026").status_code == 200  # the edition: confirmed too
    assert post(org, held, date="2026-03-01").status_code == 302
    held.refresh_from_db()
    assert held.date == dt.date(2026, 3, 1) and codes(held) == []
    logged = EventLog.objects.get(event=held, action="settings_after_pairing").detail
    assert "date" in logged["fields"] and "tiebreak_rules" not in logged["fields"] and logged["c07"] == ["2024", "2026"]
    assert "Tie-break rules changed" not in event_to_trf(held)
    log_page = org.get(reverse("org_event", args=[held.slug])).content.decode()
    assert "the date (which changes the FIDE rules the event follows)" in log_page


def test_a_sections_settings_ask_it_too(org, organiser):
    venue = new_chess_event(organiser, {}, slug="venue", date=dt.date(2025, 5, 1))
    section = new_chess_event(
        organiser, {f"P{i}": 2000 - 10 * i for i in range(6)}, slug="venue-a", parent=venue, date=venue.date
    )
    Event.objects.filter(pk=section.pk).update(fide_mode=True)
    section.refresh_from_db()
    assert section.is_section
    pair_next_round(section, organiser)
    pages = passing(org, section, tiebreak_rules="2026")
    assert len(pages) == 2 and "Change the edition of the tie-breaks" in pages[0]
    assert "no player&#x27;s rank in the current standings changes." in pages[1]  # no result yet
    assert "### Tie-break rules changed @ Round 1: C.07 edition 2024 -> 2026" in event_to_trf(section).splitlines()


def test_the_warning_in_japanese_and_danish(org, held):
    ja = post(org, held, "ja", tiebreak_rules="2026").content.decode()
    assert "ラウンド1を組んだ後にタイブレーカーの版を変更しますか？" in ja
    assert "FIDEタイブレーカー規程（2024年8月版）ではなくFIDEタイブレーカー規程（2026年3月版）" in ja
    da = post(org, held, "da", tiebreak_rules="2026").content.decode()
    assert "Ændr udgaven af korrektionerne, efter at runde 1 er parret?" in da
    assert "følge FIDE-korrektionsregler fra marts 2026 i stedet for FIDE-korrektionsregler fra august 2024" in da


def test_the_admin_logs_a_date_that_moves_the_rules(organiser, rf, admin_user):
    from django.contrib.messages.storage.fallback import FallbackStorage

    from tests.web.organiser.test_admin import admin_form

    request = rf.post("/admin/")
    request.user, request.session = admin_user, {}
    request._messages = FallbackStorage(request)
    event = new_chess_event(organiser, {f"P{i}": 2000 - 10 * i for i in range(6)}, date=dt.date(2026, 2, 20))
    pair_next_round(event, organiser)
    event.refresh_from_db()
    for date, logged in (("2026-02-27", False), ("2026-03-05", True)):  # the same edition, then the next
        model_admin, form = admin_form(request, event, date=date)
        model_admin.save_model(request, form.instance, form, True)
        event.refresh_from_db()
        assert event.date.isoformat() == date
        found = EventLog.objects.filter(event=event, action="settings_after_pairing")
        assert [e.detail["fields"] for e in found] == ([["date"]] if logged else [])
