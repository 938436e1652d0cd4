"""Entering and changing results in the browser: the keyboard path after a refusal (issue 12.2), and one
rule for replacing a stored result on the three paths (issue 12.3)."""

import re

import pytest
from playwright.sync_api import expect

from tournament.eventio import create_matches
from tournament.models import EventLog, Match, ResultChange, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def round_page(live_server, page, event):
    """Round 1 of the shared event (A v B at table 1 … G v H at table 4), open as its organiser."""
    rnd = Round.objects.create(event=event, number=1, state=Round.State.PAIRED, seed=1)
    ps = list(event.players.order_by("name"))
    create_matches(
        rnd, [Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1]) for i in range(0, 8, 2)]
    )
    page.set_viewport_size({"width": 1024, "height": 800})
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/1/")
    return rnd


def expect_selected(page, field_id: str, text: str):
    """The field has focus and exactly `text` selected (waits for the swap to settle)."""
    page.wait_for_function(
        """([id, text]) => { const el = document.getElementById(id);
            return document.activeElement === el && el.value.substring(el.selectionStart, el.selectionEnd) === text; }""",
        arg=[field_id, text],
        timeout=5000,
    )


def test_keyboard_entry_after_a_refusal_retypes_cleanly(page, round_page, shot):
    table, result = page.get_by_label("Table", exact=True), page.get_by_label("Result", exact=True)
    expect(table).to_be_focused()  # on page load: type straight away
    expect(page.locator("#tf-hint")).to_contain_text("0-2 (02)")
    expect(page.locator("#tf-hint")).to_contain_text("double loss (dl, double, double loss)")

    page.keyboard.type("3")
    page.keyboard.press("Enter")
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    expect(page.locator("#table-form .errorlist")).to_contain_text("nobody wins more than 2 games")
    # The wrong field has focus with its text selected, so typing replaces it; the table stays.
    expect(result).to_be_focused()
    expect(result).to_have_value("30")
    expect_selected(page, "tf-result", "30")
    expect(table).to_have_value("3")
    shot("refused-result-selected")

    # Retyping the whole entry, as the organiser did: nothing garbled is stored (no table 33,
    # no 3-13), and table 3 ends with the result meant.
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    expect(page.locator("#table-form .errorlist")).to_contain_text("“3” is not a result")
    expect(result).to_be_focused()
    expect_selected(page, "tf-result", "3")
    page.keyboard.type("20")
    page.keyboard.press("Enter")
    expect(page.locator("#table-form")).to_contain_text("Table 3: Player E 2-0 Player F")
    # After success both fields are empty and Table has focus for the next one.
    expect(table).to_be_focused()
    expect(table).to_have_value("")
    expect(result).to_have_value("")
    expect(page.locator("#matches tr.match[data-table='3'] .result-label")).to_have_text("2-0")
    assert list(Match.objects.exclude(games_a=None).values_list("table", "games_a", "games_b")) == [(3, 2, 0)]

    # The short way after a refusal: the selected result is simply retyped.
    page.keyboard.type("4")
    page.keyboard.press("Enter")
    page.keyboard.type("2-0-5")
    page.keyboard.press("Enter")
    expect(page.locator("#table-form .errorlist")).to_contain_text("at most 3 drawn games")
    expect_selected(page, "tf-result", "2-0-5")
    page.keyboard.type("21")
    page.keyboard.press("Enter")
    expect(page.locator("#table-form")).to_contain_text("Table 4: Player G 2-1 Player H")
    expect(table).to_be_focused()

    # A wrong table: Table has focus with its number selected; the result typed stays.
    page.keyboard.type("33")
    page.keyboard.press("Enter")
    page.keyboard.type("20")
    page.keyboard.press("Enter")
    expect(page.locator("#table-form .errorlist")).to_contain_text("There is no table 33 in round 1")
    expect(table).to_be_focused()
    expect_selected(page, "tf-table", "33")
    page.keyboard.type("2")
    page.keyboard.press("Enter")  # on to the result, selected
    expect_selected(page, "tf-result", "20")
    page.keyboard.press("Enter")
    expect(page.locator("#table-form")).to_contain_text("Table 2: Player C 2-0 Player D")
    shot("after-retyping")


def test_changing_a_stored_result_asks_once_on_every_path(page, round_page, event, shot):
    rnd = round_page
    # Tables 1-3 have 2-0; table 4 is still playing, so the keyboard entry is on the page.
    rnd.matches.filter(table__lte=3).update(games_a=2, games_b=0, games_drawn=0, version=1)
    page.reload()

    # 1. One click: the row says what it replaces and asks; nothing changes until the answer.
    row = page.locator("#matches tr.match[data-table='1']")
    row.get_by_role("button", name="Table 1: 2-1").click()
    expect(row).to_contain_text("Table 1 already has 2-0")
    expect(row).to_contain_text("Replace it with 2-1?")
    assert rnd.matches.get(table=1).games == (2, 0, 0)
    shot("one-click-question")
    row.get_by_role("button", name="Replace with 2-1").click()
    expect(row.locator(".result-label")).to_have_text("2-1")
    expect(row).not_to_contain_text("Replace")

    # 2. The keyboard: the same question, Replace has focus and Enter answers it.
    table = page.get_by_label("Table", exact=True)
    table.click()
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    form = page.locator("#table-form")
    expect(form).to_contain_text("Table 2 already has 2-0. Replace it with 1-2?")
    expect(page.get_by_role("button", name="Replace with 1-2")).to_be_focused()
    shot("keyboard-question")
    page.keyboard.press("Enter")
    expect(form).to_contain_text("Table 2: Player C 1-2 Player D")
    expect(table).to_be_focused()
    # Escape keeps the stored result.
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    page.keyboard.type("02")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Keep 2-0")).to_be_visible()
    page.keyboard.press("Escape")
    expect(form).to_contain_text("Table 3 keeps 2-0.")
    expect(table).to_be_focused()

    # 3. The “other…” form: the version counter is hidden; the same question, answered once.
    page.locator("#matches tr.match[data-table='3']").get_by_role("link", name="other…").click()
    expect(page.locator("input[name=version]")).to_be_hidden()
    page.get_by_label("Games won by A").fill("1")
    page.get_by_label("Games won by B").fill("1")
    page.get_by_label("Games drawn").fill("1")
    page.get_by_role("button", name="Save result").click()
    expect(page.get_by_role("alert")).to_contain_text("Table 3 already has 2-0. Replace it with 1-1-1?")
    shot("other-question")
    page.get_by_role("button", name="Replace 2-0 with 1-1-1").click()
    expect(page.locator(".messages")).to_contain_text("2-0 replaced by 1-1-1")

    assert [m.games for m in rnd.matches.order_by("table")] == [(2, 1, 0), (1, 2, 0), (1, 1, 1), None]
    logged = EventLog.objects.filter(event=event, action="correct_result").order_by("at", "id")
    assert [(e.detail["table"], e.detail["before"], e.detail["after"]) for e in logged] == [
        (1, "2-0", "2-1"),
        (2, "2-0", "1-2"),
        (3, "2-0", "1-1-1"),
    ]
    assert ResultChange.objects.filter(before__isnull=False).count() == 3
    expect(page.locator("section", has_text="Corrections")).to_contain_text(re.compile("2-0 → 1-1-1"))
