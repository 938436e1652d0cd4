"""FIDE mode: the tie-break list changed once round 1 is paired is a level-4 warning, passed in two
confirmations; then the new list ranks the standings, the event's log keeps the change and the TRF export a
`###` line with the list it replaced (C.07 spelling). Before round 1, or outside FIDE mode, nothing is asked."""

import pytest
from django.urls import reverse

from tests.conftest import new_chess_event
from tournament.models import Event, EventLog
from tournament.services.rounds import pair_next_round
from tournament.snapshot import event_to_trf

pytestmark = pytest.mark.django_db


def chess_event(organiser, fide: bool, slug: str = "open") -> Event:
    e = new_chess_event(organiser, {f"P{i}": 2000 - 10 * i for i in range(6)}, slug=slug)
    Event.objects.filter(pk=e.pk).update(fide_mode=fide)
    e.refresh_from_db()
    return e


def hidden(html: str, name: str) -> list[str]:
    marker = f'name="{name}" value="'
    return [part.split('"', 1)[0] for part in html.split(marker)[1:]]


def post_list(org, event, codes, language="en", **extra):
    from tests.web.organiser.test_organiser import settings_data

    data = settings_data(event, win_points="1", draw_points="1/2", best_of=1, colours="on")
    data.update({"tiebreakers": codes, "confirm_locked": "on", **extra})
    return org.post(reverse("org_settings", args=[event.slug]), data, HTTP_ACCEPT_LANGUAGE=language)


def test_a_change_after_round_one_asks_twice_then_writes_the_old_list_in_the_trf(org, organiser):
    event = chess_event(organiser, fide=True)
    pair_next_round(event, organiser)
    first = post_list(org, event, ["TPN", "STD"])
    html = first.content.decode()
    assert first.status_code == 200 and "Change the tie-breaks after round 1 has been paired?" in html
    event.refresh_from_db()
    assert event.tiebreakers == ["BH-C1", "BH", "SB"]  # nothing changed yet
    second = post_list(org, event, ["TPN", "STD"], passed=hidden(html, "passed"))
    html2 = second.content.decode()
    assert second.status_code == 200 and "rating officer" in html2
    event.refresh_from_db()
    assert event.tiebreakers == ["BH-C1", "BH", "SB"]
    done = post_list(org, event, ["TPN", "STD"], passed=hidden(html2, "passed"))
    assert done.status_code == 302
    event.refresh_from_db()
    assert event.tiebreakers == ["TPN", "STD"]
    logged = EventLog.objects.get(event=event, action="warning")
    assert logged.detail["code"] == "tiebreaks_changed" and logged.detail["params"]["old"] == ["BH-C1", "BH", "SB"]
    lines = event_to_trf(event).splitlines()
    assert "### Tie-breaks changed @ Round 1, were: BH/C1,BH,SB" in lines
    assert "202 TPN,STD" in lines


def test_before_round_one_or_outside_fide_mode_the_list_just_changes(org, organiser):
    event = chess_event(organiser, fide=True)
    assert post_list(org, event, ["RTNG"]).status_code == 302
    event.refresh_from_db()
    assert event.tiebreakers == ["RTNG"]
    other = chess_event(organiser, fide=False, slug="other")
    pair_next_round(other, organiser)
    assert post_list(org, other, ["REP"]).status_code == 302
    other.refresh_from_db()
    assert other.tiebreakers == ["REP"] and not EventLog.objects.filter(event=other, action="warning").exists()


def test_the_warning_in_danish_and_japanese(org, organiser):
    event = chess_event(organiser, fide=True)
    pair_next_round(event, organiser)
    for language, words in (("da", "Ændr korrektionerne"), ("ja", "タイブレーカーを変更しますか")):
        assert words in post_list(org, event, ["TPN"], language=language).content.decode()


C07_VARIANTS = ("FB-C1", "FB-C2", "FB-M1", "FB-M2", "SB-C2", "SB-M1", "SB-M2", "KS", "ARO-C2", "ARO-M1", "ARO-M2")


def test_the_c07_modifier_variants_and_koya_are_offered_ranked_by_and_written_in_the_trf(org, organiser):
    event = chess_event(organiser, fide=True)
    page = org.get(reverse("org_settings", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    for code in C07_VARIANTS:
        assert f'<option value="{code}">{code} — ' in page
    assert "コヤ・システム" in page and "フォア・ブッフホルツ（最低の対戦相手を除く）" in page
    assert post_list(org, event, ["FB-M1", "SB-C2", "KS", "ARO-M2"]).status_code == 302
    event.refresh_from_db()
    assert event.tiebreakers == ["FB-M1", "SB-C2", "KS", "ARO-M2"]
    assert "202 FB/M1,SB/C2,KS,ARO/M2" in event_to_trf(event).splitlines()
    pair_next_round(event, organiser)
    standings = org.get(reverse("org_standings", args=[event.slug])).content.decode()
    assert all(code in standings for code in ("FB-M1", "SB-C2", "KS", "ARO-M2"))
