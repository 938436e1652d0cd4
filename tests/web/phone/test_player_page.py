"""The player's own page: each player reads a result from their own side with
the names, "That's not right" is answered as a warning, a page carrying a one-time message is never kept
for a reload, and the poll that waits for the opponent stays cheap."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Event, Match, Player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def phone(event, name: str, language: str = "en") -> Client:
    p = Player.objects.get(event=event, name=name)
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert c.get(reverse("player:link", args=[event.slug, p.pk, p.token])).status_code == 302
    return c


def table_1(event) -> Match:
    return Match.objects.get(round__event=event, round__number=2, table=1)  # Player A v Player C


def post(c: Client, event, action="report", result="", follow=True, **headers):
    data = {"match": table_1(event).pk, "action": action, "result": result}
    return c.post(reverse("player:report", args=[event.slug]), data, follow=follow, **headers)


def me(c: Client, event, **headers):
    return c.get(reverse("player:me", args=[event.slug]), **headers)


WORDS = {
    "en": {
        "reported": "Reported: you won 2-1. Player C confirms it on their phone.",
        "waiting": "You reported: you won 2-1. Waiting for Player C to confirm.",
        "prompt": "Player A reported: you lost 1-2.",
        "stored_c": "Result stored: you lost 1-2 to Player A. Thank you!",
        "stored_a": "Result: you won 2-1 against Player C",
    },
    "ja": {
        "reported": "報告しました：あなたの勝ち（2-1）。Player Cさんが自分の携帯で確認します。",
        "waiting": "あなたの報告：あなたの勝ち（2-1）。Player Cさんの確認を待っています。",
        "prompt": "Player Aさんの報告：あなたの負け（1-2）。",
        "stored_c": "結果を保存しました：Player Aさんに1-2で負け。ありがとうございました！",
        "stored_a": "結果：Player Cさんに2-1で勝ち",
    },
    "da": {
        "reported": "Indberettet: du vandt 2-1. Player C bekræfter det på sin telefon.",
        "waiting": "Du indberettede: du vandt 2-1. Venter på, at Player C bekræfter.",
        "prompt": "Player A indberettede: du tabte 1-2.",
        "stored_c": "Resultatet er gemt: du tabte 1-2 til Player A. Tak!",
        "stored_a": "Resultat: du vandt 2-1 mod Player C",
    },
}


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_each_player_reads_the_result_from_their_own_side_with_the_names(live, language):
    words = WORDS[language]
    anna, carl = phone(live, "Player A", language), phone(live, "Player C", language)
    page = post(anna, live, result="2-1").content.decode()
    assert words["reported"] in page and words["waiting"] in page
    assert words["prompt"] in me(carl, live).content.decode()
    page = post(carl, live, action="confirm").content.decode()
    assert words["stored_c"] in page
    assert words["stored_a"] in me(anna, live).content.decode()


def test_a_draw_and_a_double_loss_read_as_such(live):
    Event.objects.filter(pk=live.pk).update(reporting=Event.Reporting.ALONE)
    carl = phone(live, "Player C")
    assert (
        "Result stored: a draw, 1-1-1, with Player A. Thank you!" in post(carl, live, result="1-1-1").content.decode()
    )


def test_thats_not_right_and_a_differing_report_are_warnings_not_successes(live):
    anna, carl = phone(live, "Player A"), phone(live, "Player C")
    post(anna, live, result="2-0")
    page = post(carl, live, action="dispute").content.decode()
    assert '<li class="msg-warning">You said Player A&#x27;s report is not right: a judge will come' in page
    assert "msg-success" not in page
    page = post(carl, live, result="2-0").content.decode()  # Player C says they won: differs
    assert '<li class="msg-warning">Your report differs from Player A&#x27;s: a judge will come' in page


def test_a_page_carrying_a_message_is_not_kept_for_a_reload(live):
    anna = phone(live, "Player A")
    before = me(anna, live)
    etag = before["ETag"]
    response = post(anna, live, result="2-1")
    assert "Reported: you won 2-1" in response.content.decode()
    # The page with the message: no ETag to revalidate against, and not stored by the browser.
    assert "ETag" not in response and "no-store" in response["Cache-Control"]
    # The next load is the page without the message, and its polls answer 304 again.
    again = me(anna, live, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and "Reported:" not in again.content.decode()
    assert me(anna, live, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304


def test_the_page_polls_every_3_seconds_and_says_when_it_is_offline(live):
    page = me(phone(live, "Player A"), live).content.decode()
    assert 'hx-trigger="every 3s' in page and "online from:window" in page
    assert 'id="offline"' in page and "js/player.js" in page


def test_a_poll_that_waits_for_the_opponent_is_answered_304_with_one_query(live):
    anna = phone(live, "Player A")
    first = me(anna, live, HTTP_HX_REQUEST="true")
    with CaptureQueriesContext(connection) as queries:
        again = me(anna, live, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert len(queries) == 1, [q["sql"] for q in queries]


def test_a_report_sent_by_the_page_is_answered_with_its_live_part_and_the_message_once(live):
    anna = phone(live, "Player A")
    response = post(anna, live, result="2-1", follow=False, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and 'id="live"' in body and "<html" not in body
    assert '<div id="flash" hx-swap-oob="true">' in body and "Reported: you won 2-1" in body
    assert "no-store" in response["Cache-Control"]
    # Its version is the page's: the next poll is a 304, without the message.
    assert me(anna, live, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    page = me(anna, live).content.decode()
    assert "Reported:" not in page and "You reported: you won 2-1" in page
    refused = post(anna, live, result="7-7", follow=False, HTTP_HX_REQUEST="true").content.decode()
    assert 'class="msg-error"' in refused


def test_a_chess_result_is_written_white_first_and_read_from_the_players_side(live):
    Event.objects.filter(pk=live.pk).update(reporting=Event.Reporting.ALONE, colours=True, best_of=1)
    carl = phone(live, "Player C")  # Black at table 1
    page = post(carl, live, result="1-0").content.decode()  # Player C won
    assert "Result stored: you won 0-1 against Player A. Thank you!" in page
    assert "Result: you lost 0-1 to Player C" in me(phone(live, "Player A"), live).content.decode()


def test_every_players_earlier_rounds_are_read_in_one_query(live, django_assert_max_num_queries):
    """The first page of a round reads every player's lines at once: never a query per player or per line."""
    Event.objects.filter(pk=live.pk).update(colours=True)
    anna = phone(live, "Player A")
    # the page, the settled marker, the standings and the lines; the reasons of the round (pages/why.py: the
    # player's and their group, their names, the players to ask "why not" about)
    with django_assert_max_num_queries(16):
        page = me(anna, live).content.decode()
    assert "Player B" in page and "won 2-0" in page
