"""Backup and restore of a running event: `export_event --all DIR`, an empty database, `import_event DIR/*.json`.

tests/engines/test_eventfile.py round-trips finished events; this is the venue's case: mid-round, with results
outstanding, a double loss, a drop, a late entry, a draft nobody has published yet, a hidden event.
What the file does not carry (accounts and roles, the audit log, the round clock) is listed in
docs/deployment.md next to the backup instructions.
"""

from dataclasses import replace

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.models import Event, Match, Player, Round, Seat
from tournament.services.locks import outstanding
from tournament.services.results import parse_outcome, record_result
from tournament.services.roster import add_player, drop_player
from tournament.services.standings import event_standings
from tournament.snapshot import create_matches, event_to_file

pytestmark = pytest.mark.django_db


def hand_paired(event, number, state, pairs):
    rnd = Round.objects.create(event=event, number=number, state=state, seed=1000 + number)
    by_name = {p.name: p for p in event.players.all()}
    create_matches(
        rnd,
        [
            Match(round=rnd, table=t, player_a=by_name[a], player_b=by_name[b])
            if b
            else Match(round=rnd, player_a=by_name[a], result=Match.Result.BYE)
            for t, (a, b) in enumerate(pairs, 1)
        ],
    )
    return rnd


@pytest.fixture
def running(event, organiser):
    """Round 1 complete with a double loss; A dropped, I entered late; round 2 half entered."""
    r1 = hand_paired(
        event,
        1,
        Round.State.PAIRED,
        [("Player A", "Player B"), ("Player C", "Player D"), ("Player E", "Player F"), ("Player G", "Player H")],
    )
    for m, outcome in zip(
        r1.matches.order_by("table"),
        ["2-0", "2-1", "1-1", "dl"],
        strict=True,
    ):
        record_result(m, parse_outcome(outcome, 3), organiser)
    drop_player(event.players.get(name="Player A"), organiser)
    add_player(event, organiser, name="Player I", rating=1111)
    r2 = hand_paired(
        event,
        2,
        Round.State.PAIRED,
        [("Player B", "Player C"), ("Player D", "Player E"), ("Player F", "Player G"), ("Player H", "Player I")],
    )
    record_result(r2.matches.get(table=1), parse_outcome("0-2", 3), organiser)
    record_result(r2.matches.get(table=3), parse_outcome("2-1", 3), organiser)
    draft = Event.objects.create(
        slug="sunday",
        name="Sunday (hidden)",
        public=False,
        tiebreakers=["buchholz"],
        preset="chess",
        best_of=1,
        win_points="1",
        draw_points="1/2",
        floor="0",
    )
    Player.objects.bulk_create(Player(event=draft, name=n, rating=1500 + i) for i, n in enumerate("WXYZ"))
    hand_paired(draft, 1, Round.State.DRAFT, [("W", "X"), ("Y", "Z")])
    return event


def snapshot():
    """Every event as its file says it, plus what a restore must keep beyond the file's facts."""
    out = {}
    for e in Event.objects.order_by("slug"):
        doc = event_to_file(e, include_drafts=True)
        out[e.slug] = (
            replace(doc, settings=replace(doc.settings, slug=None)),
            [(r.number, r.state, r.kind, r.seed) for r in e.rounds.order_by("number")],
            outstanding(e.rounds.order_by("-number").first()),
        )
    return out


def test_backup_of_a_running_event_restores_every_fact(running, tmp_path, organiser):
    before = snapshot()
    standings_before = [(r.player_id, r.rank, r.points, dict(r.tiebreakers)) for r in event_standings(running).rows]
    call_command("export_event", "--all", str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["friday.json", "sunday.json"]

    Event.objects.all().delete()
    call_command("import_event", *sorted(str(p) for p in tmp_path.glob("*.json")))

    assert snapshot() == before
    assert before["friday"][2] == 2  # still two results to enter, as when the backup was taken
    restored = Event.objects.get(slug="friday")
    standings_after = [(r.player_id, r.rank, r.points, dict(r.tiebreakers)) for r in event_standings(restored).rows]
    assert standings_after == standings_before
    assert Seat.objects.filter(round__event=restored).count() == 8 + 8
    assert not Event.objects.get(slug="sunday").public


def test_a_restored_event_carries_on(running, tmp_path, organiser, django_user_model):
    """After the restore the round is finished and the next one paired, from the same data."""
    call_command("export_event", "--all", str(tmp_path))
    Event.objects.all().delete()
    call_command("import_event", str(tmp_path / "friday.json"))
    event = Event.objects.get(slug="friday")
    # Roles live in accounts, not in the file: the organiser is given the event again.
    event.roles.create(user=organiser, role="organiser")
    c = Client()
    c.force_login(organiser)
    rnd = event.rounds.get(number=2)
    for m in rnd.matches.filter(games_a=None):
        r = c.post(
            reverse("org_match_result", args=[event.slug, 2, m.pk]),
            {"result": "2-0", "version": m.version},
            headers={"HX-Request": "true"},
        )
        assert r.status_code == 200 and b'role="alert"' not in r.content
    rnd.refresh_from_db()
    assert rnd.state == Round.State.COMPLETE
    assert c.get(reverse("public:standings", args=[event.slug])).status_code == 200
