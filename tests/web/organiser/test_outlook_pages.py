"""What do I need, stored with a round when it is published and shown on the organiser's page: the line is the
event's (its top cut after the last planned round), another place the organiser names is worked out on the page,
and a large round's outlook is left to the worker."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Event, Player, Round, RoundOutlook
from tournament.services import outlooks
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def last_round(event):
    """Round 2 of 2 being played, a top 2 after it: round 1 was won by every player a."""
    Event.objects.filter(pk=event.pk).update(planned_rounds=2, top_cut=2)
    event.refresh_from_db()
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    return pair(event, 2, ROUND_2, state=Round.State.PAIRED)


def login(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_the_stored_outlook_has_every_player_and_their_sentences(event, last_round):
    stored = outlooks.refresh(last_round)
    assert stored.line == {"by": "places", "line": 2} and stored.exact and stored.error is None
    a = Player.objects.get(event=event, name="Player A")
    mine = stored.players[str(a.pk)]
    # A and C both won round 1: the winner of their table is one of at most two players on 6 points.
    assert mine["win"] == "in" and mine["table"] == 1
    assert mine["sentences"][0]["text"] == "Win: you are in the top 2."
    assert set(stored.players) == {str(pk) for pk in event.players.values_list("pk", flat=True)}
    assert Round.objects.get(pk=last_round.pk).outlook_revision == 1


def test_no_line_no_outlook(event):
    pair(event, 1, ROUND_1, state=Round.State.PAIRED)  # round 1 of 3, no top cut, no Day-2 cut
    assert outlooks.refresh(event.rounds.get(number=1)) is None
    assert not RoundOutlook.objects.exists()


def test_publishing_stores_it(event, organiser, django_capture_on_commit_callbacks):
    Event.objects.filter(pk=event.pk).update(planned_rounds=1, top_cut=4)
    event.refresh_from_db()
    rnd = pair_next_round(event, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd, organiser)
    assert not outlooks.in_request(rnd)  # eight players, four tables open: 81 combinations
    assert not RoundOutlook.objects.filter(round=rnd).exists()
    assert outlooks.refresh_task.call(rnd.pk) == "stored"
    stored = RoundOutlook.objects.get(round=rnd)
    assert stored.line == {"by": "places", "line": 4}
    assert {d["win"] for d in stored.players.values()} <= {"in", "out", "depends"}


def test_a_large_round_is_left_to_the_worker(organiser, django_capture_on_commit_callbacks):
    from tournament.models import EventRole

    e = Event.objects.create(slug="big", name="Big", planned_rounds=1, top_cut=4, tiebreakers=["omw", "gw", "ogw"])
    EventRole.objects.create(event=e, user=organiser, role=EventRole.Role.ORGANISER)
    Player.objects.bulk_create(Player(event=e, name=f"P{k:02d}") for k in range(20))
    rnd = pair_next_round(e, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd, organiser)
    assert not RoundOutlook.objects.filter(round=rnd).exists()  # enqueued, not worked out in the request
    assert outlooks.refresh_task.call(rnd.pk) == "stored"  # what the worker runs
    stored = RoundOutlook.objects.get(round=rnd)
    assert len(stored.players) == 20 and not stored.exact


def test_the_organiser_page_shows_the_field_and_takes_another_place(event, organiser, last_round):
    outlooks.refresh(last_round)
    c = login(organiser)
    url = reverse("org_outlook", args=[event.slug])
    html = c.get(url).content.decode()
    assert "What do I need" in html and "Line: the top 2." in html
    assert "Win: you are in the top 2." in html
    assert html.count("<tr>") == 1 + 8
    other = c.get(url, {"places": "6"}).content.decode()
    assert "Line: the top 6." in other and "you are in the top 6." in other
    points = c.get(url, {"points": "6"}).content.decode()
    assert "Line: 6 match points or more." in points and "Win: you reach 6 points." in points


def test_a_finished_round_is_said_plainly(event, organiser, last_round, judge):
    for m in last_round.matches.all():
        record_result(m, Outcome("played", (2, 0, 0)), organiser)
    c = login(judge)
    html = c.get(reverse("org_outlook", args=[event.slug]), {"places": "3"}).content.decode()
    assert "Round 2 is finished" in html


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ({"places": "abc"}, "“abc” is not a number of places"),
        ({"places": "-3"}, "“-3” is not a number of places"),
        ({"places": "9" * 5000}, "is not a number of places"),
        ({"points": "x"}, "“x” is not a number of match points"),
        ({"points": "-1"}, "“-1” is not a number of match points"),
        ({"points": "<b>6</b>"}, "“&lt;b&gt;6&lt;/b&gt;” is not a number of match points"),
    ],
)
def test_a_line_that_is_no_number_is_said_not_passed_over(event, organiser, last_round, asked, said):
    """What was typed is named back, never silently replaced by the event's own line."""
    outlooks.refresh(last_round)
    r = login(organiser).get(reverse("org_outlook", args=[event.slug]), asked)
    assert r.status_code == 200 and said in r.content.decode()
    assert "Line: the top 2." not in r.content.decode()


def test_a_danish_organiser_types_and_reads_points_with_a_decimal_comma(event, organiser, last_round):
    c = login(organiser)
    url = reverse("org_outlook", args=[event.slug])
    html = c.get(url, {"points": "4,5"}, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert "Linje: 4,5 matchpoint eller flere." in html and 'value="4,5"' in html
    japanese = c.get(url, {"places": "３"}, HTTP_ACCEPT_LANGUAGE="ja").content.decode()  # a full-width digit
    assert "ライン：上位3位。" in japanese
