"""The organiser's prize list: set on its own page (organisers only, CSRF, once), kept in the event file, printed
and exported as CSV, with every share and remainder worked out as `manage.py prizes` does."""

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from swiss import eventfile as ef
from tests.conftest import EXAMPLES
from tests.web.organiser.test_concurrency import logged_in
from tournament.models import EventRole, FormSubmission
from tournament.records.prize_lists import PrizeList, prize_list_of
from tournament.snapshot import export_file, import_event

pytestmark = pytest.mark.django_db

LINES = "1st | 100\n2nd | 60\n3rd | 40\nBest of the list | 25.50 | players=C H\nBest woman | 20 | women"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def hyogo(organiser, judge):
    """seed002-hyogo, three rounds played: A 9; E, B, G 6; D, F, C 3; H 0."""
    event = import_event(ef.loads((EXAMPLES / "seed002-hyogo.json").read_bytes()), slug="hyogo")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    return event


def form(**changes):
    data = {"lines": LINES, "ties": "shared", "one_per_player": "on", "priority": "value", "currency": "€"}
    data.update(changes)
    return data


def test_the_organiser_sets_the_list_and_sees_who_takes_what(hyogo, organiser):
    c = logged_in(organiser)
    url = reverse("org_prizes", args=["hyogo"])
    page = c.get(url)
    assert page.status_code == 200 and 'name="once"' in page.content.decode()
    response = c.post(url, form(once="t1"), follow=True)
    html = response.content.decode()
    assert "The prize list is saved." in html
    prizes, rules = prize_list_of(hyogo)
    assert [p.name for p in prizes] == ["1st", "2nd", "3rd", "Best of the list", "Best woman"]
    assert rules.currency == "€" and rules.ties == "shared" and rules.one_per_player
    # E, B and G level on 6 pool 2nd and 3rd: € 33.33 each, € 0.01 left over; nobody is a woman.
    assert "€ 33.33" in html and "shared 2nd + 3rd, places 2–4" in html
    assert "€ 0.01 is left over" in html
    assert "Not awarded (nobody qualifies):" in html and "Best woman" in html
    # The form shows the stored list back as lines.
    assert "Best of the list | 25.50 | players=C H" in c.get(url).content.decode()


def test_a_second_submission_of_the_same_form_changes_nothing(hyogo, organiser):
    c = logged_in(organiser)
    url = reverse("org_prizes", args=["hyogo"])
    c.post(url, form(once="same"))
    c.post(url, form(once="same", lines="1st | 999"))
    assert [p.amount for p in prize_list_of(hyogo)[0]][:1] == [100]
    assert FormSubmission.objects.filter(token="same").count() == 1


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ("1st | 1.005", "Line 1: expected an amount as a decimal string"),
        ("1st", "Line 1: write name | amount or items | conditions."),
        ("1st | 100\nU1600 | 50 | rating_under=1600", "Line 2: unknown key"),
        ("Junior | 50 | born_after=someday", "Line 1"),
    ],
)
def test_a_bad_line_is_named_and_nothing_is_lost(hyogo, organiser, lines, said):
    c = logged_in(organiser)
    response = c.post(reverse("org_prizes", args=["hyogo"]), form(lines=lines))
    html = response.content.decode()
    assert response.status_code == 200 and said in html
    assert lines.splitlines()[0] in html  # what was typed is shown again
    assert not PrizeList.objects.filter(event=hyogo).exists()


def test_only_an_organiser_may_set_it(hyogo, judge, outsider):
    url = reverse("org_prizes", args=["hyogo"])
    assert logged_in(judge).post(url, form()).status_code == 403
    assert logged_in(outsider).get(url).status_code in (403, 404)
    assert Client().post(url, form()).status_code == 302  # to the login
    assert not PrizeList.objects.filter(event=hyogo).exists()


def test_csrf_is_required(hyogo, organiser):
    c = Client(enforce_csrf_checks=True)
    c.force_login(organiser)
    assert c.post(reverse("org_prizes", args=["hyogo"]), form()).status_code == 403


def test_print_and_csv(hyogo, organiser, judge):
    logged_in(organiser).post(reverse("org_prizes", args=["hyogo"]), form(once="p"))
    printed = logged_in(judge).get(reverse("org_print_prizes", args=["hyogo"])).content.decode()
    assert "Player E" in printed and "€ 33.33" in printed and "€ 100.00" in printed
    response = logged_in(judge).get(reverse("org_export_prizes", args=["hyogo"]))
    assert response["Content-Disposition"].endswith('prizes-en.csv"')
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "prize,places,name,amount,items,unit,remainder"
    assert "1st,,Player A,100.00,,," in lines
    assert "2nd + 3rd,2-4,Player E,33.33,,," in lines
    assert "2nd + 3rd,,,,,,0.01" in lines
    assert "Best woman,,not awarded,,,," in lines


def test_the_event_file_carries_the_list_both_ways(hyogo, organiser):
    logged_in(organiser).post(reverse("org_prizes", args=["hyogo"]), form(once="f"))
    doc = ef.dump(export_file(hyogo))
    assert doc["prizes"][3] == {"name": "Best of the list", "amount": "25.50", "category": {"players": ["C", "H"]}}
    assert doc["prize_rules"]["currency"] == "€"
    again = import_event(ef.parse(json.loads(json.dumps(doc))), slug="hyogo-again")
    assert prize_list_of(again) == prize_list_of(hyogo)


def test_the_page_in_japanese_and_danish(hyogo, organiser):
    c = logged_in(organiser)
    c.post(reverse("org_prizes", args=["hyogo"]), form(once="l"))
    for language, words in (("ja", ("賞の一覧", "同点の場合")), ("da", ("Præmielisten", "Ligestilling"))):
        html = c.get(reverse("org_prizes", args=["hyogo"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert all(w in html for w in words), language
