"""Files of an event with sections (docs/sections.md "Files"): a version-2 swiss-event file imported as an
event with sections and exported back as it came, by the commands and the web; `pair` and `standings` per
section; the players CSV's section column. The held-out check: three one-section examples of different games
made into one file, imported, exported, and their public standings equal to each file's own."""

import html
import json
import re
from dataclasses import replace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

import standings
from standings import points_by_player
from swiss import eventfile as ef
from swiss import model, trf, venuefile
from tests.conftest import EXAMPLES
from tournament.files import csv_columns
from tournament.models import Event, EventLog, Player
from tournament.services.event_files import import_file

pytestmark = pytest.mark.django_db

# Three games: Magic (the mtg preset, best of 3), backgammon (a custom preset ranked by rating sum), chess
# (a FIDE TRF, one game with colours and C.07 tie-breaks).
MAGIC, BACKGAMMON = EXAMPLES / "seed002-hyogo.json", EXAMPLES / "seed004-drawboss.json"
CHESS = EXAMPLES / "trf" / "held-exercises-2024.trf"


def one_section_files() -> dict[str, model.Event]:
    """Each example as the file alone gives it, by the name its section gets."""
    return {
        "Magic": ef.loads(MAGIC.read_bytes()),
        "Backgammon": ef.loads(BACKGAMMON.read_bytes()),
        "Chess": trf.loads(CHESS.read_bytes(), points_by_player),
    }


def section_body(event: model.Event, name: str) -> dict:
    """A version-1 event as a section of a version-2 file: its body, the section's name."""
    doc = ef.dump(event)
    del doc["format"], doc["version"]
    return {**doc, "name": name}


def venue_text() -> str:
    """The three examples as one version-2 file, as a person would put it together by hand."""
    sections = [section_body(e, name) for name, e in one_section_files().items()]
    doc = {"format": "swiss-event", "version": 2, "name": "Games Day", "slug": "games-day", "date": "2026-11-28"}
    return json.dumps({**doc, "sections": sections}, ensure_ascii=False, indent=1)


def import_command(path) -> str:
    out = []

    class Out:
        def write(self, text):
            out.append(text)

        def flush(self):
            pass

    call_command("import_event", str(path), stdout=Out())
    return "".join(out).split()[-1]


def export_command(slug: str, capsys, *args) -> str:
    capsys.readouterr()
    call_command("export_event", slug, *args)
    return capsys.readouterr().out


def served_ranks(client: Client, slug: str) -> list[tuple[int, str]]:
    """(rank, name) of each row of the public standings page, in order."""
    response = client.get(f"/e/{slug}/standings/")
    assert response.status_code == 200
    rows = re.findall(r'<td class="num">(\d+)</td>\s*<th scope="row"><a [^>]*>(.*?)</a>', response.content.decode())
    return [(int(rank), html.unescape(re.sub(r"<[^>]+>", "", name)).strip()) for rank, name in rows]


def test_held_out_three_games_in_one_file_come_back_and_rank_as_each_file_alone(tmp_path, capsys):
    source = tmp_path / "games-day.json"
    source.write_text(venue_text(), encoding="utf-8")
    assert import_command(source) == "games-day"
    root = Event.objects.get(slug="games-day")
    assert [s.name for s in root.section_list] == ["Magic", "Backgammon", "Chess"]
    assert [s.slug for s in root.section_list] == ["games-day-magic", "games-day-backgammon", "games-day-chess"]

    exported = export_command("games-day", capsys)
    before, after = venuefile.loads(source.read_bytes()), venuefile.loads(exported)
    assert (after.name, after.slug, after.date) == ("Games Day", "games-day", "2026-11-28")
    # Every fact of each section comes back; the database adds only its own: the address of each section,
    # the venue's one run of player numbers, each round's state, and FIDE mode (the file leaves it to the default).
    numbers = [p.number for s in after.sections for p in s.players]
    assert len(set(numbers)) == len(numbers)
    for was, now in zip(before.sections, after.sections, strict=True):
        assert now.settings == replace(was.settings, slug=now.settings.slug, fide_mode=was.settings.in_fide_mode)
        assert [replace(p, number=None) for p in now.players] == [replace(p, number=None) for p in was.players]
        assert [(r.number, r.kind, r.matches) for r in now.rounds] == [
            (r.number, r.kind, r.matches) for r in was.rounds
        ]
    # The writer is canonical: restored from its own export, the event writes the same bytes again.
    root.delete()
    again = tmp_path / "again.json"
    again.write_text(exported, encoding="utf-8")
    assert import_command(again) == "games-day"
    assert export_command("games-day", capsys) == exported

    # Each section's public standings are what the file alone gives.
    phone = Client()
    for (name, alone), section in zip(
        one_section_files().items(), Event.objects.get(slug="games-day").section_list, strict=True
    ):
        assert section.name == name
        table = standings.compute(alone)
        names = {p.id: p.name for p in alone.players}
        expected = [(row.rank, names[row.player_id]) for row in table.rows]
        served = served_ranks(phone, section.slug)
        # Players sharing a rank may come in any order.
        assert sorted(served) == sorted(expected) and [r for r, _n in served] == [r for r, _n in expected]


