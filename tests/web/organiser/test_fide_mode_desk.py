"""FIDE mode's warnings on the desk's own result paths (docs/fide-mode.md): the one-click buttons of the results
page and the keyboard entry ask an adjourned game's level-3 warning where the arbiter is (the row, or the desk's
line, with htmx; the warnings page without), record it in the log and the TRF `###` line as the game's page does,
store the result once for a double click, and never overwrite another organiser's result meanwhile."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.organiser.test_fide_mode import hidden
from tests.web.organiser.test_fide_mode_results import codes, table
from tests.web.public.test_public import pair
from tournament.models import Event, EventLog, Match, ResultChange, Round
from tournament.services.warnings import Level, Unpassed, Warning, pending
from tournament.views.warnings import asking

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ADJOURNMENT = "### Adjournment @ Round 1: 3 1-0 4"


@pytest.fixture
def adjourned(organiser) -> Match:
    """Four players in FIDE mode; round 1's table 2 (Cleo - Dan), adjourned and still without its result."""
    new_chess_event(organiser, {"Anna": 2000, "Bo": 1900, "Cleo": 1800, "Dan": 1700}, planned_rounds=2)
    Event.objects.filter(slug="open").update(fide_mode=True)
    fide = Event.objects.get(slug="open")
    pair(fide, 1, [("Anna", "Bo"), ("Cleo", "Dan")], state=Round.State.IN_PROGRESS, results={1: (1, 0, 0)})
    m = table(fide, 1, 2)
    Match.objects.filter(pk=m.pk).update(adjourned=True)
    m.refresh_from_db()
    return m


def button_url(m: Match) -> str:
    return reverse("org_match_result", args=["open", 1, m.pk])


def desk_url() -> str:
    return reverse("org_table_result", args=["open", 1])


def trf(client) -> str:
    return client.get(reverse("org_export_trf", args=["open"])).content.decode()


def stored(m: Match) -> tuple | None:
    m.refresh_from_db()
    return m.games


def passed_once(m: Match) -> None:
    """The result is stored once, its warning logged once and its `###` line written once."""
    assert codes() == [("adjourned_not_draw", 3)]
    assert ResultChange.objects.filter(match=m).count() == 1


def test_a_one_click_result_asks_in_its_row_with_htmx(org, adjourned):
    html = org.post(button_url(adjourned), {"result": "1-0", "version": adjourned.version}, **HTMX).content.decode()
    # The row answers in place: the warning, its Confirm posting back into the row, Cancel back to the row.
    assert html.lstrip().startswith(f'<tr id="m-{adjourned.pk}"') and "asking" in html.split(">", 1)[0]
    assert 'data-code="adjourned_not_draw"' in html and "was adjourned" in html
    assert f'hx-post="{button_url(adjourned)}"' in html and 'hx-target="closest tr"' in html
    assert "The TRF export will record it." in html and ">Confirm</button>" in html
    assert f'href="/events/open/rounds/1/#m-{adjourned.pk}"' in html
    assert stored(adjourned) is None and codes() == []
    replay = {"result": hidden(html, "result")[0], "version": hidden(html, "version")[0]}
    assert replay == {"result": "1-0", "version": str(adjourned.version)}
    answer = org.post(button_url(adjourned), {**replay, "passed": hidden(html, "passed")}, **HTMX).content.decode()
    assert stored(adjourned) == (1, 0, 0) and 'name="passed"' not in answer and "1-0" in answer
    passed_once(adjourned)
    assert ADJOURNMENT in trf(org)


def test_a_one_click_result_without_script_asks_on_the_warnings_page(org, adjourned):
    url = button_url(adjourned)
    data = {"result": "1-0", "version": adjourned.version, "next": "/events/open/rounds/1/?view=all"}
    response = org.post(url, data)
    html = response.content.decode()
    assert response.status_code == 200 and "fide-warnings" in html and "hx-post" not in html.split("<form", 2)[-1]
    assert f'action="{url}"' in html and stored(adjourned) is None
    confirmed = {**data, "passed": hidden(html, "passed")}
    first = org.post(url, confirmed)
    assert first.status_code == 302 and first["Location"] == "/events/open/rounds/1/?view=all"
    # A double click on Confirm: the second submission finds the result stored and changes nothing.
    assert org.post(url, confirmed).status_code == 302
    assert stored(adjourned) == (1, 0, 0)
    passed_once(adjourned)
    assert trf(org).count(ADJOURNMENT) == 1


def test_a_draw_for_an_adjourned_game_asks_nothing_on_the_buttons(org, adjourned):
    org.post(button_url(adjourned), {"result": "½-½", "version": adjourned.version}, **HTMX)
    assert stored(adjourned) == (0, 0, 1) and codes() == []


def test_the_keyboard_entry_asks_in_its_line_and_cancel_enters_nothing(org, adjourned):
    html = org.post(desk_url(), {"table": "2", "result": "1-0"}, **HTMX).content.decode()
    assert html.lstrip().startswith('<li class="entry asking">') and 'data-code="adjourned_not_draw"' in html
    assert 'hx-target="closest li"' in html and 'class="replace-question warning-question"' in html
    assert 'name="keep" value="1" data-answer="keep"' in html and stored(adjourned) is None
    replay = {"table": "2", "result": "1-0", "passed": hidden(html, "passed")}
    cancelled = org.post(desk_url(), {**replay, "keep": "1"}, **HTMX).content.decode()
    assert "entry cancelled" in cancelled and "nothing entered" in cancelled
    assert stored(adjourned) is None and codes() == []
    done = org.post(desk_url(), replay, **HTMX).content.decode()
    assert "entry stored" in done and "Table 2: Cleo 1-0 Dan" in done
    assert stored(adjourned) == (1, 0, 0)
    passed_once(adjourned)
    assert ADJOURNMENT in trf(org)


