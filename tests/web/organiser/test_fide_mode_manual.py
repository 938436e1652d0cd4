"""FIDE mode's manual pairing phase and forbidden pairs (docs/fide-mode.md): a draft edited by hand is a phase
ended by Validate, each edit checked (a rematch, a forbidden pair, a bye to a player not eligible, a third colour,
a colour difference past 2: level 3; both players against their due colours: level 2); Validate against the
engine's pairing is a level-4 warning recorded as `### MPA @ Round n`; a FIDE-mode draft is published only once
validated. Forbidden pairs are set before round 1; a change later leaves FIDE mode."""

import pytest
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.organiser.test_fide_mode import hidden
from tests.web.public.test_public import pair
from tournament.models import Event, EventLog, Round
from tournament.services.rounds import pair_next_round

pytestmark = pytest.mark.django_db
DONE = Round.State.COMPLETE


def fide_event(organiser, names, **fields):
    new_chess_event(organiser, {n: 2000 - 10 * i for i, n in enumerate(names)}, **fields)
    Event.objects.filter(slug="open").update(fide_mode=True)
    return Event.objects.get(slug="open")


def pass_all(org, url: str, data: dict) -> list[str]:
    """Post the form, then pass every warning the pages ask for; the codes asked, in order."""
    asked = []
    response = org.post(url, data)
    while response.status_code == 200 and 'name="passed"' in response.content.decode():
        html = response.content.decode()
        asked += [c.split('"')[0] for c in html.split('data-code="')[1:]]
        response = org.post(url, {**data, "passed": hidden(html, "passed")})
    assert response.status_code == 302, response.content.decode()[:2000]
    return asked


def warned(org, url: str, data: dict) -> str:
    """The warning page a form gets, as text."""
    response = org.post(url, data)
    assert response.status_code == 200 and 'name="passed"' in response.content.decode()
    return response.content.decode()


def keys(event) -> dict:
    return {p.name: p.pk for p in event.players.all()}


