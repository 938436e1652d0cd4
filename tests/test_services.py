"""Workflows in tournament.services that do not need the pairing engine: results, corrections, drops,
late entries, the clock."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournament import services
from tournament.eventio import create_matches
from tournament.models import Event, Match, ResultChange, Round
from tournament.services import Outcome, ServiceError, parse_outcome

pytestmark = pytest.mark.django_db


def make_round(event, number=1, state=Round.State.PAIRED, kind=Round.Kind.SWISS):
    rnd = Round.objects.create(event=event, number=number, state=state, kind=kind)
    ps = list(event.players.order_by("name"))
    create_matches(
        rnd, [Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1]) for i in range(0, len(ps) - 1, 2)]
    )
    return rnd


@pytest.mark.parametrize(
    ("text", "best_of", "expected"),
    [
        ("2-0", 3, Outcome("played", (2, 0, 0))),
        ("21", 3, Outcome("played", (2, 1, 0))),
        ("1-1", 3, Outcome("played", (1, 1, 0))),
        ("003", 3, Outcome("played", (0, 0, 3))),
        ("0-0-3", 3, Outcome("played", (0, 0, 3))),
        ("d", 3, Outcome("played", (1, 1, 0))),
        ("d", 1, Outcome("played", (0, 0, 1))),
        ("1 0", 1, Outcome("played", (1, 0, 0))),
        ("dl", 3, Outcome("double_loss", None)),
    ],
)
def test_parse_outcome(text, best_of, expected):
    assert parse_outcome(text, best_of) == expected


@pytest.mark.parametrize("text", ["", "x", "2", "1-2-3-4", "a-b"])
def test_parse_outcome_refuses_nonsense(text):
    with pytest.raises(ServiceError):
        parse_outcome(text, 3)


def test_record_result_validates_best_of(event, organiser):
    m = make_round(event).matches.first()
    for bad in [(3, 0, 0), (2, 2, 0), (0, 0, 0)]:
        with pytest.raises(ServiceError):
            services.record_result(m, Outcome("played", bad), organiser, 0)
    m.refresh_from_db()
    assert m.games is None and not ResultChange.objects.exists()


def test_record_result_bumps_versions_and_completes_round(event, organiser):
    rnd = make_round(event)
    v = Event.objects.get().version
    for m in rnd.matches.all():
        services.record_result(m, Outcome("played", (2, 1, 0)), organiser, 0)
    rnd.refresh_from_db()
    assert rnd.state == Round.State.COMPLETE
    assert Event.objects.get().version == v + 4
    assert ResultChange.objects.filter(before__isnull=True).count() == 4


def test_conflict_shows_stored_result(event, organiser, judge):
    m = make_round(event).matches.first()
    services.record_result(m, Outcome("played", (2, 0, 0)), judge, 0)
    with pytest.raises(services.ResultConflict, match="2-0"):
        services.record_result(m, Outcome("played", (0, 2, 0)), organiser, 0)
    # The same result again, from a stale form, is harmless.
    services.record_result(m, Outcome("played", (2, 0, 0)), organiser, 0)
    m.refresh_from_db()
    assert m.version == 1


def test_elimination_match_cannot_be_drawn(event, organiser):
    m = make_round(event, kind=Round.Kind.ELIMINATION).matches.first()
    for outcome in (Outcome("played", (1, 1, 0)), Outcome("double_loss", None)):
        with pytest.raises(ServiceError):
            services.record_result(m, outcome, organiser, 0)


def test_correct_result_audits_and_updates_standings(event, organiser):
    rnd = make_round(event)
    m = rnd.matches.get(table=1)
    services.record_result(m, Outcome("played", (2, 0, 0)), organiser, 0)
    first = services.event_standings(Event.objects.get()).rows[0].name
    assert first == m.player_a.name
    services.correct_result(m, Outcome("played", (0, 2, 0)), organiser)
    change = ResultChange.objects.filter(match=m, before__isnull=False).get()
    assert change.before == {"result": "played", "games": [2, 0, 0]}
    assert change.after == {"result": "played", "games": [0, 2, 0]}
    assert services.event_standings(Event.objects.get()).rows[0].name == m.player_b.name


def test_drop_after_current_round_and_undrop(event, organiser):
    make_round(event, 1, Round.State.COMPLETE)
    make_round(event, 2, Round.State.DRAFT)
    p = event.players.first()
    services.drop_player(p, organiser)
    assert p.dropped_after == 1  # the draft is not played yet
    services.undrop_player(p, organiser)
    p.refresh_from_db()
    assert p.dropped_after is None


def test_late_entry_policy_losses(event, organiser):
    event.late_entry = Event.LateEntry.LOSSES
    event.save(update_fields=["late_entry"])
    make_round(event, 1, Round.State.COMPLETE)
    p, notes = services.add_player(event, organiser, name="Late")
    assert p.joined_round == 2 and any("Unpaired losses" in n for n in notes)
    loss = Match.objects.get(player_a=p)
    assert loss.result == "loss" and loss.round.number == 1 and loss.round.seats.filter(player=p).exists()


def test_no_entries_once_top_cut_started(event, organiser):
    make_round(event, 1, Round.State.COMPLETE)
    make_round(event, 2, Round.State.PAIRED, Round.Kind.ELIMINATION)
    with pytest.raises(ServiceError):
        services.add_player(event, organiser, name="Too late")


def test_clock(event, organiser):
    rnd = make_round(event)
    services.clock(rnd, "start", organiser)
    assert rnd.state == Round.State.IN_PROGRESS
    rnd.clock_started -= timedelta(minutes=10)
    rnd.save(update_fields=["clock_started"])
    services.clock(rnd, "pause", organiser)
    left = rnd.seconds_left()
    assert 39 * 60 < left <= 40 * 60
    rnd.clock_paused_at -= timedelta(minutes=3)  # paused three minutes ago: the time stood still since
    rnd.save(update_fields=["clock_paused_at"])
    left = rnd.seconds_left()
    services.clock(rnd, "resume", organiser)
    assert abs(rnd.seconds_left() - left) <= 2
    services.clock(rnd, "add", organiser, 5)
    assert rnd.clock_minutes == 55
    with pytest.raises(ServiceError):
        services.clock(rnd, "add", organiser, 500)


def test_clock_needs_published_round(event, organiser):
    rnd = make_round(event, state=Round.State.DRAFT)
    with pytest.raises(ServiceError):
        services.clock(rnd, "start", organiser)
    assert timezone.now()