def test_a_version_1_file_still_imports_as_an_event_without_sections_and_exports_byte_for_byte(tmp_path, capsys):
    slug = import_command(MAGIC)
    event = Event.objects.get(slug=slug)
    assert not event.sections.exists() and not event.is_section
    first = export_command(slug, capsys)
    assert json.loads(first)["version"] == 1 and "sections" not in json.loads(first)
    event.delete()
    path = tmp_path / "magic.json"
    path.write_text(first, encoding="utf-8")
    assert export_command(import_command(path), capsys) == first


def test_sections_settings_players_divisions_and_pairing_together_survive_the_trip(venue, capsys, tmp_path):
    a, b = venue.section_list
    Event.objects.filter(pk=a.pk).update(
        first_table=101, rating_min=1400, cut_after=3, cut_points="6", cut_top=8, cut_ties="points", pair_with=b,
        pair_with_below=8,
    )  # fmt: skip
    Event.objects.filter(pk=b.pk).update(birth_year_min=2010, birth_year_max=2014, language="da")
    Player.objects.filter(event=a, name="A Player A").update(division="Juniors", cut_after=3)
    Player.objects.create(event=venue, name="Not Placed Yet", rating=1200)
    text = export_command("regionals", capsys)
    doc = json.loads(text)
    assert doc["version"] == 2 and [s["name"] for s in doc["sections"]] == ["A", "B"]
    assert doc["players"][0]["name"] == "Not Placed Yet"
    first, second = doc["sections"]
    assert (first["first_table"], first["cut_points"], first["pair_with"], first["pair_with_below"]) == (101, 6, "B", 8)
    assert second["language"] == "da" and "language" not in first and "date" not in first
    assert [p.get("division") for p in first["players"]].count("Juniors") == 1

    venue.delete()
    path = tmp_path / "regionals.json"
    path.write_text(text, encoding="utf-8")
    assert import_command(path) == "regionals"
    root = Event.objects.get(slug="regionals")
    a, b = root.section_list
    assert (a.pair_with_id, a.first_table, a.cut_points, b.language, b.birth_year_max) == (b.pk, 101, "6", "da", 2014)
    assert root.players.get().name == "Not Placed Yet"
    assert Player.objects.get(event=a, name="A Player A").division == "Juniors"
    assert EventLog.objects.filter(event=root, action="section_add").count() == 2
    assert export_command("regionals", capsys) == text


def test_a_refused_section_names_its_place_and_nothing_is_written(tmp_path):
    doc = json.loads(venue_text())
    doc["sections"][2]["players"][3]["name"] = "x" * 201
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError) as info:
        call_command("import_event", str(path))
    assert "sections[2].players[3].name" in str(info.value)
    assert Event.objects.count() == 0 and Player.objects.count() == 0


def test_a_section_exports_alone_as_its_own_version_1_file(venue, capsys):
    a, b = venue.section_list
    Event.objects.filter(pk=a.pk).update(pair_with=b, cut_after=2)
    doc = json.loads(export_command(a.slug, capsys))
    assert doc["version"] == 1 and doc["name"] == "A" and doc["cut_after"] == 2
    assert "pair_with" not in doc  # the other section is not in this file
    assert [p.name[:2] for p in ef.parse(doc).players] == ["A "] * 6


