"""Starting and running the top cut as an organiser: the bracket is a draft to
publish, it can be undone while no result is in, each result is confirmed, the stages have their names,
and the end of the event is announced."""

import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair, text
from tournament.models import Event, EventLog, Match, Player, Round
from tournament.services.locks import ServiceError
from tournament.services.results import Outcome, record_result
from tournament.services.roster import add_player
from tournament.services.rounds import pair_next_round, publish_round
from tournament.services.top_cut import start_top_cut, undo_top_cut

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def url(name, event, *args):
    return reverse(name, args=[event.slug, *args])


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def swiss_done(event):
    """Two Swiss rounds complete, a top 4 set: ready to start the top cut."""
    Event.objects.filter(pk=event.pk).update(top_cut=4, planned_rounds=2)
    event.refresh_from_db()
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    event.refresh_from_db()
    return event


def semis(event):
    return event.rounds.get(kind=Round.Kind.ELIMINATION, number=3)


# --- A draft to publish, undone while no result is in ----------------------------------------------


def test_the_event_page_leads_to_the_seeding_instead_of_starting_at_once(org, swiss_done):
    home = org.get(url("org_event", swiss_done)).content.decode()
    assert f'href="{url("org_top_cut", swiss_done)}">Start top 4</a>' in home
    assert url("org_top_cut_start", swiss_done) not in home
    page = text(org.get(url("org_top_cut", swiss_done)))
    # The preview is the seeding the start would use: 1 v 4, 2 v 3 of the final Swiss standings.
    assert "The bracket if you start now 1 Player A v 4 Player G 2 Player E v 3 Player B" in page


def test_starting_makes_a_draft_nobody_sees_until_it_is_published(org, client, swiss_done):
    r = org.post(url("org_top_cut_start", swiss_done), follow=True)
    assert "paired as a draft" in text(r)
    rnd = semis(swiss_done)
    assert rnd.state == Round.State.DRAFT
    page = text(org.get(url("org_top_cut", swiss_done)))
    assert "The bracket is a draft" in page and "Publish the bracket" in page
    public = Client()
    assert "Semifinals" not in text(public.get(reverse("public:bracket", args=[swiss_done.slug])))
    # The organiser's round page for the draft bracket is the top-cut page.
    assert org.get(url("org_round", swiss_done, 3))["Location"] == url("org_top_cut", swiss_done)
    # No Swiss round can be paired on top of the draft, no late entry slips in.
    assert "bracket is a draft" in text(org.post(url("org_round_pair", swiss_done), follow=True))
    with pytest.raises(ServiceError):
        add_player(swiss_done, None, name="Late Larry")
    org.post(url("org_top_cut_publish", swiss_done))
    rnd.refresh_from_db()
    assert rnd.state == Round.State.PAIRED
    assert "Semifinals" in text(public.get(reverse("public:bracket", args=[swiss_done.slug])))


def test_a_draft_is_undone_at_once(org, swiss_done):
    org.post(url("org_top_cut_start", swiss_done))
    version = Event.objects.get(pk=swiss_done.pk).version
    r = org.post(url("org_top_cut_undo", swiss_done), follow=True)
    assert "The top cut is undone" in text(r)
    assert not swiss_done.rounds.filter(kind=Round.Kind.ELIMINATION).exists()
    # Nobody saw the draft: the public pages did not change.
    assert Event.objects.get(pk=swiss_done.pk).version == version
    assert EventLog.objects.filter(event=swiss_done, action="undo_top_cut").exists()
    # The Swiss rounds go on: an extra round can be paired now.
    assert pair_next_round(swiss_done, None).number == 3


def test_a_published_bracket_is_undone_only_with_a_tick_and_only_before_a_result(org, swiss_done):
    org.post(url("org_top_cut_start", swiss_done))
    org.post(url("org_top_cut_publish", swiss_done))
    page = text(org.get(url("org_top_cut", swiss_done)))
    assert "Undo the top cut" in page
    r = org.post(url("org_top_cut_undo", swiss_done), follow=True)
    assert "Tick to confirm" in text(r)
    assert semis(swiss_done)
    match = semis(swiss_done).matches.order_by("table").first()
    record_result(match, Outcome("played", (2, 0, 0)), None)
    assert "Undo the top cut" not in text(org.get(url("org_top_cut", swiss_done)))
    r = org.post(url("org_top_cut_undo", swiss_done), {"confirm": "on"}, follow=True)
    assert "can no longer be undone" in text(r)
    assert semis(swiss_done).matches.count() == 2


def test_undo_with_a_tick_before_any_result(org, swiss_done):
    org.post(url("org_top_cut_start", swiss_done))
    org.post(url("org_top_cut_publish", swiss_done))
    before = Event.objects.get(pk=swiss_done.pk).version
    org.post(url("org_top_cut_undo", swiss_done), {"confirm": "on"})
    assert not swiss_done.rounds.filter(kind=Round.Kind.ELIMINATION).exists()
    assert Event.objects.get(pk=swiss_done.pk).version > before  # the public pages drop the bracket


def test_a_judge_cannot_start_publish_or_undo(client, judge, swiss_done):
    client.force_login(judge)
    for name in ("org_top_cut_start", "org_top_cut_publish", "org_top_cut_undo"):
        assert client.post(url(name, swiss_done)).status_code == 403
    assert "Pair the top 4" not in text(client.get(url("org_top_cut", swiss_done)))


