"""Every fact an organiser sets survives a swiss-event file: an event exported and imported again (from the web, in
version 1 and in each section of version 2) has every field the file carries as it was, with a value that is not
its default. Every field of the models the file is made from is decided: carried (and so in a round trip here), or
named below with why not. A field added to a model without that decision fails `test_every_field_is_decided`."""

import datetime as dt
import json

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from swiss import venuefile
from tournament.models import Event, EventRole, Match, Player, PrizeList, Round, RoundChange
from tournament.services.event_files import import_file

pytestmark = pytest.mark.django_db

# The fields a round trip keeps, each with a value that is not its default (several cases where two values of one
# field cannot stand together: an event in FIDE mode has not left it).
EVENT_CASES = [
    {
        "slug": "carried-open",
        "name": "Carried Open",
        "date": dt.date(2026, 3, 14),
        "preset": "chess",
        "win_points": "1",
        "draw_points": "1/2",
        "loss_points": "1/4",
        "best_of": 1,
        "floor": "1/4",
        "tiebreakers": ["BH-C1", "SB"],
        "bye_rating": 1500,
        "colours": True,
        "round_one": "rating",
        "planned_rounds": 7,
        "top_cut": 8,
        "round_minutes": 90,
        "public": False,
        "late_entry": "losses",
        "language": "ja",
        "time_zone": "Asia/Tokyo",
        "reporting": "confirm",
        "players_request_byes": True,
        "bye_requests_max": 2,
        "bye_requests_closed_last": 1,
        "pairing": "optimal",
        "acceleration": "baku",
        "rating_breaks_ties": True,
        "tiebreak_rules": "2024",
        "initial_colour": "black",
        "fide_mode": True,
        "title_norms": True,
        "forbidden_pairs": [["ann", "bob"], ["ann", "cid", 2, 3]],
        "trf_header": "012 Carried Open\n092 Swiss Dutch",
        "city": "Kyoto",
        "federation": "JPN",
        "end_date": dt.date(2026, 3, 15),
        "chief_arbiter": "Aoi Arbiter",
        "deputy_arbiters": "Ken Deputy\nMio Deputy",
        "time_control": "90 min + 30 s",
        "round_dates": "2026-03-14\n\n2026-03-15",
        "first_table": 11,
        "rating_min": 1000,
        "rating_max": 2400,
        "birth_year_min": 1950,
        "birth_year_max": 2015,
        "cut_after": 3,
        "cut_points": "5/2",
        "cut_top": 16,
        "cut_ties": "breakers",
    },
    # A chess event that left FIDE mode after round 3: it stays out of it (it never silently comes back on).
    {"preset": "chess", "best_of": 1, "colours": True, "fide_mode": False, "fide_left": 3},
]
# What only a version-2 file holds: the file's shape (a section's event and place), and two sections paired together.
SECTION_FIELDS = ("parent", "position", "pair_with", "pair_with_below", "joined_partner")
PLAYER_VALUES = {
    "key": "ann",
    "number": 7,
    "name": "Ann Abe",
    "reading": "あん",
    "family_name": "Abe",
    "given_name": "Ann",
    "rating": 2100,
    "external_id": "dci-1",
    "byes": 1,
    "joined_round": 2,
    "dropped_after": 4,
    "fixed_table": 3,
    "federation": "JPN",
    "title": "FM",
    "sex": "w",
    "birth_date": "1990/05/06",
    "fide_id": "123456",
    "requested_byes": {"5": "half_bye"},
    "accelerations": ["1", "1/2"],
    "pairing_number": 2,
    "division": "Juniors",
    "cut_after": 4,
    "k": 20,
    "half_bye_ok": False,
}
ROUND_VALUES = {"number": 2, "kind": "elimination", "state": "complete", "seed": 424242}
MATCH_FIELDS = ("table", "player_a", "player_b", "games_a", "games_b", "games_drawn", "result", "white", "adjourned")
PRIZE_FIELDS = ("prizes", "rules")
CHANGE_FIELDS = ("round_number", "table", "kind", "was", "became", "at")
# The row that holds them all (a section's, a round's, a match's): the file's shape carries it.
SHAPE = {"event", "round"}

