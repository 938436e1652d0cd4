"""Integrity: player keys unique per event by construction, a bracket that advances exactly once when the
last results of a stage arrive together, and a swiss-event import that refuses what it cannot store.

The races run real concurrent requests (one thread, connection and logged-in client each, released
together), on PostgreSQL and on SQLite alike.
"""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from swiss import eventfile as ef
from tests.web.organiser.test_concurrency import HX, at_once, logged_in
from tournament.models import Event, EventRole, Match, Player, Round
from tournament.services.results import Outcome, record_result
from tournament.services.roster import add_player, drop_player, undrop_player
from tournament.services.rounds import pair_next_round, publish_round
from tournament.services.standings import event_standings
from tournament.services.top_cut import start_top_cut
from tournament.snapshot import event_to_file, import_event

# ---------------------------------------------------------------- player keys


def restored_event(first_number: int, organiser) -> Event:
    """An event as import_event restores it from an export: ids p<n> that once were primary keys, round 1 played."""
    ids = [f"p{first_number + k}" for k in range(8)]
    doc = ef.parse(
        {
            "format": "swiss-event",
            "version": 1,
            "name": "Restored",
            "players": [{"id": pid, "name": f"Imported {k}"} for k, pid in enumerate(ids)],
            "rounds": [
                {
                    "number": 1,
                    "matches": [
                        {"table": t + 1, "a": ids[2 * t], "b": ids[2 * t + 1], "games": [2, 0, 0]} for t in range(4)
                    ],
                }
            ],
        }
    )
    event = import_event(doc)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    return event


def next_player_pk_will_be(pk: int) -> None:
    """Set the players' id sequence as a freshly restored database has it (PostgreSQL)."""
    with connection.cursor() as cur:
        cur.execute("SELECT setval(pg_get_serial_sequence('tournament_player', 'id'), %s, false)", [pk])


@pytest.mark.django_db
@pytest.mark.needs_postgresql(reason="it moves the player id sequence with pg_get_serial_sequence")
def test_a_late_entry_after_a_restore_never_takes_an_imported_players_key(organiser):
    """The reported case: a web-added player whose primary key equals an imported id (p<n>)."""
    # Past every id the sequence has given (other tests' players are rolled back, their ids are not): the
    # restored players then take ids below `top`, and the ids from top + 1 on are free for what follows.
    with connection.cursor() as cur:
        cur.execute("SELECT nextval(pg_get_serial_sequence('tournament_player', 'id'))")
        given = cur.fetchone()[0]
    top = max(given, Player.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000
    event = restored_event(top, organiser)
    next_player_pk_will_be(top + 1)  # the next player's pk is the number of the second imported id
    late, _ = add_player(event, organiser, name="Late Lee")
    assert late.pk == top + 1
    keys = list(event.players.values_list("key", flat=True))
    assert len(keys) == len(set(keys)) == 9 and late.key == f"p{top + 8}"

    # Pairing works, a drop and undrop changes nothing, and the imported winner keeps the 2-0.
    rnd = pair_next_round(event, organiser)
    assert rnd.matches.count() == 5  # 9 players: four tables and a bye
    winner = event.players.get(key=f"p{top}")
    drop_player(late, organiser)
    undrop_player(late, organiser)
    rows = {r.player_id: r for r in event_standings(event).rows}
    assert rows[winner.key].points == 3 and rows[late.key].points == 0

    # The export writes every id once, and reads back as a new event.
    doc = ef.dump(event_to_file(event, include_drafts=True))
    ids = [p["id"] for p in doc["players"]]
    assert len(ids) == len(set(ids)) == 9
    again = import_event(ef.parse(json.loads(json.dumps(doc))))
    assert sorted(again.players.values_list("key", flat=True)) == sorted(ids)


@pytest.mark.django_db
def test_the_database_refuses_two_players_with_one_key(event):
    Player.objects.create(event=event, name="One", key="x1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=event, name="Two", key="x1")
    # …in the same event only.
    other = Event.objects.create(slug="other", name="Other")
    assert Player.objects.create(event=other, name="Two", key="x1").key == "x1"


@pytest.mark.django_db
def test_keys_are_given_by_every_way_of_adding_players(event, organiser):
    """save(), bulk_create and the add workflow all draw fresh keys after the highest p<n> in use."""
    Player.objects.create(event=event, name="Imported", key="p500")
    single = Player.objects.create(event=event, name="Single")
    bulk = Player.objects.bulk_create([Player(event=event, name=f"Bulk {k}") for k in range(3)])
    added, _ = add_player(event, organiser, name="Added")
    assert [single.key, *(p.key for p in bulk), added.key] == ["p501", "p502", "p503", "p504", "p505"]
    keys = list(event.players.values_list("key", flat=True))
    assert len(keys) == len(set(keys))


@pytest.mark.django_db
def test_export_all_then_import_all_restores_and_takes_late_entries(event, organiser, tmp_path):
    """A whole-database backup restored, then a late entry in every event: no key collides, files re-import."""
    r1 = pair_next_round(event, organiser)
    publish_round(r1, organiser)
    for m in r1.matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (2, 1, 0)), organiser)
    restored_event(1, organiser)
    call_command("export_event", "--all", str(tmp_path / "backup"))
    files = sorted(str(p) for p in (tmp_path / "backup").glob("*.json"))
    with transaction.atomic():
        Event.objects.all().delete()
        call_command("import_event", *files)
    for ev in Event.objects.all():
        add_player(ev, organiser, name="Latecomer")
        keys = list(ev.players.values_list("key", flat=True))
        assert len(keys) == len(set(keys))
        ef.parse(ef.dump(event_to_file(ev, include_drafts=True)))  # its export reads back


