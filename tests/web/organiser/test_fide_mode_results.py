"""FIDE mode's adjourned games and byes (docs/fide-mode.md). A game recorded as adjourned counts as a draw for the
pairing; pairing with results missing records them as adjourned after a level-2 warning; no final standings and
no final TRF while a result is missing; a result other than a draw for an adjourned game is a level-3 warning and
a `### Adjournment` line. A second half-point bye and one to a player not eligible are level 3; a full-point bye
is level 2 and a `###` line; a phone is refused what needs the arbiter."""

import pytest
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.organiser.test_fide_mode import hidden
from tests.web.organiser.test_fide_mode_manual import pass_all, warned
from tests.web.public.test_public import pair
from tournament.models import Event, EventLog, Match, Player, Round
from tournament.services.adjourned import as_draws
from tournament.services.locks import ServiceError
from tournament.services.roster import request_bye
from tournament.snapshot import event_to_file

pytestmark = pytest.mark.django_db
DONE = Round.State.COMPLETE


@pytest.fixture
def fide(organiser):
    """Four players, two rounds planned, FIDE mode; round 1 published, table 2 (Cleo - Dan) still playing."""
    new_chess_event(organiser, {"Anna": 2000, "Bo": 1900, "Cleo": 1800, "Dan": 1700}, planned_rounds=2)
    Event.objects.filter(slug="open").update(fide_mode=True)
    e = Event.objects.get(slug="open")
    pair(e, 1, [("Anna", "Bo"), ("Cleo", "Dan")], state=Round.State.IN_PROGRESS, results={1: (1, 0, 0)})
    return e


def table(e, number, t) -> Match:
    return Match.objects.get(round__event=e, round__number=number, table=t)


def codes() -> list[tuple[str, int]]:
    return [(d["code"], d["level"]) for d in EventLog.objects.filter(action="warning").values_list("detail", flat=True)]


def test_pairing_with_a_result_missing_adjourns_it_after_a_level_2_warning(org, fide):
    url = reverse("org_round_pair", args=["open"])
    html = warned(org, url, {"once": "p"})
    assert "warning-level-2" in html and "I have read it" in html and "recorded as an adjourned game" in html
    assert not Round.objects.filter(event=fide, number=2).exists()
    assert org.post(url, {"once": "p", "passed": hidden(html, "passed")}).status_code == 302
    assert table(fide, 1, 2).adjourned and Round.objects.filter(event=fide, number=2).exists()
    assert codes() == [("adjourned_when_pairing", 2)]


def test_an_adjourned_game_is_a_draw_for_the_pairing_only(fide, organiser):
    Match.objects.filter(pk=table(fide, 1, 2).pk).update(adjourned=True)
    doc = as_draws(fide, event_to_file(fide))
    assert [m.games for m in doc.rounds[0].matches] == [(1, 0, 0), (0, 0, 1)]
    assert event_to_file(fide).rounds[0].matches[1].games is None


def test_recording_a_game_as_adjourned_at_the_desk(org, fide):
    m = table(fide, 1, 2)
    page = org.get(reverse("org_match", args=["open", 1, m.pk])).content.decode()
    assert "Record as adjourned" in page
    org.post(reverse("org_match_adjourn", args=["open", 1, m.pk]))
    m.refresh_from_db()
    assert m.adjourned and not m.has_result
    assert "counts this game as a draw" in org.get(reverse("org_match", args=["open", 1, m.pk])).content.decode()


def test_no_final_trf_or_standings_while_a_result_is_missing_then_a_decisive_result_is_level_3(org, fide):
    Match.objects.filter(pk=table(fide, 1, 2).pk).update(adjourned=True)
    pair(
        fide, 2, [("Anna", "Cleo"), ("Dan", "Bo")], state=Round.State.IN_PROGRESS, results={1: (1, 0, 0), 2: (0, 0, 1)}
    )
    r = org.get(reverse("org_export_trf", args=["open"]))
    assert r.status_code == 302 and not r.content  # refused: the event page says why
    assert "No final TRF while a result is missing" in org.get(r["Location"]).content.decode()
    assert "Not final" in org.get(reverse("org_standings", args=["open"])).content.decode()
    m = table(fide, 1, 2)
    url = reverse("org_match", args=["open", 1, m.pk])
    data = {"chess_result": "1-0", "version": m.version, "once": "r"}
    html = warned(org, url, data)
    assert "warning-level-3" in html and "was adjourned" in html
    m.refresh_from_db()
    assert not m.has_result
    pass_all(org, url, data)
    m.refresh_from_db()
    assert m.games == (1, 0, 0)
    trf = org.get(reverse("org_export_trf", args=["open"])).content.decode()
    assert "### Adjournment @ Round 1: 3 1-0 4" in trf
    assert "Not final" not in org.get(reverse("org_standings", args=["open"])).content.decode()


