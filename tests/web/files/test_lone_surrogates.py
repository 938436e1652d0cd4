"""A lone surrogate (`\\udc80`: half of a character, which PostgreSQL cannot store) is refused wherever text
comes in, with a message, instead of failing the database (a 500): the swiss-event file (every text field,
and its keys), the TRF file, the CSV file, the pasted list and the forms. Run it on PostgreSQL
(DATABASE_URL=postgres://…) to see the database that once failed; the refusals are the same on SQLite."""

import json
import urllib.parse

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from standings import points_by_player
from swiss import trf, venuefile
from tests.engines.test_trf import player
from tournament.files import csv_rosters as csvio
from tournament.models import Event, Player

pytestmark = pytest.mark.django_db

HALF = "\udc80"


def signed_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def v1(**players_0) -> dict:
    return {
        "format": "swiss-event",
        "version": 1,
        "name": "Spring Open",
        "players": [{"id": "p1", "name": "Anna", **players_0}, {"id": "p2", "name": "Bo"}],
        "rounds": [],
    }


def v2(section: str) -> dict:
    return {"format": "swiss-event", "version": 2, "name": "Venue", "sections": [{"name": section, "players": []}]}


FILES = {
    "event name": ({**v1(), "name": f"Spring{HALF}"}, "name"),
    "player name": (v1(name=f"An{HALF}na"), "players[0].name"),
    "external id": (v1(external_id=f"X{HALF}1"), "players[0].external_id"),
    "reading": (v1(reading=f"ア{HALF}"), "players[0].reading"),
    "name parts": (v1(family_name="Berg", given_name=f"An{HALF}"), "players[0].given_name"),
    "division": (v1(division=f"U{HALF}"), "players[0].division"),
    "federation": (v1(federation=f"DE{HALF}"), "players[0].federation"),
    "a key": (v1(**{f"name{HALF}": "x"}), "players[0].name\\udc80"),
    "TRF header line": ({**v1(), "trf_header": [f"012 Open{HALF}"]}, "trf_header[0]"),
    "section name": (v2(f"Open{HALF}"), "sections[0].name"),
    "venue name": ({**v2("Open"), "name": f"Venue{HALF}"}, "name"),
}


