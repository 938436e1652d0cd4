"""Player numbers: one short number per player, unique within the event, given at
registration by every path (one-line add, bulk create, file import), kept by export, and shown beside
the name wherever two players share a name."""

import csv
import io
import json

import pytest
from django.db import IntegrityError, transaction
from django.template import Context, Template
from django.urls import reverse

from swiss import eventfile as ef
from tests.web.organiser.test_concurrency import at_once, logged_in
from tournament.forms.players import SwapForm
from tournament.models import Event, Match, Player, Round
from tournament.services.locks import changed
from tournament.services.roster import add_player
from tournament.snapshot import create_matches, event_to_file, import_event
from tournament.text.names import Names

pytestmark = pytest.mark.django_db


def url(name, event, *args):
    return reverse(name, args=[event.slug, *args])


def test_every_registration_path_numbers_players_in_order(event, organiser):
    assert [p.number for p in event.players.order_by("id")] == list(range(1, 9))
    ann, _ = add_player(event, organiser, name="Ann")
    assert ann.number == 9
    one = Player.objects.create(event=event, name="Made directly")
    assert one.number == 10
    other = Event.objects.create(slug="other", name="Other")
    Player.objects.bulk_create([Player(event=other, name="First"), Player(event=event, name="Eleventh")])
    assert Player.objects.get(event=other).number == 1
    assert Player.objects.get(event=event, name="Eleventh").number == 11


def test_the_database_refuses_a_number_twice_in_an_event(event):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=event, name="Copy", number=3)
    Player.objects.create(event=Event.objects.create(slug="o", name="O"), name="Elsewhere", number=3)


def test_a_deleted_player_does_not_change_anybody_elses_number(event):
    before = dict(event.players.values_list("name", "number"))
    event.players.get(number=4).delete()
    after = dict(event.players.values_list("name", "number"))
    assert after == {name: n for name, n in before.items() if n != 4}


@pytest.mark.django_db(transaction=True)
def test_simultaneous_registrations_take_different_numbers(event, organiser):
    clients = [logged_in(organiser) for _ in range(4)]
    at_once(
        *(lambda c=c, i=i: c.post(url("org_player_add", event), {"name": f"Rush {i}"}) for i, c in enumerate(clients))
    )
    numbers = sorted(event.players.filter(name__startswith="Rush").values_list("number", flat=True))
    assert numbers == [9, 10, 11, 12]


def test_the_event_file_carries_numbers_both_ways(event):
    doc = ef.dump(event_to_file(event))
    assert [p["number"] for p in doc["players"]] == list(range(1, 9))
    doc["players"][0]["number"] = 40
    stored = import_event(ef.parse(doc), slug="copy")
    assert sorted(stored.players.values_list("number", flat=True)) == [2, 3, 4, 5, 6, 7, 8, 40]
    # A file without numbers is numbered in its own order; one that repeats a number is refused by place.
    for p in doc["players"]:
        del p["number"]
    assert [p.number for p in import_event(ef.parse(doc), slug="bare").players.order_by("id")] == list(range(1, 9))
    doc["players"][0]["number"] = doc["players"][1]["number"] = 5
    with pytest.raises(ef.EventFileError, match=r"players\[1\]\.number: player number 5 is given twice"):
        ef.parse(doc)
    doc["players"][1]["number"] = 10**9
    with pytest.raises(ef.EventFileError, match=r"players\[1\]\.number: must be at most 999999"):
        ef.parse(doc)


def test_names_show_the_number_only_when_two_players_share_a_name(event):
    twin = Player.objects.create(event=event, name="player  a")  # the same name, typed differently: number 9
    names = Names.of(event.pk)
    a = event.players.get(name="Player A")
    assert names.label(a) == "Player A (#1)"
    assert names.label(twin.pk) == "player  a (#9)"
    assert names.label(a.key) == "Player A (#1)"
    assert names.label(event.players.get(name="Player B")) == "Player B"
    rendered = Template("{% load players %}{% player_name p %}|{% player_name t.pk %}|{% player_name q %}").render(
        Context({"p": a, "t": twin, "q": event.players.get(name="Player C"), "event": event})
    )
    assert rendered == "Player A (#1)|player  a (#9)|Player C"


def test_the_tag_escapes_names(event):
    Player.objects.create(event=event, name="<b>X</b>")
    Player.objects.create(event=event, name="<b>X</b>")
    out = Template("{% load players %}{% for p in ps %}{% player_name p %};{% endfor %}").render(
        Context({"ps": event.players.filter(name="<b>X</b>").order_by("number"), "event": event})
    )
    assert out == "&lt;b&gt;X&lt;/b&gt; (#9);&lt;b&gt;X&lt;/b&gt; (#10);"


