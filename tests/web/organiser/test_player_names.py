"""Player names hold no control characters, no direction overrides and something visible, whichever way
they come in (quick add, paste, CSV, the edit form, an event file), and `standings --format text` never
prints a control character even from a file written elsewhere."""

import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from swiss import eventfile as ef
from tournament.files import csv_rosters
from tournament.models import Player
from tournament.snapshot import import_event
from tournament.text.names import clean_player_name

ESC = "\x1b[31m"
RLO = "\u202e"
ZWSP = "\u200b"
HX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("  Ann \t  Archer ", "Ann Archer"),
        (f"{RLO}Ann Archer", "Ann Archer"),
        ("Ann\u2066 Archer\u2069", "Ann Archer"),
        ("Zoë Ångström-Øre", "Zoë Ångström-Øre"),
        ("ميرزا\u200cعلی", "ميرزا\u200cعلی"),  # a zero-width non-joiner inside a Persian name stays
        ("李 小龍", "李 小龍"),
    ],
)
def test_names_are_stored_clean(raw, stored):
    assert clean_player_name(raw) == stored


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (f"{ESC}Evil", "control character"),
        ("Bell\x07", "control character"),
        ("Nul\x00l", "control character"),
        (ZWSP * 3, "visible letter"),
        (f"{ZWSP} \u2060 {RLO}", "visible letter"),
        ("x" * 201, "longer than 200"),
    ],
)
def test_names_without_anything_to_read_or_with_control_characters_are_refused(raw, words):
    with pytest.raises(ValidationError) as info:
        clean_player_name(raw)
    assert words in info.value.messages[0]
    assert "\x1b" not in info.value.messages[0]


def test_quick_add_refuses_a_control_character_and_says_which(client, organiser, event):
    client.force_login(organiser)
    r = client.post(reverse("org_player_add", args=[event.slug]), {"name": f"{ESC}Evil"}, headers=HX)
    assert "“\\x1b[31mEvil” holds a control character." in r.content.decode()
    assert event.players.count() == 8


def test_paste_refuses_a_name_of_zero_width_spaces_and_adds_nothing(client, organiser, event):
    client.force_login(organiser)
    r = client.post(reverse("org_players_paste", args=[event.slug]), {"lines": f"Real Name\n{ZWSP * 2}, 1500"})
    assert "at least one visible letter" in r.content.decode()
    assert event.players.count() == 8


def test_paste_drops_direction_overrides(client, organiser, event):
    client.force_login(organiser)
    client.post(reverse("org_players_paste", args=[event.slug]), {"lines": f"{RLO}Reversed Rita, 1500"})
    assert event.players.filter(name="Reversed Rita", rating=1500).exists()


def test_csv_rows_with_bad_names_are_marked_and_shown_escaped():
    rows = csv_rosters.parse_players(f"name,id\nGood,1\n{ESC}Bad,2\n{ZWSP},3\nFine,id\x07\n")
    assert [r.ok for r in rows] == [True, False, False, False]
    assert rows[1].name == "\\x1b[31mBad" and "control character" in rows[1].errors[0]
    assert "visible letter" in rows[2].errors[0]
    assert rows[3].errors == ["a control character in the id"] and rows[3].external_id == "id\\x07"


def test_the_edit_form_refuses_a_control_character(client, organiser, event):
    client.force_login(organiser)
    p = event.players.first()
    url = reverse("org_player_edit", args=[event.slug, p.pk])
    r = client.post(url, {"name": "Esc\x1bape", "rating": "", "external_id": "", "byes": 0, "fixed_table": ""})
    p.refresh_from_db()
    assert r.status_code == 200 and "control character" in r.content.decode() and p.name.startswith("Player")


def test_the_model_refuses_an_unclean_name_in_full_clean(event):
    with pytest.raises(ValidationError):
        Player(event=event, name=f"{RLO}x").full_clean()


def _file(name: str) -> str:
    return json.dumps(
        {
            "format": "swiss-event",
            "version": 1,
            "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": name}],
            "rounds": [{"number": 1, "matches": [{"a": "a", "b": "b", "games": [2, 0, 0]}]}],
        }
    )


@pytest.mark.django_db
def test_an_event_file_with_a_control_character_in_a_name_is_refused_at_its_place(tmp_path):
    with pytest.raises(ef.EventFileError) as info:
        import_event(ef.loads(_file(f"{ESC}Bob")))
    assert info.value.path == "players[1].name" and "control character" in str(info.value)
    path = tmp_path / "bad.json"
    path.write_text(_file(ZWSP))
    with pytest.raises(CommandError) as cmd:
        call_command("import_event", str(path))
    assert "players[1].name" in str(cmd.value) and Player.objects.count() == 0


@pytest.mark.django_db
def test_an_event_file_name_with_an_override_is_imported_clean():
    event = import_event(ef.loads(_file(f"Bob{RLO} Builder")))
    assert sorted(event.players.values_list("name", flat=True)) == ["Ann", "Bob Builder"]


def test_standings_text_never_prints_control_characters(tmp_path):
    path = tmp_path / "event.json"
    # A NUL is refused by the file parser itself (it cannot be stored); every other control character is read.
    path.write_text(_file(f"{ESC}Bob\x07{RLO}\x01"))
    out = StringIO()
    call_command("standings", str(path), "--format", "text", stdout=out)
    text = out.getvalue()
    assert not any(c in text for c in "\x1b\x07\x01" + RLO)
    assert "\\x1b[31mBob\\x07\\u202e\\x01" in text
    # The JSON output keeps the name exactly as the file has it (json escapes it).
    out = StringIO()
    call_command("standings", str(path), "--format", "json", stdout=out)
    assert json.loads(out.getvalue())["standings"][1]["name"] == f"{ESC}Bob\x07{RLO}\x01"


@pytest.mark.django_db
def test_the_import_command_names_the_file_whose_player_name_the_database_refuses(tmp_path):
    """The file's reader takes any text for a name; the database refuses a control character: the command
    names the file then, as it does for what the reader refuses (found by test_fuzz_inputs)."""
    good, bad = tmp_path / "a.json", tmp_path / "b.json"
    good.write_text(json.dumps({"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "Ann"}]}))
    bad.write_text(json.dumps({"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": f"{ESC}x"}]}))
    with pytest.raises(CommandError) as info:
        call_command("import_event", str(good), str(bad), stdout=StringIO())
    assert info.value.returncode == 2 and str(info.value).startswith(f"{bad}: players[0].name: ")
    assert not Player.objects.filter(name="Ann").exists()  # all files or none
