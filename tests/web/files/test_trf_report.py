"""A chess event's FIDE rating report (TRF 022 to 132) from its settings to the TRF and back, through the
database; and the TRF conventions of tests/engines/test_trf_conventions.py in the web app: accelerations (XXA) kept
and paired with, whoever a draft leaves out named with it, an export with byes asked for and a withdrawal that
bbpPairings' checker accepts."""

import json
from pathlib import Path

import pytest
from django.urls import reverse

from standings import points_by_player
from swiss import eventfile as ef
from swiss import trf
from swiss.model import HALF_BYE, Event, Player, Round, settings_for_preset
from tests.conftest import new_chess_event
from tests.engines.test_trf_commands import run
from tests.engines.test_trf_conventions import XXA
from tests.web.organiser.test_organiser import settings_data
from tournament.models import Event as EventRow
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round
from tournament.snapshot import event_to_file, event_to_trf

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parents[2] / "data" / "trf"
REPORT = {
    "city": "Aarhus",
    "federation": "DEN",
    "end_date": "2026-11-23",
    "chief_arbiter": "Nielsen, Niels",
    "deputy_arbiters": "Olsen, Ole\nPoulsen, Pia",
    "time_control": "90 min + 30 s",
    "round_dates": "2026-11-21\n\n2026-11-22",
}


def chess_data(event, **over):
    return settings_data(event, win_points="1", draw_points="1/2", best_of=1, colours="on", **over)


def test_the_settings_of_a_chess_event_have_a_rating_report_fieldset(client, organiser, chess):
    client.force_login(organiser)
    page = client.get(reverse("org_settings", args=[chess.slug])).content.decode()
    assert "FIDE rating report" in page and 'name="chief_arbiter"' in page and 'name="round_dates"' in page
    r = client.post(reverse("org_settings", args=[chess.slug]), chess_data(chess, **REPORT))
    assert r.status_code == 302, r.content.decode()[:3000]
    chess.refresh_from_db()
    assert (chess.city, chess.federation, chess.end_date.isoformat()) == ("Aarhus", "DEN", "2026-11-23")
    assert chess.deputy_arbiters == "Olsen, Ole\nPoulsen, Pia" and chess.round_dates == "2026-11-21\n\n2026-11-22"
    s = event_to_file(chess).settings
    assert s.round_dates == ("2026-11-21", None, "2026-11-22") and s.deputy_arbiters == ("Olsen, Ole", "Poulsen, Pia")
    # What a federation's rating officer reads first: the report's header, in the order of its codes.
    header = [line for line in event_to_trf(chess).splitlines() if not line.startswith("001")]
    assert header[:13] == [
        "012 Club Open",
        "022 Aarhus",
        "032 DEN",
        f"042 {chess.date:%Y/%m/%d}",
        "052 2026/11/23",
        "062 6",
        "072 6",
        "092 Individual: Swiss-System",
        "102 Nielsen, Niels",
        "112 Olsen, Ole",
        "112 Poulsen, Pia",
        "122 90 min + 30 s",
        "132".ljust(91) + "26/11/21            26/11/22",
    ]
    # And the swiss-event file carries them.
    doc = json.loads(client.get(reverse("org_export_json", args=[chess.slug])).content)
    assert doc["round_dates"] == ["2026-11-21", None, "2026-11-22"] and doc["chief_arbiter"] == "Nielsen, Niels"
    assert ef.parse(doc).settings == s


def test_wrong_report_facts_are_refused_by_field(client, organiser, chess):
    client.force_login(organiser)
    data = chess_data(chess, federation="Denmark", round_dates="2026-11-21\nsoon")
    r = client.post(reverse("org_settings", args=[chess.slug]), data)
    body = r.content.decode()
    assert r.status_code == 200 and "three-letter FIDE code" in body and "Round 2: soon is not a date" in body


def test_an_event_other_than_chess_has_no_rating_report(client, organiser, event):
    client.force_login(organiser)
    assert "FIDE rating report" not in client.get(reverse("org_settings", args=[event.slug])).content.decode()
    EventRow.objects.filter(pk=event.pk).update(city="Kept")
    r = client.post(reverse("org_settings", args=[event.slug]), settings_data(event))
    assert r.status_code == 302
    event.refresh_from_db()
    assert event.city == "Kept"


