"""Forbidden pairs through the database: a TRF-2026 file's 260 records become the event's forbidden pairs, the
round the app pairs keeps those players apart, the swiss-event export carries them and the TRF export writes
them back as they came."""

import pytest

from standings import points_by_player
from swiss import eventfile as ef
from swiss import trf
from tournament.models import Event
from tournament.services.rounds import pair_next_round
from tournament.snapshot import event_to_file, event_to_trf, import_event

pytestmark = pytest.mark.django_db


def trf_text(lines: list[str], players: int) -> str:
    from tests.engines.test_trf import player

    head = "".join(line + "\n" for line in ["012 Family Open", "XXR 5", "XXC white1", *lines])
    return head + "".join(
        player("", rank=str(k), name=f"Player {k:02d}", points="0.0") + "\n" for k in range(1, players + 1)
    )


def test_a_260_record_keeps_its_players_apart_in_the_apps_round_and_comes_back(organiser):
    # Round 1 of eight pairs 1-5 2-6 3-7 4-8: the record forbids 1-5 and 2-6 (a family, team-mates).
    text = trf_text(["260 001 005    1    5", "260 001 005    2    6"], 8)
    event = import_event(trf.loads(text, points_by_player))
    assert sorted(event.forbidden_pairs) == [["1", "5"], ["2", "6"]]
    rnd = pair_next_round(Event.objects.get(pk=event.pk), organiser)
    met = {frozenset((m.player_a.key, m.player_b.key)) for m in rnd.matches.select_related("player_a", "player_b")}
    assert frozenset(("1", "5")) not in met and frozenset(("2", "6")) not in met and len(met) == 4
    lines = event_to_trf(Event.objects.get(pk=event.pk)).splitlines()
    assert "260 001 005    1    5" in lines and "260 001 005    2    6" in lines
    doc = ef.dump(event_to_file(Event.objects.get(pk=event.pk)))
    assert sorted(doc["forbidden_pairs"]) == [["1", "5"], ["2", "6"]]


def test_a_pair_naming_a_deleted_player_is_left_out_of_the_files(organiser):
    event = import_event(trf.loads(trf_text(["260 001 005    1    3    4"], 4), points_by_player))
    event.players.filter(key="4").delete()
    file = event_to_file(Event.objects.get(pk=event.pk))
    assert file.settings.forbidden_pairs == (("1", "3"),)
    assert ef.parse(ef.dump(file)).settings.forbidden_pairs == (("1", "3"),)


def test_a_260_round_range_is_kept_through_the_database_and_applied_in_its_rounds_only(organiser):
    from tournament.services.rounds import publish_round

    # 1-5 may not meet in rounds 2 to 3 only, 2-6 in round 1 only: round 1 pairs 1-5 and keeps 2 and 6 apart.
    text = trf_text(["260 002 003    1    5", "260 001 001    2    6"], 8)
    event = import_event(trf.loads(text, points_by_player))
    assert sorted(event.forbidden_pairs) == [["1", "5", 2, 3], ["2", "6", 1, 1]]
    assert event_to_file(event).settings.forbidden_rounds == (("1", "5", 2, 3), ("2", "6", 1, 1))
    rnd = pair_next_round(Event.objects.get(pk=event.pk), organiser)
    met = {frozenset((m.player_a.key, m.player_b.key)) for m in rnd.matches.select_related("player_a", "player_b")}
    assert frozenset(("1", "5")) in met and frozenset(("2", "6")) not in met and len(met) == 4
    publish_round(rnd, organiser)
    lines = event_to_trf(Event.objects.get(pk=event.pk)).splitlines()
    assert [line for line in lines if line[:3] == "260"] == ["260 002 003    1    5", "260 001 001    2    6"]
    doc = ef.dump(event_to_file(Event.objects.get(pk=event.pk)))
    assert doc["forbidden_rounds"] == [["1", "5", 2, 3], ["2", "6", 1, 1]] and "forbidden_pairs" not in doc


def test_a_javafo_xxp_line_keeps_its_players_apart_through_the_database(organiser):
    event = import_event(trf.loads(trf_text(["XXP 1 5"], 8), points_by_player))
    assert event.forbidden_pairs == [["1", "5"]]
    rnd = pair_next_round(Event.objects.get(pk=event.pk), organiser)
    met = {frozenset((m.player_a.key, m.player_b.key)) for m in rnd.matches.select_related("player_a", "player_b")}
    assert frozenset(("1", "5")) not in met and len(met) == 4
    assert "XXP 1 5" in event_to_trf(Event.objects.get(pk=event.pk)).splitlines()