NOT_CARRIED = {
    Event: {
        "id": "the database's own row number",
        "version": "operational: bumped on every change, for ETags and caches",
        "updated_at": "operational: when the row was last saved",
        "created_at": "operational: when the row was made; an import makes a new event",
        "light_from": "operational: the cache marker of a round's results",
        "light_to": "operational: the cache marker of a round's results",
        "light_round": "operational: the cache marker of a round's results",
    },
    Player: {
        "id": "the database's own row number (the file's id is the player's key)",
        "token": "a secret: the personal link; a file is handed around, so an import issues new links",
        "code": "a secret: the code typed on a phone; an import issues new codes",
    },
    Round: {
        "id": "the database's own row number",
        "warnings": "worked out by the pairing, shown with its draft; not a fact of the event",
        "clock_started": "operational: a running round's clock",
        "clock_paused_at": "operational: a running round's clock",
        "clock_paused_seconds": "operational: a running round's clock",
        "clock_minutes": "operational: a running round's clock (an import starts it at the event's round_minutes)",
        "reporting_closed": "operational: the desk closed players' reports for a round being played",
        "manual": "operational: a draft being edited by hand, ended by Validate (an import's draft is a draft)",
        "engine_pairs": "operational: the engine's pairing a manual draft is validated against",
        "created_at": "operational: when the row was made",
        "outlook_revision": "a cached outlook's revision (RoundOutlook is worked out again)",
    },
    Match: {
        "id": "the database's own row number",
        "entered_by": "an account: a file names none",
        "entered_at": "operational: when the result was typed (the audit log's, not the event's)",
        "entered_by_player": "operational: whose phone report stored the result",
        "report_stamp": "operational: counts phone reports, for the phone page's ETag",
        "version": "operational: the optimistic lock of a result form",
    },
    PrizeList: {
        "id": "the database's own row number",
        "changed_at": "operational: when the list was last saved",
    },
    RoundChange: {
        "id": "the database's own row number",
        "by": "an account: a file names none (the trail says the organiser)",
    },
}
# The other models hold no fact of the event a file carries.
MODELS_NOT_CARRIED = {
    "Seat": "made again from the matches (a player once a round)",
    "Report": "operational: players' phone reports of a round being played",
    "ResultChange": "the audit log of who changed a result: accounts and phones, not the event's facts",
    "EventRole": "accounts: a file names none; the importer organises the new event",
    "StaffInvite": "accounts: invitations to people of this site",
    "LanguagePreference": "an account's language",
    "EventLog": "the audit log of organiser actions (accounts)",
    "RoundExplanation": "worked out again from the event (why a round is paired as it is)",
    "RoundOutlook": "a cached outlook, worked out again",
    "FormSubmission": "operational: one-time form tokens",
    "CodeBudget": "operational: rate limits",
    "Job": "operational: the worker's queue",
}
CARRIED = {
    Event: {k for case in EVENT_CASES for k in case} | set(SECTION_FIELDS),
    Player: set(PLAYER_VALUES) | {"event"},
    Round: set(ROUND_VALUES) | {"event"},
    Match: set(MATCH_FIELDS) | {"round"},
    PrizeList: set(PRIZE_FIELDS) | {"event"},
    RoundChange: set(CHANGE_FIELDS) | {"event"},
}


def test_every_field_is_decided():
    """A model field is carried by the file (in a round trip below) or named in NOT_CARRIED with why not."""
    for model, carried in CARRIED.items():
        names = {f.name for f in model._meta.concrete_fields}
        assert not carried & set(NOT_CARRIED[model]), model.__name__
        undecided = names - carried - set(NOT_CARRIED[model])
        assert not undecided, f"{model.__name__}: decide whether the file carries {sorted(undecided)}"
        assert not (carried | set(NOT_CARRIED[model])) - names, f"{model.__name__}: no such field"
    decided = {m.__name__ for m in CARRIED} | set(MODELS_NOT_CARRIED)
    models = {m.__name__ for m in apps.get_app_config("tournament").get_models()}
    assert models == decided, f"decide what a swiss-event file carries of {sorted(models ^ decided)}"