def test_a_trf_import_reads_the_report_and_its_export_writes_the_lines_back():
    slug = run("import_event", str(DATA / "fide-example1-karl-mala-gedenkturnier-2005.trf")).splitlines()[-1]
    event = EventRow.objects.get(slug=slug)
    assert (event.city, event.federation, event.date.isoformat(), event.end_date.isoformat()) == (
        "Frankfurt (Main) /GER",
        "",
        "2005-07-28",
        "2005-07-31",
    )
    assert (event.chief_arbiter, event.deputy_arbiters, event.time_control, event.round_dates) == (
        "Ralph Blum (SV Griesheim)",
        "NSR Thomas Rondio, NSR Wolfgang Hettler",
        "40/120, 60",
        "",
    )
    # The file's own lines come back as they were; a fact changed here is written in its line's place.
    EventRow.objects.filter(pk=event.pk).update(chief_arbiter="Blum, Ralph", federation="GER")
    header = [line for line in run("export_event", slug, "--format", "trf").splitlines() if line[:3] < "200"]
    assert header[:5] == [
        "012 9. Karl-Mala-Gedenkturnier",
        "022 Frankfurt (Main) /GER",
        "032 GER",
        "042 28. 07. 2005",
        "052 31. 07. 2005",
    ]
    assert "102 Blum, Ralph" in header and "112 NSR Thomas Rondio, NSR Wolfgang Hettler" in header
    assert header.index("102 Blum, Ralph") == header.index("092 Individual: Swiss-System (Standard)") + 1


# ---------------------------------------------------------------- accelerations, left-out players, exports


def test_xxa_accelerations_go_through_the_database_and_pair_the_web_round(organiser, tmp_path):
    path = tmp_path / "xxa.trf"
    path.write_text(XXA)
    slug = run("import_event", str(path), "--format", "trf").splitlines()[-1]
    event = EventRow.objects.get(slug=slug)
    assert event.players.get(key="1").accelerations == ["1", "1"] and event.players.get(key="8").accelerations == []
    rnd = pair_next_round(event, organiser)
    games = {(m.player_a.key, m.player_b.key) for m in rnd.matches.select_related("player_a", "player_b")}
    # bbpPairings' pairing of the file (tests/engines/test_trf_conventions.py): the accelerated half meets itself.
    assert games == {("1", "3"), ("4", "2"), ("5", "7"), ("8", "6")}
    assert [line for line in event_to_trf(event).splitlines() if line.startswith("XXA")][0] == "XXA    1  1.0  1.0"


def test_the_draft_names_who_is_left_out_and_why(client, organiser, chess):
    players = list(chess.players.order_by("-rating"))
    players[0].dropped_after = 0
    players[0].save()
    players[1].requested_byes = {"1": HALF_BYE}
    players[1].save()
    rnd = pair_next_round(chess, organiser)
    assert rnd.warnings[0]["code"] == "left_out"
    client.force_login(organiser)
    page = client.get(reverse("org_round", args=[chess.slug, 1])).content.decode()
    assert "Left out of round 1: Player A (withdrew before round 1), Player B (a half-point bye asked for)." in page
    assert "bend a rule" not in page  # a note, not a rule bent
    page = client.get(reverse("org_round", args=[chess.slug, 1]), headers={"Accept-Language": "ja"}).content.decode()
    assert "ラウンド1の組み合わせに入らないプレイヤー：Player A（ラウンド1の前にドロップ）" in page


def test_an_export_with_a_requested_bye_and_a_withdrawal_is_what_the_checker_accepts(organiser):
    event = new_chess_event(organiser, {f"P{k}": 2100 - 50 * k for k in range(1, 7)}, slug="checked")
    EventRow.objects.filter(pk=event.pk).update(planned_rounds=4, initial_colour="white")
    event.refresh_from_db()
    publish_round(pair_next_round(event, organiser), organiser)
    for m in event.rounds.get().matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (1, 0, 0)), organiser)
    p1, p6 = event.players.get(name="P1"), event.players.get(name="P6")
    p1.requested_byes = {"2": HALF_BYE}
    p1.save()
    p6.dropped_after = 1
    p6.save()
    text = event_to_trf(event)
    lines = {line[4:8].strip(): line for line in text.splitlines() if line.startswith("001")}
    # P1 won round 1 and asked for a half-point bye in round 2: 1.5 points, as the checker wants them.
    assert lines["1"][80:84] == " 1.5" and lines["1"].endswith("0000 - H")
    assert lines["6"].endswith("0000 - Z") and "240 Z 003    6" in text and "240 Z 004    6" in text
    again = trf.loads(text, points_by_player)
    assert again.players[5].dropped_after == 1 and again.players[0].requested_byes == ((2, HALF_BYE),)


def test_a_file_without_a_withdrawal_code_keeps_everyone():
    # A model event, no database: an absence entered for one round ("0000 - -") is not a withdrawal.
    event = Event(
        settings=settings_for_preset("chess", name="x", planned_rounds=3),
        players=(Player(id="1", name="A"), Player(id="2", name="B")),
        rounds=(Round(1),),
    )
    assert trf.loads(trf.dumps(event), points_by_player).players[0].dropped_after is None
