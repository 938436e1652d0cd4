"""Every change to a published round leaves one entry on its trail (`RoundChange`), in the change's own
transaction, with what the round's lines were and what they became (names as they were then); a draft's edits
leave none, and neither does a result's first entry."""

import pytest
from django.db import transaction

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, pair
from tournament.models import Event, Player, Round, RoundChange
from tournament.services.results import Outcome, correct_result, record_result
from tournament.services.roster import add_player
from tournament.services.rounds import flip_colours, publish_round, repair_round, swap_players

pytestmark = pytest.mark.django_db


def names(lines) -> list[tuple]:
    return [(ln["table"], ln["a_name"], ln["b_name"]) for ln in lines]


@pytest.fixture
def published(event):
    """Round 1 published, no result yet: A-B, C-D, E-F, G-H."""
    return pair(event, 1, ROUND_1, state=Round.State.PAIRED)


def players(event) -> dict[str, Player]:
    return {p.name: p for p in event.players.all()}


def test_a_swap_in_a_published_round_records_both_tables_as_they_were(event, published, organiser):
    p = players(event)
    swap_players(published, p["Player B"], p["Player C"], organiser)
    (change,) = RoundChange.objects.filter(event=event)
    assert (change.kind, change.round_number, change.table, change.by) == ("swap", 1, 1, organiser)
    assert names(change.was) == [(1, "Player A", "Player B"), (2, "Player C", "Player D")]
    assert names(change.became) == [(1, "Player A", "Player C"), (2, "Player B", "Player D")]
    # The names as they were then: a later rename changes the players, not the trail.
    Player.objects.filter(pk=p["Player B"].pk).update(name="Renamed")
    change.refresh_from_db()
    assert change.was[0]["b_name"] == "Player B" and change.was[0]["b"] == p["Player B"].key


def test_a_swap_in_a_draft_records_nothing(event, organiser):
    draft = pair(event, 1, ROUND_1, state=Round.State.DRAFT)
    p = players(event)
    swap_players(draft, p["Player B"], p["Player C"], organiser)
    assert not RoundChange.objects.exists()


def test_a_flip_records_the_board_with_its_colours_turned(organiser):
    from tests.conftest import new_chess_event

    e = new_chess_event(organiser, {"Ann": 2000, "Bob": 1900, "Cid": 1800, "Dan": 1700})
    rnd = pair(e, 1, [("Ann", "Bob"), ("Cid", "Dan")], state=Round.State.PAIRED)
    flip_colours(rnd, rnd.matches.get(table=2).pk, organiser)
    (change,) = RoundChange.objects.filter(event=e)
    assert (change.kind, change.table) == ("flip", 2)
    assert names(change.was) == [(2, "Cid", "Dan")] and names(change.became) == [(2, "Dan", "Cid")]
    # A draft's flip records nothing.
    draft = pair(e, 2, [("Ann", "Cid"), ("Bob", "Dan")], state=Round.State.DRAFT)
    flip_colours(draft, draft.matches.get(table=1).pk, organiser)
    assert RoundChange.objects.filter(event=e).count() == 1


def test_a_re_pairing_records_the_published_pairing_and_what_is_published_next(event, published, organiser):
    new = repair_round(published, organiser)
    (change,) = RoundChange.objects.filter(event=event)
    assert (change.kind, change.round_number, change.table) == ("repair", 1, None)
    assert names(change.was) == [(t, a, b) for t, (a, b) in enumerate(ROUND_1, start=1)]
    # The draft is swapped before it is published: a draft's edit is not recorded on its own, but what the
    # re-pairing became is the pairing published.
    a, b = (m.player_a for m in new.matches.order_by("table")[:2])
    swap_players(new, a, b, organiser)
    assert RoundChange.objects.filter(event=event).count() == 1
    publish_round(new, organiser)
    change.refresh_from_db()
    published_now = sorted(
        (m.table, m.player_a.name, m.player_b.name) for m in new.matches.select_related("player_a", "player_b")
    )
    assert sorted(names(change.became)) == published_now
    # Re-pairing the draft again (not published) records nothing more.
    assert RoundChange.objects.filter(event=event).count() == 1