def test_every_case_value_is_not_the_default():
    """A round trip of a default value proves nothing: every value set below differs from its field's default."""
    for model, cases in ((Event, EVENT_CASES), (Player, [PLAYER_VALUES]), (Round, [ROUND_VALUES])):
        for name in {k for case in cases for k in case}:
            default = model._meta.get_field(name).get_default()
            assert any(name in case and case[name] != default for case in cases), f"{model.__name__}.{name}"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def event_with_everything(organiser, parent: Event | None = None, **values) -> Event:
    """An event (or a section of `parent`) with the values given, the player Ann with every player field set, Bob
    and Cid, a round 1 of three matches (a game, a forfeit Black won, an adjourned game), an elimination round 2, a
    prize list and a round's trail."""
    event = Event.objects.create(**{"slug": "case", "name": "Case", **values, "parent": parent})
    if parent is None:
        EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    number = 1 + max([0, *Player.objects.values_list("number", flat=True)])
    ann = Player.objects.create(event=event, **{**PLAYER_VALUES, "number": number + 6})
    bob, cid, dan = (
        Player.objects.create(event=event, name=name, key=name.lower(), number=number + i)
        for i, name in enumerate(("Bob", "Cid", "Dan"))
    )
    r1 = Round.objects.create(event=event, number=1, state="in_progress", seed=7)
    Match.objects.create(round=r1, table=1, player_a=ann, player_b=bob, games_a=0, games_b=1, games_drawn=0)
    Match.objects.create(round=r1, table=2, player_a=cid, player_b=dan, adjourned=True)
    r2 = Round.objects.create(event=event, **ROUND_VALUES)
    Match.objects.create(round=r2, table=5, player_a=bob, player_b=ann, games_a=1, games_b=0, games_drawn=0)
    Match.objects.create(round=r2, table=6, player_a=cid, player_b=dan, result="forfeit", white=dan)
    PrizeList.objects.create(
        event=event,
        prizes=[{"name": "First", "amount": "100.00"}],
        rules={"ties": "hort", "one_per_player": True, "priority": "value", "currency": "EUR"},
    )
    RoundChange.objects.create(
        event=event,
        round_number=1,
        table=1,
        kind="result",
        was=[trail_line([1, 0, 0])],
        became=[trail_line([0, 1, 0])],
        at=dt.datetime(2026, 3, 14, 10, 30, tzinfo=dt.UTC),
    )
    return event


def trail_line(games: list[int]) -> dict:
    """A line of a round's trail as the app stores it (services/trail.py)."""
    names = {"a": "ann", "a_name": "Ann Abe", "b": "bob", "b_name": "Bob", "result": "played", "white": None}
    return {"table": 1, **names, "games": games}


def facts(event: Event) -> dict:
    """Every carried field of the event and its rows, rows by player key (row ids differ after an import)."""
    keys = {p.pk: p.key for p in Player.objects.filter(event__in=[event, *event.sections.all()])}

    def row(obj, names):
        out = {}
        for name in names:
            field = obj._meta.get_field(name)
            value = getattr(obj, field.attname)
            out[name] = keys.get(value) if field.is_relation and name != "event" else value
        return out

    player_fields = sorted(CARRIED[Player] - SHAPE)
    return {
        "event": row(event, sorted(CARRIED[Event] - set(SECTION_FIELDS))),
        "players": sorted((row(p, player_fields) for p in event.players.all()), key=lambda d: d["key"]),
        "rounds": [row(r, sorted(ROUND_VALUES)) for r in event.rounds.order_by("number")],
        "matches": [
            (m.round.number, row(m, MATCH_FIELDS))
            for m in Match.objects.filter(round__event=event).select_related("round").order_by("round__number", "table")
        ],
        "prizes": row(event.prize_list, PRIZE_FIELDS),
        "trail": [row(c, CHANGE_FIELDS) for c in RoundChange.objects.filter(event=event).order_by("at")],
    }


def export(client: Client, event: Event) -> str:
    response = client.get(reverse("org_export_json", args=[event.slug]))
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


def restore(text: str, source: Event, organiser) -> Event:
    """The file imported as a restore does it (`manage.py import_event`): the source deleted, its address kept."""
    source.delete()
    event = import_file(venuefile.loads(text))
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    return event


