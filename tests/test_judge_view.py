"""The judge's and organiser's view of a round with players reporting (issue 21, items 8-11): the round page
follows the phones cheaply, a match's history says who stored what and what each side had reported, and
self-reporting is set up before round 1."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tests.test_self_report import match_of, phone, player, report
from tournament.models import Event, Round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def live(event):
    """Round 2 being played (round 1 complete), players reporting and the opponent confirming."""
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2)
    Event.objects.filter(pk=event.pk).update(reporting=Event.Reporting.CONFIRM)
    event.refresh_from_db()
    return event


def signed_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def poll(c: Client, event, etag: str | None = None, **query):
    params = {"part": "live", "view": "default", "q": "", "from": 1, **query}
    headers = {"HX-Request": "true"} | ({"If-None-Match": etag} if etag else {})
    return c.get(reverse("org_round", args=[event.slug, 2]), params, headers=headers)


# ---------------------------------------------------------------- 8. the round page follows the phones


def test_the_round_page_poll_answers_304_until_a_phone_reports_or_disputes(live, judge):
    desk = signed_in(judge)
    page = desk.get(reverse("org_round", args=[live.slug, 2]))
    etag = page.context["live_etag"]
    assert f'data-etag="{etag}"' in page.content.decode().replace("&quot;", '"')
    assert poll(desk, live, etag).status_code == 304

    # A report waiting for the opponent does not move the event's version: the round's reports change the answer.
    table_3 = match_of(live, "Player B")
    report(phone(player(live, "Player B")), live, table_3, "2-0")
    answer = poll(desk, live, etag)
    assert answer.status_code == 200 and answer["ETag"] != etag
    body = answer.content.decode()
    assert 'id="match-views"' in body and "Waiting (1)" in body and "Disputed (0)" in body
    assert 'id="match-rows" hx-swap-oob="true" data-live' in body and "waiting for the opponent" in body
    assert poll(desk, live, answer["ETag"]).status_code == 304

    report(phone(player(live, "Player D")), live, table_3, action="dispute")
    disputed = poll(desk, live, answer["ETag"])
    body = disputed.content.decode()
    assert disputed.status_code == 200 and "Disputed (1)" in body and "1 disputed" in body
    assert "Player D: that&#x27;s not right" in body


def test_the_poll_follows_the_view_and_the_person(live, judge, organiser):
    desk = signed_in(judge)
    etag = poll(desk, live)["ETag"]
    assert poll(desk, live, etag).status_code == 304
    assert poll(desk, live, etag, view="disputed").status_code == 200
    # An organiser's page has more buttons (re-pair): the judge's version is not theirs.
    assert poll(signed_in(organiser), live, etag).status_code == 200
    # A result stored at the desk moves the event's version.
    desk.post(reverse("org_table_result", args=[live.slug, 2]), {"table": 2, "result": "2-0"})
    assert poll(desk, live, etag).status_code == 200


def test_an_unchanged_poll_costs_a_few_queries_and_reads_no_match(live, judge, django_assert_num_queries):
    desk = signed_in(judge)
    etag = poll(desk, live)["ETag"]
    # The session, the user, the event, the role, and the round with its reports' stamp.
    with django_assert_num_queries(5) as queries:
        assert poll(desk, live, etag).status_code == 304
    assert not any('FROM "tournament_match"' in q["sql"].split("JOIN")[0] for q in queries.captured_queries)


def test_the_poll_is_for_the_event_staff_only(live, outsider):
    assert poll(signed_in(outsider), live).status_code == 404
    assert poll(Client(), live).status_code == 302  # to the sign-in page
