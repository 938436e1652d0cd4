"""A name's family and given parts as entered (swiss/names.py).

A name typed "Family, Given" (the add box, a pasted list, a CSV cell or its last/first name columns, a TRF
line, the swiss-event file's `family_name`/`given_name`) keeps both parts and is shown as the name's own
culture writes it: Viktor Hellström, but 木村 拓也. The TRF writes "Family, Given", the event file and the
players CSV carry the parts both ways, and lists sort by the family name where it is known."""

import json
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from standings import points_by_player
from swiss import eventfile as ef
from swiss import names, trf
from swiss.model import Event, Player, settings_for_preset
from swiss.numbers import pairing_numbers
from tournament.files import csv_exports, csv_rosters
from tournament.forms.players import PlayerForm, parse_entry
from tournament.models import Player as DbPlayer
from tournament.snapshot import event_to_file, import_event

# (typed "Family, Given", family, given, display name)
NAMES = [
    ("Smith, John", "Smith", "John", "John Smith"),
    ("Hellström, Viktor", "Hellström", "Viktor", "Viktor Hellström"),
    ("Østergaard, Søren", "Østergaard", "Søren", "Søren Østergaard"),
    ("木村, 拓也", "木村", "拓也", "木村 拓也"),
]
TYPED = [n[0] for n in NAMES]
HX = {"HX-Request": "true"}


def parts(player) -> tuple[str, str, str]:
    return player.name, player.family_name, player.given_name


# ---------------------------------------------------------------- the rules (swiss/names.py)


@pytest.mark.parametrize(("typed", "family", "given", "shown"), NAMES)
def test_a_name_typed_family_comma_given_keeps_its_parts_and_is_shown_as_its_culture_writes_it(
    typed, family, given, shown
):
    assert names.split_typed(typed) == (family, given)
    assert names.display_name(family, given) == shown
    assert names.entered(typed) == names.Name(shown, family, given)
    assert names.trf_name(shown, family, given) == f"{family}, {given}"


@pytest.mark.parametrize(
    ("family", "given", "shown"),
    [
        ("岡田", "准一", "岡田 准一"),
        ("やまだ", "はなこ", "やまだ はなこ"),
        ("김", "민준", "김 민준"),
        ("Kimura", "Takuya", "Takuya Kimura"),
    ],
)
def test_chinese_characters_kana_and_hangul_are_family_name_first_latin_is_not(family, given, shown):
    assert names.display_name(family, given) == shown


@pytest.mark.parametrize("typed", ["Viktor Hellström", "木村 拓也", "Davis, Jr.", "Andersen, Player007", "Ann"])
def test_a_name_typed_as_one_string_has_no_parts_and_stays_as_typed(typed):
    assert names.split_typed(typed) is None
    assert names.entered(typed) == names.Name(typed)
    assert names.trf_name(typed, "", "") == typed


def test_a_name_and_parts_given_together_must_be_one_name():
    assert names.entered("Viktor Hellström", "Hellström", "Viktor") == names.Name(
        "Viktor Hellström", "Hellström", "Viktor"
    )
    # Either order is the organiser's choice: a Japanese player's name in Latin letters, family name first.
    assert names.entered("Kimura Takuya", "Kimura", "Takuya").name == "Kimura Takuya"
    assert names.entered("", "Hellström", "Viktor").name == "Viktor Hellström"
    assert names.entered("", "Hellström", "") == names.Name("Hellström")  # one part is a name in one part
    with pytest.raises(names.Disagree):
        names.entered("Anna Berg", "Hellström", "Viktor")


# ---------------------------------------------------------------- every way in


@pytest.mark.django_db
@pytest.mark.parametrize(("typed", "family", "given", "shown"), NAMES)
def test_the_add_box_keeps_the_parts(client, organiser, event, typed, family, given, shown):
    client.force_login(organiser)
    r = client.post(reverse("org_player_add", args=[event.slug]), {"name": f"{typed}, 1600"}, headers=HX)
    assert r.status_code == 200
    player = event.players.get(name=shown)
    assert (parts(player), player.rating) == ((shown, family, given), 1600)


@pytest.mark.django_db
def test_the_japanese_names_of_the_issue_are_family_name_first(client, organiser, event):
    client.force_login(organiser)
    client.post(reverse("org_player_add", args=[event.slug]), {"name": "木村, 拓也"}, headers=HX)
    client.post(reverse("org_player_add", args=[event.slug]), {"name": "岡田, 准一, 1600"}, headers=HX)
    assert parts(event.players.get(family_name="木村")) == ("木村 拓也", "木村", "拓也")
    okada = event.players.get(family_name="岡田")
    assert (parts(okada), okada.rating) == (("岡田 准一", "岡田", "准一"), 1600)