@pytest.mark.django_db(transaction=True)
def test_undo_racing_a_result_never_loses_the_result(swiss_done):
    """A result stored while the top cut is being undone: either the result wins (undo refused) or the
    undo wins (the result is refused with a message); never a stored result silently deleted."""
    rnd = start_top_cut(swiss_done, None)
    publish_round(rnd, None)
    match = rnd.matches.order_by("table").first()
    outcomes = {}
    barrier = threading.Barrier(2)

    def undo():
        barrier.wait()
        try:
            undo_top_cut(swiss_done, None)
            outcomes["undo"] = "done"
        except ServiceError as e:
            outcomes["undo"] = str(e)
        finally:
            connection.close()

    def result():
        barrier.wait()
        try:
            record_result(match, Outcome("played", (2, 1, 0)), None)
            outcomes["result"] = "stored"
        except ServiceError as e:
            outcomes["result"] = str(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=undo), threading.Thread(target=result)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stored = Match.objects.filter(pk=match.pk, games_a=2).exists()
    if outcomes["undo"] == "done":
        assert not stored and outcomes["result"] != "stored"
    else:
        assert stored and outcomes["result"] == "stored"


# --- Stage names, tables, the hint, a confirmation per result, the trophy --------------------------


@pytest.fixture
def bracket(org, swiss_done):
    org.post(url("org_top_cut_start", swiss_done))
    org.post(url("org_top_cut_publish", swiss_done))
    return swiss_done


def test_the_bracket_names_its_stages_and_tables(org, bracket):
    page = text(org.get(url("org_top_cut", bracket)))
    assert "Semifinals Table 1" in page and "Table 2" in page
    home = text(org.get(url("org_event", bracket)))
    assert "Top cut · Semifinals" in home
    html = org.get(url("org_round", bracket, 3)).content.decode()
    assert "Top cut · Semifinals" in text_of(html)
    # The keyboard hint offers what a top-cut match accepts: winning scores only, no draws or double losses.
    hint = re.search(r'<small class="muted" id="tf-hint">.*?</small>', html, re.S).group(0)
    assert "<kbd>21</kbd>" in hint and "<kbd>dl</kbd>" not in hint and "<kbd>11</kbd>" not in hint


def test_each_result_is_confirmed_before_it_is_stored(org, bracket):
    match = semis(bracket).matches.get(table=1)
    page = org.get(url("org_top_cut", bracket)).content.decode()
    link = f"?enter={match.pk}&amp;result=2-1#m-{match.pk}"
    assert link in page
    # Picking a result asks: who beats whom, by how much.
    asked = text(org.get(url("org_top_cut", bracket), {"enter": match.pk, "result": "2-1"}))
    assert f"{match.player_a.name} beats {match.player_b.name} 2-1?" in asked
    match.refresh_from_db()
    assert match.games is None
    # A click on a one-click button elsewhere (the round page) also lands on that question.
    r = org.post(url("org_match_result", bracket, 3, match.pk), {"result": "1-2", "version": 0})
    assert r["Location"] == f"{url('org_top_cut', bracket)}?enter={match.pk}&result=1-2#m-{match.pk}"
    match.refresh_from_db()
    assert match.games is None
    org.post(
        url("org_match_result", bracket, 3, match.pk),
        {"result": "2-1", "version": 0, "confirm": "1", "next": url("org_top_cut", bracket)},
    )
    match.refresh_from_db()
    assert match.games == (2, 1, 0)


def test_a_question_about_a_match_with_a_result_or_junk_is_not_asked(org, bracket):
    match = semis(bracket).matches.get(table=1)
    for params in (
        {"enter": match.pk, "result": "1-1"},
        {"enter": "x", "result": "2-0"},
        {"enter": 999999, "result": "2-0"},
    ):
        r = org.get(url("org_top_cut", bracket), params)
        assert r.status_code == 200 and "Confirm result" not in text(r)


def test_the_final_column_is_drawn_during_the_semis(client, bracket):
    page = text(client.get(reverse("public:bracket", args=[bracket.slug])))
    assert "Final Winner of table 1 Winner of table 2" in page


def test_the_end_of_the_event_on_the_organisers_pages(org, bracket):
    for m in semis(bracket).matches.all():
        record_result(m, Outcome("played", (2, 0, 0)), None)
    final = bracket.rounds.get(number=4).matches.get()
    record_result(final, Outcome("played", (0, 2, 0)), None)
    winner = final.player_b.name
    home = text(org.get(url("org_event", bracket)))
    assert f"The event is over: {winner} wins." in home
    assert "The top cut is under way" not in home
    page = org.get(url("org_top_cut", bracket)).content.decode()
    assert "🏆" not in page and '<svg class="trophy"' in page
    assert f"{winner} wins the event" in text(org.get(url("org_top_cut", bracket)))
    standings = text(org.get(url("org_standings", bracket)))
    assert f"1. {winner} winner" in standings
    # The public pairings no longer say the top cut is being played.
    pairings = text(Client().get(reverse("public:pairings", args=[bracket.slug])))
    assert "The top cut is being played" not in pairings and "The top cut is over: see the final placings" in pairings


def test_the_public_pairings_say_the_top_cut_is_being_played_while_it_is(bracket):
    pairings = text(Client().get(reverse("public:pairings", args=[bracket.slug])))
    assert "The top cut is being played: see the bracket" in pairings and "is over" not in pairings


def test_a_late_entry_is_refused_once_the_bracket_exists(swiss_done):
    start_top_cut(swiss_done, None)
    with pytest.raises(ServiceError, match="top cut has started"):
        add_player(swiss_done, None, name="Late Larry")
    assert not Player.objects.filter(name="Late Larry").exists()
