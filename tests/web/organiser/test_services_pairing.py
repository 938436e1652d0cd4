"""Pairing through the web app's adapter: drafts, exactly once, re-pair, swaps, byes, refusals."""

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournament.models import Event, EventLog, EventRole, Match, Player, Round, Seat
from tournament.services.locks import ServiceError
from tournament.services.results import Outcome, record_result
from tournament.services.roster import drop_player
from tournament.services.rounds import (
    met_before,
    pair_next_round,
    publish_round,
    recommended_rounds,
    repair_round,
    swap_players,
)
from tournament.services.standings import event_standings
from tournament.services.top_cut import final_placings, start_top_cut
from tournament.text.engine_text import round_warnings

pytestmark = pytest.mark.django_db


def finish(rnd, by):
    for m in rnd.matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (2, 1, 0)), by, m.version)


def test_pair_round_one_is_a_draft_with_everybody_seated_once(event, organiser):
    v = Event.objects.get().version
    rnd = pair_next_round(event, organiser)
    assert rnd.number == 1 and rnd.state == Round.State.DRAFT and rnd.seed is not None
    assert Seat.objects.filter(round=rnd).count() == 8 == rnd.matches.count() * 2
    assert sorted(rnd.matches.values_list("table", flat=True)) == [1, 2, 3, 4]
    assert Event.objects.get().version == v  # a draft is not public: nothing changed for the public pages
    assert EventLog.objects.filter(action="pair").count() == 1


def test_pairing_twice_pairs_once(event, organiser):
    pair_next_round(event, organiser)
    with pytest.raises(ServiceError, match="still a draft"):
        pair_next_round(event, organiser)
    assert Round.objects.count() == 1


def test_pairing_refused_with_missing_results(event, organiser):
    rnd = pair_next_round(event, organiser)
    publish_round(rnd, organiser)
    with pytest.raises(ServiceError, match="4 results missing"):
        pair_next_round(event, organiser)


def test_odd_field_gets_a_bye_and_pre_awarded_byes_are_matches(event, organiser):
    Player.objects.bulk_create([Player(event=event, name="Odd One"), Player(event=event, name="Odd Two")])
    seeded = event.players.get(name="Player A")
    seeded.byes = 1
    seeded.save(update_fields=["byes"])
    rnd = pair_next_round(event, organiser)
    byes = rnd.matches.filter(result=Match.Result.BYE)
    assert byes.count() == 2 and byes.filter(player_a=seeded).exists()
    assert rnd.matches.filter(player_b__isnull=False).count() == 4 and rnd.seats.count() == 10


def test_second_round_avoids_rematches_and_dropped_players(event, organiser):
    r1 = pair_next_round(event, organiser)
    publish_round(r1, organiser)
    finish(r1, organiser)
    dropped = event.players.first()
    drop_player(dropped, organiser)
    r2 = pair_next_round(event, organiser)
    met = met_before(event, 2)
    pairs = {frozenset(p) for p in r2.matches.filter(player_b__isnull=False).values_list("player_a", "player_b")}
    assert not pairs & met
    assert not r2.seats.filter(player=dropped).exists()
    assert r2.seats.count() == 7


def test_repair_published_round_without_results(event, organiser):
    rnd = pair_next_round(event, organiser)
    publish_round(rnd, organiser)
    v = Event.objects.get().version
    new = repair_round(rnd, organiser)
    assert new.number == 1 and new.state == Round.State.DRAFT and Round.objects.count() == 1
    assert Event.objects.get().version == v + 1
    publish_round(new, organiser)
    m = new.matches.first()
    record_result(m, Outcome("played", (2, 0, 0)), organiser, 0)
    with pytest.raises(ServiceError, match="already has results"):
        repair_round(new, organiser)


def test_swap_keeps_seats_and_flags_rematch(event, organiser):
    r1 = pair_next_round(event, organiser)
    publish_round(r1, organiser)
    finish(r1, organiser)
    r2 = pair_next_round(event, organiser)
    old = r1.matches.first()
    a, b = old.player_a, old.player_b
    partner_of_a = r2.matches.get(player_a=a) if r2.matches.filter(player_a=a).exists() else r2.matches.get(player_b=a)
    opp = partner_of_a.player_b if partner_of_a.player_a == a else partner_of_a.player_a
    warnings = swap_players(r2, opp, b, organiser)
    assert any("Rematch" in w for w in warnings)
    assert r2.seats.count() == 8 and r2.matches.count() == 4
    r2.refresh_from_db()
    assert any("Rematch" in w for w in round_warnings(r2.warnings))


def test_swap_refused_once_results_are_in(event, organiser):
    rnd = pair_next_round(event, organiser)
    publish_round(rnd, organiser)
    m1, m2 = list(rnd.matches.all()[:2])
    record_result(m1, Outcome("played", (2, 0, 0)), organiser, 0)
    with pytest.raises(ServiceError):
        swap_players(rnd, m1.player_a, m2.player_a, organiser)