@pytest.mark.parametrize("where", FILES)
def test_the_event_file_refuses_one_by_its_place(organiser, where):
    doc, place = FILES[where]
    text = json.dumps(doc)  # written as an escape, as any JSON writer writes it
    assert "\\udc80" in text
    response = signed_in(organiser).post(
        reverse("org_event_import_file"), {"file": SimpleUploadedFile("e.json", text.encode())}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert f"{place}: contains \\udc80, half of a character (a lone surrogate)" in page
    assert not Event.objects.exists() and not Player.objects.exists()


def test_a_pair_of_surrogates_is_one_character_and_is_read():
    doc = v1(name="Anna \U0001f600")
    text = json.dumps(doc)
    assert "\\ud83d\\ude00" in text
    assert venuefile.loads(text).players[0].name == "Anna \U0001f600"


def test_raw_surrogate_bytes_are_not_utf8(organiser):
    data = (
        json.dumps(v1(name="Anna"), ensure_ascii=False).replace("Anna", "An\udc80na").encode("utf-8", "surrogatepass")
    )
    response = signed_in(organiser).post(reverse("org_event_import_file"), {"file": SimpleUploadedFile("e.json", data)})
    assert response.status_code == 400 and "the file is not UTF-8 text" in response.content.decode()
    assert not Event.objects.exists()


def test_the_import_command_refuses_one(tmp_path):
    path = tmp_path / "e.json"
    path.write_text(json.dumps(v1(external_id=f"X{HALF}")))
    with pytest.raises(CommandError, match=r"players\[0\]\.external_id: contains \\udc80"):
        call_command("import_event", str(path))
    assert not Event.objects.exists()


TRF_TEXT = (
    "012 Half\nXXR 3\n"
    + player("", rank="1", name="Anna", points="0.0")
    + "\n"
    + player("", rank="2", name="Bo", points="0.0")
    + "\n"
)


def test_a_trf_text_refuses_one_by_its_line():
    with pytest.raises(trf.TRFError) as refused:
        trf.loads(TRF_TEXT.replace("Bo ", f"B{HALF}"), points_by_player)
    assert refused.value.line == 4 and refused.value.message.code == "file_lone_surrogate"


@pytest.mark.parametrize("url", ["org_event_import_trf", "org_section_import_trf"])
def test_a_trf_upload_with_surrogate_bytes_is_refused_or_stored_whole(organiser, venue, url):
    """Uploaded bytes are decoded strictly: surrogate bytes are not UTF-8, and read as Latin-1 they are three
    characters the name check refuses (a control character), never half of one."""
    data = TRF_TEXT.replace("Bo ", f"B{HALF}").encode("utf-8", "surrogatepass")
    args = [venue.slug] if url == "org_section_import_trf" else []
    response = signed_in(organiser).post(reverse(url, args=args), {"file": SimpleUploadedFile("t.trf", data)})
    assert response.status_code in (200, 302, 400)
    for name in Player.objects.values_list("name", flat=True):
        name.encode("utf-8")


@pytest.mark.parametrize(
    "data",
    [
        "name,rating\nAn\udc80na,1500\n".encode("utf-8", "surrogatepass"),
        b"\xff\xfe" + "name,rating\nAn\udc80na,1500\n".encode("utf-16-le", "surrogatepass"),
    ],
    ids=["utf-8", "utf-16"],
)
def test_a_csv_upload_with_one_stores_nothing_broken(organiser, event, data):
    before = set(event.players.values_list("name", flat=True))
    response = signed_in(organiser).post(
        reverse("org_players_csv", args=[event.slug]), {"file": SimpleUploadedFile("p.csv", data)}
    )
    assert response.status_code in (200, 400)
    for name in event.players.values_list("name", flat=True):
        name.encode("utf-8")
    assert set(event.players.values_list("name", flat=True)) == before


@pytest.mark.parametrize("parse", [csvio.parse_players, csvio.parse_pasted])
@pytest.mark.parametrize("line", [f"An{HALF}na,1500", f"Anna,1500,X{HALF}", "Anna,1500,,,"])
def test_a_roster_text_refuses_a_row_holding_one(parse, line):
    rows = parse(f"name,rating,id\n{line}\n")
    if HALF in line:
        assert not rows[0].ok and "half of a character" in rows[0].errors[0] and "\\udc80" in rows[0].errors[0]
    else:
        assert rows[0].ok


def raw_post(client: Client, url: str, fields: dict[str, str]):
    """A form posted with surrogate bytes percent-encoded, as a broken client could send them."""
    body = "&".join(f"{k}={urllib.parse.quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in fields.items())
    return client.post(url, body, content_type="application/x-www-form-urlencoded")


def test_every_form_reads_surrogate_bytes_without_failing(organiser, event, venue):
    client = signed_in(organiser)
    posts = [
        (
            reverse("org_event_new"),
            {"name": f"New{HALF}", "date": "2026-12-05", "preset": "mtg", "top_cut": "0", "round_minutes": "50"},
        ),
        (reverse("org_player_add", args=[event.slug]), {"name": f"An{HALF}na", "rating": "1500", "once": "a1"}),
        (reverse("org_players_paste", args=[event.slug]), {"lines": f"Pa{HALF}sted, 1400", "once": "p1"}),
        (reverse("org_section_add", args=[venue.slug]), {"name": f"Sec{HALF}", "preset": "chess"}),
        (reverse("org_settings", args=[event.slug]), {"name": f"Friday{HALF}"}),
    ]
    for url, fields in posts:
        response = raw_post(client, url, fields)
        assert response.status_code < 500, url
    for model, field in ((Event, "name"), (Player, "name"), (Player, "external_id")):
        for text in model.objects.values_list(field, flat=True):
            text.encode("utf-8")  # what the database holds is whole characters


def test_the_player_name_check_every_way_in_shares_refuses_one():
    from django.core.exceptions import ValidationError

    from tournament.text.names import clean_player_name

    with pytest.raises(ValidationError, match="lone surrogate"):
        clean_player_name(f"An{HALF}na")