def test_export_all_writes_each_event_the_venue_knows_with_its_sections(venue, event, tmp_path):
    call_command("export_event", "--all", str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["friday.json", "regionals.json"]
    assert json.loads((tmp_path / "regionals.json").read_text())["version"] == 2
    Event.objects.all().delete()
    call_command("import_event", *sorted(str(p) for p in tmp_path.iterdir()))
    assert Event.objects.get(slug="regionals").section_list[1].slug == "regionals-b"
    assert Event.objects.get(slug="friday").players.count() == 8


def test_standings_and_pair_commands_run_each_section_or_the_one_named(tmp_path, capsys):
    path = tmp_path / "games-day.json"
    path.write_text(venue_text(), encoding="utf-8")
    capsys.readouterr()
    call_command("standings", str(path))
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("==")] == [
        "== Magic ==",
        "== Backgammon ==",
        "== Chess ==",
    ]
    call_command("standings", str(path), "--section", "Backgammon", "--format", "json")
    alone = standings.compute(ef.loads(BACKGAMMON.read_bytes()))
    assert json.loads(capsys.readouterr().out) == json.loads(standings.dumps_json(alone))
    with pytest.raises(CommandError, match="name one with --section"):
        call_command("standings", str(path), "--format", "json")
    with pytest.raises(CommandError, match="no section 'Go'"):
        call_command("standings", str(path), "--section", "Go")
    with pytest.raises(CommandError, match="no sections"):
        call_command("standings", str(MAGIC), "--section", "Magic")

    call_command("pair", str(path), "--seed", "7")
    out = capsys.readouterr().out
    assert out.startswith("== Magic ==\n") and "\n== Chess ==\n" in out
    call_command("pair", str(path), "--seed", "7", "--section", "Chess", "--format", "json")
    one = json.loads(capsys.readouterr().out)
    capsys.readouterr()
    chess = tmp_path / "chess.json"
    chess.write_text(ef.dumps(one_section_files()["Chess"]), encoding="utf-8")
    call_command("pair", str(chess), "--seed", "7", "--format", "json")
    assert json.loads(capsys.readouterr().out) == one


def test_the_web_export_of_an_event_with_sections_is_version_2_and_of_a_section_version_1(venue, organiser, outsider):
    desk = Client()
    desk.force_login(organiser)
    doc = json.loads(desk.get("/events/regionals/export/event.json").content)
    assert doc["version"] == 2 and [s["name"] for s in doc["sections"]] == ["A", "B"]
    assert venuefile.parse(doc).sections[1].players[0].name == "B Player A"
    alone = json.loads(desk.get("/events/regionals-a/export/event.json").content)
    assert alone["version"] == 1 and len(alone["players"]) == 6
    other = Client()
    other.force_login(outsider)
    assert other.get("/events/regionals/export/event.json").status_code in (403, 404)
    assert desk.post("/events/regionals/export/event.json").status_code == 405


@pytest.mark.parametrize(("language", "heading"), [("en", "section"), ("ja", "部門"), ("da", "Gruppe")])
def test_the_players_csv_of_an_event_with_sections_names_each_players_section(venue, organiser, language, heading):
    Player.objects.create(event=venue, name="Not Placed Yet")
    desk = Client()
    desk.force_login(organiser)
    text = desk.get("/events/regionals/export/players.csv", HTTP_ACCEPT_LANGUAGE=language).content.decode("utf-8-sig")
    rows = [line.split(",") for line in text.splitlines()]
    assert rows[0][-1] == heading
    sections = {row[1]: row[-1] for row in rows[1:]}
    assert sections["A Player C"] == "A" and sections["B Player F"] == "B" and sections["Not Placed Yet"] == ""
    assert len(rows) == 1 + 13
    # A section's own export has the column too; an event without sections has none.
    own = (
        desk.get("/events/regionals-b/export/players.csv", HTTP_ACCEPT_LANGUAGE=language)
        .content.decode("utf-8-sig")
        .splitlines()
    )
    assert own[0].split(",")[-1] == heading and len(own) == 7 and all(r.endswith(",B") for r in own[1:])
    # And the export reads back as a roster: the import reads the section column (docs/sections.md).
    assert csv_columns.column_of(csv_columns.heading(heading)) == "section"


def test_importing_a_venue_from_the_service_records_who(organiser):
    doc = venuefile.loads(venue_text())
    root = import_file(doc, by=organiser)
    assert EventLog.objects.filter(event=root, action="section_add", by=organiser).count() == 3


def test_an_import_under_another_slug_puts_the_sections_under_it(tmp_path, capsys):
    path = tmp_path / "games-day.json"
    path.write_text(venue_text(), encoding="utf-8")
    call_command("import_event", str(path), "--slug", "second-day")
    root = Event.objects.get(slug="second-day")
    assert [s.slug for s in root.section_list] == ["second-day-magic", "second-day-backgammon", "second-day-chess"]
    assert not Event.objects.filter(slug__startswith="games-day").exists()
