"""Forbidden pairs with their rounds on the settings page (docs/fide-mode.md): every pair listed, the every-round
ones and those kept apart in a range of rounds only (a TRF-2026 260 record's, or added here), each removable; in
FIDE mode they are set before round 1, and a change once round 1 is paired leaves FIDE mode past the level-4
warning."""

import pytest
from django.urls import reverse

from tests.web.organiser.test_fide_mode import hidden
from tests.web.organiser.test_fide_mode_manual import fide_event, pass_all, warned
from tests.web.public.test_public import pair
from tournament.models import Event, EventLog, Round
from tournament.text.wording import log_sentence

pytestmark = pytest.mark.django_db
URL = reverse("org_forbidden_pair", args=["open"])
SETTINGS = reverse("org_settings", args=["open"])


@pytest.fixture
def fide(organiser) -> Event:
    """Six players in FIDE mode, nothing paired; Anna - Bo forbidden in every round and, from a file, Cleo - Dan
    in rounds 3 to 5 and Anna - Eva in round 2."""
    e = fide_event(organiser, ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn"])
    k = keys(e)
    e.forbidden_pairs = [[k["Anna"], k["Bo"]], [k["Dan"], k["Cleo"], 3, 5], [k["Anna"], k["Eva"], 2, 2]]
    e.save(update_fields=["forbidden_pairs"])
    return e


def keys(e: Event) -> dict[str, str]:
    return {p.name: p.key for p in e.players.all()}


def listed(client) -> list[str]:
    """The settings page's forbidden pairs, each line's text without its button."""
    html = client.get(SETTINGS).content.decode()
    items = html.split('<ul class="plain forbidden-pairs">')[1].split("</ul>")[0].split("<li>")[1:]
    return [" ".join(item.split("<form")[0].split()) for item in items]


def test_every_forbidden_pair_is_listed_with_its_rounds(org, fide):
    assert listed(org) == [
        "Anna (1) – Bo (2) · every round",
        "Anna (1) – Eva (5) · round 2",
        "Cleo (3) – Dan (4) · rounds 3–5",
    ]
    html = org.get(SETTINGS).content.decode()
    assert hidden(html, "first_round") == ["2", "3"] and hidden(html, "last_round") == ["2", "5"]
    assert 'name="first_round" id="forbid-from"' in html and 'name="last_round" id="forbid-to"' in html


def test_before_round_1_a_range_is_added_and_removed_without_touching_the_others(org, fide):
    k = keys(fide)
    cleo_dan = [k["Dan"], k["Cleo"], 3, 5]  # a file's line, kept as it came
    assert (
        org.post(
            URL, {"first": k["Finn"], "second": k["Bo"], "first_round": "2", "last_round": "4", "once": "a"}
        ).status_code
        == 302
    )
    fide.refresh_from_db()
    assert fide.fide_mode and fide.forbidden_pairs == [
        [k["Anna"], k["Bo"]],
        cleo_dan,
        [k["Anna"], k["Eva"], 2, 2],
        [*sorted([k["Finn"], k["Bo"]]), 2, 4],
    ]
    assert "Bo (2) – Finn (6) · rounds 2–4" in listed(org)
    # Allowing Anna - Bo in rounds 2 to 2 removes nothing (no such range); in every round, only that line.
    org.post(
        URL, {"first": k["Anna"], "second": k["Bo"], "first_round": "2", "last_round": "2", "remove": "1", "once": "b"}
    )
    fide.refresh_from_db()
    assert [k["Anna"], k["Bo"]] in fide.forbidden_pairs
    org.post(
        URL, {"first": k["Anna"], "second": k["Eva"], "first_round": "2", "last_round": "2", "remove": "1", "once": "c"}
    )
    fide.refresh_from_db()
    assert fide.fide_mode and fide.forbidden_pairs == [
        [k["Anna"], k["Bo"]],
        cleo_dan,
        [*sorted([k["Finn"], k["Bo"]]), 2, 4],
    ]
    logged = list(EventLog.objects.filter(action__startswith="forbidden_pair").order_by("id"))
    assert [(e.action, e.detail["rounds"]) for e in logged] == [
        ("forbidden_pair", [2, 4]),
        ("forbidden_pair_removed", [2, 2]),
    ]
    names = {p.key: p.name for p in fide.players.all()}
    assert log_sentence(logged[0], names.get, {}) == "Forbade pairing Bo with Finn in rounds 2–4."
    assert log_sentence(logged[1], names.get, {}) == "Allowed pairing Anna with Eva in round 2 again."


def test_a_bad_range_is_refused_with_why(org, fide):
    k = keys(fide)
    before = list(fide.forbidden_pairs)
    for rounds, why in (
        ({"first_round": "3"}, "Give both rounds of the range, or neither for every round."),
        ({"first_round": "4", "last_round": "2"}, "The last round of the range comes before its first."),
        ({"first_round": "0", "last_round": "2"}, "greater than or equal to 1"),
    ):
        response = org.post(URL, {"first": k["Finn"], "second": k["Bo"], **rounds}, follow=True)
        assert response.status_code == 200 and why in response.content.decode()
    fide.refresh_from_db()
    assert fide.forbidden_pairs == before


def test_once_round_1_is_paired_a_range_leaves_fide_mode_past_the_level_4_warning(org, fide):
    pair(fide, 1, [("Anna", "Cleo"), ("Bo", "Dan"), ("Eva", "Finn")], state=Round.State.IN_PROGRESS)
    k = keys(fide)
    data = {"first": k["Finn"], "second": k["Bo"], "first_round": "2", "last_round": "4", "once": "late"}
    html = warned(org, URL, data)
    assert "Forbidden pairs are set before round 1 in FIDE mode" in html and "warning-level-4" in html
    fide.refresh_from_db()
    assert fide.fide_mode and len(fide.forbidden_pairs) == 3
    assert pass_all(org, URL, data) == ["leave_fide_mode", "leave_fide_mode"]
    fide.refresh_from_db()
    assert (
        not fide.fide_mode and fide.fide_left == 1 and fide.forbidden_pairs[-1] == [*sorted([k["Finn"], k["Bo"]]), 2, 4]
    )
    assert "### FIDE mode left @ Round 1" in org.get(reverse("org_export_trf", args=["open"])).content.decode()
    # Out of FIDE mode now: removing a range asks nothing more.
    org.post(URL, {"first": k["Cleo"], "second": k["Dan"], "first_round": "3", "last_round": "5", "remove": "1"})
    fide.refresh_from_db()
    assert len(fide.forbidden_pairs) == 3 and [k["Dan"], k["Cleo"], 3, 5] not in fide.forbidden_pairs


def test_once_round_1_is_paired_removing_a_range_is_the_same_level_4_warning(org, fide):
    pair(fide, 1, [("Anna", "Cleo"), ("Bo", "Dan"), ("Eva", "Finn")], state=Round.State.IN_PROGRESS)
    k = keys(fide)
    data = {"first": k["Cleo"], "second": k["Dan"], "first_round": "3", "last_round": "5", "remove": "1", "once": "r"}
    assert "warning-level-4" in warned(org, URL, data)
    pass_all(org, URL, data)
    fide.refresh_from_db()
    assert not fide.fide_mode and [k["Dan"], k["Cleo"], 3, 5] not in fide.forbidden_pairs