def test_a_swap_opens_the_phase_publishing_waits_for_validate_which_records_the_mpa(org, organiser):
    e = fide_event(organiser, ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn"])
    rnd = pair_next_round(e, organiser)
    engine = [(m.player_a.name, m.player_b.name) for m in rnd.matches.order_by("table")]
    (a1, b1), b2 = engine[0], engine[1][1]
    k = keys(e)
    r = org.post(reverse("org_round_swap", args=["open", 1]), {"first": k[b1], "second": k[b2], "once": "s1"})
    assert r.status_code == 302  # round 1: nothing to warn of
    rnd.refresh_from_db()
    assert rnd.manual and [tuple(p) for p in rnd.engine_pairs][:2] != []
    page = org.get(reverse("org_round", args=["open", 1])).content.decode()
    assert "Validate the pairings" in page and "Publish round 1" not in page
    org.post(reverse("org_round_publish", args=["open", 1]))
    rnd.refresh_from_db()
    assert rnd.state == Round.State.DRAFT  # refused while edited by hand
    url = reverse("org_round_validate", args=["open", 1])
    html = warned(org, url, {"once": "v1"})
    assert "differs from the engine" in html and f"{a1} – {b1}" in html  # the engine's pairing is shown
    assert pass_all(org, url, {"once": "v1"}) == ["manual_pairing", "manual_pairing"]
    rnd.refresh_from_db()
    assert not rnd.manual
    org.post(reverse("org_round_publish", args=["open", 1]))
    rnd.refresh_from_db()
    assert rnd.state == Round.State.PAIRED
    trf = org.get(reverse("org_export_trf", args=["open"])).content.decode().splitlines()
    at = trf.index("### MPA @ Round 1")
    assert trf[at + 1].startswith("### by hand ") and "; engine " in trf[at + 1]


def test_validating_the_engines_own_pairing_asks_nothing(org, organiser):
    e = fide_event(organiser, ["Anna", "Bo", "Cleo", "Dan"])
    rnd = pair_next_round(e, organiser)
    org.post(reverse("org_round_manual", args=["open", 1]))
    rnd.refresh_from_db()
    assert rnd.manual
    assert org.post(reverse("org_round_validate", args=["open", 1]), {"once": "v"}).status_code == 302
    rnd.refresh_from_db()
    assert not rnd.manual and "MPA" not in org.get(reverse("org_export_trf", args=["open"])).content.decode()


@pytest.fixture
def three_rounds(organiser):
    """Anna and Bo had White twice, Cleo and Dan Black twice, Eva and Finn one of each; round 3 a draft:
    Eva - Anna, Finn - Bo, Cleo - Dan (White first); five rounds planned."""
    e = fide_event(organiser, ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn"])
    pair(
        e,
        1,
        [("Anna", "Cleo"), ("Bo", "Dan"), ("Eva", "Finn")],
        state=DONE,
        results={1: (1, 0, 0), 2: (0, 0, 1), 3: (0, 1, 0)},
    )
    pair(
        e,
        2,
        [("Anna", "Dan"), ("Bo", "Cleo"), ("Finn", "Eva")],
        state=DONE,
        results={1: (0, 0, 1), 2: (1, 0, 0), 3: (1, 0, 0)},
    )
    pair(e, 3, [("Eva", "Anna"), ("Finn", "Bo"), ("Cleo", "Dan")], state=Round.State.DRAFT)
    return e


def test_a_third_white_and_a_difference_of_three_are_level_3_before_the_last_round(org, three_rounds):
    k = keys(three_rounds)
    url = reverse("org_round_swap", args=["open", 3])
    html = warned(org, url, {"first": k["Eva"], "second": k["Bo"], "once": "s"})
    assert "warning-level-3" in html and "Bo has White a third time in a row" in html
    rnd = three_rounds.rounds.get(number=3)
    assert rnd.matches.get(table=1).player_a.name == "Eva"  # nothing swapped yet
    asked = pass_all(org, url, {"first": k["Eva"], "second": k["Bo"], "once": "s"})
    assert "colour_third_white" in asked and "colour_difference" in asked
    assert rnd.matches.get(table=1).player_a.name == "Bo"
    logged = [d["code"] for d in EventLog.objects.filter(action="warning").values_list("detail", flat=True)]
    assert "colour_third_white" in logged


def test_in_the_last_round_colour_breaks_are_not_asked(org, three_rounds):
    Event.objects.filter(pk=three_rounds.pk).update(planned_rounds=3)
    k = keys(three_rounds)
    asked = pass_all(
        org, reverse("org_round_swap", args=["open", 3]), {"first": k["Eva"], "second": k["Bo"], "once": "s"}
    )
    assert "colour_third_white" not in asked and "colour_difference" not in asked


def test_a_rematch_is_level_3_and_cancel_changes_nothing(org, three_rounds):
    k = keys(three_rounds)
    # Swapping Eva and Cleo: table 1 becomes Cleo - Anna, who met in round 1.
    html = warned(
        org, reverse("org_round_swap", args=["open", 3]), {"first": k["Eva"], "second": k["Cleo"], "once": "r"}
    )
    assert 'data-code="rematch"' in html and "Cleo and Anna have played each other before" in html
    assert three_rounds.rounds.get(number=3).matches.get(table=1).player_a.name == "Eva"


def test_both_players_against_their_due_colours_is_level_2(org, three_rounds):
    # Anna (White twice) takes Cleo's White on table 3 and meets Dan (Black twice): Anna is due Black and Dan
    # White, and both get the other colour.
    k = keys(three_rounds)
    asked = pass_all(
        org, reverse("org_round_swap", args=["open", 3]), {"first": k["Anna"], "second": k["Cleo"], "once": "d"}
    )
    assert "both_against_due" in asked
    levels = {d["code"]: d["level"] for d in EventLog.objects.filter(action="warning").values_list("detail", flat=True)}
    assert levels["both_against_due"] == 2


def test_a_bye_to_a_player_who_had_one_is_level_3(org, organiser):
    e = fide_event(organiser, ["Anna", "Bo", "Cleo", "Dan", "Eva"])
    pair(e, 1, [("Anna", "Bo"), ("Cleo", "Dan"), ("Eva", None)], state=DONE, results={1: (1, 0, 0), 2: (1, 0, 0)})
    pair(e, 2, [("Anna", "Cleo"), ("Eva", "Bo"), ("Dan", None)], state=Round.State.DRAFT)
    k = keys(e)
    html = warned(
        org, reverse("org_round_swap", args=["open", 2]), {"first": k["Dan"], "second": k["Eva"], "once": "b"}
    )
    assert 'data-code="bye_not_eligible"' in html and "Eva is not eligible for the bye" in html


def test_forbidden_pairs_before_round_1_and_a_change_later_leaves_fide_mode(org, three_rounds):
    e = Event.objects.get(slug="open")
    players = {p.name: p.key for p in e.players.all()}
    url = reverse("org_forbidden_pair", args=["open"])
    # Round 1 is paired: forbidding Eva and Cleo now is a level-4 warning that leaves FIDE mode.
    html = warned(org, url, {"first": players["Eva"], "second": players["Cleo"], "once": "f"})
    assert "Forbidden pairs are set before round 1 in FIDE mode" in html
    assert pass_all(org, url, {"first": players["Eva"], "second": players["Cleo"], "once": "f"})
    e.refresh_from_db()
    assert (
        not e.fide_mode
        and e.fide_left == 3
        and [sorted(p) for p in e.forbidden_pairs] == [sorted([players["Eva"], players["Cleo"]])]
    )
    assert "### FIDE mode left @ Round 3" in org.get(reverse("org_export_trf", args=["open"])).content.decode()
    assert "Eva (" in org.get(reverse("org_settings", args=["open"])).content.decode()


def test_a_forbidden_pair_before_round_1_then_a_swap_pairing_it_is_level_3(org, organiser):
    e = fide_event(organiser, ["Anna", "Bo", "Cleo", "Dan"])
    players = {p.name: p.key for p in e.players.all()}
    assert (
        org.post(
            reverse("org_forbidden_pair", args=["open"]),
            {"first": players["Anna"], "second": players["Bo"], "once": "f"},
        ).status_code
        == 302
    )
    e.refresh_from_db()
    assert e.fide_mode and e.forbidden_pairs
    pair(e, 1, [("Anna", "Cleo"), ("Dan", "Bo")], state=Round.State.DRAFT)
    k = keys(e)
    html = warned(
        org, reverse("org_round_swap", args=["open", 1]), {"first": k["Cleo"], "second": k["Bo"], "once": "s"}
    )
    assert 'data-code="forbidden_pair"' in html


def test_outside_fide_mode_a_swap_is_as_it_was(org, event):
    pair(event, 1, [("Player A", "Player B"), ("Player C", "Player D")], state=Round.State.DRAFT)
    k = keys(event)
    r = org.post(
        reverse("org_round_swap", args=[event.slug, 1]), {"first": k["Player B"], "second": k["Player D"], "once": "x"}
    )
    assert r.status_code == 302
    rnd = event.rounds.get(number=1)
    assert not rnd.manual and rnd.matches.get(table=1).player_b.name == "Player D"