def test_the_keyboard_entry_without_script_asks_on_the_warnings_page(org, adjourned):
    response = org.post(desk_url(), {"table": "2", "result": "1-0"})
    html = response.content.decode()
    assert response.status_code == 200 and 'data-code="adjourned_not_draw"' in html
    assert 'href="/events/open/rounds/1/"' in html and stored(adjourned) is None
    confirmed = {"table": "2", "result": "1-0", "passed": hidden(html, "passed")}
    assert org.post(desk_url(), confirmed)["Location"] == "/events/open/rounds/1/"
    assert org.post(desk_url(), confirmed).status_code == 302  # again: the same result, nothing more
    assert stored(adjourned) == (1, 0, 0)
    passed_once(adjourned)


def test_another_organisers_result_meanwhile_is_never_overwritten(org, adjourned, organiser, django_user_model):
    """Anna's desk asks the warning for 1-0; Bo enters 0-1 and passes it first; Anna's Confirm then asks whether
    to replace Bo's result, on both paths, instead of storing over it."""
    bo = django_user_model.objects.create_user("bo", password="bo-pass-12345")
    adjourned.round.event.roles.create(user=bo, role="organiser")
    other = Client()
    other.force_login(bo)
    mine = org.post(button_url(adjourned), {"result": "1-0", "version": adjourned.version}, **HTMX).content.decode()
    typed = org.post(desk_url(), {"table": "2", "result": "1-0"}, **HTMX).content.decode()
    theirs = other.post(button_url(adjourned), {"result": "0-1", "version": adjourned.version}, **HTMX)
    other.post(
        button_url(adjourned),
        {"result": "0-1", "version": adjourned.version, "passed": hidden(theirs.content.decode(), "passed")},
        **HTMX,
    )
    assert stored(adjourned) == (0, 1, 0)
    row = org.post(
        button_url(adjourned),
        {"result": "1-0", "version": hidden(mine, "version")[0], "passed": hidden(mine, "passed")},
        **HTMX,
    ).content.decode()
    assert "was changed to 0-1 by bo since this page was shown" in row and "Replace with 1-0" in row
    line = org.post(
        desk_url(), {"table": "2", "result": "1-0", "passed": hidden(typed, "passed")}, **HTMX
    ).content.decode()
    assert "entry asking" in line and "already has 0-1, entered by bo" in line
    assert stored(adjourned) == (0, 1, 0)
    assert [
        d["params"]["result"] for d in EventLog.objects.filter(action="warning").values_list("detail", flat=True)
    ] == ["0-1"]


def test_a_level_4_warning_in_place_asks_twice_with_its_consequences(rf: RequestFactory):
    """The in-place form is `asking`'s, as the warnings page's: a level-4 warning's first pass leads to the second
    confirmation (its own key), which states the consequences."""
    w = Warning(Level.CONSEQUENCES, "example", "Are you sure?", consequences="It cannot be undone.")
    first = asking(rf.post("/x/", {"result": "1-0"}), Unpassed(pending([w], set()), set()), "/x/", target="closest tr")
    assert first["passed"] == [w.key] and not first["second"] and first["top"] == 4
    assert first["replay"] == [("result", "1-0")] and first["target"] == "closest tr"
    given = {w.key}
    second = asking(rf.post("/x/", {"result": "1-0", "passed": w.key}), Unpassed(pending([w], given), given), "/x/")
    assert second["second"] and second["passed"] == [w.key, w.second_key]
    assert pending([w], {w.key, w.second_key}) == []


def test_players_agreeing_on_an_adjourned_games_result_leave_it_to_the_arbiter(org, adjourned):
    """Two phones report the same non-draw result of an adjourned game: the warning is the desk's to pass, so the
    reports are kept (nothing lost, nothing stored); both phones say so; the desk reads them and asks the warning."""
    from tests.web.phone.test_self_report import phone, report

    Event.objects.filter(slug="open").update(reporting=Event.Reporting.CONFIRM)
    event = Event.objects.get(slug="open")
    white, black = adjourned.colour_order()
    first = report(phone(white), event, adjourned, "1-0").content.decode()
    assert f"{black.name} confirms it on their phone" in first and stored(adjourned) is None
    second = report(phone(black), event, adjourned, "0-1").content.decode()  # from Black's side: "I lost"
    assert "the arbiter enters this result at the desk" in second
    assert "You both reported:" in second and "Waiting for" not in second
    assert stored(adjourned) is None and adjourned.reports.count() == 2 and codes() == []
    desk = org.get(reverse("org_round", args=["open", 1])).content.decode()
    assert "1-0" in desk.split(f'id="m-{adjourned.pk}"', 1)[1].split("</tr>", 1)[0]
    html = org.post(button_url(adjourned), {"result": "1-0", "version": adjourned.version}, **HTMX).content.decode()
    assert 'data-code="adjourned_not_draw"' in html and stored(adjourned) is None
    replay = {"result": "1-0", "version": hidden(html, "version")[0], "passed": hidden(html, "passed")}
    org.post(button_url(adjourned), replay, **HTMX)
    assert stored(adjourned) == (1, 0, 0)
    passed_once(adjourned)