@pytest.mark.django_db
def test_a_pasted_list_keeps_the_parts_and_a_name_typed_whole_has_none(client, organiser, event):
    client.force_login(organiser)
    text = "\n".join([*TYPED, "Anne Jensen, 1500"])
    assert client.post(reverse("org_players_paste", args=[event.slug]), {"lines": text}).status_code == 302
    for _typed, family, given, shown in NAMES:
        assert parts(event.players.get(name=shown)) == (shown, family, given)
    assert parts(event.players.get(name="Anne Jensen")) == ("Anne Jensen", "", "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    [
        "last name,first name,rating\nSmith,John,1500\nHellström,Viktor,1600\nØstergaard,Søren,1700\n木村,拓也,1800\n",
        "Efternavn;Fornavn;Elo\nSmith;John;1500\nHellström;Viktor;1600\nØstergaard;Søren;1700\n木村;拓也;1800\n",
        "姓,名,レーティング\nSmith,John,1500\nHellström,Viktor,1600\nØstergaard,Søren,1700\n木村,拓也,1800\n",
        'name,rating\n"Smith, John",1500\n"Hellström, Viktor",1600\n"Østergaard, Søren",1700\n"木村, 拓也",1800\n',
    ],
)
def test_a_csv_file_keeps_the_parts_from_its_columns_or_its_name_cells(client, organiser, event, text):
    rows = csv_rosters.parse_players(text)
    assert [(r.name, r.family_name, r.given_name) for r in rows] == [(s, f, g) for _t, f, g, s in NAMES]
    client.force_login(organiser)
    upload = SimpleUploadedFile("players.csv", text.encode())
    assert client.post(reverse("org_players_csv", args=[event.slug]), {"file": upload}).status_code == 200
    client.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": text})
    for _typed, family, given, shown in NAMES:
        assert parts(event.players.get(name=shown)) == (shown, family, given)


def test_a_csv_name_column_beside_parts_of_another_name_is_said_so():
    (row,) = csv_rosters.parse_players("name,last name,first name\nAnna Berg,Hellström,Viktor\n")
    assert not row.ok and "is not the family name “Hellström” and the given name “Viktor”" in row.errors[0]


def trf_line(rank: int, name: str, rating: int) -> str:
    return f"001 {rank:4d}      {name:<33} {rating:4d}                             0.0 {rank:4d}\n"


TRF = "012 Names\nXXR 5\n" + "".join(trf_line(k, t, 2000 - k) for k, t in enumerate([*TYPED, "Anne Jensen"], 1))


def test_a_trf_surname_comma_first_name_keeps_its_parts_and_goes_out_as_it_came():
    event = trf.loads(TRF, points_by_player)
    assert [parts(p) for p in event.players] == [(s, f, g) for _t, f, g, s in NAMES] + [("Anne Jensen", "", "")]
    out = trf.dumps(event)
    assert [line[14:47].rstrip() for line in out.splitlines() if line.startswith("001")] == [*TYPED, "Anne Jensen"]
    assert trf.loads(out, points_by_player).players == event.players


def test_the_event_file_carries_the_parts_both_ways():
    players = tuple(Player(f"p{k}", s, family_name=f, given_name=g) for k, (_t, f, g, s) in enumerate(NAMES))
    doc = Event(settings_for_preset("chess"), (*players, Player("p9", "Anne Jensen")))
    text = ef.dumps(doc)
    data = json.loads(text)
    assert (data["players"][1]["family_name"], data["players"][1]["given_name"]) == ("Hellström", "Viktor")
    assert "family_name" not in data["players"][-1]  # a name typed whole writes no parts
    assert ef.loads(text) == doc


