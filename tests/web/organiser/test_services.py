"""Workflows in tournament.services that do not need the pairing engine: results, corrections, drops,
late entries, the clock."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournament.models import Event, EventLog, Match, ResultChange, Round
from tournament.services.clock import change_clock
from tournament.services.locks import ServiceError
from tournament.services.results import (
    ConfirmReplace,
    Outcome,
    correct_result,
    outcome_from_games,
    parse_outcome,
    record_result,
    validate_result,
)
from tournament.services.roster import add_player, drop_player, undrop_player
from tournament.services.standings import event_standings
from tournament.snapshot import create_matches

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
        ("Double  loss", 3, Outcome("double_loss", None)),
        ("id", 3, Outcome("played", (0, 0, 3))),
        ("id", 5, Outcome("played", (0, 0, 5))),
        ("1–1", 3, Outcome("played", (1, 1, 0))),
        ("２－０", 3, Outcome("played", (2, 0, 0))),  # a Japanese keyboard's full-width digits
        ("2-0-40000", 3, Outcome("played", (2, 0, 40000))),  # read, then refused by validation (below)
    ],
)
def test_parse_outcome(text, best_of, expected):
    assert parse_outcome(text, best_of) == expected


@pytest.mark.parametrize("text", ["", "x", "2", "1-2-3-4", "a-b", "²-⁰", "٢-٠", "1-1-9999999", "9" * 5000 + "-0"])
def test_parse_outcome_refuses_nonsense(text):
    with pytest.raises(ServiceError, match="is not a result"):
        parse_outcome(text, 3)


@pytest.mark.parametrize(
    ("best_of", "bad", "message"),
    [
        (3, (2, 0, 5), "at most 3 drawn games"),
        (3, (1, 1, 5), "at most 3 drawn games"),
        (3, (1, 1, 99999), "at most 3 drawn games"),
        (3, (2, 0, 40000), "at most 3 drawn games"),
        (3, (3, 0, 0), "nobody wins more than 2"),
        (1, (0, 0, 2), "at most 1 drawn games"),
        (5, (0, 0, 6), "at most 5 drawn games"),
    ],
)
def test_drawn_games_are_bounded_by_best_of(event, organiser, best_of, bad, message):
    """MTR: a best-of-N match has at most N drawn games on top of the games won (an ID is 0-0-3)."""
    Event.objects.filter(pk=event.pk).update(best_of=best_of)
    m = make_round(event).matches.first()
    with pytest.raises(ServiceError, match=message):
        record_result(m, Outcome("played", bad), organiser, 0)
    for good in [(0, 0, best_of), (1, 0, best_of)]:
        validate_result(Match.objects.select_related("round__event").get(pk=m.pk), Outcome("played", good))


def test_double_loss_with_games_is_contradictory():
    with pytest.raises(ServiceError, match="Double loss"):
        outcome_from_games(2, 0, None, True)
    assert outcome_from_games(None, None, None, True) == Outcome("double_loss", None)
    assert outcome_from_games(1, None, 1, False) == Outcome("played", (1, 0, 1))


def test_results_are_refused_in_a_draft_round(event, organiser):
    m = make_round(event, state=Round.State.DRAFT).matches.first()
    for outcome in (Outcome("played", (2, 0, 0)), Outcome("double_loss", None)):
        with pytest.raises(ServiceError, match="Round 1 is a draft"):
            record_result(m, outcome, organiser, 0)
    assert not Match.objects.exclude(games_a=None).exists() and not ResultChange.objects.exists()


def test_replacing_a_result_asks_once_and_is_logged_as_a_correction(event, organiser, judge):
    m = make_round(event).matches.get(table=1)
    record_result(m, Outcome("played", (2, 0, 0)), judge, 0)
    # Not stale, but a different result: the person is asked, naming what would be replaced and who entered it.
    with pytest.raises(ConfirmReplace, match="already has 2-0, entered by jules. Replace it with 2-1") as e:
        record_result(m, Outcome("played", (2, 1, 0)), organiser, 1)
    assert not e.value.stale and e.value.keep == "2-0" and e.value.match.version == 1
    with pytest.raises(ConfirmReplace, match="entered by you"):
        record_result(m, Outcome("played", (2, 1, 0)), judge, 1)
    # A replacement without the version the person saw would overwrite blind: asked, not stored.
    with pytest.raises(ConfirmReplace):
        record_result(m, Outcome("played", (2, 1, 0)), organiser, None, replace=True)
    record_result(m, Outcome("played", (2, 1, 0)), organiser, 1, replace=True)
    m.refresh_from_db()
    assert m.games == (2, 1, 0) and m.version == 2
    log = EventLog.objects.get(action="correct_result")
    assert log.detail == {"round": 1, "table": 1, "before": "2-0", "after": "2-1"} and log.by == organiser
    # Confirmed against a version that moved on meanwhile: asked again, showing the newer result.
    with pytest.raises(ConfirmReplace, match="was changed to 2-1 by olga since this page was shown") as e:
        record_result(m, Outcome("played", (0, 2, 0)), judge, 1, replace=True)
    assert e.value.stale
    m.refresh_from_db()
    assert m.games == (2, 1, 0) and ResultChange.objects.filter(match=m).count() == 2


def test_a_bracket_winner_stays_once_the_next_stage_is_paired(event, organiser):
    semi = make_round(event, 1, kind=Round.Kind.ELIMINATION)
    m1, m2 = semi.matches.filter(table__lte=2).order_by("table")
    semi.matches.filter(table__gt=2).delete()
    record_result(m1, Outcome("played", (2, 0, 0)), organiser, 0)
    record_result(m2, Outcome("played", (2, 1, 0)), organiser, 0)
    assert event.rounds.filter(number=2).exists()
    record_result(m1, Outcome("played", (2, 1, 0)), organiser, 1, replace=True)  # same winner: fine
    with pytest.raises(ServiceError, match="next stage of the bracket is already paired"):
        record_result(m1, Outcome("played", (0, 2, 0)), organiser, 2, replace=True)


def test_record_result_validates_best_of(event, organiser):
    m = make_round(event).matches.first()
    for bad in [(3, 0, 0), (2, 2, 0), (0, 0, 0)]:
        with pytest.raises(ServiceError):
            record_result(m, Outcome("played", bad), organiser, 0)
    m.refresh_from_db()
    assert m.games is None and not ResultChange.objects.exists()


def test_record_result_bumps_versions_and_completes_round(event, organiser):
    rnd = make_round(event)
    v = Event.objects.get().version
    for m in rnd.matches.all():
        record_result(m, Outcome("played", (2, 1, 0)), organiser, 0)
    rnd.refresh_from_db()
    assert rnd.state == Round.State.COMPLETE
    assert Event.objects.get().version == v + 4
    assert ResultChange.objects.filter(before__isnull=True).count() == 4


def test_conflict_shows_stored_result(event, organiser, judge):
    m = make_round(event).matches.first()
    record_result(m, Outcome("played", (2, 0, 0)), judge, 0)
    with pytest.raises(ConfirmReplace, match="2-0"):
        record_result(m, Outcome("played", (0, 2, 0)), organiser, 0)
    # The same result again, from a stale form, is harmless.
    record_result(m, Outcome("played", (2, 0, 0)), organiser, 0)
    m.refresh_from_db()
    assert m.version == 1


def test_elimination_match_cannot_be_drawn(event, organiser):
    m = make_round(event, kind=Round.Kind.ELIMINATION).matches.first()
    for outcome in (Outcome("played", (1, 1, 0)), Outcome("double_loss", None)):
        with pytest.raises(ServiceError):
            record_result(m, outcome, organiser, 0)


def test_correct_result_audits_and_updates_standings(event, organiser):
    rnd = make_round(event)
    m = rnd.matches.get(table=1)
    record_result(m, Outcome("played", (2, 0, 0)), organiser, 0)
    first = event_standings(Event.objects.get()).rows[0].name
    assert first == m.player_a.name
    correct_result(m, Outcome("played", (0, 2, 0)), organiser, 1)
    change = ResultChange.objects.filter(match=m, before__isnull=False).get()
    assert change.before == {"result": "played", "games": [2, 0, 0]}
    assert change.after == {"result": "played", "games": [0, 2, 0]}
    assert event_standings(Event.objects.get()).rows[0].name == m.player_b.name


def test_drop_after_current_round_and_undrop(event, organiser):
    make_round(event, 1, Round.State.COMPLETE)
    make_round(event, 2, Round.State.DRAFT)
    p = event.players.first()
    drop_player(p, organiser)
    assert p.dropped_after == 1  # the draft is not played yet
    undrop_player(p, organiser)
    p.refresh_from_db()
    assert p.dropped_after is None


def test_late_entry_policy_losses(event, organiser):
    event.late_entry = Event.LateEntry.LOSSES
    event.save(update_fields=["late_entry"])
    make_round(event, 1, Round.State.COMPLETE)
    p, notes = add_player(event, organiser, name="Late")
    assert p.joined_round == 2 and any("Unpaired losses" in n for n in notes)
    loss = Match.objects.get(player_a=p)
    assert loss.result == "loss" and loss.round.number == 1 and loss.round.seats.filter(player=p).exists()


def test_no_entries_once_top_cut_started(event, organiser):
    make_round(event, 1, Round.State.COMPLETE)
    make_round(event, 2, Round.State.PAIRED, Round.Kind.ELIMINATION)
    with pytest.raises(ServiceError):
        add_player(event, organiser, name="Too late")


def test_clock(event, organiser):
    rnd = make_round(event)
    change_clock(rnd, "start", organiser)
    assert rnd.state == Round.State.IN_PROGRESS
    rnd.clock_started -= timedelta(minutes=10)
    rnd.save(update_fields=["clock_started"])
    change_clock(rnd, "pause", organiser)
    left = rnd.seconds_left()
    assert 39 * 60 < left <= 40 * 60
    rnd.clock_paused_at -= timedelta(minutes=3)  # paused three minutes ago: the time stood still since
    rnd.save(update_fields=["clock_paused_at"])
    left = rnd.seconds_left()
    change_clock(rnd, "resume", organiser)
    assert abs(rnd.seconds_left() - left) <= 2
    change_clock(rnd, "add", organiser, 5)
    assert rnd.clock_minutes == 55
    with pytest.raises(ServiceError):
        change_clock(rnd, "add", organiser, 500)


def test_clock_needs_published_round(event, organiser):
    rnd = make_round(event, state=Round.State.DRAFT)
    with pytest.raises(ServiceError):
        change_clock(rnd, "start", organiser)
    assert timezone.now()