# ---------------------------------------------------------------- the top-cut bracket


def top_cut_of_four(organiser, slug: str) -> tuple[Event, Round]:
    """Eight players, one Swiss round played, a top 4 started: two semifinals to play."""
    event = Event.objects.create(slug=slug, name=slug, tiebreakers=["omw", "gw", "ogw"], top_cut=4)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    Player.objects.bulk_create(
        Player(event=event, name=f"{slug} {c}", rating=1500 - i) for i, c in enumerate("ABCDEFGH")
    )
    r1 = pair_next_round(event, organiser)
    publish_round(r1, organiser)
    for m in r1.matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (2, 0, 0)), organiser)
    semis = start_top_cut(event, organiser)
    publish_round(semis, organiser)  # the bracket starts as a draft
    semis.refresh_from_db()
    return event, semis


def post_win(client, event: Event, rnd: Round, match: Match):
    return client.post(
        reverse("org_match_result", args=[event.slug, rnd.number, match.pk]),
        # confirm: the answer to the top cut's "A beats B 2-1?"
        {"result": "2-1", "version": match.version, "confirm": "1"},
        headers=HX,
    )


@pytest.mark.django_db(transaction=True)
def test_both_semifinal_results_at_once_pair_the_final_exactly_once(organiser, judge):
    """Reported: 6 of 12 tries left the semifinals stored, no final, the stage stuck "in progress"."""
    for attempt in range(8):
        event, semis = top_cut_of_four(organiser, f"cut-{attempt}")
        EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
        a, b = semis.matches.order_by("table")
        responses = at_once(
            *(
                lambda u=user, m=m, e=event, r=semis: post_win(logged_in(u), e, r, m)
                for user, m in ((organiser, a), (judge, b))
            )
        )
        assert [r.status_code for r in responses] == [200, 200]
        semis.refresh_from_db()
        assert semis.state == Round.State.COMPLETE
        rounds = list(event.rounds.filter(kind=Round.Kind.ELIMINATION).order_by("number"))
        assert len(rounds) == 2, f"attempt {attempt}: the final was not paired"
        final = rounds[1].matches.get()
        assert {final.player_a_id, final.player_b_id} == {a.player_a_id, b.player_a_id}
        assert event.log.filter(action="bracket").count() == 1


@pytest.mark.django_db
def test_entering_a_result_again_repairs_a_stage_stuck_before_the_fix(organiser):
    """An event stuck by the old race (every semifinal stored, the round "in progress", no final) advances
    when a judge enters one of its results again."""
    event, semis = top_cut_of_four(organiser, "stuck")
    a, b = semis.matches.order_by("table")
    Match.objects.filter(pk__in=[a.pk, b.pk]).update(games_a=2, games_b=1, games_drawn=0, version=1)
    Round.objects.filter(pk=semis.pk).update(state=Round.State.IN_PROGRESS)
    r = post_win(logged_in(organiser), event, semis, Match.objects.get(pk=a.pk))
    assert r.status_code == 200
    semis.refresh_from_db()
    assert semis.state == Round.State.COMPLETE
    assert event.rounds.filter(kind=Round.Kind.ELIMINATION).count() == 2


# ---------------------------------------------------------------- import_event refusals


def event_doc(**over) -> dict:
    doc = {
        "format": "swiss-event",
        "version": 1,
        "name": "Import",
        "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}],
        "rounds": [{"number": 1, "matches": [{"table": 1, "a": "a", "b": "b", "games": [2, 0, 0]}]}],
    }
    doc.update(over)
    return doc


def players(**over) -> list[dict]:
    return [{"id": "a", "name": "Ann", **over}, {"id": "b", "name": "Bob"}]


def one_match(**over) -> list[dict]:
    return [{"number": 1, "matches": [{"table": 1, "a": "a", "b": "b", "games": [2, 0, 0], **over}]}]