def twins_round(event) -> Round:
    """Two players called Alex Kim in round 1, at tables 1 and 2."""
    event.players.filter(name="Player A").update(name="Alex Kim")
    event.players.filter(name="Player C").update(name="Alex Kim")
    changed(event)
    rnd = Round.objects.create(event=event, number=1, state=Round.State.PAIRED, seed=1)
    ps = list(event.players.order_by("number"))
    create_matches(rnd, [Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1]) for i in (0, 2, 4, 6)])
    return rnd


def test_every_page_with_names_tells_the_twins_apart(client, event, organiser):
    twins_round(event)
    client.force_login(organiser)
    pages = [
        url("org_round", event, 1),
        url("org_print_by_name", event, 1),
        url("org_print_by_table", event, 1),
        url("org_print_slips", event, 1),
        url("org_standings", event),
        url("org_print_standings", event),
        reverse("public:pairings", args=[event.slug]),
        reverse("public:standings", args=[event.slug]),
        reverse("public:screen", args=[event.slug]),
    ]
    Match.objects.filter(round__number=1).update(games_a=2, games_b=0, games_drawn=0)
    changed(event)
    for page in pages:
        html = client.get(page).content.decode()
        assert "Alex Kim (#1)" in html and "Alex Kim (#3)" in html, page
        assert "Player B (#" not in html, page


def test_the_draft_and_its_swap_list_tell_the_twins_apart(client, event, organiser):
    rnd = twins_round(event)
    Round.objects.filter(pk=rnd.pk).update(state=Round.State.DRAFT)
    client.force_login(organiser)
    html = client.get(url("org_round", event, 1)).content.decode()
    assert html.count("Alex Kim (#1)") == 1 and html.count("Alex Kim (#3)") == 1  # the table
    form = SwapForm(players=list(event.players.order_by("number")))
    labels = dict(form.fields["first"].choices)
    assert labels[event.players.get(number=1).pk] == "Alex Kim (#1, rating 1500)"
    assert labels[event.players.get(number=3).pk] == "Alex Kim (#3, rating 1480)"
    assert "Alex Kim (#3, rating 1480)" in html


def read_csv(response) -> list[list[str]]:
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff"), "Excel needs the byte order mark to read UTF-8"
    return list(csv.reader(io.StringIO(text[1:])))


def test_exports_carry_the_number(client, event, organiser):
    twins_round(event)
    client.force_login(organiser)
    players = read_csv(client.get(url("org_export_players", event)))
    assert players[0][:2] == ["number", "name"] and players[1][:2] == ["1", "Alex Kim"]
    assert [r[0] for r in players[1:]] == [str(n) for n in range(1, 9)]
    pairings = read_csv(client.get(url("org_export_pairings", event) + "?round=1"))
    assert pairings[0][:7] == ["round", "table", "number", "player", "points", "opponent_number", "opponent"]
    assert pairings[1][2:7] == ["1", "Alex Kim", "0", "2", "Player B"]
    assert client.get(url("org_export_pairings", event) + "?round=x").status_code == 404
    doc = json.loads(client.get(url("org_export_json", event)).content)
    assert {p["name"]: p["number"] for p in doc["players"]}["Player B"] == 2


def test_a_players_export_imports_into_another_event(client, event, organiser):
    from tournament.files import csv_exports, csv_rosters

    event.players.filter(name="Player B").update(byes=2, external_id="DCI-2")
    text = csv_exports.players_csv(event.players.order_by("number"))
    rows = csv_rosters.parse_players(text)
    assert all(r.ok for r in rows) and len(rows) == 8
    assert (rows[1].name, rows[1].rating, rows[1].external_id, rows[1].byes) == ("Player B", 1490, "DCI-2", 2)


def test_the_swap_lists_keep_the_choice_and_escape_the_names(event):
    """The swap lists join their options themselves (2048 players at a large event): what Django's select did."""
    players = list(event.players.order_by("number"))
    Player.objects.filter(pk=players[0].pk).update(name="<b>Ann</b> & co")
    players = list(event.players.order_by("number"))
    form = SwapForm({"first": str(players[1].pk), "second": str(players[1].pk)}, players=players)
    assert not form.is_valid()  # the same player twice: the form comes back with the choices kept
    html = str(form["first"])
    assert html.startswith('<select name="first"') and 'id="id_first"' in html and " required" in html
    assert f'<option value="{players[1].pk}" selected>' in html and html.count(" selected") == 1
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; co" in html and "<b>Ann" not in html
    missing = str(SwapForm({"first": str(players[1].pk)}, players=players)["second"])
    assert 'aria-invalid="true"' in missing and '<option value="" selected>—</option>' in missing
