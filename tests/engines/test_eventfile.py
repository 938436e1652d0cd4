"""The swiss-event file: strict parsing with messages that name the place, and lossless round trips."""

import json
import random
from dataclasses import replace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from swiss import eventfile as ef
from swiss import model
from tests.conftest import example_files
from tournament.models import Event, Match, Player, Seat
from tournament.snapshot import event_to_file, import_event


def generated_event(seed: int, players: int = 13, rounds: int = 5) -> model.Event:
    """A random event with drops, late entries, pre-awarded byes, unpaired and double losses, draws."""
    rng = random.Random(seed)
    ps = []
    for i in range(players):
        joined = 1 if i < players - 2 else rng.randint(2, 3)
        dropped = rng.choice([None, None, None, rng.randint(joined, rounds)])
        ps.append(
            model.Player(
                id=f"p{i}",
                name=rng.choice(["Ana", "Bo", "Ció", "Đào", "<b>Eve</b>", "Ünal", "李"]) + f" {i}",
                rating=rng.choice([None, rng.randint(800, 2400)]),
                byes=1 if i == 0 else 0,
                joined_round=joined,
                dropped_after=dropped,
                external_id=rng.choice(["", f"DCI{i:05}"]),
                fixed_table=7 if i == 3 else None,
                number=i * 7 + 3,  # numbers need not be 1..n; the file's own are kept
            )
        )
    rnds = []
    for n in range(1, rounds + 1):
        present = [p for p in ps if p.joined_round <= n and (p.dropped_after is None or p.dropped_after >= n)]
        matches = []
        if n == 1:
            matches.append(model.Match(a="p0", result=model.BYE))  # the pre-awarded bye, stored explicitly
            present = [p for p in present if p.id != "p0"]
        rng.shuffle(present)
        late = [p for p in ps if p.joined_round > n]
        for p in late[:1]:
            matches.append(model.Match(a=p.id, result=model.LOSS))
        table = 1
        while len(present) >= 2:
            a, b = present.pop(), present.pop()
            kind = rng.random()
            if kind < 0.05:
                matches.append(model.Match(a=a.id, b=b.id, result=model.DOUBLE_LOSS, table=table))
            else:
                games = rng.choice([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (0, 0, 3), (1, 0, 2)])
                matches.append(model.Match(a=a.id, b=b.id, games=games, table=table))
            table += 1
        if present:
            matches.append(model.Match(a=present.pop().id, result=model.BYE))
        rnds.append(model.Round(number=n, matches=tuple(matches), seed=rng.randint(0, 2**31), state="complete"))
    settings = model.settings_for_preset(
        rng.choice(["mtg", "pokemon", "chess", "backgammon"]), name=f"Generated {seed}", date="2026-11-21"
    )
    if settings.best_of == 1:  # single-game presets: keep results legal for best of 1
        rnds = [
            model.Round(
                number=r.number,
                seed=r.seed,
                state=r.state,
                matches=tuple(
                    model.Match(a=m.a, b=m.b, table=m.table, result=m.result, games=m.games and (1, 0, 0))
                    for m in r.matches
                ),
            )
            for r in rnds
        ]
    return model.Event(settings=settings, players=tuple(ps), rounds=tuple(rnds))


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_examples_parse_and_dump_round_trip(path):
    event = ef.loads(path.read_bytes())
    assert ef.parse(json.loads(ef.dumps(event))) == event


@pytest.mark.parametrize("seed", range(6))
def test_generated_events_round_trip_through_the_file(seed):
    event = generated_event(seed)
    assert ef.parse(json.loads(ef.dumps(event))) == event


def _strip_db_only(e: model.Event) -> model.Event:
    from dataclasses import replace

    # The database always knows whether FIDE mode is on: a file that says nothing gets the default written.
    return replace(e, settings=replace(e.settings, slug=None, fide_mode=e.settings.in_fide_mode))


@pytest.mark.django_db
@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_examples_round_trip_through_the_database(path):
    original = ef.loads(path.read_bytes())
    stored = import_event(original)
    exported = event_to_file(stored, include_drafts=True)
    # The database adds facts the example leaves to defaults (slug, date, round states); every fact of
    # the file comes back, and a second trip changes nothing at all.
    # The examples carry no player numbers: the database numbers the players in the file's order.
    assert [replace(p, number=None) for p in exported.players] == list(original.players)
    assert [p.number for p in exported.players] == list(range(1, len(original.players) + 1))
    assert [r.matches for r in exported.rounds] == [r.matches for r in original.rounds]
    assert exported.settings.scoring == original.settings.scoring
    assert exported.settings.floor == original.settings.floor
    assert exported.settings.tiebreakers == original.settings.tiebreakers
    again = event_to_file(import_event(ef.parse(ef.dump(exported)), slug="again"), include_drafts=True)
    assert _strip_db_only(again) == _strip_db_only(exported)


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(4))
def test_generated_events_round_trip_through_the_database(seed):
    original = generated_event(seed)
    stored = import_event(original, slug=f"gen-{seed}")
    assert stored.slug == f"gen-{seed}"
    exported = event_to_file(stored, include_drafts=True)
    assert _strip_db_only(exported) == _strip_db_only(original)