@pytest.mark.parametrize("case", range(len(EVENT_CASES)))
def test_version_1_round_trip_keeps_every_carried_field(organiser, case):
    values = EVENT_CASES[case]
    event = event_with_everything(organiser, **values)
    before = facts(event)
    for name, value in values.items():
        assert before["event"][name] == value, name  # as set (the trip below starts from the values above)
    text = export(signed_in(organiser), event)
    again = restore(text, event, organiser)
    assert facts(again) == before
    # A second trip writes the same file.
    assert export(signed_in(organiser), again) == text


def test_version_2_round_trip_keeps_every_section_field(organiser):
    root = Event.objects.create(
        slug="regional", name="Regional", preset="chess", city="Kyoto", federation="JPN", end_date=dt.date(2026, 3, 15)
    )
    EventRole.objects.create(event=root, user=organiser, role=EventRole.Role.ORGANISER)
    scoring = {k: EVENT_CASES[0][k] for k in ("win_points", "draw_points", "loss_points")}
    sections = [
        # Paired together, they score alike.
        event_with_everything(organiser, root, **{**values, **scoring, "slug": f"regional-{i}", "position": i + 1})
        for i, values in enumerate(EVENT_CASES)
    ]
    for section in sections:
        section.slug, section.name = f"regional-{section.pk}", f"Section {section.position}"
        section.save()
    juniors, seniors = sections
    seniors.pair_with = seniors.joined_partner = juniors
    seniors.pair_with_below = 6
    seniors.save()
    before = [facts(s) for s in sections]
    text = export(signed_in(organiser), root)
    assert json.loads(text)["version"] == 2
    again = restore(text, root, organiser)
    rows = again.section_list
    assert [facts(s) for s in rows] == before
    assert [(s.parent_id, s.position) for s in rows] == [(again.pk, 1), (again.pk, 2)]
    assert (rows[1].pair_with, rows[1].joined_partner, rows[1].pair_with_below) == (rows[0], rows[0], 6)
    assert (rows[0].pair_with, rows[0].joined_partner) == (None, None)
    # The venue's own facts: its rating report's city, federation and last day (sections made on the web take them).
    assert (again.city, again.federation, again.end_date) == ("Kyoto", "JPN", dt.date(2026, 3, 15))


def test_a_file_without_the_new_keys_reads_with_the_defaults(organiser):
    """A file from before FIDE mode, title norms and the desk's rules were written: a chess event in FIDE mode, the
    others not; no title norms; results by the organisers; no byes from phones; every player may take a
    half-point bye; no game adjourned."""
    base = {"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}]}
    rounds = [{"number": 1, "matches": [{"a": "a", "b": "b"}]}]
    chess = import_file(venuefile.loads(json.dumps({**base, "preset": "chess", "rounds": rounds})))
    mtg = import_file(venuefile.loads(json.dumps({**base, "preset": "mtg"})))
    left = import_file(venuefile.loads(json.dumps({**base, "preset": "chess", "fide_left": 0})))
    assert (chess.fide_mode, mtg.fide_mode, left.fide_mode, left.fide_left) == (True, False, False, 0)
    for e in (chess, mtg):
        assert (e.title_norms, e.reporting, e.players_request_byes, e.bye_requests_max) == (
            False,
            "organisers",
            False,
            None,
        )
        assert e.bye_requests_closed_last == 0 and e.fide_left is None
    assert all(p.half_bye_ok for p in chess.players.all())
    assert not Match.objects.filter(round__event=chess, adjourned=True).exists()


def test_the_web_upload_keeps_every_carried_field_but_the_address(organiser):
    """web -> file -> web: the file exported from the web and uploaded on the New event page; the new event gets an
    address of its own (an upload tells nothing of the events that exist), and every other fact as it was."""
    event = event_with_everything(organiser, **EVENT_CASES[0])
    client = signed_in(organiser)
    text = export(client, event)
    response = client.post(reverse("org_event_import_file"), {"file": SimpleUploadedFile("e.json", text.encode())})
    assert response.status_code == 302, response.content[:500]
    again = Event.objects.exclude(pk=event.pk).get()
    assert again.slug != event.slug
    before, after = facts(event), facts(again)
    before["event"].pop("slug"), after["event"].pop("slug")
    assert after == before
