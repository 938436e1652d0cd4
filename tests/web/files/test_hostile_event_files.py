"""Hostile swiss-event files with the new records (prize lists, trails): the web import refuses a malformed one
with a message naming the place and stores nothing, losing nothing already stored; a file whose strings are
hostile (script, quotes, ampersands, line breaks) imports, and every page showing them escapes them."""

import copy
import csv
import html
import io
import json
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pairing.tools.main import main
from tests.web.security.test_injection import assert_safe
from tournament.models import Event, Job, Player, PrizeList, RoundChange

pytestmark = pytest.mark.django_db

HOSTILE = "<script>alert('x')</script> & \"Q\" 'q'"
LINE = {"table": 1, "a": "p1", "a_name": "Ann", "b": "p2", "b_name": "Bob", "games": [1, 0, 0]}


def doc(**extra) -> dict:
    base = {
        "format": "swiss-event",
        "version": 1,
        "name": "Open",
        "preset": "chess",
        "players": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 5)],
        "rounds": [
            {
                "number": 1,
                "matches": [{"a": "p1", "b": "p2", "games": [1, 0, 0]}, {"a": "p3", "b": "p4", "games": [0, 0, 1]}],
            }
        ],
    }
    return {**copy.deepcopy(base), **extra}


def with_changes(changes: list) -> dict:
    d = doc()
    d["rounds"][0]["changes"] = changes
    return d


def change(**kw) -> dict:
    return {"kind": "result", "at": "2026-12-07T14:32:05+00:00", "table": 1, "was": [LINE], "became": [LINE]} | kw


def upload(client, d: dict, once: str):
    data = json.dumps(d).encode()
    return client.post(reverse("org_event_import_file"), {"file": SimpleUploadedFile("e.json", data), "once": once})


@pytest.fixture
def stored(organiser) -> Client:
    """An organiser with one event already stored, which no refused import may touch."""
    c = Client()
    c.force_login(organiser)
    assert upload(c, doc(prizes=[{"name": "1st", "amount": "100"}]), "first").status_code == 302
    return c


BAD = [
    ({"prizes": [{"name": "1st", "amount": "-5"}]}, "prizes[0].amount"),
    ({"prizes": [{"name": "1st", "amount": "12,5x"}]}, "prizes[0].amount"),
    ({"prizes": [{"name": "1st", "amount": "1e400"}]}, "prizes[0].amount"),
    ({"prizes": [{"name": "1st", "amount": "9" * 5000}]}, "prizes[0].amount"),
    ({"prizes": [{"name": "1st", "amount": 40}]}, "prizes[0].amount"),
    ({"prizes": [{"name": "1st", "items": -3}]}, "prizes[0].items"),
    ({"prizes": [{"name": "1st", "items": 10**400}]}, "prizes[0].items"),
    ({"prizes": [{"name": "x" * 100_000, "amount": "1"}]}, "prizes[0].name"),
    ({"prizes": [{"name": f"p{i}", "amount": "1"} for i in range(5000)]}, "prizes"),
    ({"prizes": [{"name": "a", "amount": "1", "category": {"rating_below": -1}}]}, "prizes[0].category.rating_below"),
    ({"prize_rules": {"ties": "<script>"}}, "prize_rules.ties"),
    ({"prize_rules": {"currency": "€" * 5000}}, "prize_rules.currency"),
    (with_changes([change(table=10**30)]), "rounds[0].changes[0].table"),
    (with_changes([change(table=-1)]), "rounds[0].changes[0].table"),
    (with_changes([change(at="yesterday")]), "rounds[0].changes[0].at"),
    (with_changes([change(was=[{**LINE, "games": [10**30, 0, 0]}])]), "rounds[0].changes[0].was[0].games[0]"),
    (with_changes([change(was=[{**LINE, "a_name": "x" * 10**5}])]), "rounds[0].changes[0].was[0].a_name"),
    (with_changes([change(was=[], became=[])]), "rounds[0].changes[0]"),
    (with_changes([change(kind="<img src=x onerror=alert(1)>")]), "rounds[0].changes[0].kind"),
]


@pytest.mark.parametrize(("extra", "place"), BAD, ids=[p for _, p in BAD])
def test_a_hostile_file_is_refused_by_its_place_and_nothing_is_lost(stored, extra, place):
    before = (list(Event.objects.values()), list(PrizeList.objects.values()), Player.objects.count())
    d = extra if "format" in extra else doc(**extra)
    r = upload(stored, d, "second")
    assert r.status_code == 400
    page = assert_safe(r.content.decode(), place)
    assert place in page
    assert (list(Event.objects.values()), list(PrizeList.objects.values()), Player.objects.count()) == before
    assert not Job.objects.exists()