def test_a_draw_for_an_adjourned_game_asks_nothing(org, fide):
    m = table(fide, 1, 2)
    Match.objects.filter(pk=m.pk).update(adjourned=True)
    r = org.post(reverse("org_match", args=["open", 1, m.pk]), {"chess_result": "0-0-1", "version": m.version})
    assert r.status_code == 302 and codes() == []
    m.refresh_from_db()
    assert m.games == (0, 0, 1)


def test_a_quick_result_for_an_adjourned_game_asks_its_warning_first(org, fide):
    """Asked where it was entered: tests/web/organiser/test_fide_mode_desk.py follows every path."""
    m = table(fide, 1, 2)
    Match.objects.filter(pk=m.pk).update(adjourned=True)
    r = org.post(reverse("org_match_result", args=["open", 1, m.pk]), {"result": "1-0", "version": m.version})
    assert r.status_code == 200 and 'data-code="adjourned_not_draw"' in r.content.decode()
    m.refresh_from_db()
    assert not m.has_result


@pytest.fixture
def byes(organiser):
    new_chess_event(organiser, {"Anna": 2000, "Bo": 1900, "Cleo": 1800}, planned_rounds=5)
    Event.objects.filter(slug="open").update(fide_mode=True, players_request_byes=True)
    return Event.objects.get(slug="open")


def test_a_second_half_point_bye_is_level_3(org, byes):
    anna = byes.players.get(name="Anna")
    url = reverse("org_player_bye", args=["open", anna.pk])
    assert org.post(url, {"round": 2, "kind": "half_bye", "once": "b1"}).status_code == 302
    html = warned(org, url, {"round": 4, "kind": "half_bye", "once": "b2"})
    assert "warning-level-3" in html and "already has a half-point bye" in html
    pass_all(org, url, {"round": 4, "kind": "half_bye", "once": "b2"})
    anna.refresh_from_db()
    assert anna.requested_byes == {"2": "half_bye", "4": "half_bye"}
    assert codes() == [("second_half_bye", 3)]


def test_a_player_not_eligible_for_half_point_byes(org, byes):
    bo = byes.players.get(name="Bo")
    page = org.get(reverse("org_player_edit", args=["open", bo.pk])).content.decode()
    assert "May take half-point byes" in page and "Full-point bye (deprecated by FIDE)" in page
    Player.objects.filter(pk=bo.pk).update(half_bye_ok=False)
    html = warned(org, reverse("org_player_bye", args=["open", bo.pk]), {"round": 1, "kind": "half_bye", "once": "n"})
    assert "Bo is not eligible for half-point byes" in html
    bo.refresh_from_db()
    with pytest.raises(ServiceError, match="Ask the arbiter at the desk"):
        request_bye(bo, 1, "half_bye", asked_by_player=True)


def test_a_full_point_bye_is_level_2_and_a_trf_line(org, byes):
    cleo = byes.players.get(name="Cleo")
    url = reverse("org_player_bye", args=["open", cleo.pk])
    html = warned(org, url, {"round": 1, "kind": "full_bye", "once": "f"})
    assert "warning-level-2" in html and "deprecated by FIDE" in html
    pass_all(org, url, {"round": 1, "kind": "full_bye", "once": "f"})
    cleo.refresh_from_db()
    assert cleo.requested_byes == {"1": "full_bye"}
    assert "### Full-point bye @ Round 1: Cleo" in org.get(reverse("org_export_trf", args=["open"])).content.decode()


def test_outside_fide_mode_no_full_point_bye_and_no_warning(organiser):
    new_chess_event(organiser, {"Anna": 2000, "Bo": 1900}, slug="club")
    anna = Player.objects.get(event__slug="club", name="Anna")
    with pytest.raises(ServiceError):
        request_bye(anna, 1, "full_bye", organiser)
    request_bye(anna, 1, "half_bye", organiser)
    request_bye(anna, 2, "half_bye", organiser)
    assert EventLog.objects.filter(action="warning").count() == 0


def test_a_trf_with_the_comment_lines_is_read_back_as_a_fide_mode_event(org, fide, organiser):
    from django.core.files.uploadedfile import SimpleUploadedFile

    m = table(fide, 1, 2)
    Match.objects.filter(pk=m.pk).update(adjourned=True)
    pass_all(org, reverse("org_match", args=["open", 1, m.pk]), {"chess_result": "0-1", "version": m.version})
    text = org.get(reverse("org_export_trf", args=["open"])).content
    assert b"### Adjournment @ Round 1: 3 0-1 4" in text
    r = org.post(reverse("org_event_import_trf"), {"file": SimpleUploadedFile("open.trf", text), "once": "i"})
    assert r.status_code == 302
    copy = Event.objects.exclude(pk=fide.pk).get()
    assert copy.fide_mode and copy.players.count() == 4
    assert b"### Adjournment @ Round 1: 3 0-1 4" in org.get(reverse("org_export_trf", args=[copy.slug])).content
