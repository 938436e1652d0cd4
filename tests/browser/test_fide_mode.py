"""A 7-round FIDE-mode event in the browser (docs/fide-mode.md). The arbiter gives a second half-point bye past its
level-3 warning, swaps two players of round 1's draft and validates it past the level-4 warning (the TRF's MPA
line), changes the tie-break list after round 1 (its level-4 warning and ### line), pairs round 2 with a result
missing (the game adjourned), enters a late player after round 4 (the next pairing number, not the rating's),
and gets no final TRF until the adjourned game is decided past its warning (the TRF's Adjournment line). Rounds
3 to 7 are paired and scored through the services: the browser drives the five exceptions, not the routine."""

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from tests.conftest import new_chess_event
from tournament.models import Event, Match, Round
from tournament.services.results import parse_outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hal", "Ida", "Jon"]


def _score(rnd, organiser, outcome="1-0"):
    for m in rnd.matches.filter(player_b__isnull=False):
        record_result(m, parse_outcome(outcome, 1, True), organiser)


def test_an_arbiter_runs_a_seven_round_fide_mode_event(live_server, page, organiser, shot):
    new_chess_event(organiser, {n: 2100 - 20 * i for i, n in enumerate(NAMES)}, planned_rounds=7)
    Event.objects.filter(slug="open").update(fide_mode=True)
    event = Event.objects.get(slug="open")
    base = f"{live_server.url}/events/open"
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()

    # Gus asks for a half-point bye in round 1, then another in round 2: a level-3 warning.
    gus = event.players.get(name="Gus")
    for number in (1, 2):
        page.goto(f"{base}/players/{gus.pk}/")
        bye = page.locator("form[action$='/bye/']")
        bye.locator("select[name='kind'], input[name='kind']").first.select_option("half_bye")
        bye.locator("input[name='round']").fill(str(number))
        bye.get_by_role("button").click()
    expect(page.locator(".fide-warnings")).to_contain_text("Gus already has a half-point bye")
    shot("second-half-bye")
    page.get_by_role("button", name="Confirm").click()
    gus.refresh_from_db()
    assert gus.requested_byes == {"1": "half_bye", "2": "half_bye"}

    # Round 1: the engine's draft, two players swapped by hand, validated past the level-4 warning.
    page.goto(f"{base}/")
    page.get_by_role("button", name="Pair round 1").first.click()
    expect(page.locator("#manual-phase")).to_contain_text("These are the engine's pairings")
    rnd = event.rounds.get(number=1)
    t1, t2 = rnd.matches.filter(player_b__isnull=False).order_by("table")[:2]
    swap = page.locator("form.swap")
    swap.locator("select[name='first']").select_option(str(t1.player_b_id))
    swap.locator("select[name='second']").select_option(str(t2.player_b_id))
    swap.get_by_role("button", name="Swap").click()
    expect(page.locator("#manual-phase")).to_contain_text("Manual pairing")
    expect(page.get_by_role("button", name="Publish round 1")).to_have_count(0)
    page.get_by_role("button", name="Validate the pairings").click()
    expect(page.locator(".fide-warnings")).to_contain_text("differs from the engine's pairing")
    page.get_by_role("button", name="Continue").click()
    expect(page.locator(".fide-warnings .consequences")).to_contain_text("manual pairing (MPA)")
    shot("mpa-consequences")
    page.get_by_role("button", name="Yes, I accept the consequences").click()
    page.get_by_role("button", name="Publish round 1").click()
    assert Round.objects.get(pk=rnd.pk).state == Round.State.PAIRED

    # The tie-break list changed after round 1 (an htmx form): a level-4 warning, the old list in a ### line.
    page.goto(f"{base}/settings/")
    page.locator("ol.tiebreakers li").first.locator("button[name='tb_remove']").click()
    expect(page.locator("ol.tiebreakers li")).to_have_count(2)
    page.locator("input[name='confirm_locked']").check()
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator(".fide-warnings")).to_contain_text("Change the tie-breaks after round 1 has been paired?")
    page.get_by_role("button", name="Continue").click()
    page.get_by_role("button", name="Yes, I accept the consequences").click()
    expect(page.locator("ol.tiebreakers li")).to_have_count(2)
    assert Event.objects.get(pk=event.pk).tiebreakers == ["BH", "SB"]

    # Every result but table 1's: pairing round 2 adjourns it (level 2), and round 2 is paired.
    games = list(rnd.matches.filter(player_b__isnull=False).order_by("table"))
    for m in games[1:]:
        record_result(m, parse_outcome("1-0", 1, True), organiser)
    page.goto(f"{base}/")
    page.get_by_role("button", name="Pair round 2").first.click()
    expect(page.locator(".fide-warnings")).to_contain_text("recorded as an adjourned game")
    page.get_by_role("button", name="I have read it: go on").click()
    assert Match.objects.get(pk=games[0].pk).adjourned
    page.get_by_role("button", name="Publish round 2").click()
    _score(event.rounds.get(number=2), organiser, "½")

    # Rounds 3 and 4 through the services, the adjourned game still open; round 4 freezes the pairing numbers.
    for outcome in ("1-0", "0-1"):
        nxt = pair_next_round(event, organiser)
        publish_round(nxt, organiser)
        _score(nxt, organiser, outcome)
    assert event.rounds.count() == 4
    assert sorted(event.players.values_list("pairing_number", flat=True)) == list(range(1, 11))

    # A late entry after round 4, rated above everyone: the next pairing number (11), not a place by rating.
    page.goto(f"{base}/players/")
    page.locator("#id_name").fill("Zed Late, 2600")
    page.locator("#quick-add").get_by_role("button", name="Add").click()
    expect(page.locator("#add-log")).to_contain_text("Zed Late")
    shot("late-entry")

    # Rounds 5 to 7 through the services, the late entry among them.
    for outcome in ("1-0", "½", "0-1"):
        nxt = pair_next_round(event, organiser)
        publish_round(nxt, organiser)
        _score(nxt, organiser, outcome)
    assert event.rounds.count() == 7
    late = event.players.get(name="Zed Late")
    assert late.pairing_number == 11
    assert (
        Match.objects.filter(round__event=event, round__number__gt=4)
        .filter(Q(player_a=late) | Q(player_b=late))
        .count()
        == 3
    )

    # The last round is played, the adjourned game is not decided: no final TRF.
    page.goto(f"{base}/export/event.trf")
    expect(page.locator("body")).to_contain_text("No final TRF while a result is missing (round 1)")
    shot("no-final-trf")

    # White wins the adjourned game: a level-3 warning, then the TRF with every ### line and the late number.
    page.goto(f"{base}/rounds/1/matches/{games[0].pk}/")
    page.get_by_label("White won 1-0").check()
    page.get_by_role("button", name="Save result").click()
    expect(page.locator(".fide-warnings")).to_contain_text("was adjourned")
    page.get_by_role("button", name="Confirm").click()
    trf = page.request.get(f"{base}/export/event.trf").text()
    assert "### MPA @ Round 1" in trf and "### by hand " in trf
    assert "### Tie-breaks changed @ Round 1, were: " in trf
    assert "### Adjournment @ Round 1: " in trf and " 1-0 " in trf.split("### Adjournment")[1].splitlines()[0]
    line = next(row for row in trf.splitlines() if row.startswith("001") and "Late" in row)
    assert int(line[4:8]) == 11, line
    assert sum(1 for row in trf.splitlines() if row.startswith("001")) == 11
