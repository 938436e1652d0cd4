"""A mistaken registration can be deleted while the player was never paired; dropping asks first."""

import pytest
from django.urls import reverse

from tournament.models import Event, EventLog, Match, Player, Round
from tournament.services.roster import add_player
from tournament.snapshot import create_matches

pytestmark = pytest.mark.django_db


def url(name, event, *args):
    return reverse(name, args=[event.slug, *args])


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


def test_a_never_paired_player_is_deleted_after_a_confirmation(org, event):
    dan = add_player(event, None, name="Dan")[0]
    players = org.get(url("org_players", event)).content.decode()
    assert url("org_player_delete", event, dan.pk) in players
    page = org.get(url("org_player_delete", event, dan.pk)).content.decode()
    assert "Delete Dan (#9)?" in page and "cannot be undone" in page and 'method="post"' in page
    assert Player.objects.filter(pk=dan.pk).exists()  # asking deletes nothing
    v = Event.objects.get(pk=event.pk).version
    r = org.post(url("org_player_delete", event, dan.pk), follow=True)
    assert "Dan (#9) is deleted." in r.content.decode()
    assert not Player.objects.filter(pk=dan.pk).exists()
    assert Event.objects.get(pk=event.pk).version > v
    assert EventLog.objects.filter(event=event, action="delete_player", detail__name="Dan").exists()
    # The next registration does not take anybody else's number.
    assert add_player(event, None, name="Eve")[0].number == 9
    assert sorted(event.players.values_list("number", flat=True)) == list(range(1, 10))


def test_a_player_who_played_cannot_be_deleted(org, event):
    rnd = Round.objects.create(event=event, number=1, state=Round.State.PAIRED)
    a, b = event.players.order_by("number")[:2]
    create_matches(rnd, [Match(round=rnd, table=1, player_a=a, player_b=b)])
    assert url("org_player_delete", event, a.pk) not in org.get(url("org_players", event)).content.decode()
    r = org.post(url("org_player_delete", event, b.pk))
    assert r.status_code == 200
    assert "has played in round 1 and cannot be deleted: drop them instead" in r.content.decode()
    assert Player.objects.filter(pk=b.pk).exists()


def test_a_player_in_a_draft_is_told_how_to_get_out_of_it(org, event):
    rnd = Round.objects.create(event=event, number=1, state=Round.State.DRAFT)
    a = event.players.order_by("number").first()
    create_matches(rnd, [Match(round=rnd, player_a=a, result=Match.Result.BYE)])
    r = org.post(url("org_player_delete", event, a.pk))
    assert "is in the draft of round 1: drop them and pair the round again" in r.content.decode()
    assert Player.objects.filter(pk=a.pk).exists()


def test_a_late_entrant_with_only_unpaired_losses_can_be_deleted(org, event):
    event.late_entry = Event.LateEntry.LOSSES
    event.save(update_fields=["late_entry"])
    rnd = Round.objects.create(event=event, number=1, state=Round.State.COMPLETE)
    ps = list(event.players.order_by("number"))
    create_matches(
        rnd,
        [
            Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1], games_a=2, games_b=0, games_drawn=0)
            for i in range(0, 8, 2)
        ],
    )
    late = add_player(event, None, name="Late Larry")[0]
    assert Match.objects.filter(player_a=late, result=Match.Result.LOSS).count() == 1
    r = org.post(url("org_player_delete", event, late.pk))
    assert r.status_code == 302
    assert not Player.objects.filter(pk=late.pk).exists()
    assert not Match.objects.filter(round=rnd, result=Match.Result.LOSS).exists()


def test_dropping_asks_first(org, event):
    p = event.players.get(name="Player C")
    players = org.get(url("org_players", event)).content.decode()
    assert f'href="{url("org_player_drop", event, p.pk)}"' in players  # a link to the question, not a POST
    page = org.get(url("org_player_drop", event, p.pk)).content.decode()
    assert "Drop Player C (#3)?" in page and "will not be paired" in page
    p.refresh_from_db()
    assert p.is_active
    org.post(url("org_player_drop", event, p.pk))
    p.refresh_from_db()
    assert p.dropped_after == 0


def test_a_judge_may_do_neither(client, judge, event):
    client.force_login(judge)
    p = event.players.first()
    for name in ("org_player_drop", "org_player_delete"):
        assert client.get(url(name, event, p.pk)).status_code == 403
        assert client.post(url(name, event, p.pk)).status_code == 403
    assert Player.objects.filter(pk=p.pk, dropped_after__isnull=True).exists()


def test_the_player_page_shows_the_number_and_offers_delete_only_when_possible(org, event):
    p = event.players.get(name="Player B")
    page = org.get(url("org_player_edit", event, p.pk)).content.decode()
    assert "#2</span>" in page and url("org_player_delete", event, p.pk) in page
    rnd = Round.objects.create(event=event, number=1, state=Round.State.PAIRED)
    create_matches(rnd, [Match(round=rnd, table=1, player_a=p, player_b=event.players.get(name="Player A"))])
    assert url("org_player_delete", event, p.pk) not in org.get(url("org_player_edit", event, p.pk)).content.decode()
