"""Whatever is typed, pasted or uploaded: never a 500, always a message, and the database unchanged
unless what came in was valid (then only valid rows are written).

Hypothesis drives the result forms (one click, the keyboard path, “other…”), the player forms (edit,
quick add, paste), the CSV import (preview and confirm) and the swiss-event import. Each example runs
inside a transaction that is rolled back, so every example starts from the same event.
"""

import json
from contextlib import contextmanager

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from swiss import eventfile as ef
from swiss.model import validate_games
from tests.engines.test_eventfile import generated_event
from tests.web.security.test_permissions import published_round
from tournament.files import csv_rosters
from tournament.models import Event, EventLog, Match, Player, ResultChange, Round, Seat

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
HX = {"HX-Request": "true"}

# Text as people produce it by accident or on purpose: junk, near-misses of the real syntax, huge numbers.
junk = st.text(max_size=40)
near_result = st.from_regex(r"\A[ 0-9\-–dlDLi]{0,7}\Z")
number_text = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(["", " ", "1e3", "0x10", "²", "١٢", "½", "NaN", "-0", "007", "9" * 30]),
)
field = st.one_of(junk, number_text)


@contextmanager
def rolled_back():
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def state() -> tuple:
    """Everything a form could write."""
    return (
        list(Event.objects.order_by("pk").values()),
        list(Player.objects.order_by("pk").values()),
        list(Round.objects.order_by("pk").values()),
        list(Match.objects.order_by("pk").values()),
        Seat.objects.count(),
        ResultChange.objects.count(),
        EventLog.objects.count(),
    )


def says_something(response) -> bool:
    body = response.content.decode()
    return 'role="alert"' in body or 'class="errorlist' in body or 'class="error' in body


@pytest.fixture
def desk(event, organiser):
    rnd = published_round(event)
    c = Client()
    c.force_login(organiser)
    return c, event, rnd


def assert_valid_stored(match: Match, best_of: int):
    if match.result == Match.Result.DOUBLE_LOSS:
        assert match.games is None and match.player_b_id is not None
    else:
        assert match.games is not None and validate_games(match.games, best_of, False) is None, match.games


# ---------------------------------------------------------------- results


@FUZZ
@given(result=st.one_of(junk, near_result), version=st.one_of(st.none(), st.just("0"), field))
def test_result_button(desk, result, version):
    c, event, rnd = desk
    m = rnd.matches.get(table=1)
    data = {"result": result} | ({} if version is None else {"version": version})
    with rolled_back():
        before = state()
        r = c.post(reverse("org_match_result", args=[event.slug, 1, m.pk]), data, headers=HX)
        assert r.status_code == 200
        if state() == before:
            assert says_something(r), (result, version)
        else:
            assert_valid_stored(Match.objects.get(pk=m.pk), event.best_of)


@FUZZ
@given(table=field, result=st.one_of(junk, near_result))
def test_keyboard_entry(desk, table, result):
    c, event, rnd = desk
    with rolled_back():
        before = state()
        r = c.post(reverse("org_table_result", args=[event.slug, 1]), {"table": table, "result": result}, headers=HX)
        assert r.status_code == 200
        if state() == before:
            assert says_something(r), (table, result)
            assert '<li class="entry refused">' in r.content.decode()  # the desk's list says it was refused
        else:
            (m,) = Match.objects.filter(round=rnd).exclude(games_a=None)
            assert_valid_stored(m, event.best_of)


@FUZZ
@given(
    games=st.fixed_dictionaries(dict.fromkeys(("games_a", "games_b", "games_drawn"), field)),
    flags=st.fixed_dictionaries(
        {k: st.sampled_from(["", "on", "true", "0", "x" * 50]) for k in ("double_loss", "confirm")}
    ),
    # A hidden field: what a browser sends back, the version shown or none.
    version=st.one_of(st.just(""), st.integers(min_value=0, max_value=10**6).map(str)),
)
def test_other_result_form(desk, games, flags, version):
    c, event, rnd = desk
    m = rnd.matches.get(table=2)
    with rolled_back():
        before = state()
        r = c.post(reverse("org_match", args=[event.slug, 1, m.pk]), {**games, **flags, "version": version})
        assert r.status_code in (200, 302)
        if r.status_code == 200:
            assert state() == before and says_something(r), (games, flags, version)
        else:
            assert_valid_stored(Match.objects.get(pk=m.pk), event.best_of)


# ---------------------------------------------------------------- players


@FUZZ
@given(data=st.fixed_dictionaries(dict.fromkeys(("name", "rating", "external_id", "byes", "fixed_table"), field)))
def test_player_edit_form(desk, data):
    c, event, _ = desk
    p = event.players.order_by("name").first()
    with rolled_back():
        before = state()
        r = c.post(reverse("org_player_edit", args=[event.slug, p.pk]), data)
        assert r.status_code in (200, 302)
        if r.status_code == 200:
            assert state() == before and says_something(r), data
            assert 'name="name"' in r.content.decode()
        else:
            p = Player.objects.get(pk=p.pk)
            assert p.name.strip() and len(p.name) <= 200 and 0 <= p.byes <= 3


@FUZZ
@given(line=st.one_of(junk, st.tuples(junk, number_text).map(", ".join)))
def test_quick_add(desk, line):
    c, event, _ = desk
    with rolled_back():
        count = event.players.count()
        r = c.post(reverse("org_player_add", args=[event.slug]), {"name": line}, headers=HX)
        assert r.status_code == 200
        if event.players.count() == count:
            assert says_something(r), line
        else:
            p = event.players.order_by("-pk").first()
            assert p.name.strip() and "\x00" not in p.name