@pytest.mark.django_db
def test_import_and_export_commands(tmp_path, capsys):
    src = example_files()[0]
    call_command("import_event", str(src), "--slug", "cmd-test")
    assert capsys.readouterr().out.strip().splitlines()[-1] == "cmd-test"
    call_command("export_event", "cmd-test")
    doc = json.loads(capsys.readouterr().out)
    assert doc["slug"] == "cmd-test"
    exported, original = ef.parse(doc).players, ef.loads(src.read_bytes()).players
    assert [p.number for p in exported] == list(range(1, len(original) + 1))
    assert [replace(p, number=None) for p in exported] == list(original)


BAD_FILES = [
    ("not json", "", "not valid JSON"),
    ('{"format": "swiss-event", "version": 3}', "version", "expected"),
    ('{"format": "swiss-event", "version": 1, "preset": "go"}', "preset", "unknown preset"),
    ('{"format": "swiss-event", "version": 1, "preset": []}', "preset", "unknown preset"),
    ('{"format": "swiss-event", "version": 1, "floor": "x"}', "floor", "not a number"),
    ('{"format": "swiss-event", "version": 1, "tiebreakers": ["omw", "nope"]}', "tiebreakers[1]", "unknown"),
    ('{"format": "swiss-event", "version": 1, "players": [{"id": "a"}]}', "players[0].name", "missing"),
    (
        '{"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]}',
        "players[1].id",
        "duplicate",
    ),
    (
        '{"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A"}],'
        ' "rounds": [{"number": 1, "matches": [{"a": "a", "b": "zz", "games": [2, 0, 0]}]}]}',
        "rounds[0].matches[0].b",
        "unknown player",
    ),
    (
        '{"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],'
        ' "rounds": [{"number": 1, "matches": [{"a": "a", "b": "b", "games": [2, 2, 0]}]}]}',
        "rounds[0].matches[0].games",
        "only one side",
    ),
    (
        '{"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],'
        ' "rounds": [{"number": 1, "matches": [{"a": "a", "b": "b", "games": [-1, 2, 0]}]}]}',
        "rounds[0].matches[0].games[0]",
        "at least 0",
    ),
    (
        '{"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],'
        ' "rounds": [{"number": 1, "matches": [{"a": "a", "b": "b"}, {"a": "b", "b": null}]}]}',
        "rounds[0].matches[1].a",
        "plays twice",
    ),
    (
        '{"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],'
        ' "rounds": [{"number": 1, "kind": "elimination", "matches": [{"a": "a", "b": "b", "games": [1, 1, 1]}]}]}',
        "rounds[0].matches[0].games",
        "cannot end in a draw",
    ),
]


@pytest.mark.parametrize(("text", "path", "words"), BAD_FILES)
def test_malformed_files_name_the_place(text, path, words):
    with pytest.raises(ef.EventFileError) as info:
        ef.loads(text)
    assert info.value.path == path
    assert words in str(info.value)


@pytest.mark.django_db
@pytest.mark.parametrize(("text", "path", "words"), BAD_FILES)
def test_import_command_refuses_bad_files_and_writes_nothing(tmp_path, text, path, words):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    good = example_files()[0]
    with pytest.raises(CommandError) as info:
        call_command("import_event", str(good), str(bad))
    assert info.value.returncode == 2
    assert words in str(info.value)
    assert Event.objects.count() == 0 and Player.objects.count() == 0 and Match.objects.count() == 0


@pytest.mark.django_db
def test_backup_and_restore_every_event(tmp_path, capsys):
    for seed in range(3):
        import_event(generated_event(seed), slug=f"gen-{seed}")
    before = {e.slug: _strip_db_only(event_to_file(e, include_drafts=True)) for e in Event.objects.all()}
    call_command("export_event", "--all", str(tmp_path))
    Event.objects.all().delete()
    call_command("import_event", *sorted(str(p) for p in tmp_path.glob("*.json")))
    after = {e.slug: _strip_db_only(event_to_file(e, include_drafts=True)) for e in Event.objects.all()}
    assert after == before
    assert Seat.objects.count() == sum(
        (1 + (m.b is not None)) for e in before.values() for r in e.rounds for m in r.matches
    )


@pytest.mark.parametrize(
    "path, value",
    [
        (("best_of",), 32768),
        (("round_minutes",), 40000),
        (("players", 0, "rating"), 2**31),
        (("players", 0, "byes"), 10**20),
        (("rounds", 0, "seed"), -(2**64)),
        (("rounds", 0, "matches", 0, "table"), 2**31),
        (("rounds", 0, "matches", 0, "games"), [2, 0, 40000]),
    ],
)
def test_numbers_too_large_for_the_database_are_refused_by_place(path, value):
    doc = json.loads(example_files()[0].read_bytes())
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ef.EventFileError) as info:
        ef.parse(doc)
    where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")
    assert str(info.value).startswith(where.split(".games")[0])
