"""FIDE mode itself and its warnings (docs/fide-mode.md): on for every new chess event and invisible for card
games; leaving it is a level-4 warning passed in two confirmations, recorded in the event's log and as a `###`
line of the TRF export, for good, with a mark on every organiser page. The warning page works without a script,
with htmx, and a double click on its last button leaves once."""

import pytest
from django.urls import reverse

from tests.conftest import new_chess_event
from tournament.models import Event, EventLog
from tournament.services.locks import ServiceError
from tournament.services.warnings import Level, Unpassed, Warning, check, pending, trf_comments

pytestmark = pytest.mark.django_db

NEW = {"date": "2026-11-23", "top_cut": 0, "round_minutes": 50}


@pytest.fixture
def chess(organiser):
    new_chess_event(organiser, {f"P{i}": 2000 - 10 * i for i in range(6)})
    e = Event.objects.get(slug="open")
    Event.objects.filter(pk=e.pk).update(fide_mode=True)
    e.refresh_from_db()
    return e


def hidden(html: str, name: str) -> list[str]:
    """The values of the page's hidden inputs called `name`, in order."""
    marker = f'name="{name}" value="'
    return [part.split('"', 1)[0] for part in html.split(marker)[1:]]


def test_a_new_chess_event_is_in_fide_mode_and_a_card_game_is_not(org):
    org.post(reverse("org_event_new"), {"name": "Chess", "preset": "chess", **NEW})
    org.post(reverse("org_event_new"), {"name": "Magic", "preset": "mtg", **NEW})
    chess, magic = Event.objects.get(name="Chess"), Event.objects.get(name="Magic")
    assert chess.fide_mode and chess.fide and not magic.fide
    assert "FIDE mode" in org.get(reverse("org_settings", args=[chess.slug])).content.decode()
    page = org.get(reverse("org_settings", args=[magic.slug])).content.decode()
    assert "FIDE mode" not in page and "Not FIDE mode" not in page


def test_leaving_asks_twice_then_leaves_for_good(org, chess):
    url = reverse("org_fide", args=[chess.slug])
    first = org.post(url, {"action": "leave", "once": "t-leave"})
    html = first.content.decode()
    assert first.status_code == 200 and "Leave FIDE mode?" in html and "for good" not in html
    assert hidden(html, "action") == ["leave"] and hidden(html, "once") == ["t-leave"]
    chess.refresh_from_db()
    assert chess.fide_mode  # nothing done yet
    second = org.post(url, {"action": "leave", "once": "t-leave", "passed": hidden(html, "passed")})
    html = second.content.decode()
    assert "leaves FIDE mode for good" in html and "Yes, I accept the consequences" in html
    chess.refresh_from_db()
    assert chess.fide_mode
    passes = hidden(html, "passed")
    done = org.post(url, {"action": "leave", "once": "t-leave", "passed": passes})
    assert done.status_code == 302
    again = org.post(url, {"action": "leave", "once": "t-leave", "passed": passes})  # a double click
    assert again.status_code == 302
    chess.refresh_from_db()
    assert not chess.fide_mode and chess.fide_left == 0 and not chess.fide
    logged = EventLog.objects.filter(event=chess, action="warning")
    assert [(d["code"], d["level"]) for d in logged.values_list("detail", flat=True)] == [("leave_fide_mode", 4)]
    assert trf_comments(chess) == ["### FIDE mode left @ Round 0"]
    trf = org.get(reverse("org_export_trf", args=[chess.slug])).content.decode()
    assert trf.rstrip("\n").splitlines()[-1] == "### FIDE mode left @ Round 0"
    for name in ("org_event", "org_players", "org_standings", "org_settings"):
        assert "Not FIDE mode" in org.get(reverse(name, args=[chess.slug])).content.decode()
    org.post(url, {"action": "enter", "once": "t-enter"})
    chess.refresh_from_db()
    assert not chess.fide_mode  # cannot be undone


def test_the_warning_page_answers_an_htmx_form_as_a_whole_page(org, chess):
    r = org.post(reverse("org_fide", args=[chess.slug]), {"action": "leave"}, HTTP_HX_REQUEST="true")
    assert r["HX-Retarget"] == "body" and "Leave FIDE mode?" in r.content.decode()
    assert len(hidden(r.content.decode(), "once")) == 1  # a form without a token gets one


def test_a_chess_event_not_in_fide_mode_is_marked_and_may_turn_it_on_before_round_1(org, organiser):
    new_chess_event(organiser, {"A": 2000, "B": 1900}, slug="club")
    club = Event.objects.get(slug="club")
    assert "Not FIDE mode" in org.get(reverse("org_event", args=["club"])).content.decode()
    org.post(reverse("org_fide", args=["club"]), {"action": "enter", "once": "t1"})
    club.refresh_from_db()
    assert club.fide_mode
    assert "Not FIDE mode" not in org.get(reverse("org_event", args=["club"])).content.decode()


def test_levels(chess, organiser):
    note = Warning(Level.ACKNOWLEDGE, "n", "Note.", params={"p": 1})
    serious = Warning(Level.CONSEQUENCES, "s", "Serious.", consequences="So.", trf="Line @ Round 1")
    assert pending([note, serious], {note.key, serious.key}) == [serious]
    with pytest.raises(Unpassed) as asked:
        check(chess, organiser, [note, serious], {note.key, serious.key})
    assert asked.value.second and asked.value.pending == [serious]
    with pytest.raises(Unpassed) as asked:
        check(chess, organiser, [note], {Warning(Level.ACKNOWLEDGE, "n", "Note.", params={"p": 2}).key})
    assert not asked.value.second  # a pass of another situation passes nothing
    with pytest.raises(ServiceError, match="Never."):
        check(chess, organiser, [note, Warning(Level.REFUSE, "r", "Never.")], {note.key})
    check(chess, organiser, [note, serious], {note.key, serious.key, serious.second_key}, round=1)
    assert trf_comments(chess) == ["### Line @ Round 1"]
    assert EventLog.objects.filter(event=chess, action="warning").count() == 2