@FUZZ
@given(lines=st.lists(st.one_of(junk, st.tuples(junk, number_text).map(",".join)), max_size=6).map("\n".join))
@example(lines="PLAYER NAME\n0")  # a header line, then one player
def test_paste_adds_all_lines_or_none(desk, lines):
    c, event, _ = desk
    with rolled_back():
        before = state()
        r = c.post(reverse("org_players_paste", args=[event.slug]), {"lines": lines})
        assert r.status_code in (200, 302)
        if r.status_code == 200:
            assert state() == before and says_something(r), lines
        else:
            # A line of nothing but separators and spaces is blank, like an empty line; a first line naming
            # columns ("Player name, Rating") is the list's header, not a player.
            typed = lines.translate(csv_rosters.WIDE_SEPARATORS).splitlines()
            given = [line for line in typed if not csv_rosters.is_blank(line)]
            delimiter = csv_rosters.paste_delimiter(typed)
            header = bool(given) and csv_rosters._header(csv_rosters.split_fields(given[0], delimiter)) is not None
            assert event.players.count() == 8 + len(given) - header, lines


# ---------------------------------------------------------------- CSV import

cell = st.one_of(junk, number_text, st.sampled_from(["Ann", "=1+1", "Bob;Ray", '"quoted"', "3", "4"]))
csv_text = st.one_of(
    st.lists(st.lists(cell, min_size=0, max_size=6), max_size=6).map(lambda rows: "\n".join(",".join(r) for r in rows)),
    st.sampled_from(["name,rating,id,byes\n", "name;rating\nA;1\n", "\ufeffname\tbyes\nA\t9\n", '"unclosed,1\n']),
    junk,
)


@FUZZ
@given(text=csv_text)
def test_csv_preview_writes_nothing_and_names_the_bad_lines(desk, text):
    c, event, _ = desk
    with rolled_back():
        before = state()
        upload = SimpleUploadedFile("players.csv", text.encode())
        r = c.post(reverse("org_players_csv", args=[event.slug]), {"file": upload})
        assert r.status_code == 200 and state() == before
        body = r.content.decode()
        rows = csv_rosters.parse_players(text.removeprefix("\ufeff"))  # the upload reads UTF-8 with or without a BOM
        for row in rows:
            if not row.ok:
                assert f'<td class="num">{row.line}</td>' in body


@FUZZ
@given(raw=st.binary(max_size=200))
def test_csv_upload_of_any_bytes_is_a_message_not_a_500(desk, raw):
    c, event, _ = desk
    with rolled_back():
        before = state()
        r = c.post(reverse("org_players_csv", args=[event.slug]), {"file": SimpleUploadedFile("x.csv", raw)})
        assert r.status_code == 200 and state() == before


@FUZZ
@given(text=csv_text)
def test_csv_confirm_imports_every_row_or_nothing(desk, text):
    c, event, _ = desk
    with rolled_back():
        count = event.players.count()
        r = c.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": text})
        assert r.status_code == 302
        rows = csv_rosters.parse_players(text)
        expected = [row.name for row in rows] if all(row.ok for row in rows) else []
        assert event.players.count() == count + len(expected)
        assert sorted(event.players.order_by("pk").values_list("name", flat=True)[count:]) == sorted(expected)


# ---------------------------------------------------------------- swiss-event import

BASE = json.loads(ef.dumps(generated_event(7, players=9, rounds=3)))


def paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, (*prefix, i))


ALL_PATHS = list(paths(BASE))[1:]
json_value = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20),
        st.floats(allow_nan=False),
        junk,
        st.sampled_from(["1/0", "p1", "bye", "loss", "2026-02-30", "x" * 300]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(junk, inner, max_size=3)),
    max_leaves=5,
)


def mutate(doc, path, action, value):
    doc = json.loads(json.dumps(doc))
    *parents, last = path
    target = doc
    for key in parents:
        target = target[key]
    if action == "delete":
        del target[last]
    else:
        target[last] = value
    return doc


@FUZZ
@given(path=st.sampled_from(ALL_PATHS), action=st.sampled_from(["set", "delete"]), value=json_value)
def test_a_swiss_event_file_changed_anywhere_imports_whole_or_not_at_all(tmp_path_factory, path, action, value):
    doc = mutate(BASE, path, action, value)
    folder = tmp_path_factory.mktemp("imp")
    good, bad = folder / "a-good.json", folder / "b-changed.json"
    good.write_text(json.dumps(BASE))
    bad.write_text(json.dumps(doc))
    with rolled_back():
        before = state()
        try:
            call_command("import_event", str(good), str(bad), stdout=open("/dev/null", "w"))  # noqa: SIM115
        except CommandError as e:
            # The message names the file, then the JSON path of the first error in it.
            assert e.returncode == 2 and str(e).startswith(f"{bad}: "), (path, action, value, str(e))
            assert state() == before, "a refused import wrote something"
        else:
            assert Event.objects.count() == len(before[0]) + 2


@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(json.dumps(BASE)) - 1), garbage=st.binary(max_size=8))
def test_a_truncated_or_corrupted_file_is_refused_with_a_message(tmp_path_factory, cut, garbage):
    text = json.dumps(BASE).encode()
    bad = tmp_path_factory.mktemp("cut") / "bad.json"
    bad.write_bytes(text[:cut] + garbage)
    with rolled_back():
        before = state()
        with pytest.raises(CommandError) as info:
            call_command("import_event", str(bad))
        assert info.value.returncode == 2 and "bad.json" in str(info.value)
        assert state() == before