def big(organiser, n, slug):
    e = Event.objects.create(slug=slug, name=slug, tiebreakers=["omw", "gw", "ogw"])
    EventRole.objects.create(event=e, user=organiser, role=EventRole.Role.ORGANISER)
    Player.objects.bulk_create(Player(event=e, name=f"P{i:04d}", rating=2000 - i) for i in range(n))
    return e


def test_pairing_query_count_does_not_grow(organiser, client, django_assert_max_num_queries):
    client.force_login(organiser)
    counts = []
    for n in (64, 512):
        e = big(organiser, n, f"big-{n}")
        with django_assert_max_num_queries(40), CaptureQueriesContext(connection) as ctx:
            response = client.post(f"/events/{e.slug}/rounds/pair/")
        assert response.status_code == 302
        assert Round.objects.get(event=e).matches.count() == n // 2
        # Bulk inserts are split in batches on SQLite (999 parameters a statement): count the rest.
        counts.append(len([q for q in ctx.captured_queries if not q["sql"].startswith("INSERT")]))
    assert counts[0] == counts[1]


def play_swiss(event, organiser, rounds):
    for _ in range(rounds):
        rnd = pair_next_round(event, organiser)
        publish_round(rnd, organiser)
        finish(rnd, organiser)


def test_top_cut_seeds_bracket_and_final_placings(event, organiser):
    event.top_cut = 4
    event.save(update_fields=["top_cut"])
    play_swiss(event, organiser, 3)
    rows = event_standings(Event.objects.get()).rows
    by_key = {p.key: p for p in event.players.all()}
    seeds = [by_key[r.player_id] for r in rows[:4]]
    semis = start_top_cut(event, organiser)
    # The bracket is a draft until published; a result needs it published.
    assert semis.kind == Round.Kind.ELIMINATION and semis.state == Round.State.DRAFT
    publish_round(semis, organiser)
    pairs = [(m.player_a, m.player_b) for m in semis.matches.order_by("table")]
    assert pairs == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    with pytest.raises(ServiceError, match="already started"):
        start_top_cut(event, organiser)
    m1, m2 = semis.matches.order_by("table")
    with pytest.raises(ServiceError, match="draw"):
        record_result(m1, Outcome("played", (1, 1, 0)), organiser, 0)
    record_result(m1, Outcome("played", (0, 2, 0)), organiser, 0)  # seed 4 beats seed 1
    assert final_placings(event) is None
    record_result(m2, Outcome("played", (2, 1, 0)), organiser, 0)  # seed 2 beats seed 3
    final = Round.objects.get(event=event, number=semis.number + 1)
    fm = final.matches.get()
    assert (fm.player_a, fm.player_b) == (seeds[3], seeds[1])
    record_result(fm, Outcome("played", (2, 0, 0)), organiser, 0)
    placings = final_placings(event)
    assert placings == [(1, seeds[3]), (2, seeds[1]), (3, seeds[0]), (4, seeds[2])]
    assert not Round.objects.filter(number=final.number + 1).exists()


def test_top_cut_needs_complete_swiss_rounds(event, organiser):
    event.top_cut = 4
    event.save(update_fields=["top_cut"])
    rnd = pair_next_round(event, organiser)
    publish_round(rnd, organiser)
    with pytest.raises(ServiceError, match="missing"):
        start_top_cut(event, organiser)


def test_swap_with_the_bye(event, organiser):
    Player.objects.create(event=event, name="Odd One")
    rnd = pair_next_round(event, organiser)
    bye = rnd.matches.get(result=Match.Result.BYE)
    game = rnd.matches.filter(player_b__isnull=False).first()
    swap_players(rnd, bye.player_a, game.player_a, organiser)
    assert rnd.matches.get(result=Match.Result.BYE).player_a == game.player_a
    assert rnd.seats.count() == 9


def test_recommendation_counts_pre_awarded_byes(event):
    rec = recommended_rounds(event)
    assert rec.single_elimination and rec.top_cut == 8
    Player.objects.bulk_create(Player(event=event, name=f"Extra {i}") for i in range(42))
    Player.objects.filter(name__in=["Extra 1", "Extra 2", "Extra 3", "Extra 4"]).update(byes=3)
    rec = recommended_rounds(event)  # 50 players, four 3-round byes: counted as 78
    assert (rec.rounds, rec.top_cut) == (7, 8) and "78" in rec.explanation


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_pairings_make_one_round(event, organiser):
    barrier = threading.Barrier(2)
    outcomes = []

    def pair_now():
        try:
            barrier.wait()
            pair_next_round(Event.objects.get(pk=event.pk), organiser)
            outcomes.append("paired")
        except ServiceError as e:
            outcomes.append(str(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=pair_now) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("paired") == 1
    assert Round.objects.filter(event=event).count() == 1 and Seat.objects.count() == 8
