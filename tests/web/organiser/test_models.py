"""What the database itself refuses, whatever the code above it does."""

import pytest
from django.db import IntegrityError, transaction

from tournament.models import Match, Round
from tournament.snapshot import create_matches
from tournament.text.results import result_label

pytestmark = pytest.mark.django_db


def players(event):
    return list(event.players.order_by("name"))


def refused(fn):
    with pytest.raises(IntegrityError), transaction.atomic():
        fn()


def test_round_number_is_unique_per_event(event):
    Round.objects.create(event=event, number=1)
    refused(lambda: Round.objects.create(event=event, number=1))


def test_table_is_unique_per_round(event):
    a, b, c, d = players(event)[:4]
    rnd = Round.objects.create(event=event, number=1)
    create_matches(rnd, [Match(round=rnd, table=1, player_a=a, player_b=b)])
    refused(lambda: create_matches(rnd, [Match(round=rnd, table=1, player_a=c, player_b=d)]))


def test_a_player_is_paired_at_most_once_per_round(event):
    a, b, c, _ = players(event)[:4]
    rnd = Round.objects.create(event=event, number=1)
    create_matches(rnd, [Match(round=rnd, table=1, player_a=a, player_b=b)])
    # b as player A of another table: only the seat table can see this one.
    refused(lambda: create_matches(rnd, [Match(round=rnd, table=2, player_a=b, player_b=c)]))


def test_game_counts_are_never_negative(event):
    a, b = players(event)[:2]
    rnd = Round.objects.create(event=event, number=1)
    (m,) = create_matches(rnd, [Match(round=rnd, table=1, player_a=a, player_b=b)])
    refused(lambda: Match.objects.filter(pk=m.pk).update(games_a=-1, games_b=0, games_drawn=0))


def test_a_bye_has_no_opponent(event):
    a, b = players(event)[:2]
    rnd = Round.objects.create(event=event, number=1)
    refused(lambda: Match.objects.create(round=rnd, player_a=a, player_b=b, result=Match.Result.BYE))


def test_nobody_plays_themselves(event):
    a = players(event)[0]
    rnd = Round.objects.create(event=event, number=1)
    refused(lambda: Match.objects.create(round=rnd, table=1, player_a=a, player_b=a))


def test_deleting_an_event_removes_everything_but_a_played_player_stays(event):
    a, b = players(event)[:2]
    rnd = Round.objects.create(event=event, number=1)
    create_matches(rnd, [Match(round=rnd, table=1, player_a=a, player_b=b, games_a=2, games_b=0, games_drawn=0)])
    from django.db.models import RestrictedError

    with pytest.raises(RestrictedError):
        a.delete()
    event.delete()
    assert Match.objects.count() == 0


def test_winner_and_labels():
    m = Match(games_a=2, games_b=1, games_drawn=0)
    assert result_label(m) == "2-1" and m.has_result
    assert Match(games_a=1, games_b=1, games_drawn=1).winner is None
    assert result_label(Match(games_a=0, games_b=0, games_drawn=3)) == "0-0-3"
    assert not Match().has_result
    assert result_label(Match(result=Match.Result.DOUBLE_LOSS)) == "double loss"