def test_a_file_of_hostile_strings_imports_and_every_page_escapes_them(organiser):
    cache.clear()
    c = Client()
    c.force_login(organiser)
    names = [HOSTILE, 'A & B "the" <b>bold</b>', "Line\nbreak", "+cmd|' /C calc'!A0"]
    line = {**LINE, "a_name": HOSTILE, "b_name": "Tab\there & <i>"}
    d = doc(
        name=HOSTILE,
        planned_rounds=1,  # over: the prize list is split, its sheet written
        players=[{"id": f"p{i}", "name": n} for i, n in enumerate(names, 1)],
        prizes=[
            {"name": HOSTILE, "amount": "10"},
            {"name": "<b>2nd</b>", "items": 3, "unit": "<u>packs</u> &"},
            {"name": '=HYPERLINK("http://evil.example","x")', "amount": "5"},
            {"name": "@SUM(A1)", "amount": "1"},
        ],
        prize_rules={"currency": "<i>&"},
    )
    d["rounds"][0]["changes"] = [change(was=[line], became=[{**line, "games": [0, 1, 0]}])]
    r = upload(c, d, "hostile")
    assert r.status_code == 302, r.content.decode()[-3000:]
    event = Event.objects.get()
    assert RoundChange.objects.filter(event=event).exists()
    for name, args in [
        ("org_event", [event.slug]),
        ("org_round", [event.slug, 1]),
        ("org_prizes", [event.slug]),
        ("org_print_prizes", [event.slug]),
        ("org_outlook", [event.slug]),
        ("org_standings", [event.slug]),
        ("public:pairings", [event.slug]),
        ("public:home", [event.slug]),
    ]:
        r = c.get(reverse(name, args=args))
        assert r.status_code == 200, name
        text = assert_safe(r.content.decode(), name)
        if name in ("org_prizes", "org_print_prizes"):
            assert HOSTILE in text, name
    # The prize sheet: every cell a spreadsheet would run as a formula is defused.
    sheet = c.get(reverse("org_export_prizes", args=[event.slug])).content.decode().lstrip("\ufeff")
    cells = [cell for row in csv.reader(io.StringIO(sheet)) for cell in row]
    assert "'@SUM(A1)" in cells and "'+cmd|' /C calc'!A0" in cells, sheet  # a prize's and a player's name
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells), cells
    trf = c.get(reverse("org_export_trf", args=[event.slug])).content.decode("utf-8", "replace")
    # A name with a line break stays inside its record: every line starts with a record's code or is a comment.
    for line in trf.splitlines():
        assert line[:3].isdigit() or line.startswith(("###", "XX", "BB")), line


# ---------------------------------------------------------------- TRF records

HELD = Path(__file__).parents[2] / "data" / "trf" / "held-exercises-2024.trf"
BAD_RECORDS = [
    ("202 BH/C1, SB, BH-C1", "names BH-C1 twice"),
    ("202 " + "BH/C1, " * 5000, "names BH-C1 twice"),
    ("XXP 1 999", "no player has start rank 999"),
    ("XXP 3 3", "XXP needs"),
    ("XXP 1 " + "9" * 40, "no player has start rank"),
    ("XXA    1  -5.0", "XXA needs"),
    ("XXA    1  " + "9" * 30, "XXA needs"),
    ("XXA  999   1.0", "no player has start rank 999"),
    ("260  999    1    1    2", "260 needs"),
    ("XXS WW=-1 BW=-1", "is not a number of points"),
    ("XXR " + "9" * 40, "rounds for"),
]


@pytest.mark.parametrize(("record", "said"), BAD_RECORDS, ids=[r[:12] for r, _ in BAD_RECORDS])
def test_a_trf_with_a_hostile_record_is_refused_with_its_line_and_nothing_is_lost(stored, record, said):
    before = (list(Event.objects.values()), Player.objects.count())
    data = HELD.read_bytes().rstrip(b"\n") + b"\n" + record.encode("latin-1") + b"\n"
    r = stored.post(reverse("org_event_import_trf"), {"file": SimpleUploadedFile("e.trf", data), "once": "t"})
    assert r.status_code == 400
    page = html.unescape(assert_safe(r.content.decode(), record[:12]))
    assert said in page and "line " in page.lower(), page[-2000:]
    assert (list(Event.objects.values()), Player.objects.count()) == before


def test_a_duplicate_tie_break_is_refused_by_the_command_in_one_line(tmp_path):
    path = tmp_path / "twice.trf"
    path.write_bytes(HELD.read_bytes().rstrip(b"\n") + b"\n202 BH/C1, SB, BH-C1\n")
    for command in ("standings", "pair", "check"):
        out, err = io.StringIO(), io.StringIO()
        assert main([command, str(path)], out, err) == 2
        assert out.getvalue() == "" and err.getvalue().count("\n") == 1 and "names BH-C1 twice" in err.getvalue()