def test_a_draft_re_paired_records_nothing(event, organiser):
    draft = pair(event, 1, ROUND_1, state=Round.State.DRAFT)
    repair_round(draft, organiser)
    assert not RoundChange.objects.exists()


def test_a_corrected_result_is_recorded_and_its_first_entry_is_not(event, published, organiser):
    m = published.matches.get(table=1)
    record_result(m, Outcome("played", (2, 0, 0)), organiser)
    assert not RoundChange.objects.exists()
    m.refresh_from_db()
    correct_result(m, Outcome("played", (1, 1, 1)), organiser, expected_version=m.version)
    (change,) = RoundChange.objects.filter(event=event)
    assert (change.kind, change.table) == ("result", 1)
    assert change.was[0]["games"] == [2, 0, 0] and change.became[0]["games"] == [1, 1, 1]
    assert names(change.was) == names(change.became) == [(1, "Player A", "Player B")]


def test_a_late_entrant_s_unpaired_losses_are_recorded_in_each_published_round(event, organiser):
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    Event.objects.filter(pk=event.pk).update(late_entry=Event.LateEntry.LOSSES)
    event.refresh_from_db()
    add_player(event, organiser, name="Late Lee")
    (change,) = RoundChange.objects.filter(event=event)
    assert (change.kind, change.round_number, change.was) == ("by_hand", 1, [])
    assert [(ln["a_name"], ln["b_name"], ln["result"]) for ln in change.became] == [("Late Lee", None, "loss")]


def test_a_refused_change_leaves_no_entry(event, published, organiser):
    from tournament.services.locks import ServiceError

    p = players(event)
    with pytest.raises(ServiceError), transaction.atomic():
        swap_players(published, p["Player A"], p["Player B"], organiser)  # they already play each other
    assert not RoundChange.objects.exists()


def test_the_round_page_offers_a_swap_while_the_published_round_has_no_result(event, published, organiser, judge):
    from django.test import Client
    from django.urls import reverse

    url = reverse("org_round", args=[event.slug, 1])
    org = Client()
    org.force_login(organiser)
    assert "players see the change on the public pairings" in org.get(url).content.decode()
    jury = Client()
    jury.force_login(judge)
    assert 'class="card swap"' not in jury.get(url).content.decode()  # an organiser's change only
    p = players(event)
    answer = org.post(
        reverse("org_round_swap", args=[event.slug, 1]),
        {"first": p["Player B"].pk, "second": p["Player C"].pk, "once": "trail-swap-1"},
        follow=True,
    )
    assert "Swapped Player B and Player C." in answer.content.decode()
    assert RoundChange.objects.filter(event=event, kind="swap", by=organiser).count() == 1
    record_result(published.matches.get(table=3), Outcome("played", (2, 0, 0)), organiser)
    assert 'class="card swap"' not in org.get(url).content.decode()


def test_a_player_placed_late_in_a_section_has_their_unplaced_loss_on_its_trail(venue, organiser):
    from tournament.services.sections import move_player

    a = venue.sections.get(name="A")
    Event.objects.filter(pk=a.pk).update(late_entry=Event.LateEntry.LOSSES)
    a.refresh_from_db()
    pair(a, 1, [(f"A Player {x}", f"A Player {y}") for x, y in ("AB", "CD", "EF")], state=Round.State.PAIRED)
    late = Player.objects.create(event=venue, name="Late Lou")
    move_player(late, a, organiser)
    (change,) = RoundChange.objects.filter(event=a)
    assert (change.kind, change.round_number, change.by) == ("by_hand", 1, organiser)
    assert [(ln["a_name"], ln["result"]) for ln in change.became] == [("Late Lou", "loss")]