REFUSED = [
    ("long name", json.dumps(event_doc(name="N" * 201)), "name: at most 200 characters"),
    ("long player name", json.dumps(event_doc(players=players(name="P" * 300))), "players[0].name: at most 200"),
    ("long id", json.dumps(event_doc(players=players(id="i" * 101))), "players[0].id: at most 100"),
    ("NUL in a name", json.dumps(event_doc(players=players(name="Ann\x00"))), "players[0].name: contains a NUL"),
    ("NUL in the event name", json.dumps(event_doc(name="Cup\x00")), "name: contains a NUL"),
    ("huge rating", json.dumps(event_doc(players=players(rating=2**40))), "players[0].rating: must be at most"),
    ("huge drawn games", json.dumps(event_doc(rounds=one_match(games=[2, 0, 40000]))), "games"),
    ("huge table", json.dumps(event_doc(rounds=one_match(table=2**31))), "rounds[0].matches[0].table: must be at"),
    ("huge round number", json.dumps(event_doc(rounds=[{"number": 70000}])), "rounds[0].number: must be at most"),
    ("huge seed", json.dumps(event_doc(rounds=[{"number": 1, "seed": 2**70}])), "rounds[0].seed: must be at most"),
    ("huge bye rating", json.dumps(event_doc(bye_rating=2**31)), "bye_rating: must be at most"),
    ("huge round length", json.dumps(event_doc(round_minutes=40000)), "round_minutes: must be at most 1440"),
    ("top cut 3", json.dumps(event_doc(top_cut=3)), "top_cut: 0 (none) or a power of two"),
    ("long fraction", json.dumps(event_doc(floor="1/3333333333333333333333")), "floor:"),
    ("exponent", json.dumps(event_doc(scoring={"win": "1e999999999"})), "scoring.win:"),
    ("5,000-digit integer", '{"format": "swiss-event", "version": 1, "bye_rating": ' + "9" * 5000 + "}", "not valid"),
    ("100,000-deep nesting", "[" * 100_000 + "]" * 100_000, "line 1, column 500: lists and objects nested too"),
    (
        "deep nesting in a place",
        json.dumps(event_doc(), indent=1)[:-2] + ',\n "x": ' + "[" * 100_000,
        "line 32, column",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "text", "message"), REFUSED, ids=[c[0] for c in REFUSED])
def test_import_event_refuses_with_a_message_naming_the_place(tmp_path, case, text, message):
    src = tmp_path / "event.json"
    src.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_event", str(src))
    assert message in str(refused.value) and refused.value.returncode == 2
    assert "Traceback" not in str(refused.value)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_what_the_file_limits_allow_is_stored(tmp_path):
    """The limits are the columns' limits: the largest accepted values import."""
    doc = event_doc(
        name="N" * 200,
        top_cut=16,
        round_minutes=1440,
        players=[{"id": "i" * 100, "name": "P" * 200, "rating": 2**31 - 1}, {"id": "b", "name": "Bob"}],
        rounds=[{"number": 1, "seed": 2**63 - 1, "matches": [{"table": 2**31 - 1, "a": "i" * 100, "b": "b"}]}],
    )
    event = import_event(ef.parse(doc))
    assert event.players.get(key="i" * 100).rating == 2**31 - 1 and event.rounds.get().seed == 2**63 - 1


@pytest.mark.django_db
def test_the_web_form_and_the_file_share_the_top_cut_and_number_rules(org_client, event):
    """One rule each (in swiss.model), called by the settings form and the file parser."""
    data = {
        "name": event.name,
        "date": event.date.isoformat(),
        "public": "on",
        "planned_rounds": 3,
        "round_one": "random",
        "late_entry": "none",
        "preset": "mtg",
        "win_points": "1e999999999",
        "draw_points": "1",
        "loss_points": "0",
        "best_of": 3,
        "floor": "0.33",
        "tiebreakers": ["omw", "gw", "ogw"],
        "bye_rating": 0,
    }
    for top_cut, round_minutes in ((3, 50), (4, 40000)):
        r = org_client.post(
            reverse("org_settings", args=[event.slug]), {**data, "top_cut": top_cut, "round_minutes": round_minutes}
        )
        assert r.status_code == 200
        body = r.content.decode()
        assert "Points for a win must be a number" in body
        assert ("power of two" in body) == (top_cut == 3)
        assert ("1440" in body) == (round_minutes == 40000)
    event.refresh_from_db()
    assert event.win_points == "3" and event.top_cut == 0


@pytest.fixture
def org_client(organiser):
    return logged_in(organiser)


@pytest.mark.django_db(transaction=True)
def test_the_key_migration_keeps_keys_and_renumbers_only_a_collision():
    """Rows from before the key column: an imported p2 and web-added players with pks 2 and 3 (shown as p2, p3)."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    key_migration = next(k for k in executor.loader.disk_migrations if k[0] == "tournament" and "player_key" in k[1])
    before = [d for d in executor.loader.get_migration(*key_migration).dependencies if d[0] == "tournament"]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    event = old.get_model("tournament", "Event").objects.create(slug="old", name="Old")
    OldPlayer = old.get_model("tournament", "Player")
    OldPlayer.objects.bulk_create(
        [
            OldPlayer(pk=1, number=1, event=event, name="Imported", file_id="p2"),
            OldPlayer(pk=2, number=2, event=event, name="Web two"),
            OldPlayer(pk=3, number=3, event=event, name="Web three"),
        ]
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert dict(Player.objects.filter(event_id=event.pk).values_list("name", "key")) == {
        "Imported": "p2",
        "Web three": "p3",
        "Web two": "p4",
    }