@pytest.mark.parametrize(("key", "missing"), [("family_name", "given_name"), ("given_name", "family_name")])
def test_the_event_file_refuses_one_part_without_the_other(key, missing):
    data = {"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "Viktor", key: "Viktor"}]}
    with pytest.raises(ef.EventFileError) as info:
        ef.parse(data)
    assert info.value.path == f"players[0].{missing}"


@pytest.mark.django_db
def test_the_parts_go_through_the_database_and_back_out(organiser):
    players = tuple(
        Player(f"p{k}", s, number=k, family_name=f, given_name=g) for k, (_t, f, g, s) in enumerate(NAMES, 1)
    )
    event = import_event(Event(settings_for_preset("chess", name="Parts"), players))
    stored = event.players.order_by("number")
    assert [parts(p) for p in stored] == [(s, f, g) for _t, f, g, s in NAMES]
    assert event_to_file(event).players == players
    out = StringIO()
    call_command("export_event", event.slug, "--format", "trf", stdout=out)
    assert "Hellström, Viktor" in out.getvalue() and "木村, 拓也" in out.getvalue()


@pytest.mark.django_db
def test_the_web_trf_export_writes_the_family_name_first(client, organiser, chess):
    client.force_login(organiser)
    client.post(reverse("org_player_add", args=[chess.slug]), {"name": "Hellström, Viktor, 1900"}, headers=HX)
    client.post(reverse("org_player_add", args=[chess.slug]), {"name": "Anne Jensen, 1800"}, headers=HX)
    text = client.get(reverse("org_export_trf", args=[chess.slug])).content.decode()
    names_written = [line[14:47].rstrip() for line in text.splitlines() if line.startswith("001")]
    assert "Hellström, Viktor" in names_written and "Anne Jensen" in names_written
    assert "Viktor Hellström" not in names_written


@pytest.mark.django_db
def test_the_players_csv_carries_the_parts_and_reads_them_back(client, organiser, event):
    client.force_login(organiser)
    client.post(reverse("org_players_paste", args=[event.slug]), {"lines": "\n".join(TYPED)})
    text = csv_exports.players_csv(event.players.order_by("number"))
    rows = csv_rosters.parse_players(text)
    assert all(r.ok for r in rows)
    assert [(r.name, r.family_name, r.given_name) for r in rows[-4:]] == [(s, f, g) for _t, f, g, s in NAMES]
    assert (rows[0].name, rows[0].family_name) == ("Player A", "")


# ---------------------------------------------------------------- the edit form, lists and search


@pytest.mark.django_db
def test_the_edit_form_shows_the_parts_and_changing_them_rewrites_the_name(client, organiser, event):
    client.force_login(organiser)
    client.post(reverse("org_player_add", args=[event.slug]), {"name": "Hellström, Viktor"}, headers=HX)
    player = event.players.get(family_name="Hellström")
    url = reverse("org_player_edit", args=[event.slug, player.pk])
    body = client.get(url).content.decode()
    assert 'name="family_name" value="Hellström"' in body and 'name="given_name" value="Viktor"' in body
    data = {"name": "Viktor Hellström", "family_name": "Hellström", "given_name": "Viktor Emil", "byes": 0}
    assert client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert parts(player) == ("Viktor Emil Hellström", "Hellström", "Viktor Emil")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "stored", "error"),
    [
        ({"name": "Østergaard, Søren"}, ("Søren Østergaard", "Østergaard", "Søren"), None),
        ({"name": "木村, 拓也"}, ("木村 拓也", "木村", "拓也"), None),
        ({"name": "Søren Østergaard", "family_name": "Østergaard", "given_name": "Søren"}, None, None),
        ({"name": "Søren Kirk", "family_name": "Østergaard", "given_name": "Søren"}, None, "name"),
        ({"name": "Søren", "family_name": "Østergaard"}, None, "given_name"),
        ({"name": "Søren Østergaard"}, ("Søren Østergaard", "", ""), None),
    ],
)
def test_the_edit_form_keeps_name_and_parts_one_name(event, data, stored, error):
    player = event.players.first()
    form = PlayerForm({"byes": 0, **data}, instance=player)
    if error:
        assert not form.is_valid() and error in form.errors
        return
    assert form.is_valid(), form.errors
    saved = form.save()
    assert parts(saved) == (stored or (data["name"], data["family_name"], data["given_name"]))


@pytest.mark.django_db
def test_a_danish_roster_sorts_by_family_name_where_it_is_known(client, organiser, event):
    event.players.all().delete()
    event.language = "da"
    event.save()
    client.force_login(organiser)
    client.post(
        reverse("org_players_paste", args=[event.slug]),
        {"lines": "Østergaard, Søren\nHellström, Viktor\nBerg, Åse\nAnne Jensen"},
    )
    body = client.get(reverse("org_players", args=[event.slug])).content.decode()
    order = ["Anne Jensen", "Åse Berg", "Viktor Hellström", "Søren Østergaard"]
    assert [body.index(n) for n in order] == sorted(body.index(n) for n in order)


@pytest.mark.django_db
def test_a_name_in_two_parts_is_still_found_by_either_part(client, organiser, event):
    from tournament.text import name_search

    assert name_search.matches("viktor", "Viktor Hellström") and name_search.matches("hellstrom", "Viktor Hellström")


def test_pairing_numbers_break_rating_ties_by_family_name():
    players = (
        Player("a", "Anna Zorn", rating=1800, family_name="Zorn", given_name="Anna"),
        Player("b", "Zoe Berg", rating=1800, family_name="Berg", given_name="Zoe"),
    )
    assert pairing_numbers(Event(settings_for_preset("chess"), players)) == {"b": 1, "a": 2}


def test_parse_entry_gives_the_parts_of_a_typed_line():
    row = parse_entry("Hellström, Viktor, 1900")
    assert (row.name, row.family_name, row.given_name, row.rating) == ("Viktor Hellström", "Hellström", "Viktor", 1900)


# ---------------------------------------------------------------- existing players


@pytest.mark.django_db(transaction=True)
def test_the_migration_leaves_existing_names_as_they_are():
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    migration = next(k for k in executor.loader.disk_migrations if k[0] == "tournament" and "given_names" in k[1])
    before = [d for d in executor.loader.get_migration(*migration).dependencies if d[0] == "tournament"]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    event = old.get_model("tournament", "Event").objects.create(slug="old", name="Old")
    OldPlayer = old.get_model("tournament", "Player")
    for k, name in enumerate(["Vasquez,Rodrigo", "Viktor Hellström", "木村 拓也"], 1):
        OldPlayer.objects.create(event=event, number=k, key=f"p{k}", name=name)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert sorted(parts(p) for p in DbPlayer.objects.filter(event_id=event.pk)) == [
        ("Vasquez,Rodrigo", "", ""),
        ("Viktor Hellström", "", ""),
        ("木村 拓也", "", ""),
    ]
