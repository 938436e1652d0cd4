"""The judge's and organiser's view of a round with players reporting: the round page
follows the phones cheaply, a match's history says who stored what and what each side had reported, and
self-reporting is set up before round 1."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.web.phone.test_self_report import match_of, phone, player, report
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


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


def test_a_large_rounds_poll_brings_the_needs_a_judge_list(live, judge, monkeypatch):
    from tournament.pages import results_board

    monkeypatch.setattr(results_board, "LARGE_ROUND", 2)  # the four tables of round 2 make a large round
    desk = signed_in(judge)
    quiet = poll(desk, live)
    etag = quiet["ETag"]
    assert "Disputed and waiting" not in quiet.content.decode()
    table_3 = match_of(live, "Player B")
    report(phone(player(live, "Player B")), live, table_3, "2-0")
    body = poll(desk, live, etag).content.decode()
    attention = body.split('id="attention"', 1)[1].split('id="match-rows"', 1)[0]
    assert "Disputed and waiting" in attention and f'id="m-{table_3.pk}"' in attention
    assert "Player B reported 2-0 for Player B" in attention


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


# ---------------------------------------------------------------- 10. the audit trail


def match_page(c: Client, event, match) -> str:
    return c.get(reverse("org_match", args=[event.slug, 2, match.pk])).content.decode()


def test_a_phone_stored_result_names_the_player_and_the_phone(live, judge):
    table_1 = match_of(live, "Player A")
    report(phone(player(live, "Player A")), live, table_1, "2-1")
    report(phone(player(live, "Player C")), live, table_1, action="confirm")
    desk = signed_in(judge)
    history = match_page(desk, live, table_1).split("History", 1)[1]
    assert "Player C, by phone" in history
    assert "no result → <strong>2-1</strong>" in history
    assert "Reported from the phones: Player A: 2-1 for Player A · Player C: 2-1 for Player A" in history
    row = desk.get(reverse("org_round", args=[live.slug, 2])).content.decode()
    assert "by Player C (phone)" in row


def test_a_settled_dispute_keeps_both_versions_in_the_history(live, judge):
    from tournament.models import Report, ResultChange

    table_3 = match_of(live, "Player B")
    report(phone(player(live, "Player B")), live, table_3, "2-0")
    report(phone(player(live, "Player D")), live, table_3, "2-1")  # Player D says they won 2-1
    desk = signed_in(judge)
    desk.post(reverse("org_match_result", args=[live.slug, 2, table_3.pk]), {"result": "1-2", "version": 0})
    change = ResultChange.objects.get(match=table_3)
    assert change.by == judge and [(r["player"], r["games"]) for r in change.reports] == [
        (player(live, "Player B").pk, [2, 0, 0]),
        (player(live, "Player D").pk, [1, 2, 0]),
    ]
    # The reports themselves may go (a later re-pair of the round discards them): the history keeps them.
    Report.objects.filter(match=table_3).delete()
    history = match_page(desk, live, table_3).split("History", 1)[1]
    assert "jules" in history and "<strong>1-2</strong>" in history
    assert "Player B: 2-0 for Player B · Player D: 2-1 for Player D" in history


def test_a_dispute_in_the_history_says_that_is_not_right(live, judge):
    table_3 = match_of(live, "Player B")
    report(phone(player(live, "Player B")), live, table_3, "2-0")
    report(phone(player(live, "Player D")), live, table_3, action="dispute")
    desk = signed_in(judge)
    desk.post(reverse("org_table_result", args=[live.slug, 2]), {"table": 3, "result": "2-1"})
    history = match_page(desk, live, table_3).split("History", 1)[1]
    assert "Player B: 2-0 for Player B · Player D: that&#x27;s not right" in history


# ---------------------------------------------------------------- 11. set up before round 1


def test_self_reporting_is_chosen_when_the_event_is_created(organiser):
    desk = signed_in(organiser)
    form = desk.get(reverse("org_event_new")).content.decode()
    assert 'name="reporting"' in form and "Players report, the opponent confirms" in form
    data = {"name": "Saturday Open", "date": "2026-11-28", "preset": "mtg", "top_cut": 0, "round_minutes": 50}
    desk.post(reverse("org_event_new"), data | {"reporting": "confirm"})
    assert Event.objects.get(name="Saturday Open").reporting == Event.Reporting.CONFIRM
    # A form without the field (an older page) creates an event whose results the desk enters.
    desk.post(reverse("org_event_new"), data | {"name": "Sunday Open"})
    assert Event.objects.get(name="Sunday Open").reporting == Event.Reporting.ORGANISERS
    wrong = desk.post(reverse("org_event_new"), data | {"name": "Monday Open", "reporting": "everyone"})
    assert wrong.status_code == 200 and not Event.objects.filter(name="Monday Open").exists()
    assert "Select a valid choice" in wrong.content.decode()


def test_self_reporting_is_chosen_in_the_settings_and_logged(event, organiser, judge):
    from tournament.models import EventLog

    desk = signed_in(organiser)
    settings_url = reverse("org_settings", args=[event.slug])
    page = desk.get(settings_url).content.decode()
    assert 'name="reporting"' in page
    data = {
        "name": event.name,
        "date": event.date.isoformat(),
        "public": "on",
        "language": event.language,
        "planned_rounds": 3,
        "top_cut": 0,
        "round_minutes": 50,
        "round_one": event.round_one,
        "late_entry": event.late_entry,
        "bye_rating": 0,
        "preset": event.preset,
        "win_points": "3",
        "draw_points": "1",
        "loss_points": "0",
        "best_of": 3,
        "floor": "33/100",
        "tiebreakers": ["omw", "gw", "ogw"],
    }
    version = event.version
    desk.post(settings_url, data | {"reporting": "alone"})
    event.refresh_from_db()
    assert event.reporting == Event.Reporting.ALONE and event.version > version
    entry = EventLog.objects.get(event=event, action="reporting")
    assert entry.by == organiser and entry.detail == {"mode": "alone", "was": "organisers"}
    desk.post(settings_url, data)  # left out: the rule stays, nothing more is logged
    event.refresh_from_db()
    assert event.reporting == Event.Reporting.ALONE and EventLog.objects.filter(action="reporting").count() == 1
    assert signed_in(judge).post(settings_url, data | {"reporting": "organisers"}).status_code == 403


def test_player_cards_are_printed_from_registration_before_round_1(event, organiser, judge):
    desk = signed_in(organiser)
    players = desk.get(reverse("org_players", args=[event.slug])).content.decode()
    cards_url = reverse("org_print_cards", args=[event.slug])
    assert f'href="{cards_url}"' in players
    cards = desk.get(cards_url)
    assert cards.status_code == 200 and not event.rounds.exists()
    assert all(p.card_code in cards.content.decode() for p in event.players.all())
    assert cards_url not in signed_in(judge).get(reverse("org_players", args=[event.slug])).content.decode()


def test_the_personal_link_is_offered_as_text_beside_the_qr_code(event, organiser):
    p = event.players.get(name="Player B")
    page = signed_in(organiser).get(reverse("org_player_card", args=[event.slug, p.pk])).content.decode()
    link = f"http://testserver{reverse('player:link', args=[event.slug, p.pk, p.token])}"
    assert f'id="personal-link" type="text" value="{link}" readonly' in page
    assert 'data-copy="personal-link"' in page and page.index("qr-big") < page.index("personal-link")
